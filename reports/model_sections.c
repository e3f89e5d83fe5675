/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report's tabular sections, built once with only the rows in view: schedulers per kernel,
 * kernel commits, scratch fills, cells not run, VM boots. */
#include "reports/model_internal.h"

#include "common/error.h"
#include "reports/words.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each column's before/after words make the text report's sentence for a row (section.h). */
static const struct ior_column answer_cols[] = {
	{ .name = "comparison", .strong = true },
	{ .name = "declared in", .optional = true, .before = " (", .after = ")" },
	{ .name = "answer", .before = ": " },
	{ .name = "verdicts", .type = IOR_COL_LIST, .optional = true, .before = "\n  - " },
};

static const struct ior_column pair_cols[] = {
	{ .name = "kernels", .strong = true },
	{ .name = "cells", .type = IOR_COL_NUMBER, .before = ": ", .after = " cell(s) compared" },
	{ .name = "regressed", .type = IOR_COL_NUMBER, .before = ": ", .after = " regressed" },
	{ .name = "improved", .type = IOR_COL_NUMBER, .before = ", ", .after = " improved" },
	{ .name = "same", .type = IOR_COL_NUMBER, .before = ", ", .after = " same" },
	{ .name = "not told", .type = IOR_COL_NUMBER, .before = ", ", .after = " not told" },
	{ .name = "worst regression", .optional = true, .before = "; worst regression: " },
	{ .name = "why not told", .optional = true, .before = "; not told: " },
};

static const struct ior_column scheduler_cols[] = {
	{ .name = "host" },
	{ .name = "kernel", .before = ", " },
	{ .name = "offered", .missing = "(not recorded)", .before = ": offered " },
	{ .name = "unavailable", .optional = true, .before = "; unavailable: " },
	{ .name = "changed", .type = IOR_COL_LIST, .optional = true, .before = "\n  changed: " },
};

static const struct ior_column commit_cols[] = {
	{ .name = "host" },
	{ .name = "kernel", .before = ", " },
	{ .name = "commit", .type = IOR_COL_CODE, .before = ": commit " },
	{ .name = "describe", .optional = true, .before = " (", .after = ")" },
	{ .name = "subject", .missing = "(no subject)", .before = ": " },
	{ .name = "author", .before = "\n  author " },
	{ .name = "date", .missing = "?", .before = ", " },
	{ .name = "other commits", .type = IOR_COL_NUMBER, .missing = "0", .optional = true, .before = "\n  and ",
	  .after = " other commit(s) recorded under this release (other builds)" },
};

static const struct ior_column fill_cols[] = {
	{ .name = "host" },
	{ .name = "kernel", .before = ", " },
	{ .name = "run", .type = IOR_COL_NUMBER, .before = ", run " },
	{ .name = "device", .missing = "engine-built", .before = ": " },
	{ .name = "target", .before = " (", .after = ")" },
	{ .name = "fill", .before = ": " },
	{ .name = "MiB", .type = IOR_COL_NUMBER, .precision = 1, .before = ", ", .after = " MiB" },
	{ .name = "seconds", .type = IOR_COL_NUMBER, .precision = 2, .before = " in ", .after = " s" },
};

static const struct ior_column not_run_cols[] = {
	{ .name = "host" },
	{ .name = "kernel", .before = ", " },
	{ .name = "device", .before = ", " },
	{ .name = "scheduler", .missing = "-", .before = " " },
	{ .name = "engine", .before = ", " },
	{ .name = "status", .before = ": " },
	{ .name = "reason", .missing = "no reason recorded", .before = ": " },
	{ .name = "samples", .type = IOR_COL_NUMBER, .before = " (", .after = " samples)" },
};

