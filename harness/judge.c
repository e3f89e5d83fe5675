/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict commands' shared part (see judge.h): defaults, the view and one run for `check` and `compare`. */
#include "harness/judge.h"

#include "common/error.h"

#include <stdio.h>
#include <string.h>

void ior_judge_args_init(struct ior_judge_args *a)
{
	memset(a, 0, sizeof(*a));
	ior_report_opts_default(&a->opts);
}

int ior_judge_finish(struct ior_judge_args *a)
{
	a->opts.host = a->filter.host;
	a->opts.kernel = a->filter.kernel;
	a->opts.device = a->filter.device;
	a->opts.scheduler = a->filter.scheduler;
	a->opts.engine = a->filter.engine;
	/* verdicts only: the compared cells are all that is read */
	a->opts.parts = IOR_REPORT_VERDICTS;
	return ior_render_check_opts(a->renderer, &a->opts);
}

int ior_judge_fail(void)
{
	ior_cmd_error_last();
	return IOR_JUDGE_ERROR;
}

int ior_judge_run(struct ior_judge_args *a, struct ior_db *db)
{
	struct ior_report *r = NULL;
	if (ior_report_build(&r, db, &a->opts))
		return ior_judge_fail();
	int status = IOR_JUDGE_ERROR;
	if (!r->nverdicts) {
		ior_error_clear();
		ior_cmd_error("no cell was measured on both '%s' and '%s'", a->opts.baseline,
			      r->candidate ? r->candidate : a->opts.candidate ? a->opts.candidate : "(none)");
	} else if ((a->renderer ? ior_render(a->renderer, stdout, r) : ior_render_verdicts_text(stdout, r)) == IOR_OK) {
		status = r->regressions ? IOR_JUDGE_BAD : r->inconclusive ? IOR_JUDGE_SKIP : IOR_JUDGE_GOOD;
	} else {
		ior_judge_fail();
	}
	ior_report_free(r);
	return status;
}
