/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel answer every text, Markdown and HTML report opens with: for each kernel pair, what was
 * compared, the verdict counts, the worst regression with its interval, and what could not be told and
 * why; then each change point by name. */
#include "reports/render.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Issue 22: the HTML report's first screen was 18 alerts and its verdicts sat at 92% of the page.
 * A reader comes for the answer, so it is said first, in words every format prints alike; the
 * alerts follow it. The verdicts and the choices (which pairs, which change points, in what order, at
 * what levels) are the model's (ior_report.pairs and .headline, model_answer.c): this file only words them. */

/* One kernel: the answer is each device's schedulers (the best-scheduler verdict, model_best.c); a
 * device with one scheduler has none to compare, and with none on any device there is no line. */
static void one_kernel(struct ior_answer_lines *out, const struct ior_report *r, const char *kernel)
{
	char *line = out->line[out->n++];
	size_t len = sizeof(out->line[0]);
	int at = snprintf(line, len, "answer: one kernel (%s), schedulers against each other:", kernel);
	for (size_t v = 0; v < r->view.ngroups && at > 0 && (size_t)at < len; v++) {
		size_t gi = r->view.groups[v];
		const struct ior_rt_group *g = &r->rt->groups[gi];
		for (size_t d = 0; d < r->view.ndevices[gi] && (size_t)at < len; d++) {
			const struct ior_rt_device *dev = &g->devices[r->view.devices[gi][d]];
			char words[400] = "";
			const char *best = NULL;
			for (size_t i = 0; i < g->ncells; i++)
				if (g->cells[i].best_significant && !strcmp(g->cells[i].device, dev->name))
					best = ior_render_sched(g->cells[i].scheduler);
			if (best)
				snprintf(words, sizeof(words), "%s is best", best);
			else
				ior_render_best_words(words, sizeof(words), dev);
			if (!*words)  /* one scheduler on this device: nothing to tell apart, nothing to answer */
				continue;
			char *see = strstr(words, " (see compare");  /* the pointer to compare stays in the table's line */
			if (see)
				*see = '\0';
			at += snprintf(line + at, len - (size_t)at, " %s, %s: %s;", dev->name, g->engine, words);
		}
	}
	if (at > 0 && (size_t)at < len && line[at - 1] == ';')
		line[at - 1] = '\0';
	else if (at > 0 && (size_t)at < len && line[at - 1] == ':')  /* no device had schedulers to compare */
		out->n--;
}

/* A level as a reader says it: whole numbers from 100 up, one decimal below, two under 10. */
static const char *level_text(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.*f", fabs(v) >= 100 ? 0 : fabs(v) >= 10 ? 1 : 2, v);
	return buf;
}

/* Issue 37: the answer said "2 change point(s)" without naming them, so the seed data's story (cfq
 * on the SSD RAID falling from about 107 to 60 MB/s at 2.6.33-rc5) sat below the fold. Each change
 * point in view is named, the largest first: its cell, the kernels it arrived between and the
 * levels before and after; those that do not fit are counted. */
