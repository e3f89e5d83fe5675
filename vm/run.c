/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `vm run`'s loop: every kernel resolved and readied once where it boots (vm/target.h), booted N
 * times interleaved, each boot recorded and its guest database merged; on a real machine the plan
 * of boots is stored first and each step marked as it goes. */
#include "vm/internal.h"

#include "common/error.h"
#include "common/stop.h"
#include "db/db.h"
#include "db/target_plan.h"
#include "kernel/info.h"
#include "device/fill.h"
#include "vm/target.h"
#include "vm/workdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* One kernel of the run as its target readies it. */
#define slot ior_vm_target_kernel

/* The run: its options, where it boots, its kernels and, on a real machine, its stored plan. */
struct driver {
	const struct ior_vm_run_opts *o;
	struct ior_vm_target t;
	struct slot *slots;
	const char *const *specs;
	size_t n;
	int64_t plan_id;   /* 0: no stored plan (qemu) */
	int seq;           /* steps stored so far */
	char vm_run[160];  /* a resumed plan's vm run */
	int64_t stale_plan_id; /* a dead owner's plan of other kernels, set aside when this one begins */
};

static void utc_now(char *out, size_t len)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	struct tm tm;
	gmtime_r(&ts.tv_sec, &tm);
	char base[32];
	strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, len, "%s.%03ldZ", base, ts.tv_nsec / 1000000);
}

/* Resolved on this machine (a package fetched and unpacked, an image checked), then readied where
 * it boots; a kernel that cannot be is recorded as infra-error at each of its boots. */
static int prepare(struct driver *d, struct ior_db *db, size_t i, const char *root)
{
	struct slot *s = &d->slots[i];
	snprintf(s->dir, sizeof(s->dir), "%s/k%zu", root, i);
	ior_error_clear();
	int rc = mkdir(s->dir, 0700) == 0 ? IOR_OK : ior_error_errno(IOR_ERROR, errno, "cannot create '%s'", s->dir);
	if (!rc)
		rc = ior_vm_kernel_resolve(&s->k, d->specs[i], d->o->cache_dir);
	if (rc) {
		snprintf(s->k.spec, sizeof(s->k.spec), "%s", d->specs[i]);
		snprintf(s->error, sizeof(s->error), "%s", ior_error_last());
		return IOR_OK;
	}
	return d->t.ops->prepare(&d->t, db, s);
}

/* The boot's row, in the guest's database beside its run when there is one (so the merge
 * carries both and the row points at the merged run), else straight into db. */
/* The scratch disk's fill, on each guest run that measured it: filled once before the first
 * boot, so every run's row carries the same time, which no sample includes. */
static int record_fill(struct ior_db *guest, int64_t run_id, const struct ior_vm_run_opts *o,
		       const struct ior_vm_run_summary *fill)
{
	if (!o->machine.scratch_image || fill->fill_s < 0)
		return IOR_OK;
	return ior_db_fill_add(guest, run_id, 0,
			       fill->fill_kept ? "vm scratch disk /dev/vda (filled by an earlier vm run, kept in the cache)"
					       : "vm scratch disk /dev/vda (filled once per vm run)",
			       ior_fill_names[o->scratch_fill], fill->fill_bytes, fill->fill_s);
}

