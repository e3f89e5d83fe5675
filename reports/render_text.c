/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text report: the field report's tables per host, kernel and engine, then schedulers, cells
 * that did not run, change points and verdicts. */
#include "reports/render.h"

#include "common/error.h"
#include "reports/escape.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int width_of(const struct ior_report *r, size_t gi, bool device)
{
	const struct ior_rt_group *g = &r->rt->groups[gi];
	int w = device ? 6 : 9;  /* "device", "scheduler" */
	for (size_t i = 0; i < g->ncells; i++) {
		int l = (int)strlen(device ? g->cells[i].device : ior_render_sched(g->cells[i].scheduler));
		if (l > w)
			w = l;
	}
	return w;
}

static void header(FILE *out, const struct ior_rt_group *g, int dw, int sw)
{
	char title[1024];
	ior_render_group_title(title, sizeof(title), g);
	fprintf(out, "%s\n", title);
	fprintf(out, "%-*s  %-*s", dw, "device", sw, "scheduler");
	for (size_t r = 0; r < g->max_n; r++) {
		char col[24];
		snprintf(col, sizeof(col), "#%zu", r + 1);
		fprintf(out, " %9s", col);
	}
	fprintf(out, " %10s %9s\n", "total", "share");
}

static void cell_rows(FILE *out, const struct ior_report *r, size_t gi, int dw, int sw)
{
	const struct ior_rt_group *g = &r->rt->groups[gi];
	for (size_t i = 0; i < r->view.ncells[gi]; i++) {
		const struct ior_rt_cell *c = &g->cells[r->view.cells[gi][i]];
		static const struct ior_row_syntax text = { .open = " ", .close = "", .value_width = 9, .total_width = 10,
							    .share_width = 8, .best = " *\n", .not_best = "\n" };
		fprintf(out, "%-*s  %-*s", dw, c->device, sw, ior_render_sched(c->scheduler));
		ior_render_figures(out, g, c, &text);
	}
}

/* The star marks a scheduler only when it is significantly the best; otherwise the words say so. */
static void best_words(FILE *out, const struct ior_report *r, size_t gi)
{
	for (size_t i = 0; i < r->view.ndevices[gi]; i++) {
		const struct ior_rt_device *d = &r->rt->groups[gi].devices[r->view.devices[gi][i]];
		char words[400];
		ior_render_best_words(words, sizeof(words), d);
		if (*words)
			fprintf(out, "%s: %s\n", d->name, words);
	}
}

/* Each device's total against the first device's: the field report's "SSD is 1.45x SATA". */
static void device_ratios(FILE *out, const struct ior_report *r, const struct ior_rt_group *g)
{
	if (g->ndevices < 2 || r->opts.device)
		return;
	const struct ior_rt_device *ref = &g->devices[0];
	for (size_t d = 1; d < g->ndevices; d++) {
		const struct ior_rt_device *o = &g->devices[d];
		if (o->n == ref->n && o->total != 0)
			fprintf(out, "ratio %s / %s: %.3f\n", ref->name, o->name, ref->total / o->total);
		else  /* unequal sample counts: totals would mislead, use means */
			fprintf(out, "ratio %s / %s: %.3f (means; %zu and %zu samples)\n", ref->name, o->name,
				ref->st.mean / o->st.mean, ref->n, o->n);
	}
}

/* The fill column appears when a device's data is known (runs, not imports): a sparse scratch
 * device measures how the filesystem under it serves holes, so the reader must see it. */
static void device_spreads(FILE *out, const struct ior_report *r, size_t gi, int dw)
{
	const struct ior_rt_group *g = &r->rt->groups[gi];
	bool fills = false;
	for (size_t d = 0; d < g->ndevices; d++)
		fills |= g->devices[d].fill != NULL;
	fprintf(out, "%-*s  %9s %9s %8s %8s %3s%s\n", dw, "device", "min", "max", "spread", "CoV", "n",
		fills ? "  fill" : "");
	for (size_t i = 0; i < r->view.ndevices[gi]; i++) {
		const struct ior_rt_device *d = &g->devices[r->view.devices[gi][i]];
		const struct ior_stats *st = &d->st;
		fprintf(out, "%-*s  %9.2f %9.2f %7.1f%% %7.1f%% %3zu", dw, d->name, st->min, st->max,
			st->spread * 100, st->cov * 100, st->n);
		if (fills)
			fprintf(out, "  %s", d->fill ? d->fill : "-");
		fputc('\n', out);
	}
}

