/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress bisect start|run|status|log|reset|replay`: argument handling over bisect/ (its session,
 * state, sources and log). */
#include "bisect/kernel_tree.h"
#include "bisect/replay.h"
#include "bisect/session.h"
#include "common/error.h"
#include "common/stop.h"
#include "harness/command_list.h"
#include "harness/kbuild_args.h"
#include "harness/target_args.h"
#include "options/option.h"
#include "vm/vm.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { BISECT_FOUND = 0, BISECT_ERROR = 1, BISECT_USAGE = 2, BISECT_RANGE = 3, BISECT_REFUSED = 4 };

struct bisect_args {
	const char *sub, *repo, *bad, *file, *matrix;
	struct ior_cmd_list goods;
	struct ior_cmd_list kernels;  /* --kernels: packaged kernels, oldest first (v set when given) */
	bool kernel;                  /* --kernel: the repository is a kernel tree, built and booted per step */
	struct ior_kbuild_opts kb;
	struct ior_cmd_list fragments;
	bool lower_is_better;
	struct ior_bisect_commands c;
	struct ior_bisect_judge_opts o;
	size_t cap;                   /* --cap; 0 when not given */
	double budget;                /* --budget in seconds; 0 when not given */
	struct ior_cmd_target tg;     /* run --target: packaged kernels measured on a real machine */
	double boot_timeout;          /* run --boot-timeout; 0 when not given */
	bool real;                    /* --target names a real machine */
};

static int parse_budget(void *field, const char *value)
{
	double s;
	if (ior_parse_duration(value, &s))
		return IOR_EINVALID;
	if (s < 1)
		return ior_error_set(IOR_EINVALID, "'%s' is under a second", value);
	*(double *)field = s;
	return IOR_OK;
}

/* Without --budget or --cap a bisection plans its rounds for an hour. */
#define BISECT_BUDGET_DEFAULT (60 * 60.0)

/* The checks between bisect's options and operands, after the parser has taken each
 * subcommand's own. */
static int check_args(struct bisect_args *a, const struct ior_cmd_list *operands)
{
	bool packages = a->kernels.v != NULL;
	if (ior_cmd_kbuild_finish(&a->kb, &a->fragments))
		return IOR_EINVALID;
	if (a->goods.n > 64)
		return ior_error_set(IOR_EINVALID, "--good: at most 64 good ends");
	if (a->kernels.n > 256)
		return ior_error_set(IOR_EINVALID, "--kernels: at most 256 kernels");
	if (!a->kernel && (a->kb.config || a->kb.defconfig || a->kb.nfragments || a->kb.out || a->kb.nice))
		return ior_error_set(IOR_EINVALID, "--config, --defconfig, --fragment, --build-dir and --nice need "
				     "'bisect start --kernel'");
	if (a->kernel && packages)
		return ior_error_set(IOR_EINVALID, "give --kernel (a kernel tree) or --kernels (packaged kernels), not both");
	/* --cap alone: that many rounds per commit, as before budgets; with --budget (given or the default)
	 * a bound on the plan's. It bounds the ends' calibration too, the default's 60 otherwise. */
	if (a->cap && !a->budget)
		a->o.cap = a->cap;
	else
		a->o.cap = a->cap, a->budget = a->budget ? a->budget : BISECT_BUDGET_DEFAULT;
	size_t cal_cap = a->cap ? a->cap : 60;
	a->o.calibrate_cap = cal_cap > a->o.calibrate ? cal_cap : a->o.calibrate;
	if (!strcmp(a->sub, "start") && packages && (a->bad || a->goods.n || a->repo))
		return ior_error_set(IOR_EINVALID, "'bisect start --kernels' takes the ends from the list: no --good, --bad "
				     "or --repo");
	if (!strcmp(a->sub, "start") && !packages && (!a->bad || !a->goods.n))
		return ior_error_set(IOR_EINVALID, "'bisect start' needs --good REV and --bad REV, or --kernels PKG...");
	if (operands->n > 1)
		return ior_cmd_unknown_argument(&ior_cmd_bisect, operands->v[1]);
	if (a->tg.boot && !a->tg.target)   /* named --target-boot here: --boot is the user's command */
		return ior_error_set(IOR_EINVALID, "--target-boot is for a real machine: give --target ssh://HOST");
	if (ior_cmd_target_finish(&a->tg, a->boot_timeout, 0, &a->real))
		return IOR_EINVALID;
	if (a->boot_timeout && !a->real)
		return ior_error_set(IOR_EINVALID, "--boot-timeout is for a real machine: give --target ssh://HOST");
	if (a->real && a->tg.t.url.kind != IOR_VM_TARGET_SSH)
		return ior_error_set(IOR_EINVALID, "--target %s: a bisection runs on a machine over SSH (ssh://HOST); this "
				     "machine across reboots is for vm run", a->tg.target);
	if (a->real && (a->c.measure || a->c.build || a->c.boot || a->c.image))
		return ior_error_set(IOR_EINVALID, "--target measures packaged kernels with --matrix; --measure, --build, "
				     "--boot and --artifact are for a bisection of your own commands");
	a->file = operands->n ? operands->v[0] : NULL;
	if (!strcmp(a->sub, "replay") && !a->file)
		return ior_error_set(IOR_EINVALID, "'bisect replay' needs the FILE a 'bisect log' wrote");
	return IOR_OK;
}

/* A built kernel of --kernels (PATH/bzImage[:MODULES_DIR]) checked as vm run checks it (the image a
 * regular file, the module tree indexed), before anything is recorded, and written to out with both
 * paths absolute: the bisection runs later, maybe from another directory. */
static int kernel_path(const char *spec, char *out, size_t len)
{
	struct ior_vm_kernel *k = calloc(1, sizeof(*k));
	if (!k)
		return ior_error_set(IOR_ERROR, "out of memory");
	int rc = ior_vm_kernel_resolve(k, spec, NULL);
	const char *colon = strrchr(spec, ':');
	char image[PATH_MAX], modules[PATH_MAX] = "", dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", colon && colon[1] ? colon + 1 : "");
	if (!rc && !realpath(k->image, image))
		rc = ior_error_errno(IOR_EINVALID, errno, "cannot resolve kernel image '%s'", k->image);
	if (!rc && dir[0] && !realpath(dir, modules))
		rc = ior_error_errno(IOR_EINVALID, errno, "cannot resolve module tree '%s'", dir);
	if (!rc && (strchr(image, ' ') || strchr(modules, ' ')))
		rc = ior_error_set(IOR_EINVALID, "'%s' has a space in its path, which the list of kernels cannot hold", spec);
	if (!rc && (size_t)snprintf(out, len, "%s%s%s", image, modules[0] ? ":" : "", modules) >= len)
		rc = ior_error_set(IOR_EINVALID, "'%s': path too long", spec);
	free(k);
	return rc ? ior_error_wrap(IOR_EINVALID, "--kernels") : IOR_OK;
}

static int start_packages(struct bisect_args *a, struct ior_cmd_ctx *ctx)
{
	struct ior_bisect_source *src = NULL;
	char list[256 * 130] = "";
	size_t n = a->kernels.n;
	char (*given)[PATH_MAX * 2 + 2] = calloc(n ? n : 1, sizeof(*given));
	const char **kernels = calloc(n ? n : 1, sizeof(*kernels));
	int rc = given && kernels ? IOR_OK : ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; !rc && i < n; i++) {
		const char *k = a->kernels.v[i];
		kernels[i] = given[i];
		if (strchr(k, ' '))
			rc = ior_error_set(IOR_EINVALID, "--kernels: '%s' is not a package name", k);
		/* checked against apt's lists as vm run does, before anything is recorded: a release string
		 * or a metapackage gets the package names that exist */
		else if (!strchr(k, '/') && ior_vm_package_check(k) != IOR_OK)
			rc = ior_error_wrap(IOR_EINVALID, "--kernels");
		else if (strchr(k, '/'))
			rc = kernel_path(k, given[i], sizeof(given[i]));
		else
			snprintf(given[i], sizeof(given[i]), "%s", k);
		/* a kernel twice makes a chain with a step of no change, or an end that is also a candidate */
		for (size_t j = 0; !rc && j < i; j++)
			if (!strcmp(given[j], given[i]))
				rc = ior_error_set(IOR_EINVALID, "--kernels: '%s' is given twice (as kernel %zu and %zu)%s%s", k,
						   j + 1, i + 1, strcmp(k, given[i]) ? ", as " : "",
						   strcmp(k, given[i]) ? given[i] : "");
		if (!rc && strlen(list) + strlen(given[i]) + 2 > sizeof(list))
			rc = ior_error_set(IOR_EINVALID, "--kernels: the list is too long at '%s'", k);
		if (!rc)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? " " : "", given[i]);
	}
	if (!rc)
		rc = ior_bisect_source_packages(&src, kernels, n);
	int64_t id = 0;
	if (!rc) {
		struct ior_bisect_info b = { .source = "packages", .good = (char *)kernels[0],
					     .bad = (char *)kernels[n - 1], .kernels = list,
					     .higher_is_better = !a->lower_is_better };
		rc = ior_bisect_create(ctx->db, &b, &id);
	}
	if (!rc)
		rc = ior_bisect_log(ctx->db, id, NULL, "start", list);
	if (!rc)
		printf("bisection %lld: %zu kernels between good %s and bad %s\n", (long long)id, n - 2, kernels[0],
		       kernels[n - 1]);
	ior_bisect_source_free(src);
	free(given);
	free(kernels);
	return rc;
}

static int start(struct bisect_args *a, struct ior_cmd_ctx *ctx)
{
	if (a->kernels.v)
		return start_packages(a, ctx);
	char head[512], repo[PATH_MAX], good[64 * 48] = "";
	const char *path = a->repo ? a->repo : ".";
	if (!realpath(path, repo))
		return ior_error_set(IOR_EINVALID, "cannot find the repository '%s'", path);
	struct ior_bisect_source *src = NULL;
	struct ior_bisect_graph g = { 0 };
	char **goods = NULL, *bad = NULL;
	int rc = ior_bisect_git_clean(repo, head, sizeof(head));
	if (!rc)
		rc = ior_bisect_source_git(&src, repo);
	if (!rc)
		rc = src->load(src, a->goods.v, a->goods.n, a->bad, &g, &goods, &bad);
	for (size_t i = 0; !rc && i < a->goods.n; i++)
		snprintf(good + strlen(good), sizeof(good) - strlen(good), "%s%s", i ? " " : "", goods[i]);
	int64_t id = 0;
	if (!rc) {
		struct ior_bisect_info b = { .source = "git", .repo = (char *)src->location, .good = good, .bad = bad,
					     .orig_head = head, .higher_is_better = !a->lower_is_better };
		rc = ior_bisect_create(ctx->db, &b, &id);
	}
	if (!rc)
		rc = ior_bisect_log(ctx->db, id, NULL, "start", a->bad);
	if (!rc && a->kernel)
		rc = ior_bisect_kernel_tree_start(ctx->db, id, &a->kb);
	if (!rc) {
		size_t steps = 0;
		while ((1ull << steps) < g.n)
			steps++;
		printf("bisection %lld: %zu commits between good %.*s and bad %.*s, about %zu steps\n", (long long)id, g.n,
		       ior_bisect_id_width(goods[0]), goods[0], ior_bisect_id_width(bad), bad, steps);
	}
	ior_bisect_ids_free(goods, a->goods.n);
	free(bad);
	ior_bisect_graph_free(&g);
	ior_bisect_source_free(src);
	return rc;
}

static int run(struct bisect_args *a, struct ior_cmd_ctx *ctx, int *status)
{
	struct ior_bisect_run_opts o = { .c = a->c, .matrix = a->matrix, .o = a->o, .budget_s = a->budget, .out = stdout,
					 .target = a->real ? &a->tg.t : NULL };
	struct ior_bisect_session *s = NULL;
	struct ior_bisect_result res;
	int rc = ior_bisect_session_open(&s, ctx->db, &o);
	if (!rc) {
		ior_stop_install_handlers();
		rc = ior_bisect_session_run(s, &res);
	}
	if (!rc)
		*status = res.end == IOR_BISECT_FOUND ? BISECT_FOUND : res.end == IOR_BISECT_RANGE ? BISECT_RANGE
												 : BISECT_REFUSED;
	return ior_bisect_session_close(s, rc);
}

static int show(struct bisect_args *a, struct ior_cmd_ctx *ctx)
{
	struct ior_bisect_info b;
	if (ior_bisect_current(ctx->db, &b))
		return IOR_ERROR;
	int rc;
	if (!strcmp(a->sub, "log")) {
		rc = ior_bisect_log_print(stdout, ctx->db, &b);
	} else if (!strcmp(a->sub, "status")) {
		struct ior_bisect_source *src = NULL;
		rc = ior_bisect_source_of(&b, &src);
		if (!rc)
			rc = ior_bisect_print_status(stdout, ctx->db, &b, src);
		ior_bisect_source_free(src);
	} else {
		rc = b.orig_head ? ior_bisect_git_restore(b.repo, b.orig_head, b.image) : IOR_OK;
		if (!rc)
			rc = ior_bisect_set_status(ctx->db, b.id, "reset", b.result);
		if (!rc)
			rc = ior_bisect_log(ctx->db, b.id, NULL, "reset", b.orig_head);
		if (!rc)
			printf("bisection %lld reset; %s checked out again\n", (long long)b.id, b.orig_head ? b.orig_head : "-");
	}
	ior_bisect_info_free(&b);
	return rc;
}

static int replay(struct bisect_args *a, struct ior_cmd_ctx *ctx)
{
	int64_t id;
	int rc = ior_bisect_replay_file(ctx->db, a->file, &id);
	if (!rc)
		printf("bisection %lld replayed from '%s'; 'ioregress bisect run' continues it\n", (long long)id, a->file);
	return rc;
}

static int cmd_bisect(int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	struct bisect_args a = { .tg = IOR_CMD_TARGET_INIT };
	ior_bisect_judge_opts_default(&a.o);
	struct ior_cmd_parsed p;
	int usage = ior_cmd_parse_or_usage(&ior_cmd_bisect, argc, argv, &a, &p);
	if (usage)
		return usage;
	a.sub = p.sub->name;
	if (check_args(&a, &p.operands)) {
		ior_cmd_error_last();
		return BISECT_USAGE;
	}
	int status = BISECT_FOUND, rc;
	if (!strcmp(a.sub, "start"))
		rc = start(&a, ctx);
	else if (!strcmp(a.sub, "run"))
		rc = run(&a, ctx, &status);
	else if (!strcmp(a.sub, "replay"))
		rc = replay(&a, ctx);
	else
		rc = show(&a, ctx);
	if (rc) {
		ior_cmd_error_last();
		/* interrupted as vm run is: 128 + the signal (130 for SIGINT), the state kept for 'run' again */
		if (rc == IOR_EINTERRUPTED || ior_stop_requested())
			return 128 + (ior_stop_signal() ? ior_stop_signal() : SIGINT);
		return rc == IOR_EINVALID ? BISECT_USAGE : BISECT_ERROR;
	}
	return status;
}

#define BISECT_AT(member) IOR_CMD_AT(struct bisect_args, member)
static const struct ior_cmd_opt start_options[] = {
	{ .name = "--repo", .value = IOR_CMD_FILE, .arg = "PATH", BISECT_AT(repo),
	  .help = "the git work tree to bisect (default: the current directory)" },
	{ .name = "--good", .value = IOR_CMD_TEXT, .arg = "REV", .repeat = true, BISECT_AT(goods),
	  .help = "a revision without the regression (the first one given is calibrated)" },
	{ .name = "--bad", .value = IOR_CMD_TEXT, .arg = "REV", BISECT_AT(bad), .help = "a revision with the regression" },
	{ .name = "--kernel", BISECT_AT(kernel),
	  .help = "the repository is a kernel tree: run builds each commit as 'kernel build' does (the config "
		  "options below, remembered) and measures it by booting it under qemu with --matrix, as vm run does" },
	IOR_CMD_ROWS_KBUILD(struct bisect_args, kb, fragments),
	{ .name = "--lower-is-better", BISECT_AT(lower_is_better),
	  .help = "the measure is a latency or a time, not a throughput" },
	{ .name = "--kernels", .arg = "PKG...", .complete = IOR_CMD_COMPLETE_KERNEL_PACKAGE, .kind = IOR_CMD_WORDS,
	  BISECT_AT(kernels),
	  .help = "bisect an ordered list of packaged kernels (Debian package names or PATH/bzImage:MODULES_DIR, "
		  "oldest first): the first is good, the last bad; each step is a vm run of --matrix" },
	{ 0 },
};

static const struct ior_cmd_opt run_options[] = {
	{ .name = "--matrix", .value = IOR_CMD_FILE, .arg = "FILE", BISECT_AT(matrix),
	  .help = "over packaged kernels or a kernel tree, the matrix each vm run step runs; its first cell is the measure" },
	{ .name = "--measure", .value = IOR_CMD_TEXT, .arg = "CMD", BISECT_AT(c.measure),
	  .help = "the command (sh -c, in the work tree) that measures the checked-out commit and prints one "
		  "sample per line; required the first time, then remembered" },
	{ .name = "--build", .value = IOR_CMD_TEXT, .arg = "CMD", BISECT_AT(c.build),
	  .help = "builds the checked-out commit, once per commit; a non-zero exit skips the commit" },
	{ .name = "--boot", .value = IOR_CMD_TEXT, .arg = "CMD", BISECT_AT(c.boot),
	  .help = "boots the built kernel before each measurement; a non-zero exit skips the commit" },
	{ .name = "--artifact", .value = IOR_CMD_FILE, .arg = "PATH", BISECT_AT(c.image),
	  .help = "the file or directory the build leaves (relative to the tree, or absolute), hashed after each build; a "
		  "commit whose artifact is identical to one already judged (or to an end's) takes its verdict" },
	{ .name = "--image", .value = IOR_CMD_FILE, .arg = "FILE", BISECT_AT(c.image),
	  .help = "the kernel image the build leaves: --artifact for a kernel" },
	{ .name = "--timeout", .value = IOR_CMD_NUMBER, .arg = "SECONDS", .kind = IOR_CMD_COUNT, .min = 1, .max = 100000,
	  BISECT_AT(c.timeout_s),
	  .help = "the longest a build, boot or measure command may take; past it its process group is ended "
		  "and the step fails, which skips the commit (default none)" },
	{ .name = "--budget", .value = IOR_CMD_NUMBER, .arg = "DURATION", .kind = IOR_CMD_PARSE, .parse = parse_budget,
	  BISECT_AT(budget),
	  .help = "the time this run may take to an answer (90m, 2h): the rounds per commit are planned from the ends' "
		  "noise and gap and the time a measurement takes, and the bisection is refused only when no plan within "
		  "it finds the gap (default 60m; with --cap alone, none)" },
	{ .name = "--cap", .value = IOR_CMD_NUMBER, .arg = "N", .kind = IOR_CMD_COUNT, .min = 5, .max = 100000,
	  BISECT_AT(cap),
	  .help = "the most rounds (good end, commit, bad end) of one commit before it is skipped as undecided, "
		  "and of the ends' calibration; alone, exactly that many rounds per commit and no budget" },
	{ .name = "--calibrate", .value = IOR_CMD_NUMBER, .arg = "N", .kind = IOR_CMD_COUNT, .min = 10, .max = 100000,
	  BISECT_AT(o.calibrate), .help = "rounds of both ends before the first judgement (default 10, at least 10)" },
	IOR_CMD_ROWS_TARGET(struct bisect_args, tg,
			    "over packaged kernels, where each measurement boots: a qemu guest on this machine (default), or "
			    "ssh://[user@]host[:port], another machine that boots each kernel once with kexec, as vm run "
			    "--target does, and stays on it until the next measurement; at the end its own kernel is booted "
			    "again and what was installed removed. Given on every run of the bisection"),
	IOR_CMD_ROW_TARGET_BOOT(struct bisect_args, tg, "--target-boot"),
	{ .name = "--boot-timeout", .value = IOR_CMD_NUMBER, .arg = "S", .kind = IOR_CMD_REAL, .min = 1, .max = 86400,
	  BISECT_AT(boot_timeout),
	  .help = "a real machine: no SSH answer as a new boot by then: the boot is lost and tried again (default 600)" },
	{ 0 },
};

static const struct ior_cmd_opt no_options[] = { { 0 } };

const struct ior_command ior_cmd_bisect = {
	.name = "bisect",
	.fn = cmd_bisect,
	.flags = IOR_CMD_NEEDS_DB,
	.error_status = BISECT_ERROR,
	.summary = "find the commit that caused an I/O regression, through the noise",
	.subs = (const struct ior_cmd_sub[]){
		{ .name = "start", .options = start_options },
		{ .name = "run", .options = run_options },
		{ .name = "status", .options = no_options },
		{ .name = "log", .options = no_options },
		{ .name = "reset", .options = no_options },
		{ .name = "replay", .operands = "FILE", .options = no_options },
		{ 0 },
	},
	.description =
		"start records the ends and walks the commit graph between them with libgit2 (merges included). "
		"Or start --kernels PKG... takes an ordered list of packaged kernels and finds the first one that "
		"regressed, each step a vm run of the --matrix given to run, with no build and no repository. run "
		"measures in rounds (good end, commit, bad end one after another, order rotated), so drift of the "
		"machine shared by a round cancels: it calibrates both ends (at least 10 rounds), plans the rounds per commit "
		"from their noise and gap and the time a measurement takes so that an answer fits the --budget (an hour by "
		"default), prints the plan, and refuses, in words and with the time an answer would need, only when no plan "
		"within the budget finds the gap (with a margin for the noise being estimated); then it checks out the commit git "
		"bisect would pick (detached), builds it once, measures it in rounds until its position between the "
		"ends judges it good or bad or it is skipped (undecided at the cap, unstable, or its build or boot "
		"failed), and confirms the culprit on fresh rounds of it, its parent and the ends before naming it. All state is in the database: a killed run "
		"resumes with 'bisect run'; status and log show it; log writes a file replay reads back; reset checks "
		"out what was checked out at start.\n\n"
		"start --kernel bisects a kernel tree in one command: each step builds the commit (make O=, the guest's "
		"options merged into --config or --defconfig, tinyconfig by default; cached by commit and config hash, "
		"so a resumed or repeated bisection does not compile again), boots it under qemu with the --matrix given "
		"to run, and judges its first cell's samples. Commits whose images are byte-identical share a verdict; "
		"a commit that does not build or boot is skipped with the reason in the log (a panic with its oops "
		"head). The answer adds the commit's git describe and the config used; log and replay carry the config "
		"arguments and each build's config hash.\n\n"
		"start --kernels checks each package name against apt's lists as vm run does (a release string or a "
		"metapackage gets the names that exist); run --matrix parses and expands the matrix on the host before "
		"any boot. An end whose build or boots keep failing stops the bisection with what it does and why "
		"(outcome, tries, reason, console head), kept for status and log; run again tries it again.\n\n"
		"Exit status of run: 0 a culprit named, 3 a range of candidates named, 4 refused; 1 on an error or "
		"an end that cannot be built or measured, 2 for bad arguments or input (a matrix that does not parse).",
	.options = no_options,
};
