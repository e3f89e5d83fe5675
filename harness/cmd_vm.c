/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress vm run --matrix FILE KERNEL...`: boot each kernel under qemu with ioregress inside and
 * merge what it measured (logic in vm/). */
#include "common/error.h"
#include "common/stop.h"
#include "db/db.h"
#include "harness/command_list.h"
#include "vm/guest_matrix.h"
#include "harness/kbuild_args.h"
#include "harness/target_args.h"
#include "matrix/matrix.h"
#include "reports/boots_auto.h"
#include "vm/guest.h"
#include "vm/target.h"
#include "vm/target_config.h"
#include "vm/vm.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct vm_args {
	struct ior_vm_run_setup vm;   /* vm.o: the options the command line changes */
	const char **kernels;         /* the operands */
	size_t nkernels;
	struct ior_kbuild_opts kb;    /* --tree: the operands are revisions of kb.tree, built first */
	struct ior_cmd_list fragments;
	unsigned max_boots;           /* --boots auto's cap; 0 until --max-boots */
	enum ior_metric auto_metric;  /* --metric: what --boots auto judges; IOR_METRIC_COUNT until given */
	struct ior_cmd_target tg;     /* --target and a real machine's options (vm.o.target points at tg.t then) */
	bool reboot_this_machine;
	bool localmodconfig;          /* --localmodconfig: a tree built for a real machine, trimmed to its modules */
};

/* --target and its options into a->tg.t; qemu's timeouts take their defaults when not given. */
static int check_target(struct vm_args *a)
{
	struct ior_vm_machine *m = &a->vm.o.machine;
	bool real;
	int rc = ior_cmd_target_finish(&a->tg, m->boot_timeout_s, m->total_timeout_s, &real);
	if (!rc && !real && a->reboot_this_machine)
		rc = ior_error_set(IOR_EINVALID, "--reboot-this-machine is for a real machine: give --target local");
	if (!rc && !real && a->localmodconfig)
		rc = ior_error_set(IOR_EINVALID, "--localmodconfig is for a real machine: give --target ssh://HOST");
	if (rc)
		return rc;
	if (!real) {
		struct ior_vm_machine d;
		ior_vm_machine_default(&d);
		m->boot_timeout_s = m->boot_timeout_s ? m->boot_timeout_s : d.boot_timeout_s;
		m->total_timeout_s = m->total_timeout_s ? m->total_timeout_s : d.total_timeout_s;
		return IOR_OK;
	}
	if (a->kb.tree && a->tg.t.url.kind == IOR_VM_TARGET_LOCAL)
		return ior_error_set(IOR_EINVALID, "--tree with --target local is not built yet: build the revisions with "
				     "'make bindeb-pkg' and give the .deb files");
	if (a->localmodconfig && !a->kb.tree)
		return ior_error_set(IOR_EINVALID, "--localmodconfig trims a tree's config to the target's modules: give "
				     "--tree DIR");
	a->tg.t.reboot_this_machine = a->reboot_this_machine;
	a->vm.o.target = &a->tg.t;
	return IOR_OK;
}


/* --boots N|auto into the run's options. */
static int parse_boots(void *field, const char *v)
{
	struct ior_vm_run_opts *o = field;
	uint64_t n = 0;
	o->boots_auto = !strcmp(v, "auto");
	int rc = o->boots_auto ? IOR_OK : ior_parse_count(v, 1, 1000, &n);
	if (!rc && !o->boots_auto)
		o->boots = (unsigned)n;
	return rc;
}

/* The checks between vm run's options and operands. */
static int check_args(struct vm_args *a)
{
	if (ior_cmd_kbuild_finish(&a->kb, &a->fragments))
		return IOR_EINVALID;
	if (!a->kb.tree && (a->kb.config || a->kb.defconfig || a->kb.nfragments || a->kb.out))
		return ior_error_set(IOR_EINVALID, "--config, --defconfig, --fragment and --build-dir need --tree DIR");
	if (!a->nkernels)
		return ior_error_set(IOR_EINVALID, "'vm run' needs at least one KERNEL");
	if (!a->vm.o.guest.matrix && !a->vm.o.boot_only)
		return ior_error_set(IOR_EINVALID, "'vm run' needs --matrix FILE (or --boot-only)");
	if (a->max_boots && !a->vm.o.boots_auto)
		return ior_error_set(IOR_EINVALID, "--max-boots caps --boots auto: give --boots auto, or --boots N alone");
	if (a->auto_metric != IOR_METRIC_COUNT && !a->vm.o.boots_auto)
		return ior_error_set(IOR_EINVALID, "--metric names what --boots auto judges: give --boots auto (report and "
				     "check take --metric for stored boots)");
	if (a->vm.o.boots_auto && (a->nkernels < 2 || a->vm.o.boot_only))
		return ior_error_set(IOR_EINVALID, "--boots auto boots until the kernels' cells are decided: it needs two "
				     "kernels or more and --matrix (give --boots N otherwise)");
	if (!a->max_boots)
		a->max_boots = 8;
	if (a->auto_metric == IOR_METRIC_COUNT)
		a->auto_metric = IOR_METRIC_VALUE;
	if (a->vm.o.boots_auto)
		a->vm.o.boots = a->max_boots;
	return check_target(a);
}

/* --tree: every revision built (checked out in turn), its bzImage:modules becoming the kernel booted, or
 * on a real machine its linux-image .deb. */
static int build_tree(struct vm_args *a, struct ior_kbuild **builds, char (**specs)[IOR_VM_SPEC_MAX])
{
	*builds = calloc(a->nkernels, sizeof(**builds));
	*specs = calloc(a->nkernels, sizeof(**specs));
	if (!*builds || !*specs)
		return ior_error_set(IOR_ERROR, "out of memory");
	a->kb.progress = a->vm.o.progress;
	a->kb.localversion = true; /* -gSHA in each release: the revisions stay apart in every report */
	/* a real machine: its own config, each revision a package installed there */
	int rc = a->vm.o.target ? ior_vm_target_tree_build(*builds, *specs, &a->kb, &a->tg.t, a->localmodconfig, a->kernels,
							   a->nkernels)
				: ior_vm_tree_build(*builds, *specs, &a->kb, a->kernels, a->nkernels);
	for (size_t i = 0; !rc && i < a->nkernels; i++)
		a->kernels[i] = (*specs)[i];
	return rc;
}

/* --boots auto: after each round, the verdicts between the kernels over this vm run's boots. */
struct auto_state {
	const char *host;
	const struct ior_vm_run_summary *run;   /* its host: where a real machine's runs are stored */
	enum ior_metric metric;
	bool quiet;
	struct ior_boots_progress last;
};

static int decided(void *ctx, struct ior_db *db, const char *vm_run, const char *const *releases, size_t n,
		   unsigned round, bool *done)
{
	struct auto_state *st = ctx;
	ior_boots_progress_free(&st->last);
	int rc = ior_boots_progress(&st->last, db, st->run && st->run->host[0] ? st->run->host : st->host, vm_run, releases,
				    n, st->metric);
	if (rc)
		return rc;
	*done = st->last.cells && st->last.decided == st->last.cells;
	if (!st->last.cells && !st->last.undecided) {   /* both kernels measured, no cell records the metric */
		fprintf(stderr, "vm: no cell of the matrix records %s: more boots cannot decide on it; stopping\n",
			ior_metric_info(st->metric)->name);
		*done = true;
		return IOR_OK;
	}
	if (!st->quiet)
		fprintf(stderr, "vm: after round %u: %zu of %zu cells decided between the kernels by %s%s\n", round,
			st->last.decided, st->last.cells, ior_metric_info(st->metric)->name,
			*done ? ": no more boots needed" : "");
	return IOR_OK;
}

static void auto_summary(const struct auto_state *st, const struct ior_vm_run_summary *s, unsigned cap)
{
	printf("vm run --boots auto: %u round%s (at most %u): %zu of %zu cells decided between the kernels by %s%s\n",
	       s->rounds, s->rounds == 1 ? "" : "s", cap, st->last.decided, st->last.cells, ior_metric_info(st->metric)->name,
	       st->last.cells && st->last.decided == st->last.cells ? "" : s->rounds >= cap ? "; the cap was reached" : "");
	const char *line = st->last.undecided;
	while (line && *line) {
		const char *end = strchr(line, '\n');
		int len = end ? (int)(end - line) : (int)strlen(line);
		printf("  undecided: %.*s\n", len, line);
		line += len + (end != NULL);
	}
	/* Under TCG a boot's timings move by 7-30% between boots of one kernel and 8 rounds decided 1
	 * of vm.ini's 16 cells by value, where req_kib decided 16 of 16 (stops 30 and 32). The default
	 * stays the headline, the figure a tester asks about; the way out is named, not taken. */
	bool counter = st->metric == IOR_METRIC_REQ_KIB || st->metric == IOR_METRIC_MERGE_PCT ||
		       st->metric == IOR_METRIC_REQ_PER_GIB;
	if (st->last.undecided && st->last.undecided[0] && !counter && strcmp(s->accel, "tcg") == 0)
		printf("  under TCG (emulated CPU) timings move between boots; the block layer's request counters do "
		       "not: --metric req_kib, merge_pct or req_per_gib decide on them\n");
}

/* A .deb file given as KERNEL (not a name for apt). */
static bool is_deb(const char *k)
{
	size_t n = strlen(k);
	return n > 4 && !strcmp(k + n - 4, ".deb");
}

static int cmd_vm(int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	struct vm_args a = { .auto_metric = IOR_METRIC_COUNT, .tg = IOR_CMD_TARGET_INIT };
	ior_vm_run_defaults(&a.vm);
	a.vm.o.machine.memory_mb = 0; /* until --memory: sized from the matrix */
	a.vm.o.machine.boot_timeout_s = a.vm.o.machine.total_timeout_s = 0; /* until given: the kind's defaults */
	struct ior_cmd_parsed p;
	int status = ior_cmd_parse_or_usage(&ior_cmd_vm, argc, argv, &a, &p);
	if (status)
		return status;
	a.kernels = p.operands.v;
	a.nkernels = p.operands.n;
	if (check_args(&a)) {
		ior_cmd_error_last();
		return 2;
	}
	/* the matrix parsed and expanded here, as the guest will, before any boot; the guest's memory
	 * sized from it */
	char said[400] = "";
	bool matrix = a.vm.o.guest.matrix && !a.vm.o.boot_only;
	if (matrix ? ior_vm_guest_matrix_check(a.vm.o.guest.matrix, &a.vm.o, said, sizeof(said))
		   : ior_vm_size_memory(&a.vm.o.machine, 0, 0, said, sizeof(said))) {
		ior_cmd_error_last();
		return 1;
	}
	if (said[0] && !ctx->quiet)
		fprintf(stderr, "vm: %s\n", said);
	/* package names checked against apt's lists before anything is fetched or booted */
	for (size_t i = 0; i < a.nkernels; i++)
		if (!a.kb.tree && !strchr(a.kernels[i], '/') && !is_deb(a.kernels[i]) &&
		    ior_vm_package_check(a.kernels[i]) != IOR_OK) {
			ior_cmd_error_last();
			return 2;
		}
	a.vm.o.progress = !ctx->quiet;
	a.vm.o.machine.live = !ctx->quiet;
	ior_stop_install_handlers();
	struct ior_vm_run_summary s = { .accel = "-" };
	struct ior_kbuild *builds = NULL;
	char(*specs)[IOR_VM_SPEC_MAX] = NULL;
	struct auto_state st = { .host = a.vm.o.guest.host_name, .run = &s, .metric = a.auto_metric, .quiet = ctx->quiet };
	a.vm.o.decided = decided;
	a.vm.o.decided_ctx = &st;
	int rc = a.kb.tree ? build_tree(&a, &builds, &specs) : IOR_OK;
	if (!rc)
		rc = ior_vm_run(ctx->db, &a.vm.o, a.kernels, a.nkernels, &s);
	if (!rc && builds) /* the runs' kernels carry the revisions' commits, as run --kernel-tree stores them */
		rc = ior_vm_tree_record_commits(ctx->db, builds, specs, a.nkernels);
	free(builds);
	free(specs);
	if (a.vm.o.target)
		printf("vm run: %u boots of %zu kernels on %s: %u ok, %u not ok; recorded in '%s'\n", s.boots, a.nkernels,
		       a.tg.t.url.name, s.ok, s.failed, ctx->db_path);
	else
		printf("vm run: %u boots of %zu kernels under %s: %u ok, %u not ok; recorded in '%s'\n", s.boots,
		       a.nkernels, s.accel, s.ok, s.failed, ctx->db_path);
	if (a.vm.o.boots_auto && s.rounds >= 2)
		auto_summary(&st, &s, a.vm.o.boots);
	ior_boots_progress_free(&st.last);
	if (rc == IOR_EINTERRUPTED) {
		int sig = ior_stop_signal();
		ior_cmd_error_last();
		return 128 + sig;
	}
	if (rc == IOR_VM_TARGET_REBOOTING) { /* --target local: the plan goes on at the next boot */
		printf("vm run: this machine is rebooting; the plan goes on at the next boot\n");
		return 0;
	}
	if (rc) {
		ior_cmd_error("vm run stopped");
		return 1;
	}
	return s.failed ? 1 : 0;
}

#define VM_AT(member) IOR_CMD_AT(struct vm_args, member)
#define VM_MACHINE_AT(member) IOR_CMD_AT(struct vm_args, vm.o.machine.member)
static const struct ior_cmd_opt run_options[] = {
	{ .name = "--matrix", .value = IOR_CMD_FILE, .arg = "FILE", VM_AT(vm.o.guest.matrix),
	  .help = "the matrix run inside each guest (with load_modules = yes); required unless --boot-only" },
	{ .name = "--boots", .value = IOR_CMD_TEXT, .arg = "N|auto",
	  .kind = IOR_CMD_PARSE, .parse = parse_boots, VM_AT(vm.o),
	  .help = "boot each kernel N times in rounds (every kernel once per round, the order rotated: A B C, B C A, "
		  "...), so drift of the host lands on every kernel alike (default 1). Kernel verdicts take each boot's "
		  "median as one observation and pair boots by round. auto: rounds until every cell is decided between "
		  "the first kernel and each other one, or --max-boots" },
	{ .name = "--max-boots", .value = IOR_CMD_NUMBER, .arg = "N",
	  .kind = IOR_CMD_COUNT, .min = 2, .max = 1000, VM_AT(max_boots),
	  .help = "--boots auto: the most rounds (boots of each kernel) (default 8)" },
	{ .name = "--metric", .value = IOR_CMD_TEXT, .arg = "NAME", .complete = IOR_CMD_COMPLETE_METRIC_ONE,
	  .kind = IOR_CMD_PARSE, .parse = ior_cmd_parse_metric, VM_AT(auto_metric),
	  .help = "--boots auto: the metric a cell is decided on (default value, the headline; under TCG the request "
		  "counters' req_kib, merge_pct or req_per_gib hold still between boots where timings do not)" },
	{ .name = "--timeout", .value = IOR_CMD_NUMBER, .arg = "S",
	  .kind = IOR_CMD_REAL, .min = 1, .max = 86400, VM_MACHINE_AT(total_timeout_s),
	  .help = "total limit of one boot in seconds; past it the boot is a hang (default 1800); on a real machine the "
		  "limit of its ioregress run (default 21600)" },
	{ .name = "--boot-timeout", .value = IOR_CMD_NUMBER, .arg = "S",
	  .kind = IOR_CMD_REAL, .min = 1, .max = 86400, VM_MACHINE_AT(boot_timeout_s),
	  .help = "no sign of the guest's init by then: boot-failed (default 120); on a real machine, no SSH answer as a "
		  "new boot by then: the boot is lost and tried again (default 600)" },
	IOR_CMD_ROWS_TARGET(struct vm_args, tg,
			    "where the kernels boot: qemu (default, a guest on this machine), ssh://[user@]host[:port] (another "
		  "machine, through ssh and scp with your keys and ~/.ssh/config: each package installed with its dpkg, "
		  "booted once with kexec, checked by release and boot id, measured by its own ioregress, its database "
		  "brought back; what was installed is removed at the end), local (this machine across reboots; not "
		  "built yet)"),
	IOR_CMD_ROW_TARGET_BOOT(struct vm_args, tg, "--boot"),
	{ .name = "--reboot-this-machine", VM_AT(reboot_this_machine),
	  .help = "--target local: yes, reboot this machine into each kernel (refused without it)" },
	{ .name = "--localmodconfig", VM_AT(localmodconfig),
	  .help = "--tree on a real machine: trim the target's config to the modules it has loaded, as make "
		  "localmodconfig does with its lsmod (a much shorter build; a module it has not loaded is not built)" },
	{ .name = "--idle-timeout", .value = IOR_CMD_NUMBER, .arg = "S",
	  .kind = IOR_CMD_REAL, .min = 2 * IOR_VM_TICK_S, .max = 86400, VM_MACHINE_AT(idle_timeout_s),
	  .help = "no heartbeat from the guest (one per repetition, announcing how long it will take, and one every "
		  "5 s while a repetition of unknown length runs) for this long beyond what the last one announced: "
		  "hang (default 120)" },
	{ .name = "--accel", .value = IOR_CMD_CHOICE, .arg = "auto|kvm|tcg",
	  VM_MACHINE_AT(accel), .choices = "auto kvm tcg",
	  .help = "auto (default): KVM when /dev/kvm opens and a probe boot under it reaches init, else TCG" },
	{ .name = "--cpus", .value = IOR_CMD_NUMBER, .arg = "N",
	  .kind = IOR_CMD_COUNT, .min = 1, .max = 64, VM_MACHINE_AT(cpus),
	  .help = "vCPUs per guest (default 1); pinned to host CPUs when the host has more" },
	{ .name = "--memory", .value = IOR_CMD_NUMBER, .arg = "MB",
	  .kind = IOR_CMD_COUNT, .min = 128, .max = 65536, VM_MACHINE_AT(memory_mb),
	  .help = "guest memory (default: what the matrix's files need in the guest's RAM, 512 at least)" },
	{ .name = "--scratch-size", .value = IOR_CMD_NUMBER, .arg = "MB",
	  .kind = IOR_CMD_COUNT, .min = 16, .max = 1 << 20, VM_MACHINE_AT(scratch_mb),
	  .help = "the guest's scratch disk /dev/vda, a sparse file under /tmp (default 512)" },
	{ .name = "--cache-dir", .value = IOR_CMD_FILE, .arg = "DIR", VM_AT(vm.o.cache_dir),
	  .help = "where Debian kernel packages are downloaded and unpacked (default ~/.cache/ioregress/kernels)" },
	{ .name = "--guest-host", .value = IOR_CMD_TEXT, .arg = "NAME", VM_AT(vm.o.guest.host_name),
	  .help = "the host name the guests' runs are stored under (default HOST-vm)" },
	{ .name = "--tree", .value = IOR_CMD_FILE, .arg = "DIR", VM_AT(kb.tree),
	  .help = "the operands are revisions of the kernel git tree DIR: each is checked out in turn and built as "
		  "'kernel build' does (with LOCALVERSION=-gSHA12, so each release names its commit), then booted; "
		  "the runs' kernels record the commits. With --target ssh://HOST each is built with the target's own "
		  "config (its /boot/config-RELEASE, else /proc/config.gz; --config FILE instead), packaged with make "
		  "bindeb-pkg and installed there as a package" },
	IOR_CMD_ROWS_KBUILD(struct vm_args, kb, fragments),
	{ .name = "--boot-only",
	  VM_AT(vm.o.boot_only), .help = "boot each kernel to its init and power off: the bare boot time" },
	{ .name = "--qemu", .value = IOR_CMD_FILE, .arg = "PROGRAM",
	  VM_MACHINE_AT(qemu), .help = "default qemu-system-x86_64" },
	{ .name = "--busybox", .value = IOR_CMD_FILE, .arg = "FILE",
	  VM_AT(vm.o.guest.busybox), .help = "a static busybox (default /bin/busybox)" },
	{ .name = "--ioregress", .value = IOR_CMD_FILE, .arg = "FILE", VM_AT(vm.o.guest.ioregress),
	  .help = "the ioregress binary put in the guest (default the guest binary built with this one, "
		  "ioregress-guest, else this one)" },
	{ 0 },
};

const struct ior_command ior_cmd_vm = {
	.name = "vm",
	.fn = cmd_vm,
	.flags = IOR_CMD_NEEDS_DB,
	.error_status = 1,
	.summary = "boot kernels under qemu, run a matrix inside each and merge the results",
	.subs = (const struct ior_cmd_sub[]){ { .name = "run", .operands = "KERNEL...|REV...", .options = run_options },
					       { 0 } },
	.operand_complete = IOR_CMD_COMPLETE_KERNEL_PACKAGE,
	.description =
		"KERNEL is a Debian kernel package name (linux-image-6.1.0-47-cloud-amd64: fetched with apt-get "
		"download, unpacked with dpkg-deb -x, cached), a kernel package's PATH.deb (make bindeb-pkg's), or "
		"PATH/bzImage:MODULES_DIR for a kernel built from a tree, or with --tree DIR a revision of that tree, "
		"built first. Each guest boots from an initramfs with busybox, this ioregress and the libraries it needs, and "
		"the kernel's virtio and scheduler modules; it runs the matrix on its virtio scratch disk /dev/vda and "
		"writes its database and exit status to a second disk, which the host reads back and merges into "
		"--db. Each boot is recorded with one outcome (ok, test-failed, panic, hang, boot-failed, "
		"infra-error), its VM settings and its console log; a kernel that fails does not stop the others.\n\n"
		"Under TCG (no usable KVM) the guest's I/O runs through an emulated CPU: its figures are not the "
		"device's speed, but kernels compared under the same settings on the same host still show which "
		"kernel's block layer costs more.\n\n"
		"Exit status: 0 when every boot was ok, 1 otherwise, 2 for bad arguments.",
	.options = (const struct ior_cmd_opt[]){ { 0 } },
};