static int record(struct ior_db *db, const struct driver *d, const struct slot *s, int index, struct ior_vm_boot *b,
		  const char *started_at, const struct ior_vm_run_summary *fill)
{
	const struct ior_vm_run_opts *o = d->o;
	bool qemu = d->t.opts.url.kind == IOR_VM_TARGET_QEMU;
	const char *host = d->t.host, *machine = d->t.machine;
	struct ior_db_vm_boot row = {
		.vm_run = fill->vm_run,
		.kernel = s->k.spec,
		.kernel_release = s->k.release[0] ? s->k.release : NULL,
		.package_version = s->k.package_version[0] ? s->k.package_version : NULL,
		.boot_index = index,
		.outcome = ior_vm_outcome_name(b->outcome),
		.reason = b->reason,
		.guest_status = b->guest_status,
		.accelerator = b->accel[0] ? b->accel : NULL,
		.cpus = qemu ? (int)o->machine.cpus : -1,
		.memory_mb = qemu ? (int)o->machine.memory_mb : -1,
		.cache_mode = b->cache_mode[0] ? b->cache_mode : NULL,
		.pinned_cpus = b->pinned[0] ? b->pinned : NULL,
		.qemu_version = b->qemu_version[0] ? b->qemu_version : NULL,
		.matrix_file = o->boot_only ? NULL : o->guest.matrix,
		.boot_s = b->boot_s,
		.total_s = b->total_s,
		.console = b->console,
		.console_len = b->console_len,
		.started_at = started_at,
		.target = qemu ? NULL : d->t.opts.url.name,
		.boot_id = b->boot_id[0] ? b->boot_id : NULL,
	};
	struct ior_db *guest = NULL;
	int rc = IOR_OK;
	if (b->guest_db[0] && (rc = ior_db_open(&guest, b->guest_db)) == IOR_OK &&
	    (rc = ior_db_host_get(guest, host, machine, &row.host_id)) == IOR_OK &&
	    (rc = ior_db_latest_run(guest, &row.run_id)) == IOR_ENOTFOUND) {
		/* the guest's run stopped before it stored one (a bad matrix, a refused device): nothing to
		 * merge, and the boot's own outcome and reason stand */
		b->guest_db[0] = '\0';
		rc = IOR_OK;
	} else if (!rc && b->guest_db[0] && (rc = ior_db_vm_boot_add(guest, &row, NULL)) == IOR_OK &&
		   (rc = record_fill(guest, row.run_id, o, fill)) == IOR_OK) {
		ior_db_free(guest);
		guest = NULL;
		struct ior_db_merge_stats st;
		rc = ior_db_merge(db, b->guest_db, &st);
	}
	ior_db_free(guest);
	if (!b->guest_db[0] || rc) {
		if (rc) { /* the guest's database could not be brought in: the boot is still recorded */
			b->outcome = IOR_VM_INFRA_ERROR;
			snprintf(b->reason, sizeof(b->reason), "cannot merge the guest's database: %s", ior_error_last());
			row.outcome = ior_vm_outcome_name(b->outcome);
		}
		row.run_id = 0;
		if ((rc = ior_db_host_get(db, host, machine, &row.host_id)) == IOR_OK)
			rc = ior_db_vm_boot_add(db, &row, NULL);
	}
	return rc;
}

/* One line per boot on stderr: where, which kernel, which round, how it ended and how long it took. */
static void progress(const struct driver *d, const struct slot *s, int index, const struct ior_vm_boot *b)
{
	const struct ior_vm_run_opts *o = d->o;
	if (!o->progress)
		return;
	if (d->t.opts.url.kind == IOR_VM_TARGET_QEMU)
		fprintf(stderr, "vm: %s boot %d/%s%u: %s (%s), init at %.1f s, %.1f s in all\n", s->k.spec, index,
			o->boots_auto ? "at most " : "", o->boots, ior_vm_outcome_name(b->outcome), b->reason, b->boot_s,
			b->total_s);
	else
		fprintf(stderr, "vm: %s: %s round %d/%s%u: %s%s%s%s, SSH back %.1f s after the boot command, %.1f s in all\n",
			d->t.opts.url.name, s->k.spec, index, o->boots_auto ? "at most " : "", o->boots,
			ior_vm_outcome_name(b->outcome), b->reason[0] ? " (" : "", b->reason, b->reason[0] ? ")" : "",
			b->boot_s, b->total_s);
}

/* A stored step's end: done with its boot row, or left as it is when the run was interrupted (a
 * resumed run boots it again). */