static void change_line(struct ior_answer_lines *out, const struct ior_report *r)
{
	const struct ior_report_headline *h = &r->headline;
	if (!h->ncps || out->n >= sizeof(out->line) / sizeof(out->line[0]))
		return;
	char *line = out->line[out->n++];
	size_t len = sizeof(out->line[0]), named = 0, n = h->ncps;
	int at = snprintf(line, len, "change point%s:", n == 1 ? "" : "s");
	for (size_t i = 0; i < n && at > 0 && (size_t)at < len; i++) {
		const struct ior_report_change_ref *x = &h->cps[i];
		const struct ior_series_changes *sc = &r->changes[x->change];
		const struct ior_changepoint *c = &sc->cp[x->at];
		const struct ior_rt_series *s = &r->rt->series[sc->series];
		const struct ior_rt_group *g = &r->rt->groups[s->m[c->index].group];
		char words[400], before[32], after[32];
		int w = snprintf(words, sizeof(words), "%s %s on %s (%s) %s from about %s to %s %s (%+.1f%%, %s) at %s (after %s)",
				 i ? ";" : "", ior_render_sched(s->scheduler), s->device, s->engine, c->ratio < 1 ? "fell" : "rose",
				 level_text(before, sizeof(before), x->before), level_text(after, sizeof(after), x->after),
				 g->unit ? g->unit : "", (c->ratio - 1) * 100, x->worse ? "worse" : "better", g->kernel,
				 r->rt->groups[s->m[c->index - 1].group].kernel);
		/* keep room to count the rest */
		if (w < 0 || (size_t)at + (size_t)w + 64 >= len)
			break;
		memcpy(line + at, words, (size_t)w + 1);
		at += w;
		named++;
	}
	if (named < n && at > 0 && (size_t)at < len)
		snprintf(line + at, len - (size_t)at, "%s %zu more under change points below", named ? "; and" : "", n - named);
}

/* Many pairs: the first screen stays short, with the counts over all pairs and the pairs with a
 * regression, the worst first; every pair is in the Kernel pairs section (and the JSON's kernel_pairs). */
static void summary(struct ior_answer_lines *out, const struct ior_report *r, const char *what, size_t kernels,
		    const char *judged)
{
	const struct ior_report_headline *h = &r->headline;
	size_t reg = h->pairs_regressed;
	snprintf(out->line[out->n++], sizeof(out->line[0]),
		 "answer: %zu kernels, %s: %zu pairs, %zu with a regression, %zu with an improvement, %zu with cells not told "
		 "apart%s; every pair is listed under kernel pairs below%s", kernels, what, r->npairs, reg, h->pairs_improved,
		 h->pairs_untold, judged,
		 reg > IOR_ANSWER_PAIRS_MAX - 1 ? "; the worst regressions:" : reg ? "; the pairs with a regression:" : "");
	for (size_t i = 0; i < IOR_ANSWER_PAIRS_MAX - 1 && i < h->nworst; i++)
		ior_render_pair_words(out->line[out->n++], sizeof(out->line[0]), &r->pairs[h->worst[i]]);
}

void ior_render_kernel_answer(struct ior_answer_lines *out, const struct ior_report *r)
{
	memset(out, 0, sizeof(*out));
	size_t k = r->headline.kernels;
	if (!r->baseline && k == 1) {
		one_kernel(out, r, r->headline.one);
		return;
	}
	if (!r->npairs)
		return;
	char what[400];
	if (r->pairs_baseline)
		snprintf(what, sizeof(what), "%s against baseline %s", r->opts.candidate ? r->opts.candidate : "every other",
			 r->opts.baseline);
	else
		snprintf(what, sizeof(what), "each against the one before it in version order");
	/* a report judges the newest pairs while they take IOR_JUDGE_PAIR_VERDICTS comparisons: say so */
	char judged[320] = "";
	if (r->pairs_total > r->npairs)
		snprintf(judged, sizeof(judged), "; the newest %zu of %zu pairs, as a report judges up to %d cell comparisons "
			 "(any other pair: ioregress check --baseline A --candidate B)", r->npairs, r->pairs_total,
			 IOR_JUDGE_PAIR_VERDICTS);
	size_t cps = r->headline.ncps_in_view;
	if (r->npairs > IOR_ANSWER_PAIRS_MAX) {
		summary(out, r, what, k, judged);
		change_line(out, r);
		return;
	}
	snprintf(out->line[out->n++], sizeof(out->line[0]), "answer: %zu kernels, %s (%zu pair(s))%s; %zu change point(s) "
		 "over the kernels in version order", k, what, r->npairs, judged, cps);
	for (size_t i = 0; i < r->npairs; i++)
		ior_render_pair_words(out->line[out->n++], sizeof(out->line[0]), &r->pairs[i]);
	change_line(out, r);
}