static const struct ior_column change_cols[] = {
	{ .name = "host" },
	{ .name = "engine", .before = ", " },
	{ .name = "device", .before = ", " },
	{ .name = "scheduler", .missing = "-", .before = " " },
	{ .name = "kernels", .type = IOR_COL_NUMBER, .before = ", value over ", .after = " kernels" },
	{ .name = "from .. to", .before = " (", .after = ")" },
	{ .name = "change points", .type = IOR_COL_LIST, .missing = "no change point", .before = ": ", .join = "; " },
};
/* Past this many series only those with a change point are listed (a note counts the others). */
#define CHANGES_ALL_MAX 60

static const struct ior_column boot_cols[] = {
	{ .name = "kernel" },
	{ .name = "boot", .type = IOR_COL_NUMBER },
	{ .name = "outcome" },
	{ .name = "accel", .missing = "-" },
	{ .name = "CPUs", .type = IOR_COL_NUMBER },
	{ .name = "memory MiB", .type = IOR_COL_NUMBER },
	{ .name = "cache", .missing = "-" },
	{ .name = "qemu", .missing = "-" },
	{ .name = "init s", .type = IOR_COL_NUMBER, .precision = 1, .missing = "-" },
	{ .name = "total s", .type = IOR_COL_NUMBER, .precision = 1, .missing = "-" },
	{ .name = "reason" },
};

struct builder {
	struct ior_sections *x;
	struct ior_section *s;
	size_t cap;
	bool oom;
};

static void start(struct builder *b, enum ior_section_kind k, const char *id, const char *title,
		  const struct ior_column *cols, size_t ncols)
{
	b->s = &b->x->s[k];
	b->cap = 0;
	*b->s = (struct ior_section){ .id = id, .title = title, .cols = cols, .ncols = ncols };
}

/* A new row of the current section, every value missing until set. */
static struct ior_value *row(struct builder *b, bool marked)
{
	struct ior_section *s = b->s;
	if (s->nrows == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 8;
		struct ior_value *v = realloc(s->v, cap * s->ncols * sizeof(*v));
		if (v)
			s->v = v;
		bool *m = realloc(s->marked, cap * sizeof(*m));
		if (m)
			s->marked = m;
		size_t *ch = realloc(s->chart, cap * sizeof(*ch));
		if (ch)
			s->chart = ch;
		if (!v || !m || !ch) {
			b->oom = true;
			return NULL;
		}
		b->cap = cap;
	}
	struct ior_value *v = &s->v[s->nrows * s->ncols];
	for (size_t c = 0; c < s->ncols; c++)
		v[c] = (struct ior_value){ .missing = true };
	s->marked[s->nrows] = marked;
	s->chart[s->nrows++] = SIZE_MAX;
	return v;
}

/* NULL or "" is no value. */
static void text(struct ior_value *v, const char *s)
{
	*v = (struct ior_value){ .s = s, .missing = !s || !*s };
}

static void num(struct ior_value *v, double x)
{
	*v = (struct ior_value){ .x = x };
}

/* Frees p with the sections; false (p freed) when out of memory. */
static bool keep(struct builder *b, void *p)
{
	struct ior_sections *x = b->x;
	if (x->nowned == x->capowned) {
		size_t cap = x->capowned ? x->capowned * 2 : 16;
		void **o = realloc(x->owned, cap * sizeof(*o));
		if (!o) {
			free(p);
			b->oom = true;
			return false;
		}
		x->owned = o;
		x->capowned = cap;
	}
	x->owned[x->nowned++] = p;
	return true;
}

/* A string composed for the sections, freed with them; NULL when out of memory. */
static const char *own(struct builder *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0) {
		s = NULL;
		b->oom = true;
	}
	va_end(ap);
	return s && keep(b, s) ? s : NULL;
}