static int step_end(struct ior_db *db, const char *vm_run, const struct ior_db_target_step *step, const struct slot *s,
		    int index, const struct ior_vm_boot *b)
{
	if (!step || b->outcome == IOR_VM_INTERRUPTED)
		return IOR_OK;
	int64_t row = 0;
	int rc = ior_db_target_boot_row(db, vm_run, s->k.spec, index, &row, NULL, 0);
	if (rc && rc != IOR_ENOTFOUND)
		return rc;
	return ior_db_target_step_set(db, step->id, b->outcome == IOR_VM_OK ? "done" : "skipped", step->tries + 1, row,
				      NULL, b->outcome == IOR_VM_OK ? NULL : b->reason);
}

static int boot(struct ior_db *db, struct driver *d, struct slot *s, int index, const struct ior_db_target_step *step,
		struct ior_vm_run_summary *sum)
{
	char dir[PATH_MAX + 16], started[40];
	snprintf(dir, sizeof(dir), "%s/b%d", s->dir, index);
	utc_now(started, sizeof(started));
	struct ior_vm_boot b = { .guest_status = -1, .boot_s = -1, .total_s = -1 };
	int rc = IOR_OK;
	if (!s->ready) {
		b.outcome = IOR_VM_INFRA_ERROR;
		snprintf(b.reason, sizeof(b.reason), "%s", s->error);
	} else if (mkdir(dir, 0700) != 0) {
		b.outcome = IOR_VM_INFRA_ERROR;
		snprintf(b.reason, sizeof(b.reason), "cannot create '%s': %s", dir, strerror(errno));
	} else {
		rc = d->t.ops->boot(&d->t, db, s, step, index, dir, &b);
		if (rc == IOR_VM_TARGET_REBOOTING) { /* this process ends with the machine: the next boot records */
			ior_vm_boot_free(&b);
			return rc;
		}
		if (rc == IOR_EINTERRUPTED) {
			b.outcome = IOR_VM_INTERRUPTED;
			snprintf(b.reason, sizeof(b.reason), "interrupted by signal %d", ior_stop_signal());
		} else if (rc) { /* nothing could be tried: not the kernel's fault */
			b.outcome = IOR_VM_INFRA_ERROR;
			snprintf(b.reason, sizeof(b.reason), "%s", ior_error_last());
			rc = IOR_OK;
		}
	}
	int rrc = record(db, d, s, index, &b, started, sum);
	if (!rrc)
		rrc = step_end(db, sum->vm_run, step, s, index, &b);
	sum->boots++;
	b.outcome == IOR_VM_OK ? sum->ok++ : sum->failed++;
	progress(d, s, index, &b);
	ior_vm_boot_free(&b);
	ior_vm_remove_tree(dir);
	if (rc == IOR_EINTERRUPTED)
		return ior_error_set(IOR_EINTERRUPTED, "vm run interrupted by signal %d", ior_stop_signal());
	return rrc;
}

/* The slot booted at position j of round r (from 1) of n kernels: rotated by one each round, so no
 * kernel always boots first (the first boot after a fill or an idle host differs) and drift within
 * a round falls on every kernel alike over the rounds. */
size_t ior_vm_round_slot(unsigned r, size_t j, size_t n)
{
	return ((size_t)(r - 1) + j) % n;
}

static int stop_error(void)
{
	return ior_error_set(IOR_EINTERRUPTED, "vm run interrupted by signal %d", ior_stop_signal());
}

/* A step a killed controller left booting or measuring whose boot was recorded and merged already (it
 * was killed between the merge and the step's end): ended from that row, so no boot's samples are
 * stored twice. */
static int step_recorded(struct ior_db *db, const struct driver *d, const struct ior_db_target_step *step, bool *recorded)
{
	int64_t row = 0;
	char outcome[32];
	*recorded = false;
	int rc = ior_db_target_boot_row(db, d->vm_run, step->kernel, step->round, &row, outcome, sizeof(outcome));
	if (rc == IOR_ENOTFOUND)
		return IOR_OK;
	*recorded = !rc;
	if (!rc)
		rc = ior_db_target_step_set(db, step->id, !strcmp(outcome, "ok") ? "done" : "skipped", step->tries, row, NULL,
					    !strcmp(outcome, "ok") ? NULL : outcome);
	return rc;
}

