/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress run [MATRIX]`: parse the matrix (or take the default), apply --set overrides, run it. */
#include "common/error.h"
#include "common/stop.h"
#include "harness/command_list.h"
#include "matrix/matrix_dry_run.h"
#include "db/db.h"
#include "run/run.h"
#include "run/progress.h"
#include "run/run_git.h"
#include "common/trust.h"
#include "kernel/info.h"
#include "matrix/matrix.h"
#include "vm/guest.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

struct run_args {
	struct ior_cmd_list sets;   /* --set KEY=VALUE */
	struct ior_cmd_list allow;  /* --allow-destructive=PATH */
	const char *baseline;       /* --baseline KERNEL: adaptive cells stop once decided against it */
	const char *resume;         /* --resume RUN_ID */
	bool dry_run;               /* --dry-run: show the cells and the estimate, run nothing */
	const char *kernel_tree;    /* --kernel-tree PATH: the tree the running kernel was built from */
	const char *repo;           /* --repo PATH: where the release's -gSHA is looked up */
};

/* The checks between run's options and operands: 0, or 2 after a usage error. */
/* Whether word names a matrix file: an existing regular file, or a name ending in .ini. */
static bool looks_like_matrix(const char *word)
{
	struct stat st;
	size_t len = strlen(word);
	return (stat(word, &st) == 0 && S_ISREG(st.st_mode)) || (len > 4 && strcmp(word + len - 4, ".ini") == 0);
}

static int check_args(const struct run_args *ra, const struct ior_cmd_list *operands)
{
	for (size_t i = 0; i < ra->allow.n; i++) {
		if (ra->allow.v[i][0] != '/') {
			ior_cmd_error("'--allow-destructive' needs the exact device path, e.g. --allow-destructive=/dev/sdX");
			return 2;
		}
		/* `run --allow-destructive /root/m.ini`: the matrix taken as the device, and the default run */
		if (looks_like_matrix(ra->allow.v[i])) {
			ior_cmd_error("'--allow-destructive' takes a device, and '%s' is a %s: write "
				      "--allow-destructive=DEVICE before the matrix", ra->allow.v[i],
				      access(ra->allow.v[i], F_OK) == 0 ? "regular file" : "matrix file name");
			return 2;
		}
	}
	/* `run --baseline m.ini`: the matrix taken as the kernel, and the built-in matrix run instead */
	if (ra->baseline && !operands->n && !ra->resume && looks_like_matrix(ra->baseline)) {
		ior_cmd_error("'--baseline' took '%s' as its kernel, and no matrix is left: write --baseline=KERNEL "
			      "MATRIX", ra->baseline);
		return 2;
	}
	if (operands->n > 1) {
		ior_cmd_error("'run' takes one matrix, got '%s' and '%s'", operands->v[0], operands->v[1]);
		return 2;
	}
	if (ra->kernel_tree && ra->repo) {
		ior_cmd_error("give '--kernel-tree' or '--repo', not both");
		return 2;
	}
	if (ra->resume && (operands->n || ra->sets.n || ra->dry_run)) {
		ior_cmd_error("'--resume' runs the stored matrix as it was: give no MATRIX, --set or --dry-run");
		return 2;
	}
	return 0;
}

/* Lines (each ending in a newline, or not the last) as "warning: LINE" on stderr; NULL is none. */
static void print_warnings(const char *lines)
{
	for (const char *p = lines; p && *p;) {
		size_t len = strcspn(p, "\n");
		fprintf(stderr, "warning: %.*s\n", (int)len, p);
		p += len + (p[len] == '\n');
	}
}

#ifndef IOR_GUEST_BINARY
/* The commit the run stores with the kernel, as git log would name it. */
static void print_commit(const struct ior_git_commit *c)
{
	printf("kernel built from commit %s", c->sha);
	if (c->describe[0])
		printf(" (%s)", c->describe);
	printf(": %s; %s <%s>, %s\n", c->subject, c->author_name, c->author_email, c->author_date);
}

/* --kernel-tree or --repo: the commit the running kernel was built from, printed; non-zero after
 * an error (printed). */
static int resolve_commit(const struct run_args *ra, struct ior_git_commit *commit, bool *have, char *warning,
			  size_t len)
{
	if (!ra->kernel_tree && !ra->repo)
		return 0;
	struct utsname u;
	int rc = uname(&u) == 0 ? IOR_OK : ior_error_errno(IOR_ERROR, errno, "cannot read kernel release (uname)");
	if (rc == IOR_OK)
		rc = ior_run_git_resolve(u.release, ra->kernel_tree, ra->repo, commit, have, warning, len);
	if (rc) {
		fprintf(stderr, "error: %s\n", ior_error_last());
		return 1;
	}
	if (*have)
		print_commit(commit);
	return 0;
}
#else
/* The guest binary (IOR_GUEST_BINARY) links no libgit2 and has neither option: nothing to look up. */
static int resolve_commit(const struct run_args *ra, struct ior_git_commit *commit, bool *have, char *warning,
			  size_t len)
{
	(void)ra, (void)commit, (void)have, (void)warning, (void)len;
	return 0;
}
#endif

/* Everything a reader of the figures must know: fills, warnings, and every cell that did not
 * run as asked, with its reason (the database has the same; nothing is only there). */
static void print_summary(struct ior_db *db, const struct ior_run_summary *s, const char *db_path)
{
	for (size_t i = 0; i < s->nfills; i++) {
		const struct ior_run_fill *f = &s->fills[i];
		if (f->bytes)
			printf("device '%s': filled %.1f MiB with %s data in %.2f s before measuring (part of no sample)\n",
			       f->device, (double)f->bytes / 1048576.0, f->fill, f->seconds);
		else
			printf("device '%s': left sparse (fill = sparse): reads of holes measure the filesystem, not storage\n",
			       f->device);
	}
	print_warnings(s->warnings);
	struct ior_db_filter f = { .run_id = s->run_id };
	struct ior_db_cell_problem *bad = NULL;
	size_t nbad = 0;
	if (ior_db_cells_not_ok(db, &f, &bad, &nbad) != IOR_OK)
		fprintf(stderr, "warning: %s\n", ior_error_last());
	for (size_t i = 0; i < nbad; i++)
		fprintf(stderr, "%s: %s %s %s: %s\n", bad[i].status, bad[i].device,
			bad[i].scheduler ? bad[i].scheduler : "(no scheduler)", bad[i].engine,
			bad[i].reason ? bad[i].reason : "no reason recorded");
	ior_db_cell_problems_free(bad, nbad);
	printf("run %lld: %u cells (%u measured, %u unavailable, %u skipped, %u failed), %u samples in '%s', "
	       "order %s", (long long)s->run_id, s->cells, s->cells_ok, s->cells_unavailable, s->cells_skipped,
	       s->cells_failed, s->samples, db_path, s->order ? s->order : "?");
	if (s->order_seed)
		printf(" (seed %llu)", (unsigned long long)s->order_seed);
	printf("\n");
	if (s->modules_loaded[0])
		printf("scheduler modules loaded for the run and unloaded after it: %s\n", s->modules_loaded);
}

/* The matrix of an interrupted run, after checking that resuming it here is meaningful:
 * same host and kernel, its process gone, and nothing of it left to recover. */
static int load_resumable(struct ior_db *db, const char *id_text, int64_t *run_id, struct ior_matrix **m)
{
	char *end;
	long long id = strtoll(id_text, &end, 10);
	if (*end || id <= 0)
		return ior_error_set(IOR_EINVALID, "--resume: '%s' is not a run id", id_text);
	struct ior_db_run_info info;
	int rc = ior_db_run_info(db, id, &info);
	if (rc)
		return rc;
	struct ior_kernel_info k;
	if ((rc = ior_kernel_info_read(&k)) == IOR_OK) {
		if (strcmp(info.status, "complete") == 0 || strcmp(info.status, "imported") == 0)
			rc = ior_error_set(IOR_EINVALID, "run %lld is %s: nothing to resume", id, info.status);
		else if (strcmp(info.host, k.hostname) != 0 || strcmp(info.kernel, k.release) != 0)
			rc = ior_error_set(IOR_EINVALID, "run %lld was made on %s with kernel %s; this is %s with %s, "
					   "and resuming would mix them", id, info.host, info.kernel, k.hostname, k.release);
		else if (!info.matrix_text)
			rc = ior_error_set(IOR_EINVALID, "run %lld has no stored matrix", id);
		else if (info.merged_from)
			rc = ior_error_set(IOR_EREFUSED, "run %lld came in by merging '%s': its stored matrix is data from "
					   "another file, not a command this database ran; run the matrix again instead",
					   id, info.merged_from);
	}
	if (rc == IOR_OK) {
		struct ior_db_undo *u;
		size_t n, pending = 0;
		if ((rc = ior_db_undo_pending(db, k.hostname, &u, &n)) == IOR_OK) {
			for (size_t i = 0; i < n; i++)
				pending += u[i].run_id == id;
			ior_db_undo_free(u, n);
			if (pending)
				rc = ior_error_set(IOR_EBUSY, "run %lld left %zu changes on this machine; run 'ioregress recover' "
						   "first (if it is still running, wait for it)", id, pending);
		}
	}
	if (rc == IOR_OK)
		rc = ior_matrix_parse_string(m, info.matrix_file ? info.matrix_file : "(stored matrix)", info.matrix_text);
	*run_id = id;
	ior_db_run_info_free(&info);
	return rc;
}

/* Inside a guest of `vm run`: the database and the exit status onto the results disk, then the
 * last heartbeat. Written here rather than left to the init: a request given up on can keep this
 * process from exiting (aio's exit waits for it), and the host then has the results already. */
static int guest_finish(struct ior_cmd_ctx *ctx, int status)
{
	const char *disk = ior_vm_guest_results();
	if (!disk)
		return status;
	if (ior_vm_guest_commit(ctx->db, disk, status) != IOR_OK)
		fprintf(stderr, "warning: %s\n", ior_error_last());
	ior_vm_guest_beat(0, IOR_VM_BEAT_FINISHED " %d", status);
	return status;
}

/* Who watches the run: inside a vm run guest the guest (heartbeats for the host's watchdog, each
 * sample onto the results disk), else the progress line on a terminal, else nobody. */
static const struct ior_run_observer *choose_observer(const struct ior_cmd_ctx *ctx, struct ior_run_observer *guest)
{
	const char *disk = ior_vm_guest_results();
	if (disk) {
		*guest = (struct ior_run_observer){
			.ctx = (void *)disk,
			.start = ior_vm_guest_on_start,
			.beat = ior_vm_guest_on_beat,
			.ticking = ior_vm_guest_on_ticking,
			.stuck = ior_vm_guest_on_stuck,
			.results = ior_vm_guest_on_results,
		};
		return guest;
	}
	return !ctx->quiet && isatty(STDERR_FILENO) ? &ior_run_terminal_observer : NULL;
}

static int cmd_run(int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	struct run_args ra = { 0 };
	struct ior_cmd_parsed p;
	int status = ior_cmd_parse_or_usage(&ior_cmd_run, argc, argv, &ra, &p);
	if (!status)
		status = check_args(&ra, &p.operands);
	if (status)
		return status;
	const char *path = p.operands.n ? p.operands.v[0] : NULL;
	const char **sets = ra.sets.v;
	struct ior_matrix *m = NULL;
	int64_t resume_id = 0;
	int rc = path ? ior_check_trusted_file(path, "matrix") : IOR_OK;
	if (rc == IOR_OK)
		rc = ra.resume ? load_resumable(ctx->db, ra.resume, &resume_id, &m)
		     : path    ? ior_matrix_parse_file_set(&m, path, sets, ra.sets.n)
			       : ior_matrix_default(&m);
	for (int i = 0; rc == IOR_OK && !path && (size_t)i < ra.sets.n; i++)
		if ((rc = ior_matrix_set(m, sets[i])) != 0)
			ior_error_wrap(rc, "--set '%s'", sets[i]);
	if (rc) {
		fprintf(stderr, "error: %s\n", ior_error_last());
		ior_matrix_free(m);
		return 1;
	}
	print_warnings(m->warnings);
	struct ior_git_commit commit;
	char commit_warning[1024] = "";
	bool have_commit = false;
	if (resolve_commit(&ra, &commit, &have_commit, commit_warning, sizeof(commit_warning))) {
		ior_matrix_free(m);
		return 1;
	}
	if (ra.dry_run) {
		rc = ior_matrix_dry_run(stdout, m);
		ior_matrix_free(m);
		if (rc)
			fprintf(stderr, "error: %s\n", ior_error_last());
		return rc ? 1 : 0;
	}

	ior_stop_install_handlers();
	struct ior_run_observer guest;
	struct ior_run_options opts = {
		.observer = choose_observer(ctx, &guest),
		.allow_destructive = ra.allow.v,
		.nallow_destructive = ra.allow.n,
		.baseline = ra.baseline,
		.resume_run_id = resume_id,
		.commit = have_commit ? &commit : NULL,
		.commit_warning = commit_warning[0] ? commit_warning : NULL,
	};
	struct ior_run_summary summary;
	rc = ior_run_matrix(ctx->db, m, &opts, &summary);
	ior_matrix_free(m);
	if (summary.run_id && (rc == IOR_OK || summary.cells))
		print_summary(ctx->db, &summary, ctx->db_path); /* a matrix refused before any cell says only why */
	if (rc == IOR_EINTERRUPTED) {
		int sig = ior_stop_signal();
		fprintf(stderr, "error: run %lld interrupted by signal %d (%s); its samples are kept\n",
			(long long)summary.run_id, sig, strsignal(sig));
		return guest_finish(ctx, 128 + sig);
	}
	if (rc) {
		fprintf(stderr, "error: %s\n", ior_error_last());
		return guest_finish(ctx, IOR_RUN_EXIT_FAILED);
	}
	if (summary.cells_ok == 0 && summary.samples == 0) {
		fprintf(stderr, "error: run %lld measured nothing: no cell could run (reasons above)\n",
			(long long)summary.run_id);
		return guest_finish(ctx, IOR_RUN_EXIT_NOTHING);
	}
	if (summary.cells_failed) {
		fprintf(stderr, "error: run %lld: %u of %u cells failed (reasons above)\n", (long long)summary.run_id,
			summary.cells_failed, summary.cells);
		return guest_finish(ctx, IOR_RUN_EXIT_FAILED);
	}
	return guest_finish(ctx, 0);
}

#define RUN_AT(member) IOR_CMD_AT(struct run_args, member)
static const struct ior_cmd_opt run_options[] = {
	{ .name = "--set", .alias = "-o", .value = IOR_CMD_TEXT, .arg = "KEY=VALUE", .repeat = true,
	  .complete = IOR_CMD_COMPLETE_SET_KEY, RUN_AT(sets),
	  .help = "override a matrix key: matrix.repetitions=5, engine.NAME.KEY=VALUE, device.NAME.KEY=VALUE, "
		  "defaults.KEY=VALUE, defaults.TYPE.KEY=VALUE; several values sweep a key (engine.r.bs=\"4k 1M\")" },
	{ .name = "--allow-destructive", .value = IOR_CMD_FILE, .arg = "DEVICE", .repeat = true, RUN_AT(allow),
	  .help = "confirm that write engines may destroy DEVICE (exact path); needed for any device "
		  "ioregress did not create, together with destructive = yes in the matrix. Mounted devices, "
		  "swap and the root filesystem's device are refused regardless." },
	{ .name = "--baseline", .value = IOR_CMD_TEXT, .arg = "KERNEL", .complete = IOR_CMD_COMPLETE_RELEASE, RUN_AT(baseline),
	  .help = "with max_repetitions set in the matrix (adaptive repetitions), a cell also stops as soon "
		  "as it is decided against KERNEL's samples" },
	{ .name = "--dry-run", RUN_AT(dry_run),
	  .help = "print the cells the matrix expands to on this kernel (sweeps and defaults applied), their "
		  "count and an estimate of the time, and run nothing; needs neither root nor the database" },
#ifndef IOR_GUEST_BINARY
	{ .name = "--kernel-tree", .value = IOR_CMD_FILE, .arg = "PATH", RUN_AT(kernel_tree),
	  .help = "the git tree the running kernel was built from: its HEAD commit (full sha, git describe, "
		  "subject, author and date) is stored with the kernel; refused when PATH is no git repository or "
		  "HEAD is not the release's -gSHA" },
	{ .name = "--repo", .value = IOR_CMD_FILE, .arg = "PATH", RUN_AT(repo),
	  .help = "a git repository in which the running release's -gSHA suffix (CONFIG_LOCALVERSION_AUTO, "
		  "6.8.0-rc3-00042-gdeadbeef1234) is looked up, and that commit stored with the kernel; refused when "
		  "PATH is no git repository or the release has no -gSHA; a sha missing or ambiguous there is a "
		  "warning and the run measures" },
#endif
	{ .name = "--resume", .value = IOR_CMD_TEXT, .arg = "RUN_ID", .alone = true, RUN_AT(resume),
	  .help = "complete an interrupted run (after 'ioregress recover'): its stored matrix, exactly the "
		  "missing repetitions, same host and kernel only" },
	{ 0 },
};

const struct ior_command ior_cmd_run = {
	.name = "run",
	.fn = cmd_run,
	.flags = IOR_CMD_NEEDS_DB | IOR_CMD_NEEDS_ROOT | IOR_CMD_DRY_RUN,
	.error_status = 1,
	.summary = "run a matrix (or the built-in default) and store every sample",
	.operands = "[MATRIX]",
	.operand_files = true,
	.operand_glob = "*.ini",
	.description = "Runs MATRIX, or without one the built-in default, which answers which scheduler is best "
		       "on a scratch device (a 1 GiB scratch loop device, every scheduler the kernel offers, hdparm's "
		       "direct read, one warm-up, then rounds of 5 to 10 repetitions until the verdict decides). "
		       "Scratch devices are filled (random data by default) before the first measurement, and "
		       "repetitions are interleaved across each device's cells unless the matrix says otherwise. "
		       "Each sample is committed to the database as soon as it is measured. At the end every "
		       "cell that did not run is printed with its reason. Exit status: 0 when every cell was "
		       "measured or skipped for a stated reason, 1 when a cell (or the run) failed, 3 when "
		       "nothing at all was measured.",
	.options = run_options,
};