/* The comparisons the matrices were written for: the question, the answer, each verdict in words. */
static void answers(struct builder *b, const struct ior_report *r)
{
	start(b, IOR_SECTION_ANSWERS, "answers", "Declared comparisons", answer_cols,
	      sizeof(answer_cols) / sizeof(answer_cols[0]));
	b->s->list = true;
	for (size_t i = 0; i < r->nanswers; i++) {
		const struct ior_judge_answer *a = &r->answers[i];
		struct ior_value *v = row(b, a->regressions > 0);
		if (!v)
			return;
		char title[512], words[512], cell[1024];
		ior_render_comparison_title(title, sizeof(title), a->q.axis, a->q.a, a->q.b);
		ior_render_answer_words(words, sizeof(words), a);
		text(&v[0], own(b, "%s", title));
		text(&v[1], a->q.source);
		text(&v[2], own(b, "%s", words));
		for (size_t k = 0; k < a->nverdicts; k++) {
			const struct ior_judge_verdict *x = &a->verdicts[k];
			ior_render_answer_cell(cell, sizeof(cell), a->q.axis, x);
			text(&v[3], own(b, "%s%s%s: %.2f → %.2f (%+.1f%%), %s", k ? v[3].s : "", k ? "\n" : "", cell,
					x->c.median_a, x->c.median_b, (x->c.ratio - 1) * 100, ior_verdict_name(x->c.verdict)));
		}
	}
}

/* A row about kernel x, its host and release set. */
static struct ior_value *kernel_row(struct builder *b, const struct ior_report_kernel *x)
{
	struct ior_value *v = row(b, false);
	if (v) {
		text(&v[0], x->host);
		text(&v[1], x->release);
	}
	return v;
}

static void schedulers(struct builder *b, const struct ior_report *r)
{
	start(b, IOR_SECTION_SCHEDULERS, "schedulers", "Schedulers per kernel", scheduler_cols,
	      sizeof(scheduler_cols) / sizeof(scheduler_cols[0]));
	b->s->listed = true;
	for (size_t k = 0; k < r->nkernels; k++) {
		const struct ior_report_kernel *x = &r->kernels[k];
		struct ior_value *v;
		if (!x->in_view || (!x->offered && !x->unavailable && !x->nchanges))
			continue;
		if (!(v = kernel_row(b, x)))
			return;
		text(&v[2], x->offered);
		text(&v[3], x->unavailable);
		for (size_t c = 0; c < x->nchanges; c++)
			text(&v[4], own(b, "%s%s%s", c ? v[4].s : "", c ? "\n" : "", x->changes[c].text));
	}
}

static void commits(struct builder *b, const struct ior_report *r)
{
	start(b, IOR_SECTION_COMMITS, "commits", "Kernels built from git commits", commit_cols,
	      sizeof(commit_cols) / sizeof(commit_cols[0]));
	for (size_t k = 0; k < r->nkernels; k++) {
		const struct ior_report_kernel *x = &r->kernels[k];
		const struct ior_report_commit *c = &x->commit;
		struct ior_value *v;
		if (!x->in_view || !c->sha)
			continue;
		if (!(v = kernel_row(b, x)))
			return;
		text(&v[2], c->sha);
		text(&v[3], c->describe);
		text(&v[4], c->subject);
		text(&v[5], own(b, "%s <%s>", c->author_name ? c->author_name : "?", c->author_email ? c->author_email : "?"));
		text(&v[6], c->author_date);
		if (x->other_commits)
			num(&v[7], (double)x->other_commits);
	}
}

static void fills(struct builder *b, const struct ior_report *r)
{
	start(b, IOR_SECTION_FILLS, "fills", "Scratch devices filled before measuring (not part of any sample)", fill_cols,
	      sizeof(fill_cols) / sizeof(fill_cols[0]));
	for (size_t i = 0; i < r->nfills; i++) {
		const struct ior_report_fill *f = &r->fills[i];
		if (!f->in_view)
			continue;
		struct ior_value *v = row(b, false);
		if (!v)
			return;
		text(&v[0], f->host);
		text(&v[1], f->kernel);
		num(&v[2], (double)f->run_id);
		text(&v[3], f->device);
		text(&v[4], f->target);
		text(&v[5], f->fill);
		num(&v[6], (double)f->bytes / (1 << 20));
		num(&v[7], f->seconds);
	}
}

