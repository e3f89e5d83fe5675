/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel answer every text, Markdown and HTML report opens with: what was compared, the verdict
 * counts, the worst regression with its interval, and what could not be told and why. */
#include "reports/render.h"

#include <stdio.h>
#include <string.h>

/* Issue 22: the HTML report's first screen was 18 alerts and its verdicts sat at 92% of the page.
 * A reader comes for the answer, so it is said first, in words every format prints alike; the
 * alerts follow it. */

static size_t kernels_in_view(const struct ior_report *r, const char **one)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nkernels; i++)
		if (r->kernels[i].in_view && n++ == 0)
			*one = r->kernels[i].release;
	return n;
}

static void verdict_lines(struct ior_answer_lines *out, const struct ior_report *r)
{
	size_t n = 0, reg = 0, imp = 0, same = 0, floor = 0, noisy = 0, fewest = 0;
	double lo = 0, hi = 0, widest = -1;
	for (size_t i = 0; i < r->nverdicts; i++) {
		const struct ior_report_verdict *v = &r->verdicts[i];
		if (!v->in_view)
			continue;
		n++;
		switch (v->c.verdict) {
		case IOR_VERDICT_REGRESSION: reg++; break;
		case IOR_VERDICT_IMPROVEMENT: imp++; break;
		case IOR_VERDICT_NO_CHANGE: same++; break;
		case IOR_VERDICT_INCONCLUSIVE:
			if (v->c.min_p >= r->opts.compare.alpha) {
				size_t k = v->c.na < v->c.nb ? v->c.na : v->c.nb;
				fewest = !floor++ || k < fewest ? k : fewest;
			} else if (noisy++, v->c.ratio_hi - v->c.ratio_lo > widest) {
				widest = v->c.ratio_hi - v->c.ratio_lo;
				lo = v->c.ratio_lo, hi = v->c.ratio_hi;
			}
			break;
		}
	}
	char title[512];
	ior_render_comparison_title(title, sizeof(title), r->axis, r->baseline, r->candidate);
	snprintf(out->line[out->n++], sizeof(out->line[0]),
		 "answer: %s: %zu cell(s) compared: %zu regression(s), %zu improvement(s), %zu no change, %zu inconclusive",
		 title, n, reg, imp, same, floor + noisy);
	if (r->nregression_order) {
		const struct ior_report_verdict *v = &r->verdicts[r->regression_order[0]];
		snprintf(out->line[out->n++], sizeof(out->line[0]),
			 "worst regression: %s, %s %s, %s, %s: %+.1f%% (95%% CI %+.1f%% to %+.1f%%)", v->engine, v->device,
			 ior_render_sched(v->scheduler), ior_render_metric(v), v->cand_name ? v->cand_name : "?",
			 (v->c.ratio - 1) * 100, (v->c.ratio_lo - 1) * 100, (v->c.ratio_hi - 1) * 100);
	}
	if (floor + noisy) {
		char a[200] = "", b[200] = "";
		if (floor)
			snprintf(a, sizeof(a), "%zu with too few repetitions (n = %zu: not enough to decide)", floor, fewest);
		if (noisy)
			snprintf(b, sizeof(b), "%s%zu too noisy for their samples (widest 95%% CI %+.1f%% to %+.1f%%)",
				 floor ? ", " : "", noisy, (lo - 1) * 100, (hi - 1) * 100);
		snprintf(out->line[out->n++], sizeof(out->line[0]),
			 "not told apart: %zu cell(s): %s%s; more repetitions (or boots) decide them", floor + noisy, a, b);
	}
}

/* One kernel: the answer is each device's schedulers (the best-scheduler verdict, model_best.c); a
 * device with one scheduler has none to compare, and with none on any device there is no line. */
static void one_kernel(struct ior_answer_lines *out, const struct ior_report *r, const char *kernel)
{
	char *line = out->line[out->n++];
	size_t len = sizeof(out->line[0]);
	int at = snprintf(line, len, "answer: one kernel (%s), schedulers against each other:", kernel);
	for (size_t gi = 0; r->rt && gi < r->rt->ngroups && at > 0 && (size_t)at < len; gi++) {
		const struct ior_rt_group *g = &r->rt->groups[gi];
		for (size_t d = 0; r->group_in_view[gi] && d < g->ndevices && (size_t)at < len; d++) {
			const struct ior_rt_device *dev = &g->devices[d];
			if (r->opts.device && strcmp(r->opts.device, dev->name))
				continue;
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

void ior_render_kernel_answer(struct ior_answer_lines *out, const struct ior_report *r)
{
	memset(out, 0, sizeof(*out));
	if (r->baseline) {
		verdict_lines(out, r);
		return;
	}
	const char *one = NULL;
	size_t k = kernels_in_view(r, &one);
	size_t cps = 0;
	for (size_t i = 0; i < r->nchanges; i++)
		cps += r->changes[i].in_view ? r->changes[i].ncp : 0;
	if (k == 1)
		one_kernel(out, r, one);
	else if (k > 1)
		snprintf(out->line[out->n++], sizeof(out->line[0]),
			 "answer: %zu kernels, no baseline named (--baseline KERNEL judges every cell against it); %zu change "
			 "point(s) found over the kernels in version order", k, cps);
}
