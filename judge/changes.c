/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Change points over the tables: each in-view cell series of three kernels or more, its kernels
 * in version order; on VM data one value per boot. */
#include "judge/changes.h"

#include "common/error.h"
#include "stats/stats.h"

#include <stdlib.h>
#include <string.h>

/* Issue 22: under qemu a guest's speed moves between boots by far more than between one boot's
 * repetitions (judge/boot_verdict.h), so ten repetitions of one slow boot looked like ten pieces of
 * evidence of a slower kernel, and E-divisive found a change no boot-level verdict supports. Where any
 * kernel of a series was measured in a VM boot, each run (a boot) of every kernel of the series gives
 * one value, its median with the warm-ups left out, as the verdicts take it (verdicts.c). */

static bool any_boot(const struct ior_stored *r)
{
	for (size_t i = 0; i < r->ncells; i++)
		if (ior_stored_boot_of_run(r, r->cells[i].run_id))
			return true;
	return false;
}

/* Whether a stored cell behind any member of s came from a VM boot. */
static bool series_from_boots(const struct ior_judge_input *in, const struct ior_rt_series *s)
{
	const struct ior_stored *r = in->stored;
	for (size_t k = 0; k < s->n; k++) {
		const struct ior_rt_group *g = &in->rt->groups[s->m[k].group];
		for (size_t i = 0; i < r->ncells; i++)
			if (r->cells[i].group == s->m[k].group && ior_stored_cell_of(&r->cells[i], g, &g->cells[s->m[k].index]) &&
			    ior_stored_boot_of_run(r, r->cells[i].run_id))
				return true;
	}
	return false;
}

/* Member k's runs' medians into out (room for every stored cell), warm-ups out; returns how many. */
static size_t run_medians(const struct ior_judge_input *in, const struct ior_rt_member *m, double *out, double *scratch)
{
	const struct ior_stored *r = in->stored;
	const struct ior_rt_group *g = &in->rt->groups[m->group];
	size_t n = 0;
	for (size_t i = 0; i < r->ncells; i++) {
		const struct ior_stored_cell *x = &r->cells[i];
		if (x->group != m->group || !ior_stored_cell_of(x, g, &g->cells[m->index]))
			continue;
		size_t k = 0;
		for (size_t s = 0; s < x->n; s++)
			if (!r->warmup || !r->warmup[x->first + s])
				scratch[k++] = r->values[x->first + s];
		if (k)
			out[n++] = ior_median(scratch, k);
	}
	return n;
}

static bool series_in_view(const struct ior_judge_input *o, const struct ior_rt_series *s)
{
	if ((o->device && ior_rt_strcmp(o->device, s->device)) || (o->scheduler && ior_rt_strcmp(o->scheduler, s->scheduler)) ||
	    (o->engine && ior_rt_strcmp(o->engine, s->engine)))
		return false;
	if (!o->kernel)
		return true;
	for (size_t i = 0; i < s->n; i++)  /* --kernel: the series that kernel belongs to */
		if (!strcmp(o->rt->groups[s->m[i].group].kernel, o->kernel))
			return true;
	return false;
}

int ior_judge_changes(struct ior_series_changes **out, size_t *n, const struct ior_judge_input *in,
		      const struct ior_cp_opts *o)
{
	const struct ior_tables *rt = in->rt;
	const struct ior_stored *st = in->stored;
	struct ior_series_changes *changes = calloc(rt->nseries ? rt->nseries : 1, sizeof(*changes));
	*out = changes, *n = 0;
	size_t longest = 0;
	for (size_t i = 0; i < rt->nseries; i++)
		if (rt->series[i].n > longest)
			longest = rt->series[i].n;
	struct ior_cp_point *pts = malloc((longest ? longest : 1) * sizeof(*pts));
	if (!changes || !pts) {
		free(pts);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	bool boots = any_boot(st);
	size_t most = 0;   /* the most samples of one stored cell: the scratch a median needs */
	for (size_t i = 0; boots && i < st->ncells; i++)
		most = st->cells[i].n > most ? st->cells[i].n : most;
	/* a stored cell is behind one member of one series: a series' medians are never more than the cells */
	double *med = boots ? malloc((st->ncells + most + 1) * sizeof(*med)) : NULL;
	if (boots && !med) {
		free(pts);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	int rc = IOR_OK;
	for (size_t i = 0; !rc && i < rt->nseries; i++) {
		const struct ior_rt_series *s = &rt->series[i];
		if (s->n < 3 || !series_in_view(in, s))  /* two kernels are a comparison (check), not a series */
			continue;
		bool by_boot = boots && series_from_boots(in, s);
		double *at = med, *scratch = med ? med + st->ncells : NULL;
		for (size_t k = 0; k < s->n; k++) {
			const struct ior_rt_group *g = &rt->groups[s->m[k].group];
			const struct ior_rt_cell *c = &g->cells[s->m[k].index];
			pts[k] = (struct ior_cp_point){ .label = g->kernel, .values = c->values, .n = c->n };
			if (by_boot) {
				pts[k].values = at;
				pts[k].n = run_medians(in, &s->m[k], at, scratch);
				at += pts[k].n;
			}
		}
		struct ior_series_changes *sc = &changes[*n];
		*sc = (struct ior_series_changes){ .series = i, .in_view = true };
		rc = ior_changepoints(&sc->cp, &sc->ncp, pts, s->n, o);
		if (!rc)
			(*n)++;
	}
	free(pts);
	free(med);
	return rc;
}

void ior_series_changes_free(struct ior_series_changes *c, size_t n)
{
	for (size_t i = 0; c && i < n; i++)
		free(c[i].cp);
	free(c);
}
