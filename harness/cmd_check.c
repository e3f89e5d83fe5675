/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress check`: a candidate kernel against a baseline, cell by cell, from the report model's verdicts, with git bisect run's exit statuses. */
#include "common/error.h"
#include "db/db.h"
#include "harness/check_ends.h"
#include "harness/commands.h"
#include "options/option.h"
#include "reports/model.h"
#include "reports/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

/* git bisect run: 0 good, 1 bad, 125 skip, and >= 128 aborts the bisection. */
enum { CHECK_GOOD = 0, CHECK_BAD = 1, CHECK_SKIP = 125, CHECK_ERROR = 128 };

struct check_args {
	struct ior_db_filter filter;
	struct ior_report_opts opts;
	const struct ior_renderer *renderer;  /* NULL: the verdict table */
	const char *bad;                      /* --bad: classify against both ends (check_ends.c) */
	struct utsname uts;
};

static int parse_args(struct check_args *a, int argc, char **argv)
{
	ior_report_opts_default(&a->opts);
	for (int i = 1; i < argc; i++) {
		const char *v;
		bool missing = false;
		/* the kernels are --baseline and --candidate, so --kernel is not a filter here */
		if (ior_cmd_filter_option(argc, argv, &i,
					  IOR_FILTER_HOST | IOR_FILTER_DEVICE | IOR_FILTER_SCHEDULER | IOR_FILTER_ENGINE,
					  &a->filter, &missing))
			continue;
		if ((v = ior_cmd_option_value(argc, argv, &i, "--baseline", &missing)))
			a->opts.baseline = v;
		else if ((v = ior_cmd_option_value(argc, argv, &i, "--candidate", &missing)))
			a->opts.candidate = v;
		else if ((v = ior_cmd_option_value(argc, argv, &i, "--bad", &missing)))
			a->bad = v;
		else if ((v = ior_cmd_option_value(argc, argv, &i, "--min-effect", &missing))) {
			if (ior_parse_percent(v, &a->opts.compare.min_effect))
				return ior_error_wrap(IOR_EINVALID, "--min-effect");
		} else if ((v = ior_cmd_option_value(argc, argv, &i, "--format", &missing))) {
			if (ior_renderer_find(&a->renderer, v))
				return ior_error_wrap(IOR_EINVALID, "--format");
		} else if (missing)
			return ior_error_set(IOR_EINVALID, "option '%s' needs a value", argv[i]);
		else
			return ior_cmd_unknown_argument(&ior_cmd_check, argv[i]);
	}
	if (!a->opts.baseline)
		return ior_error_set(IOR_EINVALID, "'check' needs --baseline KERNEL");
	if (!a->opts.candidate) {
		if (uname(&a->uts))
			return ior_error_set(IOR_ERROR, "cannot read the running kernel's release");
		a->opts.candidate = a->uts.release;
	}
	if (!strcmp(a->opts.baseline, a->opts.candidate))
		return ior_error_set(IOR_EINVALID, "baseline and candidate are the same kernel '%s'", a->opts.baseline);
	a->opts.host = a->filter.host;
	a->opts.device = a->filter.device;
	a->opts.scheduler = a->filter.scheduler;
	a->opts.engine = a->filter.engine;
	/* verdicts only: the two kernels are all that is read */
	a->opts.parts = IOR_REPORT_VERDICTS;
	return IOR_OK;
}

static int fail(void)
{
	ior_cmd_error_last();
	return CHECK_ERROR;
}

static int cmd_check(int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	struct check_args a = { 0 };
	ior_error_clear();
	if (parse_args(&a, argc, argv))
		return fail();
	if (a.bad)
		return ior_check_ends(stdout, ctx->db, &a.opts, a.bad);
	struct ior_report *r = NULL;
	if (ior_report_build(&r, ctx->db, &a.opts))
		return fail();
	int status = CHECK_ERROR;
	if (!r->nverdicts) {
		ior_error_clear();
		ior_cmd_error("no cell was measured on both '%s' and '%s'", a.opts.baseline, a.opts.candidate);
	} else if ((a.renderer ? ior_render(a.renderer, stdout, r) : ior_render_verdicts_text(stdout, r)) == IOR_OK) {
		status = r->regressions ? CHECK_BAD : r->inconclusive ? CHECK_SKIP : CHECK_GOOD;
	} else {
		fail();
	}
	ior_report_free(r);
	return status;
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
	{ .name = "--min-effect", .value = IOR_CMD_NUMBER, .arg = "PERCENT",
	  .help = "a significant change smaller than PERCENT of the baseline's median is no change" },
	{ .name = "--format", .value = IOR_CMD_CHOICE, .arg = "text|md|html|json|junit|csv",
	  .choices = "text md html json junit csv",
	  .help = "print the two kernels' report with its verdicts in this format instead of the verdict "
		  "table (junit: one test case per compared cell for CI); the exit status is the same" },
	{ 0 },
};

const struct ior_command ior_cmd_check = {
	.name = "check",
	.fn = cmd_check,
	.flags = IOR_CMD_NEEDS_DB | IOR_CMD_DB_EXISTS,
	.error_status = CHECK_ERROR,
	.summary = "compare a candidate kernel with a baseline; exit status for git bisect run",
	.description = "Compares every cell measured on both kernels: medians, the change with its 95% "
		       "confidence interval, the rank test's p and a verdict (regression, improvement, no change, "
		       "inconclusive). The verdicts are the report's (report --baseline shows the same). Cells of "
		       "either kernel that did not run are listed with their reason; schedulers offered by only "
		       "one of the kernels are left out, with the reason.\n\n"
		       "Exit status: 0 good (no regression), 1 bad (a regression), 125 skip (inconclusive), "
		       "128 or more on an error, so 'git bisect run ioregress check ...' aborts rather than "
		       "marking a commit.",
	.options = check_options,
};
