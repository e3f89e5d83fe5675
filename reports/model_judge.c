/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report's judgements: judge/'s change points, verdicts, kernel pairs and answers over the
 * report's stored samples and view, kept in the report for the sections and the renderers. */
#include "reports/model_internal.h"

#include "common/error.h"

#include <stdlib.h>

void ior_report_judge_input(const struct ior_report *r, struct ior_db *db, struct ior_judge_input *in)
{
	const struct ior_report_opts *o = &r->opts;
	*in = (struct ior_judge_input){ .rt = r->rt, .stored = &r->stored, .cell_in_view = r->cell_in_view, .db = db,
					.host = o->host, .kernel = o->kernel, .device = o->device,
					.scheduler = o->scheduler, .engine = o->engine, .metrics = o->metrics,
					.compare = o->compare };
}

int ior_report_changes_build(struct ior_report *r)
{
	struct ior_judge_input in;
	ior_report_judge_input(r, NULL, &in);
	return ior_judge_changes(&r->changes, &r->nchanges, &in, &r->opts.changes);
}

/* The report's own comparison (--baseline against --candidate along opts.axis), kept as its fields. */
static int verdicts(struct ior_report *r, const struct ior_judge_input *in, struct ior_verdict_set *s)
{
	r->axis = r->opts.axis;
	int rc = ior_judge_verdicts(s, in, r->opts.axis, r->opts.baseline, r->opts.candidate);
	if (rc)
		return rc;
	r->baseline = r->opts.baseline;
	r->candidate = s->cand;
	r->verdicts = s->v;
	r->nverdicts = s->n;
	r->regressions = s->regressions;
	r->improvements = s->improvements;
	r->inconclusive = s->inconclusive;
	r->unchanged = s->unchanged;
	r->verdict_only_baseline = s->only_a;
	r->verdict_unit_mismatch = s->unit_mismatch;
	r->metrics_judged = s->judged;
	if (ior_judge_regression_order(&r->regression_order, &r->nregression_order, r->verdicts, r->nverdicts))
		return IOR_ERROR;
	if (r->axis != IOR_AXIS_KERNEL)
		return IOR_OK;
	return ior_judge_left_out(in, r->opts.baseline, r->candidate, &r->common, &r->common_hosts, &r->ncommon);
}

int ior_report_judge(struct ior_report *r, struct ior_db *db)
{
	struct ior_judge_input in;
	ior_report_judge_input(r, db, &in);
	struct ior_verdict_set s = { 0 };
	bool judged = false;
	int rc;
	if ((r->opts.parts & IOR_REPORT_VERDICTS) && r->opts.baseline) {
		if ((rc = verdicts(r, &in, &s)))
			return rc;
		judged = true;
	}
	if ((r->opts.parts & IOR_REPORT_PAIRS) && !r->opts.alerts_only && r->opts.axis == IOR_AXIS_KERNEL) {
		r->pairs_baseline = r->opts.baseline != NULL;
		if ((rc = ior_judge_pairs(&r->pairs, &r->npairs, &r->pairs_total, &in, r->opts.baseline,
					  r->opts.candidate, judged ? &s : NULL)))
			return rc;
	}
	if (r->opts.parts & IOR_REPORT_QUESTIONS)
		return ior_judge_answers(&r->answers, &r->nanswers, &in, r->opts.questions, r->opts.nquestions);
	return IOR_OK;
}
