/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict table of `check`, `compare` and the text report: one row per compared cell and
 * metric, what was left out, the summary line; and the answers to the declared comparisons. */
#include "reports/render.h"

#include "common/error.h"

#include <stdio.h>
#include <string.h>

static void header_row(FILE *out, enum ior_axis axis)
{
	const char *names[IOR_RENDER_KEY_MAX], *values[IOR_RENDER_KEY_MAX];
	struct ior_judge_verdict none = { 0 };
	size_t n = ior_render_verdict_key(axis, &none, names, values);
	for (size_t k = 0; k < n; k++)
		fprintf(out, "%-12s ", names[k]);
	fprintf(out, "%-11s %3s %3s %10s %10s %8s %18s %9s %9s  %s\n", "metric", "nA", "nB", "median A", "median B",
		"change", "95% CI", "p", "HL shift", "verdict");
}

static void verdict_row(FILE *out, enum ior_axis axis, const struct ior_judge_verdict *v)
{
	const struct ior_comparison *c = &v->c;
	const char *names[IOR_RENDER_KEY_MAX], *values[IOR_RENDER_KEY_MAX];
	size_t n = ior_render_verdict_key(axis, v, names, values);
	for (size_t k = 0; k < n; k++)
		fprintf(out, "%-12s ", values[k]);
	char ci[40];
	snprintf(ci, sizeof(ci), "%+.1f%%..%+.1f%%", (c->ratio_lo - 1) * 100, (c->ratio_hi - 1) * 100);
	fprintf(out, "%-11s %3zu %3zu %10.2f %10.2f %+7.1f%% %18s %9.3g %+9.2f  %s: %s\n", ior_render_metric(v), c->na,
		c->nb, c->median_a, c->median_b, (c->ratio - 1) * 100, ci, c->mw.p, c->hl_shift,
		ior_verdict_name(c->verdict), c->reason);
}

/* Where a compared cell's repetitions follow a trend, its spread is not noise the tests allow
 * for: say so under the row (check's evidence is where a tester reads about variance). */
static void trend_notes(FILE *out, const struct ior_report *r, const struct ior_judge_verdict *v)
{
	const struct ior_rt_series *s = &r->rt->series[v->series];
	const size_t groups[2] = { v->base_group, v->cand_group };
	for (int side = 0; side < 2; side++) {
		const struct ior_rt_member *m = ior_rt_member_in(s, groups[side]);
		const struct ior_trend *t = m ? &r->rt->groups[m->group].cells[m->index].trend : NULL;
		if (!t || t->kind == IOR_TREND_NONE)
			continue;
		char words[300];
		ior_trend_describe(words, sizeof(words), t);
		fprintf(out, "  %s %s: %s%s\n", side ? "candidate" : "baseline", r->rt->groups[groups[side]].kernel, words,
			t->kind == IOR_TREND_WARMUP ? " (warmup = N in the matrix runs them first and leaves them out)" : "");
	}
}

static void left_out(FILE *out, const struct ior_report *r)
{
	for (size_t h = 0; h < r->ncommon; h++) {
		const struct ior_sched_common *c = &r->common[h];
		if (!c->n_left_out)
			continue;
		fprintf(out, "%s: schedulers offered by both kernels: %s\n", r->common_hosts[h], c->common);
		for (size_t k = 0; k < c->n_left_out; k++)
			fprintf(out, "  left out %s: %s\n", c->left_out[k].name, c->left_out[k].reason);
	}
}

static bool filtered_out(const struct ior_report *r, const struct ior_stored_cell *c)
{
	const struct ior_report_opts *o = &r->opts;
	return (o->device && strcmp(o->device, c->device)) || (o->engine && strcmp(o->engine, c->engine)) ||
	       (o->scheduler && (!c->scheduler || strcmp(o->scheduler, c->scheduler))) ||
	       (o->axis != IOR_AXIS_KERNEL && o->kernel && strcmp(o->kernel, c->kernel));
}

