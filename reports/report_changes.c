/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The change-point section of the text report: for each cell measured on three or more kernels of a host, where its level changed. */
#include "reports/report.h"
#include "common/error.h"
#include "reports/changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The kernels (groups, already in version order) of one host and engine that measured a cell. */
static size_t series_of(const struct ior_rt *rt, const struct ior_rt_group *first, const char *device,
			const char *scheduler, struct ior_cp_point *pts, size_t max)
{
	size_t n = 0;
	for (size_t g = 0; g < rt->ngroups && n < max; g++) {
		const struct ior_rt_group *grp = &rt->groups[g];
		if (strcmp(grp->host, first->host) || strcmp(grp->engine, first->engine))
			continue;
		const struct ior_rt_cell *c = ior_rt_cell_find(grp, device, scheduler);
		if (c && c->n > 0)
			pts[n++] = (struct ior_cp_point){ .label = grp->kernel, .values = c->values, .n = c->n };
	}
	return n;
}

/* True when an earlier group of the same host and engine already had this cell: each series once. */
static bool seen_before(const struct ior_rt *rt, size_t upto, const struct ior_rt_group *g, const char *device,
			const char *scheduler)
{
	for (size_t i = 0; i < upto; i++) {
		const struct ior_rt_group *p = &rt->groups[i];
		if (!strcmp(p->host, g->host) && !strcmp(p->engine, g->engine) && ior_rt_cell_find(p, device, scheduler))
			return true;
	}
	return false;
}

static void print_series(FILE *out, const struct ior_rt_group *g, const char *device, const char *scheduler,
			 const struct ior_cp_point *pts, size_t npts, const struct ior_changepoint *cp, size_t ncp)
{
	fprintf(out, "%s, %s, %s %s over %zu kernels (%s .. %s): ", g->host, g->engine, device, scheduler, npts,
		pts[0].label, pts[npts - 1].label);
	if (ncp == 0) {
		fputs("no change point\n", out);
		return;
	}
	for (size_t i = 0; i < ncp; i++) {
		const struct ior_changepoint *c = &cp[i];
		double pct = (c->ratio - 1.0) * 100.0;
		bool worse = g->higher_is_better ? c->ratio < 1.0 : c->ratio > 1.0;
		fprintf(out, "%schange arrived in %s (after %s): level x%.3f (%+.1f%%, %s), p = %.3f", i ? "; " : "",
			pts[c->index].label, pts[c->index - 1].label, c->ratio, pct, worse ? "worse" : "better", c->p);
	}
	fputc('\n', out);
}

int ior_report_changes(FILE *out, const struct ior_rt *rt, const struct ior_cp_opts *opts)
{
	bool header = false;
	for (size_t g = 0; g < rt->ngroups; g++) {
		const struct ior_rt_group *grp = &rt->groups[g];
		for (size_t c = 0; c < grp->ncells; c++) {
			const char *dev = grp->cells[c].device, *sched = grp->cells[c].scheduler;
			if (seen_before(rt, g, grp, dev, sched))
				continue;
			struct ior_cp_point *pts = calloc(rt->ngroups, sizeof(*pts));
			if (!pts)
				return ior_error_set(IOR_ERROR, "out of memory");
			size_t npts = series_of(rt, grp, dev, sched, pts, rt->ngroups);
			if (npts < 3) { /* two kernels are a comparison (check), not a series */
				free(pts);
				continue;
			}
			struct ior_changepoint *cp = NULL;
			size_t ncp = 0;
			int rc = ior_changepoints(&cp, &ncp, pts, npts, opts);
			if (rc == IOR_OK) {
				if (!header)
					fputs("change points across kernels (E-divisive, permutation test):\n", out);
				header = true;
				print_series(out, grp, dev, sched ? sched : "-", pts, npts, cp, ncp);
			}
			free(cp);
			free(pts);
			if (rc)
				return rc;
		}
	}
	return IOR_OK;
}