static void not_run(struct builder *b, const struct ior_report *r)
{
	start(b, IOR_SECTION_NOT_RUN, "notrun", own(b, "Cells that did not run or did not finish (%zu)", r->nnot_ok),
	      not_run_cols, sizeof(not_run_cols) / sizeof(not_run_cols[0]));
	b->s->listed = true;
	for (size_t i = 0; i < r->stored.ncells; i++) {
		const struct ior_stored_cell *c = &r->stored.cells[i];
		if (!c->in_view || !strcmp(c->status, "ok"))
			continue;
		struct ior_value *v = row(b, true);
		if (!v)
			return;
		const char *f[] = { c->host, c->kernel, c->device, c->scheduler, c->engine, c->status, c->reason };
		for (size_t k = 0; k < 7; k++)
			text(&v[k], f[k]);
		num(&v[7], (double)c->n);
	}
}

static const char *series_kernel(const struct ior_report *r, const struct ior_rt_series *s, size_t index)
{
	return index < s->n ? r->rt->groups[s->m[index].group].kernel : "?";
}

/* Each change point: where it arrived, by how much and which way, and how sure. */
static const char *change_words(struct builder *b, const struct ior_report *r, const struct ior_series_changes *sc)
{
	const struct ior_rt_series *s = &r->rt->series[sc->series];
	const char *words = NULL;
	for (size_t i = 0; i < sc->ncp; i++) {
		const struct ior_changepoint *c = &sc->cp[i];
		bool worse = s->higher_is_better ? c->ratio < 1.0 : c->ratio > 1.0;
		words = own(b, "%s%schange arrived in %s (after %s): level x%.3f (%+.1f%%, %s), p = %.3f", i ? words : "",
			    i ? "\n" : "", series_kernel(r, s, c->index), series_kernel(r, s, c->index - 1), c->ratio,
			    (c->ratio - 1.0) * 100.0, worse ? "worse" : "better", c->p);
	}
	return words;
}

static void changes(struct builder *b, const struct ior_report *r)
{
	start(b, IOR_SECTION_CHANGES, "changes", "Change points across kernels (E-divisive, permutation test)", change_cols,
	      sizeof(change_cols) / sizeof(change_cols[0]));
	b->s->listed = true;
	size_t flat = 0;
	for (size_t i = 0; i < r->nchanges; i++) {
		const struct ior_series_changes *sc = &r->changes[i];
		if (!sc->in_view || (!sc->ncp && r->opts.alerts_only))
			continue;
		if (!sc->ncp && r->nchanges > CHANGES_ALL_MAX) {
			flat++;
			continue;
		}
		const struct ior_rt_series *s = &r->rt->series[sc->series];
		struct ior_value *v = row(b, sc->ncp > 0);
		if (!v)
			return;
		if (sc->ncp)
			b->s->chart[b->s->nrows - 1] = sc->series;
		text(&v[0], s->host);
		text(&v[1], s->engine);
		text(&v[2], s->device);
		text(&v[3], s->scheduler);
		num(&v[4], (double)s->n);
		text(&v[5], own(b, "%s .. %s", series_kernel(r, s, 0), series_kernel(r, s, s->n - 1)));
		text(&v[6], change_words(b, r, sc));
	}
	if (flat)
		b->s->notes = own(b, "%zu series without a change point are not listed (more than %d series).", flat,
				  CHANGES_ALL_MAX);
}

/* Every kernel pair the answer judged, when there are more than the answer's first screen holds (it
 * holds them all otherwise, and a second copy on the page would only be longer). */