/* The group's warm-up repetitions (matrix warmup = N): measured and stored, not in the table above
 * nor in anything judged, so the reader knows they exist (report --format csv lists them). */
static void group_warmups(FILE *out, const struct ior_report *r, size_t gi)
{
	for (size_t w = r->group_warm_at[gi]; w < r->group_warm_at[gi + 1]; w++) {
		const struct ior_stored_cell *c = &r->stored.cells[r->group_warm[w]];
		fprintf(out, "warm-up: %s %s, run %lld: %zu repetition(s) run first and left out (", c->device,
			ior_render_sched(c->scheduler), (long long)c->run_id, c->nwarmup);
		for (size_t k = 0, shown = 0; k < c->n; k++)
			if (r->stored.warmup[c->first + k])
				fprintf(out, "%s%.2f", shown++ ? " " : "", r->stored.values[c->first + k]);
		fputs(")\n", out);
	}
}

static void group_alerts(FILE *out, const struct ior_report *r, size_t gi)
{
	size_t shown = 0;
	char words[1600];
	for (size_t a = r->group_alert_at[gi]; a < r->group_alert_at[gi + 1]; a++) {
		ior_alert_describe(words, sizeof(words), &r->alerts[r->group_alerts[a]]);
		fprintf(out, "%s %s\n", shown++ ? "      " : "alert:", words);
	}
	if (!shown && (r->opts.parts & IOR_REPORT_ALERTS))
		fprintf(out, "alerts: none\n");
}

static void tables(FILE *out, const struct ior_report *r)
{
	bool any = false;
	for (size_t v = 0; v < r->view.ngroups; v++) {
		size_t i = r->view.groups[v];
		const struct ior_rt_group *g = &r->rt->groups[i];
		int dw = width_of(r, i, true), sw = width_of(r, i, false);
		if (any)
			fputc('\n', out);
		any = true;
		header(out, g, dw, sw);
		cell_rows(out, r, i, dw, sw);
		best_words(out, r, i);
		device_ratios(out, r, g);
		fputc('\n', out);
		device_spreads(out, r, i, dw);
		group_warmups(out, r, i);
		group_alerts(out, r, i);
	}
	if (!any)
		fprintf(out, "no samples match\n");
}

/* A value of a text table, right-aligned where it is a number; the line's trailing blanks are cut. */
static void table_row(FILE *out, const struct ior_section *s, const size_t *w, const char *const *cells)
{
	char line[4096];
	size_t n = 0;
	for (size_t c = 0; c < s->ncols && n < sizeof(line); c++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, ior_column_right(&s->cols[c]) ? "%s%*s" : "%s%-*s",
				      c ? "  " : "", (int)w[c], cells[c]);
	n = n < sizeof(line) ? n : sizeof(line) - 1;
	while (n && line[n - 1] == ' ')
		n--;
	fprintf(out, "%.*s\n", (int)n, line);
}

/* Columns under a header, each as wide as its widest value. */
static void table(FILE *out, const struct ior_section *s)
{
	char buf[16][64];
	const char *cells[16];
	size_t w[16] = { 0 }, nc = s->ncols < 16 ? s->ncols : 16;
	for (size_t c = 0; c < nc; c++)
		w[c] = strlen(s->cols[c].name);
	for (size_t i = 0; i < s->nrows; i++)
		for (size_t c = 0; c < nc; c++) {
			size_t l = strlen(ior_section_value(buf[c], sizeof(buf[c]), &s->cols[c], &s->v[i * s->ncols + c]));
			w[c] = l > w[c] ? l : w[c];
		}
	for (size_t c = 0; c < nc; c++)
		cells[c] = s->cols[c].name;
	table_row(out, s, w, cells);
	for (size_t i = 0; i < s->nrows; i++) {
		for (size_t c = 0; c < nc; c++)
			cells[c] = ior_section_value(buf[c], sizeof(buf[c]), &s->cols[c], &s->v[i * s->ncols + c]);
		table_row(out, s, w, cells);
	}
}