/* Round r of a stored plan: its steps stored (in the rotated order) unless they are already, then
 * each step not done booted in order. */
static int plan_round(struct ior_db *db, struct driver *d, unsigned r, struct ior_vm_run_summary *s)
{
	int rc = IOR_OK;
	bool stored = d->seq >= (int)(r * d->n);
	for (size_t j = 0; !rc && !stored && j < d->n; j++)
		rc = ior_db_target_step_add(db, d->plan_id, ++d->seq, (int)r, d->specs[ior_vm_round_slot(r, j, d->n)]);
	struct ior_db_target_step step;
	while (!rc && (rc = ior_db_target_step_next(db, d->plan_id, &step)) == IOR_OK) {
		if (step.round > (int)r) {
			ior_db_target_step_free(&step);
			break;
		}
		size_t i = 0;
		while (i < d->n && strcmp(d->specs[i], step.kernel) != 0)
			i++;
		bool recorded = false;
		if (strcmp(step.state, "pending") != 0)
			rc = step_recorded(db, d, &step, &recorded);
		if (rc || recorded) {
			ior_db_target_step_free(&step);
			continue;
		}
		rc = ior_stop_requested() ? stop_error()
		     : i < d->n	  ? boot(db, d, &d->slots[i], step.round, &step, s)
				  : ior_error_set(IOR_ERROR, "the plan's kernel '%s' is not one of this run's", step.kernel);
		ior_db_target_step_free(&step);
	}
	return rc == IOR_ENOTFOUND ? IOR_OK : rc;
}

/* Rounds of boots: every kernel once per round. With boots_auto, after each round from the second,
 * decided() says whether the cells of interest are all decided; the run stops there or at the cap. */
static int rounds(struct ior_db *db, struct driver *d, struct ior_vm_run_summary *s)
{
	const struct ior_vm_run_opts *o = d->o;
	size_t n = d->n;
	const char *releases[n ? n : 1];
	for (size_t i = 0; i < n; i++)
		releases[i] = d->slots[i].ready ? d->slots[i].k.release : "";
	int rc = IOR_OK;
	bool done = false;
	for (unsigned r = 1; !rc && !done && r <= o->boots; r++) {
		if (d->plan_id)
			rc = plan_round(db, d, r, s);
		for (size_t j = 0; !d->plan_id && !rc && j < n; j++)
			rc = ior_stop_requested() ? stop_error() : boot(db, d, &d->slots[ior_vm_round_slot(r, j, n)], (int)r, NULL, s);
		if (!rc)
			s->rounds = r;
		if (!rc && o->boots_auto && o->decided && r >= 2)
			rc = o->decided(o->decided_ctx, db, s->vm_run, releases, n, r, &done);
	}
	return rc;
}

void ior_vm_run_defaults(struct ior_vm_run_setup *v)
{
	memset(v, 0, sizeof(*v));
	ior_vm_machine_default(&v->o.machine);
	v->o.boots = 1;
	ior_vm_default_cache(v->cache, sizeof(v->cache));
	v->o.cache_dir = v->cache;
	struct utsname u;
	uname(&u);
	snprintf(v->host, sizeof(v->host), "%s-vm", u.nodename);
	v->o.guest.host_name = v->host;
	v->o.guest.busybox = "/bin/busybox";
	ssize_t n = readlink("/proc/self/exe", v->self, sizeof(v->self) - 1);
	v->self[n > 0 ? n : 0] = '\0';
	ior_vm_guest_binary(v->self, v->guest_binary, sizeof(v->guest_binary));
	v->o.guest.ioregress = v->guest_binary;
}