static void pairs(struct builder *b, const struct ior_report *r)
{
	start(b, IOR_SECTION_PAIRS, "pairs", r->pairs_baseline ? "Kernel pairs: every kernel against the baseline"
							       : "Kernel pairs: each kernel against the one before it",
	      pair_cols, sizeof(pair_cols) / sizeof(pair_cols[0]));
	if (r->npairs <= IOR_ANSWER_PAIRS_MAX)
		return;
	for (size_t i = 0; i < r->npairs; i++) {
		const struct ior_judge_pair *p = &r->pairs[i];
		struct ior_value *v = row(b, p->regressions > 0);
		if (!v)
			return;
		char cell[400], noise[400];
		text(&v[0], own(b, "%s against %s", p->b, p->a));
		num(&v[1], (double)p->compared);
		num(&v[2], (double)p->regressions);
		num(&v[3], (double)p->improvements);
		num(&v[4], (double)p->unchanged);
		num(&v[5], (double)p->inconclusive);
		if (p->has_worst) {
			const struct ior_comparison *c = &p->worst.c;
			ior_render_verdict_cell(cell, sizeof(cell), &p->worst);
			text(&v[6], own(b, "%s: %+.1f%% (95%% CI %+.1f%% to %+.1f%%)", cell, (c->ratio - 1) * 100,
					(c->ratio_lo - 1) * 100, (c->ratio_hi - 1) * 100));
		}
		if (p->has_untold) {
			ior_render_verdict_cell(cell, sizeof(cell), &p->untold);
			ior_render_noise_words(noise, sizeof(noise), &p->untold);
			text(&v[7], own(b, "%s%s: %s", p->inconclusive > 1 ? "the least told, " : "", cell, noise));
		}
	}
}

/* The verdicts' columns: the cell key but the compared axis (which the title names), then the figures. */
static struct ior_column *verdict_cols(struct builder *b, enum ior_axis axis, size_t *n)
{
	static const struct ior_column figures[] = {
		{ .name = "metric" },
		{ .name = "n", .right = true },
		{ .name = "median A", .type = IOR_COL_NUMBER, .precision = 2 },
		{ .name = "median B", .type = IOR_COL_NUMBER, .precision = 2 },
		{ .name = "change", .type = IOR_COL_PERCENT, .precision = 1, .sign = true },
		{ .name = "95% CI", .right = true },
		{ .name = "p", .type = IOR_COL_P },
		{ .name = "verdict" },
		{ .name = "why" },
	};
	const char *names[IOR_RENDER_KEY_MAX], *values[IOR_RENDER_KEY_MAX];
	struct ior_judge_verdict none = { 0 };
	size_t nk = ior_render_verdict_key(axis, &none, names, values), nf = sizeof(figures) / sizeof(figures[0]);
	struct ior_column *cols = calloc(nk + nf, sizeof(*cols));
	if (!cols)
		b->oom = true;
	if (!cols || !keep(b, cols))
		return NULL;
	for (size_t k = 0; k < nk; k++)
		cols[k] = (struct ior_column){ .name = names[k] };
	memcpy(cols + nk, figures, sizeof(figures));
	*n = nk + nf;
	return cols;
}

static void verdict_row(struct builder *b, const struct ior_report *r, const struct ior_judge_verdict *x)
{
	const struct ior_comparison *c = &x->c;
	struct ior_value *v = row(b, c->verdict == IOR_VERDICT_REGRESSION);
	if (!v)
		return;
	const char *names[IOR_RENDER_KEY_MAX], *values[IOR_RENDER_KEY_MAX];
	size_t nk = ior_render_verdict_key(r->axis, x, names, values);
	for (size_t k = 0; k < nk; k++)
		text(&v[k], values[k]);
	text(&v[nk], ior_render_metric(x));
	text(&v[nk + 1], own(b, "%zu / %zu", c->na, c->nb));
	num(&v[nk + 2], c->median_a);
	num(&v[nk + 3], c->median_b);
	num(&v[nk + 4], c->ratio - 1);
	text(&v[nk + 5], own(b, "%+.1f%% .. %+.1f%%", (c->ratio_lo - 1) * 100, (c->ratio_hi - 1) * 100));
	num(&v[nk + 6], c->mw.p);
	text(&v[nk + 7], ior_verdict_name(c->verdict));
	text(&v[nk + 8], c->reason);
}