/* Cells of A or B that did not run: a comparison that silently lacks them would mislead. */
static void not_run(FILE *out, const struct ior_report *r)
{
	for (size_t i = 0; i < r->stored.ncells; i++) {
		const struct ior_stored_cell *c = &r->stored.cells[i];
		const char *name = ior_stored_cell_axis_value(r->axis, c);
		if (!strcmp(c->status, "ok") || !name ||
		    (strcmp(name, r->baseline) && (!r->candidate || strcmp(name, r->candidate))))
			continue;
		if (filtered_out(r, c))
			continue;
		fprintf(out, "not compared: %s, %s, %s %s, %s: %s: %s\n", c->host, c->kernel, c->device,
			ior_render_sched(c->scheduler), c->engine, c->status, c->reason ? c->reason : "no reason recorded");
	}
}

/* A metric asked for by name that no compared cell records is said, not silently dropped. */
static void metrics_not_recorded(FILE *out, const struct ior_report *r)
{
	if (!r->opts.metrics)
		return;
	for (int m = 0; m < IOR_METRIC_COUNT; m++)
		if ((r->opts.metrics & IOR_METRIC_BIT(m)) && !(r->metrics_judged & IOR_METRIC_BIT(m)) &&
		    r->opts.metrics != IOR_METRICS_ALL)
			fprintf(out, "%s: recorded by none of the compared cells\n", ior_metric_info(m)->name);
}

int ior_render_verdicts_text(FILE *out, const struct ior_report *r)
{
	char title[512];
	ior_render_comparison_title(title, sizeof(title), r->axis, r->baseline, r->candidate);
	fprintf(out, "%s: alpha %g, minimum effect %.1f%%\n", title, r->opts.compare.alpha,
		r->opts.compare.min_effect * 100);
	header_row(out, r->axis);
	for (size_t i = 0; i < r->view.nverdicts; i++) {
		verdict_row(out, r->axis, &r->verdicts[r->view.verdicts[i]]);
		trend_notes(out, r, &r->verdicts[r->view.verdicts[i]]);
	}
	if (r->verdict_only_baseline)
		fprintf(out, "%zu %s cell(s) have no candidate samples and were not compared\n", r->verdict_only_baseline,
			r->axis == IOR_AXIS_KERNEL ? "baseline" : "reference");
	if (r->verdict_unit_mismatch)
		fprintf(out, "%zu pair(s) measure their headline in different units and were not compared on it\n",
			r->verdict_unit_mismatch);
	metrics_not_recorded(out, r);
	not_run(out, r);
	left_out(out, r);
	const char *status = r->regressions ? "bad (exit 1)" : r->inconclusive ? "skip (exit 125)" : "good (exit 0)";
	fprintf(out, "%zu cell(s) compared: %zu regression(s), %zu inconclusive: %s\n", r->nverdicts, r->regressions,
		r->inconclusive, status);
	return ferror(out) ? ior_error_set(IOR_ERROR, "cannot write the verdicts") : IOR_OK;
}

void ior_render_answers_text(FILE *out, const struct ior_report *r)
{
	if (!r->nanswers)
		return;
	fputs("declared comparisons:\n", out);
	for (size_t i = 0; i < r->nanswers; i++) {
		const struct ior_judge_answer *a = &r->answers[i];
		char title[512], words[512];
		ior_render_comparison_title(title, sizeof(title), a->q.axis, a->q.a, a->q.b);
		ior_render_answer_words(words, sizeof(words), a);
		fprintf(out, "%s%s%s%s: %s\n", title, a->q.source ? " (" : "", a->q.source ? a->q.source : "",
			a->q.source ? ")" : "", words);
		if (a->nverdicts)
			header_row(out, a->q.axis);
		for (size_t k = 0; k < a->nverdicts; k++)
			verdict_row(out, a->q.axis, &a->verdicts[k]);
	}
	fputc('\n', out);
}