/* The scratch disk every boot of this vm run measures: written once, as the matrix's fill says,
 * before the first boot, so no guest reads holes of a sparse host file (what a read engine
 * measured before) and no sample includes the fill. */
static int fill_scratch(const char *root, struct ior_vm_run_opts *o, char *path, size_t len,
			struct ior_vm_run_summary *s)
{
	snprintf(path, len, "%s/scratch.img", root);
	if (ior_vm_scratch_take(o->cache_dir, o->machine.scratch_mb, o->scratch_fill, path)) {
		o->machine.scratch_image = path;
		s->fill_s = 0;
		s->fill_bytes = (uint64_t)o->machine.scratch_mb << 20;
		s->fill_kept = true;
		if (o->progress)
			fprintf(stderr, "vm: scratch disk: %u MiB of %s data kept from an earlier vm run (no fill; part of no "
				"sample)\n", o->machine.scratch_mb, ior_fill_names[o->scratch_fill]);
		return IOR_OK;
	}
	int rc = ior_vm_disk_create(path, (uint64_t)o->machine.scratch_mb << 20);
	int fd = rc ? -1 : open(path, O_RDWR | O_CLOEXEC);
	if (!rc && fd < 0)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot open '%s'", path);
	struct ior_fill_result r = { 0 };
	if (!rc)
		rc = ior_fill_fd(fd, path, (uint64_t)o->machine.scratch_mb << 20, (enum ior_fill)o->scratch_fill, &r);
	if (fd >= 0)
		close(fd);
	if (rc)
		return rc;
	o->machine.scratch_image = path;
	s->fill_s = r.seconds;
	s->fill_bytes = r.bytes;
	if (o->progress)
		fprintf(stderr, "vm: scratch disk filled with %s data: %u MiB in %.1f s (once, before the first boot; part "
			"of no sample)\n", ior_fill_names[o->scratch_fill], o->machine.scratch_mb, r.seconds);
	return IOR_OK;
}

/* The plan's options, one "name=value" a line, so a resumed run (or the local kind's next boot) boots
 * as this one began, recover reaches the target and removes its work directory, and a run given
 * other kernels or another matrix is told apart from a resumption. */
static int plan_options(const struct driver *d, char *options, size_t size)
{
	const struct ior_vm_target_opts *t = &d->t.opts;
	size_t len = (size_t)snprintf(options, size,
				      "boot=%s\nshutdown=%s\nboot_timeout=%g\nrun_timeout=%g\nretries=%u\nkeep_kernels=%d\n%s%s%s",
				      ior_vm_target_boot_name(t->boot), ior_vm_target_shutdown_name(t->shutdown), t->boot_timeout_s,
				      t->run_timeout_s, t->retries, t->keep_kernels, t->power_cycle ? "power_cycle=" : "",
				      t->power_cycle ? t->power_cycle : "", t->power_cycle ? "\n" : "");
	for (size_t i = 0; i < t->nssh_options && len < size; i++)
		len += (size_t)snprintf(options + len, size - len, "ssh_option=%s\n", t->ssh_options[i]);
	for (size_t i = 0; i < d->n && len < size; i++)
		len += (size_t)snprintf(options + len, size - len, "kernel=%s\n", d->specs[i]);
	if (d->t.workdir[0] && len < size)
		len += (size_t)snprintf(options + len, size - len, "workdir=%s\n", d->t.workdir);
	if (d->t.default_release[0] && len < size)
		len += (size_t)snprintf(options + len, size - len, "default_release=%s\n", d->t.default_release);
	return len < size ? IOR_OK : ior_error_set(IOR_EINVALID, "the target's options are too long to store");
}

