/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel answer's choices (ior_report.headline): the kernels in view, the kernel pairs with a
 * regression in the order the answer names them, and every change point in view, the largest first,
 * with the levels before and after it. render_answer.c only words them. */
#include "reports/model_internal.h"

#include "common/error.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>

/* The level of a series over its kernels [from, to): the median of their medians. */
static double segment_level(const struct ior_report *r, const struct ior_rt_series *s, size_t from, size_t to)
{
	double m[to > from ? to - from : 1];
	size_t n = 0;
	for (size_t k = from; k < to && k < s->n; k++) {
		const struct ior_rt_group *g = &r->rt->groups[s->m[k].group];
		m[n++] = g->cells[s->m[k].index].st.median;
	}
	return ior_median(m, n);
}

static double cp_size(const struct ior_report *r, const struct ior_report_change_ref *c)
{
	return fabs(r->changes[c->change].cp[c->at].ratio - 1);
}

static int change_points(struct ior_report *r, struct ior_report_headline *h)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nchanges; i++)
		n += r->changes[i].in_view ? r->changes[i].ncp : 0;
	h->ncps_in_view = n;
	if (!n || !r->rt)
		return IOR_OK;
	h->cps = calloc(n, sizeof(*h->cps));
	if (!h->cps)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < r->nchanges; i++)
		for (size_t j = 0; r->changes[i].in_view && j < r->changes[i].ncp; j++)
			h->cps[h->ncps++] = (struct ior_report_change_ref){ .change = i, .at = j };
	/* largest first, equal sizes in series order; a report has few */
	for (size_t i = 1; i < h->ncps; i++)
		for (size_t j = i; j > 0 && cp_size(r, &h->cps[j]) > cp_size(r, &h->cps[j - 1]); j--) {
			struct ior_report_change_ref t = h->cps[j];
			h->cps[j] = h->cps[j - 1];
			h->cps[j - 1] = t;
		}
	for (size_t i = 0; i < h->ncps; i++) {
		struct ior_report_change_ref *x = &h->cps[i];
		const struct ior_series_changes *sc = &r->changes[x->change];
		const struct ior_changepoint *c = &sc->cp[x->at];
		const struct ior_rt_series *s = &r->rt->series[sc->series];
		size_t from = x->at ? sc->cp[x->at - 1].index : 0;
		size_t to = x->at + 1 < sc->ncp ? sc->cp[x->at + 1].index : s->n;
		x->before = segment_level(r, s, from, c->index);
		x->after = segment_level(r, s, c->index, to);
		x->worse = s->higher_is_better ? c->ratio < 1 : c->ratio > 1;
	}
	return IOR_OK;
}

/* The pairs with a regression, the largest first (equal ones in kernel order). */
static int worst_pairs(struct ior_report *r, struct ior_report_headline *h)
{
	h->worst = calloc(r->npairs ? r->npairs : 1, sizeof(*h->worst));
	bool *shown = calloc(r->npairs ? r->npairs : 1, sizeof(*shown));
	if (!h->worst || !shown) {
		free(shown);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	for (;;) {
		size_t at = SIZE_MAX;
		for (size_t i = 0; i < r->npairs; i++)
			if (r->pairs[i].has_worst && !shown[i] &&
			    (at == SIZE_MAX || fabs(r->pairs[i].worst.c.ratio - 1) > fabs(r->pairs[at].worst.c.ratio - 1)))
				at = i;
		if (at == SIZE_MAX)
			break;
		shown[at] = true;
		h->worst[h->nworst++] = at;
	}
	free(shown);
	for (size_t i = 0; i < r->npairs; i++) {
		const struct ior_judge_pair *p = &r->pairs[i];
		h->pairs_regressed += p->regressions > 0;
		h->pairs_improved += p->improvements > 0;
		h->pairs_untold += p->inconclusive > 0;
	}
	return IOR_OK;
}

int ior_report_headline_build(struct ior_report *r)
{
	struct ior_report_headline *h = &r->headline;
	for (size_t i = 0; i < r->nkernels; i++)
		if (r->kernels[i].in_view && h->kernels++ == 0)
			h->one = r->kernels[i].release;
	if (worst_pairs(r, h))
		return IOR_ERROR;
	return change_points(r, h);
}

void ior_report_headline_free(struct ior_report_headline *h)
{
	free(h->worst);
	free(h->cps);
}