static void verdicts(struct builder *b, const struct ior_report *r)
{
	if (!r->baseline)
		return;
	char title[512], counts[256];
	ior_render_comparison_title(title, sizeof(title), r->axis, r->baseline, r->candidate);
	ior_render_verdict_counts(counts, sizeof(counts), r);
	size_t ncols = 0;
	const struct ior_column *cols = verdict_cols(b, r->axis, &ncols);
	start(b, IOR_SECTION_VERDICTS, "verdicts", own(b, "Verdicts: %s", title), cols, ncols);
	b->s->always = true;
	b->s->intro = own(b, "%s", counts);
	size_t n = r->opts.alerts_only ? r->nregression_order : r->nverdicts;
	for (size_t i = 0; i < n && cols; i++) {
		const struct ior_judge_verdict *v = &r->verdicts[r->opts.alerts_only ? r->regression_order[i] : i];
		if (v->in_view)
			verdict_row(b, r, v);
	}
	const char *notes = "";
	for (size_t h = 0; h < r->ncommon; h++)
		for (size_t k = 0; k < r->common[h].n_left_out; k++)
			notes = own(b, "%s%sleft out %s on %s: %s", notes, *notes ? "\n" : "", r->common[h].left_out[k].name,
				    r->common_hosts[h], r->common[h].left_out[k].reason);
	b->s->notes = notes;
}

static void boots(struct builder *b, const struct ior_report *r)
{
	start(b, IOR_SECTION_BOOTS, "boots", "VM boots (vm run)", boot_cols, sizeof(boot_cols) / sizeof(boot_cols[0]));
	b->s->table = true;
	for (size_t i = 0; i < r->stored.nboots; i++) {
		const struct ior_stored_boot *x = &r->stored.boots[i];
		if (!x->in_view)
			continue;
		bool ok = !strcmp(x->outcome, "ok");
		struct ior_value *v = row(b, !ok);
		if (!v)
			return;
		text(&v[0], x->release && *x->release ? x->release : x->kernel);
		num(&v[1], x->boot_index);
		text(&v[2], x->outcome);
		text(&v[3], x->accel);
		num(&v[4], x->cpus);
		num(&v[5], x->memory_mb);
		text(&v[6], x->cache_mode);
		text(&v[7], x->qemu_version);
		if (x->boot_s >= 0)
			num(&v[8], x->boot_s);
		if (x->total_s >= 0)
			num(&v[9], x->total_s);
		text(&v[10], ok ? NULL : x->reason);
	}
	char not_ok[160];
	snprintf(not_ok, sizeof(not_ok), "%zu of %zu boots were not ok: their kernels have no samples from those boots",
		 r->nboots_not_ok, b->s->nrows);
	b->s->notes = own(b, "%s%s%s", r->nboots_not_ok ? not_ok : "", r->nboots_not_ok && r->boots_tcg ? "\n" : "",
			  r->boots_tcg ? "Under TCG the guest's CPU is emulated: the figures compare kernels with each other "
					 "on this host, not the device's speed." : "");
}

int ior_report_sections_build(struct ior_report *r)
{
	struct builder b = { .x = calloc(1, sizeof(*b.x)) };
	if (!b.x)
		return ior_error_set(IOR_ERROR, "out of memory");
	r->sections = b.x;
	if (!r->opts.alerts_only) {  /* --alerts: only the change points and the verdicts */
		answers(&b, r);
		schedulers(&b, r);
		commits(&b, r);
		fills(&b, r);
		not_run(&b, r);
		boots(&b, r);
	}
	changes(&b, r);
	if (!r->opts.alerts_only)
		pairs(&b, r);
	verdicts(&b, r);
	return b.oom ? ior_error_set(IOR_ERROR, "out of memory") : IOR_OK;
}