/* The plan of boots on a real machine, stored before the first boot. */
static int plan_begin(struct ior_db *db, struct driver *d, const struct ior_vm_run_summary *s)
{
	char options[8192];
	int rc = plan_options(d, options, sizeof(options));
	struct ior_db_target_plan p = {
		.vm_run = (char *)s->vm_run,
		.target = (char *)d->t.opts.url.name,
		.matrix_file = (char *)d->o->guest.matrix,
		.options = options,
		.rounds = (int)d->o->boots,
		.rounds_auto = d->o->boots_auto,
	};
	char boot_id[64];
	int64_t host_id = 0;
	if (!rc)
		rc = ior_vm_owner(db, &host_id, boot_id, sizeof(boot_id));
	return rc ? rc : ior_db_target_plan_add(db, &p, host_id, (int)getpid(), boot_id, &d->plan_id);
}

/* Whether a stored plan is this run's: the same kernels in the same order and the same matrix file
 * (a plan from before kernels were stored is taken as the same). */
static bool plan_same(const struct driver *d, const struct ior_db_target_plan *p)
{
	const char *a = d->o->guest.matrix, *b = p->matrix_file;
	if ((a || b) && (!a || !b || strcmp(a, b) != 0))
		return false;
	size_t i = 0;
	for (const char *l = p->options; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, "kernel=", 7) != 0)
			continue;
		size_t len = strcspn(l + 7, "\n");
		if (i >= d->n || strlen(d->specs[i]) != len || strncmp(d->specs[i], l + 7, len) != 0)
			return false;
		i++;
	}
	return i == 0 || i == d->n;
}

/* Before the target is opened: a plan still running on it is this run's to resume (a killed
 * controller run again, the local kind's unit at the next boot) when its owner is gone and it is the
 * same plan; one of a live owner is refused; another plan left by a dead owner is set aside
 * (aborted) when this run begins its own. */
static int plan_find(struct ior_db *db, struct driver *d)
{
	struct ior_db_target_plan p;
	int rc = ior_db_target_plan_running(db, d->t.opts.url.name, &p);
	if (rc == IOR_ENOTFOUND)
		return IOR_OK;
	if (rc)
		return rc;
	if (p.pid != (int)getpid() && ior_kernel_process_alive(p.pid, p.boot_id)) {
		rc = ior_error_set(IOR_EREFUSED, "a vm run (pid %d) is running a plan of boots on '%s' now: one "
				   "controller per target", p.pid, p.target);
	} else if (!plan_same(d, &p)) {
		d->stale_plan_id = p.id;
	} else {
		d->plan_id = p.id;
		snprintf(d->vm_run, sizeof(d->vm_run), "%s", p.vm_run);
		d->t.resuming = true;
		ior_db_target_plan_option(p.options, "workdir", d->t.workdir, sizeof(d->t.workdir));
		ior_db_target_plan_option(p.options, "default_release", d->t.default_release, sizeof(d->t.default_release));
	}
	ior_db_target_plan_free(&p);
	return rc;
}

/* The found plan taken over: its vm_run (so every boot pairs by round), its steps (none stored twice),
 * its options with this run's work directory; or a plan of other kernels set aside and a new one begun. */
static int plan_resume(struct ior_db *db, struct driver *d, struct ior_vm_run_summary *s)
{
	int rc = IOR_OK;
	if (d->stale_plan_id) {
		if (d->o->progress)
			fprintf(stderr, "vm: %s: a plan of other kernels or another matrix was left running by a run that is "
				"gone: set aside (aborted); 'ioregress recover' removes what it installed\n", d->t.opts.url.name);
		rc = ior_db_target_plan_finish(db, d->stale_plan_id, "aborted");
	}
	if (rc || !d->plan_id)
		return rc ? rc : plan_begin(db, d, s);
	snprintf(s->vm_run, sizeof(s->vm_run), "%s", d->vm_run);
	int steps = 0, stored_rounds = 0, left = 0;
	rc = ior_db_target_steps_count(db, d->plan_id, &steps, &stored_rounds);
	if (!rc)
		rc = ior_db_target_steps_left(db, d->plan_id, &left);
	d->seq = steps;
	char boot_id[64], options[8192];
	int64_t host_id = 0;
	if (!rc)
		rc = plan_options(d, options, sizeof(options));
	if (!rc)
		rc = ior_vm_owner(db, &host_id, boot_id, sizeof(boot_id));
	if (!rc && d->o->progress)
		fprintf(stderr, "vm: %s: resuming the plan of vm run %s: %d of %d stored boots done\n", d->t.opts.url.name,
			d->vm_run, steps - left, steps);
	return rc ? rc : ior_db_target_plan_own(db, d->plan_id, (int)getpid(), boot_id, options);
}

