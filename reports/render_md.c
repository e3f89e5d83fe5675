/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Markdown report: the same facts as the text report as GitHub-flavoured tables, fit to paste
 * into a mail to a kernel list or a merge request. */
#include "reports/render.h"

#include "common/error.h"
#include "reports/escape.h"

#include <string.h>

static void cell_table(FILE *out, const struct ior_report *r, size_t gi)
{
	const struct ior_rt_group *g = &r->rt->groups[gi];
	fputs("| device | scheduler |", out);
	for (size_t k = 0; k < g->max_n; k++)
		fprintf(out, " #%zu |", k + 1);
	fputs(" total | share | best |\n|---|---|", out);
	for (size_t k = 0; k < g->max_n; k++)
		fputs("---:|", out);
	fputs("---:|---:|:-:|\n", out);
	for (size_t i = 0; i < r->view.ncells[gi]; i++) {
		const struct ior_rt_cell *c = &g->cells[r->view.cells[gi][i]];
		fputs("| ", out);
		ior_esc_md(out, c->device);
		fputs(" | ", out);
		ior_esc_md(out, ior_render_sched(c->scheduler));
		fputs(" |", out);
		static const struct ior_row_syntax md = { .open = " ", .close = " |", .best = " * |\n", .not_best = "  |\n" };
		ior_render_figures(out, g, c, &md);
	}
	for (size_t i = 0; i < r->view.ndevices[gi]; i++) {
		const struct ior_rt_device *d = &g->devices[r->view.devices[gi][i]];
		char words[400];
		ior_render_best_words(words, sizeof(words), d);
		if (!*words)
			continue;
		fputs("\n", out);
		ior_esc_md(out, d->name);
		fprintf(out, ": %s.\n", words);
	}
}

static void device_table(FILE *out, const struct ior_report *r, size_t gi)
{
	const struct ior_rt_group *g = &r->rt->groups[gi];
	fputs("\n| device | min | max | spread | CoV | n | fill |\n|---|---:|---:|---:|---:|---:|---|\n", out);
	for (size_t i = 0; i < r->view.ndevices[gi]; i++) {
		const struct ior_rt_device *dev = &g->devices[r->view.devices[gi][i]];
		fputs("| ", out);
		ior_esc_md(out, dev->name);
		fprintf(out, " | %.2f | %.2f | %.1f%% | %.1f%% | %zu | %s |\n", dev->st.min, dev->st.max, dev->st.spread * 100,
			dev->st.cov * 100, dev->st.n, dev->fill ? dev->fill : "-");
	}
}

static void alert_item(FILE *out, const struct ior_alert *a)
{
	char words[1600];
	ior_alert_describe(words, sizeof(words), a);
	fprintf(out, "- **alert** (%.1fx its threshold): ", a->severity);
	ior_esc_md(out, words);
	fputc('\n', out);
}

static void groups(FILE *out, const struct ior_report *r)
{
	bool any = false;
	for (size_t v = 0; v < r->view.ngroups; v++) {
		size_t gi = r->view.groups[v];
		any = true;
		const struct ior_rt_group *g = &r->rt->groups[gi];
		char title[1024];
		ior_render_group_title(title, sizeof(title), g);
		fputs("\n## ", out);
		ior_esc_md(out, title);
		fputs("\n\n", out);
		cell_table(out, r, gi);
		device_table(out, r, gi);
		if (r->group_alert_at[gi] < r->group_alert_at[gi + 1])
			fputc('\n', out);
		for (size_t a = r->group_alert_at[gi]; a < r->group_alert_at[gi + 1]; a++)
			alert_item(out, &r->alerts[r->group_alerts[a]]);
	}
	if (!any)
		fputs("\nNo samples match.\n", out);
}

/* A section as a GitHub table (a list's items joined by "; ") or a list under its heading, then its notes. */
static void section(FILE *out, const struct ior_section *s)
{
	if (!s->nrows && !s->always)
		return;
	char line[2048];
	fprintf(out, "\n## %s\n\n", s->title);
	if (s->intro)
		fprintf(out, "%s\n\n", s->intro);
	static const struct ior_sentence_syntax md = { .put = ior_esc_md, .strong = "**", .unstrong = "**" };
	for (size_t i = 0; s->list && i < s->nrows; i++) {
		fputs("- ", out);
		ior_section_sentence(out, s, &s->v[i * s->ncols], &md);
		fputc('\n', out);
	}
	if (s->list)
		return;
	for (size_t c = 0; c < s->ncols; c++)
		fprintf(out, "| %s ", s->cols[c].name);
	fputs("|\n", out);
	for (size_t c = 0; c < s->ncols; c++)
		fputs(ior_column_right(&s->cols[c]) ? "|---:" : "|---", out);
	fputs("|\n", out);
	for (size_t i = 0; i < s->nrows; i++) {
		for (size_t c = 0; c < s->ncols; c++) {
			char num[64];
			const char *x = ior_section_value(num, sizeof(num), &s->cols[c], &s->v[i * s->ncols + c]);
			fputs("| ", out);
			for (size_t k = 0; ior_section_line(&x, line, sizeof(line)); k++) {
				fputs(k ? "; " : "", out);
				ior_esc_md(out, line);
			}
			fputc(' ', out);
		}
		fputs("|\n", out);
	}
	for (const char *p = s->notes; ior_section_line(&p, line, sizeof(line));) {
		fputc('\n', out);
		ior_esc_md(out, line);
		fputc('\n', out);
	}
}

/* The kernel answer first (render_answer.c), as a list. */
static void kernel_answer(FILE *out, const struct ior_report *r)
{
	struct ior_answer_lines k;
	ior_render_kernel_answer(&k, r);
	if (k.n)
		fputs("\n## Answer\n\n", out);
	for (size_t i = 0; i < k.n; i++) {
		fputs("- ", out);
		ior_esc_md(out, k.line[i]);
		fputc('\n', out);
	}
}

static int render_md(FILE *out, const struct ior_report *r)
{
	fputs("# ioregress report\n", out);
	if (r->opts.alerts_only) {
		fprintf(out, "\nAlerts and regressions, most severe first: %zu regression(s), %zu variance alert(s).\n\n",
			r->nregression_order, r->nalert_order);
		for (size_t i = 0; i < r->nalert_order; i++)
			alert_item(out, &r->alerts[r->alert_order[i]]);
	} else {
		kernel_answer(out, r);
		section(out, &r->sections->s[IOR_SECTION_ANSWERS]);
		groups(out, r);
	}
	for (size_t i = IOR_SECTION_SCHEDULERS; i < IOR_SECTION_COUNT; i++)
		section(out, &r->sections->s[i]);
	return IOR_OK;
}

const struct ior_renderer ior_renderer_md = {
	.name = "md",
	.summary = "Markdown tables, for a merge request, an issue or a CI job's summary",
	.parts = IOR_REPORT_ALL,
	.render = render_md,
	.wrap = IOR_WRAP_MARKDOWN,
};
