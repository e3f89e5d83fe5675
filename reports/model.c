/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Builds the report model: load, tables, which parts are in view, alerts, change points, verdicts. */
#include "reports/model_internal.h"

#include "common/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ior_report_opts_default(struct ior_report_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->parts = IOR_REPORT_ALL;
	ior_alert_opts_default(&o->alerts);
	ior_cp_opts_default(&o->changes);
	ior_compare_opts_default(&o->compare);
}

/* The tables, and everything judged from them, take each cell's measured repetitions only:
 * warm-up repetitions stay in r->stored.values for the renderers that list every sample. A cell of only
 * warm-ups is an input without values: it makes no table cell but learns its group. */
static int tables(struct ior_report *r)
{
	struct ior_rt_input *in = malloc((r->stored.ncells ? r->stored.ncells : 1) * sizeof(*in));
	double *kept = malloc((r->stored.nsamples ? r->stored.nsamples : 1) * sizeof(*kept));
	size_t *group_of = malloc((r->stored.ncells ? r->stored.ncells : 1) * sizeof(*group_of));
	if (!in || !kept || !group_of) {
		free(in), free(kept), free(group_of);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	size_t at = 0;
	for (size_t i = 0; i < r->stored.ncells; i++) {
		const struct ior_stored_cell *c = &r->stored.cells[i];
		size_t from = at;
		for (size_t k = 0; k < c->n; k++)
			if (!r->stored.warmup || !r->stored.warmup[c->first + k])
				kept[at++] = r->stored.values[c->first + k];
		in[i] = (struct ior_rt_input){ .host = c->host, .kernel = c->kernel, .engine = c->engine,
					       .params = c->params, .device = c->device, .scheduler = c->scheduler,
					       .unit = c->unit, .fill = c->fill, .higher_is_better = c->higher_is_better,
					       .order = c->cell_id, .values = kept + from, .n = at - from };
	}
	int rc = ior_rt_build_cells(&r->rt, in, r->stored.ncells, group_of);
	for (size_t i = 0; !rc && i < r->stored.ncells; i++)
		r->stored.cells[i].group = group_of[i];
	free(in);
	free(kept);
	free(group_of);
	return rc;
}

static int views(struct ior_report *r)
{
	const struct ior_tables *rt = r->rt;
	r->group_in_view = calloc(rt->ngroups ? rt->ngroups : 1, sizeof(*r->group_in_view));
	r->cell_in_view = calloc(rt->ngroups ? rt->ngroups : 1, sizeof(*r->cell_in_view));
	if (!r->group_in_view || !r->cell_in_view)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t g = 0; g < rt->ngroups; g++) {
		const struct ior_rt_group *grp = &rt->groups[g];
		if (!(r->cell_in_view[g] = calloc(grp->ncells ? grp->ncells : 1, sizeof(bool))))
			return ior_error_set(IOR_ERROR, "out of memory");
		for (size_t c = 0; c < grp->ncells; c++) {
			bool v = ior_report_cell_matches_view(&r->opts, grp->kernel, grp->cells[c].device,
							      grp->cells[c].scheduler, grp->engine);
			r->cell_in_view[g][c] = v;
			r->group_in_view[g] |= v;
		}
	}
	return IOR_OK;
}

static const struct ior_report *order_ctx;

static int by_severity(const void *a, const void *b)
{
	double x = order_ctx->alerts[*(const size_t *)a].severity, y = order_ctx->alerts[*(const size_t *)b].severity;
	if (x != y)
		return x > y ? -1 : 1;
	return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

static int alerts(struct ior_report *r)
{
	if (ior_alerts_compute(&r->alerts, &r->nalerts, r->rt, &r->opts.alerts))
		return IOR_ERROR;
	r->alert_in_view = calloc(r->nalerts ? r->nalerts : 1, sizeof(*r->alert_in_view));
	r->alert_order = malloc((r->nalerts ? r->nalerts : 1) * sizeof(*r->alert_order));
	if (!r->alert_in_view || !r->alert_order)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < r->nalerts; i++) {
		const struct ior_alert *a = &r->alerts[i];
		bool v = r->group_in_view[a->group] &&
			 (a->kind == IOR_ALERT_DEVICE ? !r->opts.device || !strcmp(r->opts.device, a->device)
						      : r->cell_in_view[a->group][a->index]);
		r->alert_in_view[i] = v;
		if (v)
			r->alert_order[r->nalert_order++] = i;
	}
	order_ctx = r;
	qsort(r->alert_order, r->nalert_order, sizeof(*r->alert_order), by_severity);
	return IOR_OK;
}

