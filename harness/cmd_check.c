/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress check`: a candidate kernel against a baseline, cell by cell, from the report model's verdicts, with git bisect run's exit statuses. */
#include "common/error.h"
#include "harness/check_ends.h"
#include "harness/commands.h"
#include "harness/judge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

struct check_args {
	struct ior_judge_args j;              /* what check shares with compare (harness/judge.c) */
	const char *bad;                      /* --bad: classify against both ends (check_ends.c) */
	struct utsname uts;
};

/* One option of check's own at argv[*i]: 1 matched, 0 not, IOR_EINVALID on a bad value. */
static int check_option(struct check_args *a, int argc, char **argv, int *i, bool *missing)
{
	const char *v;
	if ((v = ior_cmd_option_value(argc, argv, i, "--baseline", missing)))
		a->j.opts.baseline = v;
	else if ((v = ior_cmd_option_value(argc, argv, i, "--candidate", missing)))
		a->j.opts.candidate = v;
	else if ((v = ior_cmd_option_value(argc, argv, i, "--bad", missing)))
		a->bad = v;
	else
		return 0;
	return 1;
}

static int parse_args(struct check_args *a, int argc, char **argv)
{
	ior_judge_args_init(&a->j);
	for (int i = 1; i < argc; i++) {
		bool missing = false;
		/* the kernels are --baseline and --candidate, so --kernel is not a filter here */
		int rc = ior_judge_option(&a->j, IOR_FILTER_HOST | IOR_FILTER_DEVICE | IOR_FILTER_SCHEDULER | IOR_FILTER_ENGINE,
					  argc, argv, &i, &missing);
		if (!rc && !missing)
			rc = check_option(a, argc, argv, &i, &missing);
		if (rc < 0)
			return rc;
		if (rc)
			continue;
		if (missing)
			return ior_error_set(IOR_EINVALID, "option '%s' needs a value", argv[i]);
		return ior_cmd_unknown_argument(&ior_cmd_check, argv[i]);
	}
	struct ior_report_opts *o = &a->j.opts;
	if (!o->baseline)
		return ior_error_set(IOR_EINVALID, "'check' needs --baseline KERNEL");
	if (!o->candidate) {
		if (uname(&a->uts))
			return ior_error_set(IOR_ERROR, "cannot read the running kernel's release");
		o->candidate = a->uts.release;
	}
	if (!strcmp(o->baseline, o->candidate))
		return ior_error_set(IOR_EINVALID, "baseline and candidate are the same kernel '%s'", o->baseline);
	o->axis = IOR_AXIS_KERNEL;
	ior_judge_finish(&a->j);
	return IOR_OK;
}

static int cmd_check(int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	struct check_args a = { 0 };
	ior_error_clear();
	if (parse_args(&a, argc, argv))
		return ior_judge_fail();
	if (a.bad)
		return ior_check_ends(stdout, ctx->db, &a.j.opts, a.bad);
	return ior_judge_run(&a.j, ctx->db);
}

static const struct ior_cmd_opt check_options[] = {
	{ .name = "--baseline", .value = IOR_CMD_TEXT, .arg = "KERNEL", .required = true,
	  .help = "the kernel release the candidate is judged against" },
	{ .name = "--candidate", .value = IOR_CMD_TEXT, .arg = "KERNEL",
	  .help = "the kernel release judged (default: the running kernel)" },
	{ .name = "--bad", .value = IOR_CMD_TEXT, .arg = "KERNEL",
	  .help = "a kernel known to have the regression: the candidate is classified against both ends, "
		  "good (like --baseline), bad (like --bad) or cannot tell (125)" },
	IOR_CMD_ROW_HOST,
	IOR_CMD_ROW_DEVICE,
	IOR_CMD_ROW_SCHEDULER,
	IOR_CMD_ROW_ENGINE,
	IOR_JUDGE_ROW_METRIC,
	IOR_JUDGE_ROW_MIN_EFFECT,
	IOR_JUDGE_ROW_FORMAT,
	{ 0 },
};

const struct ior_command ior_cmd_check = {
	.name = "check",
	.fn = cmd_check,
	.flags = IOR_CMD_NEEDS_DB | IOR_CMD_DB_EXISTS,
	.error_status = IOR_JUDGE_ERROR,
	.summary = "compare a candidate kernel with a baseline; exit status for git bisect run",
	.description = "Compares every cell measured on both kernels: medians, the change with its 95% "
		       "confidence interval, the rank test's p and a verdict (regression, improvement, no change, "
		       "inconclusive), on the headline value and the tail latency where the engine records it "
		       "(--metric for others). It is the kernel case of 'compare --by kernel', and the verdicts "
		       "are the report's (report --baseline shows the same). Cells of "
		       "either kernel that did not run are listed with their reason; schedulers offered by only "
		       "one of the kernels are left out, with the reason.\n\n"
		       "Exit status: 0 good (no regression), 1 bad (a regression), 125 skip (inconclusive), "
		       "128 or more on an error, so 'git bisect run ioregress check ...' aborts rather than "
		       "marking a commit.",
	.options = check_options,
};
