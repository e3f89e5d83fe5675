/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict table of `check` and of the text report: one row per compared cell, what was left out, and the summary line. */
#include "reports/render.h"

#include "common/error.h"

#include <stdio.h>
#include <string.h>

static void verdict_row(FILE *out, const struct ior_report *r, const struct ior_report_verdict *v)
{
	const struct ior_rt_series *s = &r->rt->series[v->series];
	const struct ior_comparison *c = &v->c;
	char ci[40];
	snprintf(ci, sizeof(ci), "%+.1f%%..%+.1f%%", (c->ratio_lo - 1) * 100, (c->ratio_hi - 1) * 100);
	fprintf(out, "%-12s %-12s %-12s %-10s %3zu %3zu %10.2f %10.2f %+7.1f%% %18s %9.3g %+9.2f  %s: %s\n", s->host,
		s->device, ior_render_sched(s->scheduler), s->engine, c->na, c->nb, c->median_a, c->median_b,
		(c->ratio - 1) * 100, ci, c->mw.p, c->hl_shift, ior_verdict_name(c->verdict), c->reason);
}

/* Where a compared cell's repetitions follow a trend, its spread is not noise the tests allow
 * for: say so under the row (check's evidence is where a tester reads about variance). */
static void trend_notes(FILE *out, const struct ior_report *r, const struct ior_report_verdict *v)
{
	const struct ior_rt_series *s = &r->rt->series[v->series];
	const size_t groups[2] = { v->base_group, v->cand_group };
	for (int side = 0; side < 2; side++) {
		const struct ior_rt_member *m = ior_report_member(r, s, groups[side]);
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

/* Cells of the two kernels that did not run: a comparison that silently lacks them would mislead. */
static void not_run(FILE *out, const struct ior_report *r)
{
	for (size_t i = 0; i < r->ncells; i++) {
		const struct ior_report_cell *c = &r->cells[i];
		if (!strcmp(c->status, "ok") || (strcmp(c->kernel, r->baseline) && (!r->candidate || strcmp(c->kernel, r->candidate))))
			continue;
		if ((r->opts.device && strcmp(r->opts.device, c->device)) || (r->opts.engine && strcmp(r->opts.engine, c->engine)) ||
		    (r->opts.scheduler && (!c->scheduler || strcmp(r->opts.scheduler, c->scheduler))))
			continue;
		fprintf(out, "not compared: %s, %s, %s %s, %s: %s: %s\n", c->host, c->kernel, c->device,
			ior_render_sched(c->scheduler), c->engine, c->status, c->reason ? c->reason : "no reason recorded");
	}
}

int ior_render_verdicts_text(FILE *out, const struct ior_report *r)
{
	fprintf(out, "baseline %s, candidate %s: alpha %g, minimum effect %.1f%%\n", r->baseline,
		r->candidate ? r->candidate : "(none)", r->opts.compare.alpha, r->opts.compare.min_effect * 100);
	fprintf(out, "%-12s %-12s %-12s %-10s %3s %3s %10s %10s %8s %18s %9s %9s  %s\n", "host", "device", "scheduler",
		"engine", "nA", "nB", "median A", "median B", "change", "95% CI", "p", "HL shift", "verdict");
	for (size_t i = 0; i < r->nverdicts; i++)
		if (r->verdicts[i].in_view) {
			verdict_row(out, r, &r->verdicts[i]);
			trend_notes(out, r, &r->verdicts[i]);
		}
	if (r->verdict_only_baseline)
		fprintf(out, "%zu baseline cell(s) have no candidate samples and were not compared\n",
			r->verdict_only_baseline);
	not_run(out, r);
	left_out(out, r);
	const char *status = r->regressions ? "bad (exit 1)" : r->inconclusive ? "skip (exit 125)" : "good (exit 0)";
	fprintf(out, "%zu cell(s) compared: %zu regression(s), %zu inconclusive: %s\n", r->nverdicts, r->regressions,
		r->inconclusive, status);
	return ferror(out) ? ior_error_set(IOR_ERROR, "cannot write the verdicts") : IOR_OK;
}

void ior_render_verdict_counts(char *buf, size_t len, const struct ior_report *r)
{
	snprintf(buf, len, "%zu cell(s) compared: %zu regression(s), %zu improvement(s), %zu inconclusive, %zu no change "
		 "(alpha %g, minimum effect %.1f%%).", r->nverdicts, r->regressions, r->improvements, r->inconclusive,
		 r->unchanged, r->opts.compare.alpha, r->opts.compare.min_effect * 100);
}
