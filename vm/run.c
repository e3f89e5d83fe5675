/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `vm run`'s loop: every kernel resolved and packed once, booted N times interleaved, each boot
 * recorded and its guest database merged. */
#include "vm/internal.h"

#include "common/error.h"
#include "common/stop.h"
#include "db/db.h"
#include "device/fill.h"
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

struct slot {
	struct ior_vm_kernel k;
	char dir[PATH_MAX], initramfs[PATH_MAX + 16];
	bool ready;
	char error[512];   /* why it is not ready: recorded as infra-error for each of its boots */
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

static void prepare(struct slot *s, const char *spec, const struct ior_vm_run_opts *o, const char *root, size_t i)
{
	snprintf(s->dir, sizeof(s->dir), "%s/k%zu", root, i);
	snprintf(s->initramfs, sizeof(s->initramfs), "%s/initramfs.cpio", s->dir);
	ior_error_clear();
	int rc = mkdir(s->dir, 0700) == 0 ? IOR_OK : ior_error_errno(IOR_ERROR, errno, "cannot create '%s'", s->dir);
	if (!rc)
		rc = ior_vm_kernel_resolve(&s->k, spec, o->cache_dir);
	if (!rc) {
		struct ior_vm_guest g = o->guest;
		if (o->boot_only)
			g.matrix = NULL;
		rc = ior_vm_initramfs_write(s->initramfs, &s->k, &g, s->dir);
	}
	s->ready = rc == IOR_OK;
	if (!s->ready) {
		snprintf(s->k.spec, sizeof(s->k.spec), "%s", spec);
		snprintf(s->error, sizeof(s->error), "%s", ior_error_last());
	}
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
	return ior_db_fill_add(guest, run_id, 0, "vm scratch disk /dev/vda (filled once per vm run)",
			       ior_fill_names[o->scratch_fill], fill->fill_bytes, fill->fill_s);
}

static int record(struct ior_db *db, const struct ior_vm_run_opts *o, const struct slot *s, int index,
		  struct ior_vm_boot *b, const char *started_at, const char *host, const char *machine,
		  const struct ior_vm_run_summary *fill)
{
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
		.cpus = (int)o->machine.cpus,
		.memory_mb = (int)o->machine.memory_mb,
		.cache_mode = b->cache_mode[0] ? b->cache_mode : NULL,
		.pinned_cpus = b->pinned[0] ? b->pinned : NULL,
		.qemu_version = b->qemu_version[0] ? b->qemu_version : NULL,
		.matrix_file = o->boot_only ? NULL : o->guest.matrix,
		.boot_s = b->boot_s,
		.total_s = b->total_s,
		.console = b->console,
		.console_len = b->console_len,
		.started_at = started_at,
	};
	struct ior_db *guest = NULL;
	int rc = IOR_OK;
	if (b->guest_db[0] && (rc = ior_db_open(&guest, b->guest_db)) == IOR_OK &&
	    (rc = ior_db_host_get(guest, host, machine, &row.host_id)) == IOR_OK &&
	    (rc = ior_db_latest_run(guest, &row.run_id)) == IOR_OK && (rc = ior_db_vm_boot_add(guest, &row, NULL)) == IOR_OK &&
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

static int boot(struct ior_db *db, const struct ior_vm_run_opts *o, struct slot *s, int index, const char *accel,
		const char *host, const char *machine, struct ior_vm_run_summary *sum)
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
		rc = ior_vm_boot_once(&o->machine, accel, &s->k, s->initramfs, o->boot_only, dir, &b);
		if (rc == IOR_EINTERRUPTED) {
			b.outcome = IOR_VM_INTERRUPTED;
			snprintf(b.reason, sizeof(b.reason), "interrupted by signal %d", ior_stop_signal());
		}
	}
	int rrc = record(db, o, s, index, &b, started, host, machine, sum);
	sum->boots++;
	b.outcome == IOR_VM_OK ? sum->ok++ : sum->failed++;
	if (o->progress)
		fprintf(stderr, "vm: %s boot %d/%s%u: %s (%s), init at %.1f s, %.1f s in all\n", s->k.spec, index,
			o->boots_auto ? "at most " : "", o->boots, ior_vm_outcome_name(b.outcome), b.reason, b.boot_s,
			b.total_s);
	ior_vm_boot_free(&b);
	ior_vm_remove_tree(dir);
	if (rc == IOR_EINTERRUPTED)
		return ior_error_set(IOR_EINTERRUPTED, "vm run interrupted by signal %d", ior_stop_signal());
	return rrc;
}