static int build_parts(struct ior_report *r, struct ior_db *db)
{
	for (size_t i = 0; i < r->stored.ncells; i++) {
		r->nnot_ok += r->stored.cells[i].in_view && strcmp(r->stored.cells[i].status ? r->stored.cells[i].status : "ok", "ok");
		r->stored.cells[i].group = SIZE_MAX;  /* until the tables say */
	}
	if (r->opts.parts & (IOR_REPORT_ALERTS | IOR_REPORT_CHANGES | IOR_REPORT_VERDICTS | IOR_REPORT_PAIRS))
		r->opts.parts |= IOR_REPORT_TABLES;
	if (ior_report_kernels(r, db))
		return IOR_ERROR;
	if (!(r->opts.parts & IOR_REPORT_TABLES))
		return IOR_OK;
	if (tables(r) || views(r))
		return IOR_ERROR;
	if ((r->opts.parts & IOR_REPORT_ALERTS) && alerts(r))
		return IOR_ERROR;
	if (ior_report_groups_index(r))
		return IOR_ERROR;
	if ((r->opts.parts & IOR_REPORT_CHANGES) && ior_report_changes_build(r))
		return IOR_ERROR;
	if ((r->opts.parts & IOR_REPORT_BEST) && ior_report_best_build(r))
		return IOR_ERROR;
	int rc = ior_report_judge(r, db);
	return rc ? rc : ior_report_sections_build(r);
}

static int start(struct ior_report **out, const struct ior_report_opts *o)
{
	*out = NULL;
	struct ior_report *r = calloc(1, sizeof(*r));
	if (!r)
		return ior_error_set(IOR_ERROR, "out of memory");
	if (o)
		r->opts = *o;
	else
		ior_report_opts_default(&r->opts);
	if (ior_intern_new(&r->pool)) {
		free(r);
		return IOR_ERROR;
	}
	*out = r;
	return IOR_OK;
}

int ior_report_build(struct ior_report **out, struct ior_db *db, const struct ior_report_opts *o)
{
	struct ior_report *r;
	if (start(&r, o))
		return IOR_ERROR;
	/* Alerts and change points need the whole host as context; verdicts alone need two kernels. */
	struct ior_db_scan_filter f = { .host = r->opts.host, .since = r->opts.since, .vm_run = r->opts.vm_run };
	if (!(r->opts.parts & (IOR_REPORT_ALERTS | IOR_REPORT_CHANGES))) {
		f.device = r->opts.device;
		f.scheduler = r->opts.scheduler;
		f.engine = r->opts.engine;
		/* the compared axis is not a filter: both of its names are read */
		if (r->opts.axis == IOR_AXIS_SCHEDULER)
			f.scheduler = NULL;
		else if (r->opts.axis == IOR_AXIS_DEVICE)
			f.device = NULL;
		else if (r->opts.axis == IOR_AXIS_ENGINE)
			f.engine = NULL;
		else if (r->opts.axis == IOR_AXIS_HOST)
			f.host = NULL;
		if (r->opts.axis != IOR_AXIS_KERNEL)
			f.kernels[0] = r->opts.kernel;
		else if (r->opts.baseline && r->opts.candidate) {
			f.kernels[0] = r->opts.baseline;
			f.kernels[1] = r->opts.candidate;
		} else if (!r->opts.baseline) {
			f.kernels[0] = r->opts.kernel;
		}
	}
	int rc = ior_report_load(r, db, &f);
	if (!rc)
		rc = ior_report_load_boots(r, db);
	if (!rc)
		rc = build_parts(r, db);
	if (!rc)
		rc = ior_report_view_build(r);
	if (!rc)
		rc = ior_report_headline_build(r);
	if (!rc && (r->opts.parts & IOR_REPORT_BISECT))
		rc = ior_report_bisects_build(r, db);
	if (rc) {
		ior_report_free(r);
		return rc;
	}
	*out = r;
	return IOR_OK;
}

void ior_report_free(struct ior_report *r)
{
	if (!r)
		return;
	for (size_t g = 0; r->cell_in_view && r->rt && g < r->rt->ngroups; g++)
		free(r->cell_in_view[g]);
	free(r->cell_in_view);
	free(r->group_in_view);
	ior_rt_free(r->rt);
	for (size_t k = 0; k < r->nkernels; k++) {
		free(r->kernels[k].unavailable);
		free(r->kernels[k].changes);
	}
	free(r->kernels);
	free(r->fills);
	ior_stored_free(&r->stored);
	free(r->detail);
	free(r->alerts);
	free(r->alert_in_view);
	free(r->alert_order);
	free(r->group_alert_at);
	free(r->group_alerts);
	free(r->group_warm_at);
	free(r->group_warm);
	ior_series_changes_free(r->changes, r->nchanges);
	free(r->verdicts);
	ior_judge_pairs_free(r->pairs, r->npairs);
	ior_judge_answers_free(r->answers, r->nanswers);
	free(r->regression_order);
	free(r->common);
	free(r->common_hosts);
	ior_report_view_free(&r->view);
	ior_report_headline_free(&r->headline);
	ior_sections_free(r->sections);
	ior_report_bisects_free(r);
	ior_intern_free(r->pool);
	free(r);
}

bool ior_report_has_regression(const struct ior_report *r)
{
	return r->nregression_order > 0;
}

bool ior_report_is_empty(const struct ior_report *r)
{
	if (!r->rt) /* the CSV's model: only the samples the filters took */
		return r->stored.nsamples == 0;
	for (size_t i = 0; i < r->rt->ngroups; i++)
		if (r->group_in_view[i])
			return false;
	return true;
}

bool ior_report_has_alert(const struct ior_report *r)
{
	return r->nalert_order > 0 || ior_report_has_regression(r);
}
