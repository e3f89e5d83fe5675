/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress check`: a candidate kernel against a baseline, cell by cell, from the report model's
 * verdicts, with git bisect run's exit statuses. */
#include "common/error.h"
#include "harness/check_classify.h"
#include "harness/command_list.h"
#include "harness/judge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

struct check_args {
	struct ior_judge_args j;              /* what check shares with compare (harness/judge.c) */
	const char *bad;                      /* --bad: classify against both ends (check_classify.c) */
	struct utsname uts;
};

/* The checks after the options: the kernels compared, the view. */
static int check_args(struct check_args *a)
{
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
	return ior_judge_finish(&a->j);
}

static int cmd_check(int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	struct check_args a = { 0 };
	ior_judge_args_init(&a.j);
	struct ior_cmd_parsed p;
	int status = ior_cmd_parse_or_usage(&ior_cmd_check, argc, argv, &a, &p);
	if (status)
		return status;
	if (check_args(&a))
		return ior_judge_fail();
	if (a.bad)
		return ior_check_classify(stdout, ctx->db, &a.j.opts, a.bad);
	return ior_judge_run(&a.j, ctx->db);
}

/* the kernels are --baseline and --candidate, so --kernel is not a filter here */
static const struct ior_cmd_opt check_options[] = {
	{ .name = "--baseline", .value = IOR_CMD_TEXT, .arg = "KERNEL", .required = true, .complete = IOR_CMD_COMPLETE_RELEASE,
	  IOR_CMD_AT(struct check_args, j.opts.baseline),
	  .help = "the kernel release the candidate is judged against" },
	{ .name = "--candidate", .value = IOR_CMD_TEXT, .arg = "KERNEL", .complete = IOR_CMD_COMPLETE_RELEASE,
	  IOR_CMD_AT(struct check_args, j.opts.candidate),
	  .help = "the kernel release judged (default: the running kernel)" },
	{ .name = "--bad", .value = IOR_CMD_TEXT, .arg = "KERNEL", .complete = IOR_CMD_COMPLETE_RELEASE,
	  IOR_CMD_AT(struct check_args, bad),
	  .help = "a kernel known to have the regression: the candidate is classified against both ends, "
		  "good (like --baseline), bad (like --bad) or cannot tell (125)" },
	IOR_CMD_ROW_HOST(struct check_args, j.filter),
	IOR_CMD_ROW_DEVICE(struct check_args, j.filter),
	IOR_CMD_ROW_SCHEDULER(struct check_args, j.filter),
	IOR_CMD_ROW_ENGINE(struct check_args, j.filter),
	IOR_JUDGE_ROW_METRIC(struct check_args, j),
	IOR_JUDGE_ROW_MIN_EFFECT(struct check_args, j),
	IOR_JUDGE_ROW_FORMAT(struct check_args, j),
	IOR_JUDGE_ROW_ORIGIN(struct check_args, j),
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