/* The slot booted at position j of round r (from 1) of n kernels: rotated by one each round, so no
 * kernel always boots first (the first boot after a fill or an idle host differs) and drift within
 * a round falls on every kernel alike over the rounds. */
static size_t slot_at(unsigned r, size_t j, size_t n)
{
	return ((size_t)(r - 1) + j) % n;
}

/* Rounds of boots: every kernel once per round. With boots_auto, after each round from the second,
 * decided() says whether the cells of interest are all decided; the run stops there or at the cap. */
static int rounds(struct ior_db *db, const struct ior_vm_run_opts *o, struct slot *slots, size_t n, const char *host,
		  const char *machine, struct ior_vm_run_summary *s)
{
	const char *releases[n ? n : 1];
	for (size_t i = 0; i < n; i++)
		releases[i] = slots[i].ready ? slots[i].k.release : "";
	int rc = IOR_OK;
	bool done = false;
	for (unsigned r = 1; !rc && !done && r <= o->boots; r++) {
		for (size_t j = 0; !rc && j < n; j++)
			rc = ior_stop_requested() ? ior_error_set(IOR_EINTERRUPTED, "vm run interrupted by signal %d",
								  ior_stop_signal())
						  : boot(db, o, &slots[slot_at(r, j, n)], (int)r, s->accel, host, machine, s);
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
	v->o.guest.ioregress = v->self;
}

/* The scratch disk every boot of this vm run measures: written once, as the matrix's fill says,
 * before the first boot, so no guest reads holes of a sparse host file (what a read engine
 * measured before) and no sample includes the fill. */
static int fill_scratch(const char *root, struct ior_vm_run_opts *o, char *path, size_t len,
			struct ior_vm_run_summary *s)
{
	snprintf(path, len, "%s/scratch.img", root);
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

int ior_vm_run(struct ior_db *db, const struct ior_vm_run_opts *opts_in, const char *const *kernels, size_t n,
	       struct ior_vm_run_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->fill_s = -1;
	struct ior_vm_run_opts o = *opts_in;
	const struct ior_vm_run_opts *opts = &o;
	/* journaled before anything is written into it: a SIGKILL leaves it to recover */
	struct ior_vm_workdir work;
	int wrc = ior_vm_workdir_create(&work, db);
	if (wrc)
		return wrc;
	const char *root = work.path;
	struct slot *slots = calloc(n ? n : 1, sizeof(*slots));
	int rc = slots ? IOR_OK : ior_error_set(IOR_ERROR, "out of memory");
	char scratch[PATH_MAX];
	if (!rc && !o.boot_only && !o.machine.scratch_image)
		rc = fill_scratch(root, &o, scratch, sizeof(scratch), s);
	for (size_t i = 0; !rc && i < n && !ior_stop_requested(); i++)
		prepare(&slots[i], kernels[i], opts, root, i);
	struct utsname u;
	uname(&u);
	const struct slot *first = NULL;
	for (size_t i = 0; !rc && i < n && !first; i++)
		first = slots[i].ready ? &slots[i] : NULL;
	snprintf(s->accel, sizeof(s->accel), "tcg");
	if (first)
		ior_vm_choose_accel(&opts->machine, &first->k, first->initramfs, first->dir, s->accel, sizeof(s->accel),
				    s->accel_reason, sizeof(s->accel_reason));
	if (opts->progress && first)
		fprintf(stderr, "vm: accelerator %s\n", s->accel_reason);
	char started[40];
	utc_now(started, sizeof(started));
	snprintf(s->vm_run, sizeof(s->vm_run), "%s/%ld/%s", u.nodename, (long)getpid(), started);
	if (!rc)
		rc = rounds(db, opts, slots, n, u.nodename, u.machine, s);
	ior_vm_workdir_remove(&work, db);
	free(slots);
	return rc;
}
