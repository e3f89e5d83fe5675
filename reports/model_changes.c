/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Change points of the report model: each in-view cell series of three kernels or more, its kernels
 * in version order. */
#include "reports/model_internal.h"

#include "common/error.h"

#include <stdlib.h>
#include <string.h>

static bool series_in_view(const struct ior_report *r, const struct ior_rt_series *s)
{
	const struct ior_report_opts *o = &r->opts;
	if ((o->device && ior_rt_strcmp(o->device, s->device)) || (o->scheduler && ior_rt_strcmp(o->scheduler, s->scheduler)) ||
	    (o->engine && ior_rt_strcmp(o->engine, s->engine)))
		return false;
	if (!o->kernel)
		return true;
	for (size_t i = 0; i < s->n; i++)  /* --kernel: the series that kernel belongs to */
		if (!strcmp(r->rt->groups[s->m[i].group].kernel, o->kernel))
			return true;
	return false;
}

int ior_report_changes_build(struct ior_report *r)
{
	const struct ior_tables *rt = r->rt;
	r->changes = calloc(rt->nseries ? rt->nseries : 1, sizeof(*r->changes));
	size_t longest = 0;
	for (size_t i = 0; i < rt->nseries; i++)
		if (rt->series[i].n > longest)
			longest = rt->series[i].n;
	struct ior_cp_point *pts = malloc((longest ? longest : 1) * sizeof(*pts));
	if (!r->changes || !pts) {
		free(pts);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	int rc = IOR_OK;
	for (size_t i = 0; !rc && i < rt->nseries; i++) {
		const struct ior_rt_series *s = &rt->series[i];
		if (s->n < 3 || !series_in_view(r, s))  /* two kernels are a comparison (check), not a series */
			continue;
		for (size_t k = 0; k < s->n; k++) {
			const struct ior_rt_group *g = &rt->groups[s->m[k].group];
			const struct ior_rt_cell *c = &g->cells[s->m[k].index];
			pts[k] = (struct ior_cp_point){ .label = g->kernel, .values = c->values, .n = c->n };
		}
		struct ior_report_series_changes *sc = &r->changes[r->nchanges];
		*sc = (struct ior_report_series_changes){ .series = i, .in_view = true };
		rc = ior_changepoints(&sc->cp, &sc->ncp, pts, s->n, &r->opts.changes);
		if (!rc)
			r->nchanges++;
	}
	free(pts);
	return rc;
}
