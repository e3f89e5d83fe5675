/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check --bad over the tables: each cell key measured on both ends and the candidate,
 * classified, and one verdict for the commit. */
#include "judge/classify.h"

#include "common/error.h"
#include "judge/boot_classify.h"
#include "stats/stats.h"

#include <stdlib.h>
#include <string.h>

static const struct ior_rt_cell *cell_on(const struct ior_tables *rt, const struct ior_rt_series *s, const char *kernel)
{
	const struct ior_rt_member *m = ior_rt_member_on(rt, s, kernel);
	return m ? &rt->groups[m->group].cells[m->index] : NULL;
}

static bool in_view(const struct ior_judge_input *o, const struct ior_rt_series *s)
{
	return !(o->host && ior_rt_strcmp(o->host, s->host)) && !(o->device && ior_rt_strcmp(o->device, s->device)) &&
	       !(o->scheduler && ior_rt_strcmp(o->scheduler, s->scheduler)) &&
	       !(o->engine && ior_rt_strcmp(o->engine, s->engine));
}

/* Series s on kernel as boots: one observation per stored cell a vm boot stored (its median, warm-ups
 * out). *any is set when one of them came from a boot; *n may be 0. */
static int boot_obs(const struct ior_judge_input *in, const struct ior_rt_series *s, const char *kernel,
		    struct ior_boot_obs **out, size_t *n, bool *any)
{
	const struct ior_stored *r = in->stored;
	*n = 0;
	*out = malloc((r->ncells ? r->ncells : 1) * sizeof(**out));
	double *v = malloc((r->nsamples ? r->nsamples : 1) * sizeof(*v));
	if (!*out || !v) {
		free(v);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	for (size_t m = 0; m < s->n; m++) {
		const struct ior_rt_group *g = &in->rt->groups[s->m[m].group];
		if (strcmp(g->kernel, kernel))
			continue;
		for (size_t i = 0; i < r->ncells; i++) {
			const struct ior_stored_cell *x = &r->cells[i];
			if (!ior_stored_cell_of(x, g, &g->cells[s->m[m].index]))
				continue;
			const struct ior_stored_boot *b = ior_stored_boot_of_run(r, x->run_id);
			*any |= b != NULL;
			size_t k = 0;
			for (size_t j = x->first; j < x->first + x->n; j++)
				if (!r->warmup[j])
					v[k++] = r->values[j];
			if (k)
				(*out)[(*n)++] = (struct ior_boot_obs){ .vm_run = b ? b->vm_run : NULL,
									.round = b ? b->boot_index : 0,
									.median = ior_median(v, k), .n = k };
		}
	}
	free(v);
	return IOR_OK;
}

/* VM data (a boot of any of the three stored the cell): classified on boot medians, never on one
 * boot's repetitions taken as independent samples. *done false: not VM data. */
static int classify_boots(struct ior_classification *k, const struct ior_judge_input *r, const struct ior_rt_series *s,
			  const char *good, const char *bad, const char *cand, const struct ior_classify_opts *o,
			  bool *done)
{
	struct ior_boot_obs *og = NULL, *ob = NULL, *oc = NULL;
	size_t ng = 0, nb = 0, nc = 0;
	bool any = false;
	*done = false;
	int rc = boot_obs(r, s, good, &og, &ng, &any);
	if (!rc)
		rc = boot_obs(r, s, bad, &ob, &nb, &any);
	if (!rc)
		rc = boot_obs(r, s, cand, &oc, &nc, &any);
	if (!rc && any && ng && nb && nc) {
		rc = ior_boot_classify(k, og, ng, ob, nb, oc, nc, o);
		*done = !rc;
	}
	free(og), free(ob), free(oc);
	return rc;
}

/* A regression on any cell makes the commit bad: the one hunted may sit on a single cell. Cells
 * whose ends do not differ carry nothing about it and are left out of the verdict. */
static void overall(struct ior_classified *e)
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

int ior_judge_classify(struct ior_classified *out, const struct ior_judge_input *r, const char *good,
		       const char *bad, const char *cand, double alpha)
{
	memset(out, 0, sizeof(*out));
	const struct ior_tables *rt = r->rt;
	if (!rt)
		return ior_error_set(IOR_EINVALID, "cannot classify without the tables");
	out->cells = calloc(rt->nseries ? rt->nseries : 1, sizeof(*out->cells));
	if (!out->cells)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < rt->nseries; i++) {
		const struct ior_rt_series *s = &rt->series[i];
		if (!in_view(r, s))
			continue;
		const struct ior_rt_cell *g = cell_on(rt, s, good), *b = cell_on(rt, s, bad), *c = cell_on(rt, s, cand);
		if (!g || !b || !c || g->n < 2 || b->n < 2 || c->n < 2)
			continue;
		struct ior_classify_opts o = { .alpha = alpha, .higher_is_better = s->higher_is_better };
		struct ior_classified_cell *e = &out->cells[out->n];
		e->series = i;
		bool by_boot = false;
		if (classify_boots(&e->k, r, s, good, bad, cand, &o, &by_boot) ||
		    (!by_boot && ior_classify(&e->k, g->values, g->n, b->values, b->n, c->values, c->n, &o))) {
			ior_classified_free(out);
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
		ior_classified_free(out);
		return ior_error_set(IOR_ENOTFOUND, "no cell has at least 2 samples on each of '%s', '%s' and '%s'", good,
				     bad, cand);
	}
	overall(out);
	return IOR_OK;
}

void ior_classified_free(struct ior_classified *e)
{
	if (!e)
		return;
	free(e->cells);
	memset(e, 0, sizeof(*e));
}
