/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What of the model is in view, as index lists (ior_report.view): a renderer walks them and prints,
 * and never tests a row against the filters itself. */
#include "reports/model_internal.h"

#include "common/error.h"

#include <stdlib.h>
#include <string.h>

/* The indexes i < n for which in(ctx, i) holds, in order, into *out (NULL when none). */
static int pick(size_t **out, size_t *nout, size_t n, bool (*in)(const struct ior_report *, size_t),
		const struct ior_report *r)
{
	*out = NULL;
	*nout = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += in(r, i);
	if (!k)
		return IOR_OK;
	if (!(*out = malloc(k * sizeof(**out))))
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (in(r, i))
			(*out)[(*nout)++] = i;
	return IOR_OK;
}

static bool kernel_in(const struct ior_report *r, size_t i) { return r->kernels[i].in_view; }
static bool stored_in(const struct ior_report *r, size_t i) { return r->stored.cells[i].in_view; }
static bool not_run_in(const struct ior_report *r, size_t i)
{
	return r->stored.cells[i].in_view && strcmp(r->stored.cells[i].status ? r->stored.cells[i].status : "ok", "ok");
}
static bool fill_in(const struct ior_report *r, size_t i) { return r->fills[i].in_view; }
static bool boot_in(const struct ior_report *r, size_t i) { return r->stored.boots[i].in_view; }
static bool change_in(const struct ior_report *r, size_t i) { return r->changes[i].in_view; }
static bool verdict_in(const struct ior_report *r, size_t i) { return r->verdicts[i].in_view; }
static bool trend_in(const struct ior_report *r, size_t i)
{
	return r->alert_in_view[i] && r->alerts[i].kind == IOR_ALERT_CELL && r->alerts[i].trend.kind != IOR_TREND_NONE;
}
static bool group_in(const struct ior_report *r, size_t i) { return r->group_in_view[i]; }

/* Per rt group, its cells in view and its devices in view (--device), in table order. */
static int group_rows(struct ior_report *r)
{
	struct ior_report_view *v = &r->view;
	size_t ng = r->rt->ngroups, cells = 0, devices = 0;
	for (size_t g = 0; g < ng; g++)
		cells += r->rt->groups[g].ncells, devices += r->rt->groups[g].ndevices;
	v->cells = calloc(ng ? ng : 1, sizeof(*v->cells));
	v->ncells = calloc(ng ? ng : 1, sizeof(*v->ncells));
	v->devices = calloc(ng ? ng : 1, sizeof(*v->devices));
	v->ndevices = calloc(ng ? ng : 1, sizeof(*v->ndevices));
	v->rows = malloc((cells + devices ? cells + devices : 1) * sizeof(*v->rows));
	if (!v->cells || !v->ncells || !v->devices || !v->ndevices || !v->rows)
		return ior_error_set(IOR_ERROR, "out of memory");
	size_t *at = v->rows;
	for (size_t g = 0; g < ng; g++) {
		const struct ior_rt_group *grp = &r->rt->groups[g];
		v->cells[g] = at;
		for (size_t c = 0; c < grp->ncells; c++)
			if (r->cell_in_view[g][c])
				at[v->ncells[g]++] = c;
		at += v->ncells[g];
		v->devices[g] = at;
		for (size_t d = 0; d < grp->ndevices; d++)
			if (!r->opts.device || !strcmp(r->opts.device, grp->devices[d].name))
				at[v->ndevices[g]++] = d;
		at += v->ndevices[g];
	}
	return IOR_OK;
}

int ior_report_view_build(struct ior_report *r)
{
	struct ior_report_view *v = &r->view;
	if (pick(&v->kernels, &v->nkernels, r->nkernels, kernel_in, r) ||
	    pick(&v->stored, &v->nstored, r->stored.ncells, stored_in, r) ||
	    pick(&v->not_run, &v->nnot_run, r->stored.ncells, not_run_in, r) ||
	    pick(&v->fills, &v->nfills, r->nfills, fill_in, r) ||
	    pick(&v->boots, &v->nboots, r->stored.nboots, boot_in, r) ||
	    pick(&v->changes, &v->nchanges, r->nchanges, change_in, r) ||
	    pick(&v->verdicts, &v->nverdicts, r->nverdicts, verdict_in, r) ||
	    (r->alert_in_view && pick(&v->trends, &v->ntrends, r->nalerts, trend_in, r)))
		return IOR_ERROR;
	if (!r->rt)
		return IOR_OK;
	if (pick(&v->groups, &v->ngroups, r->rt->ngroups, group_in, r))
		return IOR_ERROR;
	return group_rows(r);
}

void ior_report_view_free(struct ior_report_view *v)
{
	free(v->kernels);
	free(v->stored);
	free(v->not_run);
	free(v->fills);
	free(v->boots);
	free(v->changes);
	free(v->verdicts);
	free(v->trends);
	free(v->groups);
	free(v->cells);
	free(v->ncells);
	free(v->devices);
	free(v->ndevices);
	free(v->rows);
}