static int run_target(struct ior_db *db, struct driver *d, struct ior_vm_run_opts *o, const char *root,
		      struct ior_vm_run_summary *s)
{
	int rc = IOR_OK;
	char scratch[PATH_MAX];   /* o->machine.scratch_image points here for the run */
	if (d->t.opts.url.kind == IOR_VM_TARGET_QEMU && !o->boot_only && !o->machine.scratch_image)
		rc = fill_scratch(root, o, scratch, sizeof(scratch), s);
	for (size_t i = 0; !rc && i < d->n && !ior_stop_requested(); i++)
		rc = prepare(d, db, i, root);
	if (d->t.opts.url.kind != IOR_VM_TARGET_QEMU)
		snprintf(s->host, sizeof(s->host), "%s", d->t.host);
	snprintf(s->accel, sizeof(s->accel), "%s", d->t.accel);
	snprintf(s->accel_reason, sizeof(s->accel_reason), "%s", d->t.accel_reason);
	struct utsname u;
	uname(&u);
	char started[40];
	utc_now(started, sizeof(started));
	snprintf(s->vm_run, sizeof(s->vm_run), "%s/%ld/%s", u.nodename, (long)getpid(), started);
	if (!rc && d->t.opts.url.kind != IOR_VM_TARGET_QEMU)
		rc = plan_resume(db, d, s);
	if (!rc)
		rc = rounds(db, d, s);
	if (rc != IOR_VM_TARGET_REBOOTING) {
		int frc = d->t.ops->finish(&d->t, db);
		rc = rc ? rc : frc;
	}
	if (!rc && d->plan_id)
		rc = ior_db_target_plan_finish(db, d->plan_id, "done");
	/* the filled disk outlives this vm run, for the next (a bisection's boots are one vm run each) */
	if (o->machine.scratch_image == scratch)
		ior_vm_scratch_keep(o->cache_dir, o->machine.scratch_mb, o->scratch_fill, scratch);
	return rc;
}

int ior_vm_run(struct ior_db *db, const struct ior_vm_run_opts *opts_in, const char *const *kernels, size_t n,
	       struct ior_vm_run_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->fill_s = -1;
	struct ior_vm_run_opts o = *opts_in;
	struct driver d = { .o = &o, .specs = kernels, .n = n };
	if (o.target)
		d.t.opts = *o.target;
	else
		ior_vm_target_opts_default(&d.t.opts);
	d.t.ops = ior_vm_target_ops_of(d.t.opts.url.kind);
	snprintf(s->accel, sizeof(s->accel), "-");
	int rc = d.t.opts.url.kind == IOR_VM_TARGET_QEMU ? IOR_OK : plan_find(db, &d);
	if (!rc)
		rc = d.t.ops->open(&d.t, db, &o);
	if (rc) {
		if (d.t.ops->free)
			d.t.ops->free(&d.t);
		return rc;
	}
	/* journaled before anything is written into it: a SIGKILL leaves it to recover */
	struct ior_vm_workdir work;
	rc = ior_vm_workdir_create(&work, db);
	d.slots = rc ? NULL : calloc(n ? n : 1, sizeof(*d.slots));
	if (!rc && !d.slots)
		rc = ior_error_set(IOR_ERROR, "out of memory");
	if (!rc)
		rc = run_target(db, &d, &o, work.path, s);
	if (work.path[0])
		ior_vm_workdir_remove(&work, db);
	free(d.slots);
	d.t.ops->free(&d.t);
	return rc;
}