static void put(FILE *out, const char *s)
{
	fputs(s, out);
}

/* A section: a table under its title, or a sentence a row under "title:"; then its notes. */
static void section(FILE *out, const struct ior_section *s)
{
	if (!s->nrows)
		return;
	if (s->table) {
		fprintf(out, "\n%s\n", s->title);
		table(out, s);
	} else {
		if (s->intro)
			fprintf(out, "\n%s\n", s->intro);
		bool acronym = isupper((unsigned char)s->title[0]) && isupper((unsigned char)s->title[1]);
		fprintf(out, "\n%c%s:\n", acronym ? s->title[0] : tolower((unsigned char)s->title[0]), s->title + 1);
		static const struct ior_sentence_syntax plain = { .put = put };
		for (size_t i = 0; i < s->nrows; i++) {
			ior_section_sentence(out, s, &s->v[i * s->ncols], &plain);
			fputc('\n', out);
		}
	}
	char line[2048];
	for (const char *p = s->notes; ior_section_line(&p, line, sizeof(line));)
		fprintf(out, "%s\n", line);
}

/* --alerts: regressions (largest change first), then variance alerts (furthest past their threshold first). */
static void alerts_only(FILE *out, const struct ior_report *r)
{
	char words[1600];
	fprintf(out, "alerts and regressions, most severe first: %zu regression(s), %zu variance alert(s)\n",
		r->nregression_order, r->nalert_order);
	for (size_t i = 0; i < r->nregression_order; i++) {
		const struct ior_judge_verdict *v = &r->verdicts[r->regression_order[i]];
		fprintf(out, "regression: %s, %s, %s %s, %s, %s -> %s: %+.1f%% (%s)\n", v->host, v->engine, v->device,
			ior_render_sched(v->scheduler), ior_render_metric(v), r->baseline, r->candidate,
			(v->c.ratio - 1) * 100, v->c.reason);
	}
	for (size_t i = 0; i < r->nalert_order; i++) {
		const struct ior_alert *a = &r->alerts[r->alert_order[i]];
		ior_alert_describe(words, sizeof(words), a);
		fprintf(out, "alert (%.1fx its threshold): %s, %s: %s\n", a->severity, a->host, a->engine, words);
	}
}

static int render_text(FILE *out, const struct ior_report *r)
{
	if (r->opts.alerts_only) {
		alerts_only(out, r);
		section(out, &r->sections->s[IOR_SECTION_CHANGES]);
	} else {
		struct ior_answer_lines k;
		ior_render_kernel_answer(&k, r);
		for (size_t i = 0; i < k.n; i++)
			fprintf(out, "%s\n", k.line[i]);
		if (k.n)
			fputc('\n', out);
		ior_render_answers_text(out, r);  /* check's verdict rows, as `compare` prints them */
		tables(out, r);
		for (size_t i = IOR_SECTION_SCHEDULERS; i <= IOR_SECTION_PAIRS; i++)
			section(out, &r->sections->s[i]);
		if (r->baseline) {
			fputc('\n', out);
			ior_render_verdicts_text(out, r);
		}
		section(out, &r->sections->s[IOR_SECTION_BOOTS]);
	}
	return IOR_OK;
}

const struct ior_renderer ior_renderer_text = {
	.name = "text",
	.summary = "the field report's tables, for a terminal or (with --width) a mail",
	.parts = IOR_REPORT_ALL,
	.render = render_text,
	.wrap = IOR_WRAP_TEXT,
};
