/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check --bad over the report model: each cell key measured on both ends and the candidate, classified, and one verdict for the commit. */
#include "reports/classify_model.h"

#include "common/error.h"

#include <stdlib.h>
#include <string.h>

static const struct ior_rt_cell *cell_on(const struct ior_rt *rt, const struct ior_rt_series *s, const char *kernel)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(rt->groups[s->m[i].group].kernel, kernel))
			return &rt->groups[s->m[i].group].cells[s->m[i].index];
	return NULL;
}

static bool in_view(const struct ior_report_opts *o, const struct ior_rt_series *s)
{
	return !(o->host && ior_rt_strcmp(o->host, s->host)) && !(o->device && ior_rt_strcmp(o->device, s->device)) &&
	       !(o->scheduler && ior_rt_strcmp(o->scheduler, s->scheduler)) &&
	       !(o->engine && ior_rt_strcmp(o->engine, s->engine));
}

/* A regression on any cell makes the commit bad: the one hunted may sit on a single cell. Cells
 * whose ends do not differ carry nothing about it and are left out of the verdict. */
static void overall(struct ior_ends *e)
{
	if (e->bad)
		e->verdict = IOR_CLASS_BAD;
	else if (e->good && !e->undecided)
		e->verdict = IOR_CLASS_GOOD;
	else if (!e->good && !e->undecided)
		e->verdict = IOR_CLASS_NO_GAP;
	else
		e->verdict = IOR_CLASS_UNDECIDED;
}

int ior_report_classify(struct ior_ends *out, const struct ior_report *r, const char *good, const char *bad,
			const char *cand, double alpha)
{
	memset(out, 0, sizeof(*out));
	const struct ior_rt *rt = r->rt;
	if (!rt)
		return ior_error_set(IOR_EINVALID, "cannot classify without the report's tables");
	out->cells = calloc(rt->nseries ? rt->nseries : 1, sizeof(*out->cells));
	if (!out->cells)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < rt->nseries; i++) {
		const struct ior_rt_series *s = &rt->series[i];
		if (!in_view(&r->opts, s))
			continue;
		const struct ior_rt_cell *g = cell_on(rt, s, good), *b = cell_on(rt, s, bad), *c = cell_on(rt, s, cand);
		if (!g || !b || !c || g->n < 2 || b->n < 2 || c->n < 2)
			continue;
		struct ior_classify_opts o = { .alpha = alpha, .higher_is_better = s->higher_is_better };
		struct ior_ends_cell *e = &out->cells[out->n];
		e->series = i;
		if (ior_classify(&e->k, g->values, g->n, b->values, b->n, c->values, c->n, &o)) {
			ior_ends_free(out);
			return ior_error_wrap(IOR_ERROR, "cannot classify '%s' %s %s", s->device,
					      s->scheduler ? s->scheduler : "-", s->engine);
		}
		out->n++;
		switch (e->k.verdict) {
		case IOR_CLASS_GOOD: out->good++; break;
		case IOR_CLASS_BAD: out->bad++; break;
		case IOR_CLASS_UNDECIDED: out->undecided++; break;
		case IOR_CLASS_NO_GAP: out->no_gap++; break;
		}
	}
	if (!out->n) {
		ior_ends_free(out);
		return ior_error_set(IOR_ENOTFOUND, "no cell has at least 2 samples on each of '%s', '%s' and '%s'", good,
				     bad, cand);
	}
	overall(out);
	return IOR_OK;
}

void ior_ends_free(struct ior_ends *e)
{
	if (!e)
		return;
	free(e->cells);
	memset(e, 0, sizeof(*e));
}
