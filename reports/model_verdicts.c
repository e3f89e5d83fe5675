/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Verdicts of the report model: the candidate kernel against the baseline on every in-view cell key both measured, and the schedulers left out because only one kernel offered them. */
#include "reports/model_internal.h"

#include "common/error.h"
#include "kernel/version.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool key_in_view(const struct ior_report *r, const struct ior_rt_series *s)
{
	const struct ior_report_opts *o = &r->opts;
	return !(o->device && ior_rt_strcmp(o->device, s->device)) &&
	       !(o->scheduler && ior_rt_strcmp(o->scheduler, s->scheduler)) &&
	       !(o->engine && ior_rt_strcmp(o->engine, s->engine));
}

/* The member of s on kernel, or NULL. */
static const struct ior_rt_member *on_kernel(const struct ior_rt *rt, const struct ior_rt_series *s, const char *kernel)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(rt->groups[s->m[i].group].kernel, kernel))
			return &s->m[i];
	return NULL;
}

/* Without --candidate: the newest kernel (version order) of the series' host other than the baseline. */
static const char *newest_kernel(const struct ior_report *r, const char *host)
{
	const char *best = NULL;
	for (size_t k = 0; k < r->nkernels; k++) {
		const struct ior_report_kernel *x = &r->kernels[k];
		if (ior_rt_strcmp(x->host, host) || !strcmp(x->release, r->opts.baseline))
			continue;
		if (!best || ior_kver_cmp(x->release, best) > 0)
			best = x->release;
	}
	return best;
}

static int compare_series(struct ior_report *r, size_t si)
{
	const struct ior_rt *rt = r->rt;
	const struct ior_rt_series *s = &rt->series[si];
	const char *cand = r->opts.candidate ? r->opts.candidate : newest_kernel(r, s->host);
	const struct ior_rt_member *a = on_kernel(rt, s, r->opts.baseline), *b = cand ? on_kernel(rt, s, cand) : NULL;
	if (!a)
		return IOR_OK;
	if (!b) {
		r->verdict_only_baseline++;
		return IOR_OK;
	}
	r->candidate = cand;
	const struct ior_rt_cell *ca = &rt->groups[a->group].cells[a->index], *cb = &rt->groups[b->group].cells[b->index];
	struct ior_compare_opts o = r->opts.compare;
	o.higher_is_better = s->higher_is_better;
	struct ior_report_verdict *v = &r->verdicts[r->nverdicts];
	*v = (struct ior_report_verdict){ .series = si, .base_group = a->group, .cand_group = b->group, .in_view = true };
	if (ior_compare(&v->c, ca->values, ca->n, cb->values, cb->n, &o))
		return ior_error_wrap(IOR_ERROR, "cannot compare '%s' %s %s", s->device, s->scheduler ? s->scheduler : "-",
				      s->engine);
	r->nverdicts++;
	switch (v->c.verdict) {
	case IOR_VERDICT_REGRESSION: r->regressions++; break;
	case IOR_VERDICT_IMPROVEMENT: r->improvements++; break;
	case IOR_VERDICT_INCONCLUSIVE: r->inconclusive++; break;
	case IOR_VERDICT_NO_CHANGE: r->unchanged++; break;
	}
	return IOR_OK;
}

static const struct ior_report *order_ctx;

static int by_change(const void *x, const void *y)
{
	const struct ior_report_verdict *a = &order_ctx->verdicts[*(const size_t *)x],
					 *b = &order_ctx->verdicts[*(const size_t *)y];
	double da = fabs(a->c.ratio - 1), db = fabs(b->c.ratio - 1);
	return da != db ? (da > db ? -1 : 1) : 0;
}

static int regression_order(struct ior_report *r)
{
	r->regression_order = malloc((r->nverdicts ? r->nverdicts : 1) * sizeof(*r->regression_order));
	if (!r->regression_order)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < r->nverdicts; i++)
		if (r->verdicts[i].c.verdict == IOR_VERDICT_REGRESSION)
			r->regression_order[r->nregression_order++] = i;
	order_ctx = r;
	qsort(r->regression_order, r->nregression_order, sizeof(size_t), by_change);
	return IOR_OK;
}

/* The field tester dropped a vanished scheduler by hand to keep tables comparable: here the
 * comparison covers what both kernels offered, and the model says what it left out and why. */
static int left_out(struct ior_report *r, struct ior_db *db)
{
	if (!db || !r->candidate)
		return IOR_OK;
	for (size_t k = 0; k < r->nkernels; k++) {
		const char *host = r->kernels[k].host;
		bool seen = false;
		for (size_t i = 0; i < r->ncommon && !seen; i++)
			seen = r->common_hosts[i] == host;
		if (seen || (r->opts.host && strcmp(r->opts.host, host)))
			continue;
		char *off_a = NULL, *off_b = NULL;
		int rc = ior_db_offered(db, host, r->opts.baseline, &off_a);
		if (!rc)
			rc = ior_db_offered(db, host, r->candidate, &off_b);
		if (!rc && off_a && off_b) {
			struct ior_sched_common *c = realloc(r->common, (r->ncommon + 1) * sizeof(*c));
			const char **h = realloc(r->common_hosts, (r->ncommon + 1) * sizeof(*h));
			if (c)
				r->common = c;
			if (h)
				r->common_hosts = h;
			const char *kernels[] = { r->opts.baseline, r->candidate };
			const char *offered[] = { off_a, off_b };
			if (!c || !h)
				rc = ior_error_set(IOR_ERROR, "out of memory");
			else if (ior_sched_common_set(&c[r->ncommon], kernels, offered, 2) == IOR_OK)
				h[r->ncommon++] = host;
		}
		free(off_a);
		free(off_b);
		if (rc)
			return rc;
	}
	return IOR_OK;
}

int ior_report_verdicts_build(struct ior_report *r, struct ior_db *db)
{
	const struct ior_rt *rt = r->rt;
	const char *roles[2] = { "baseline", "candidate" }, *names[2] = { r->opts.baseline, r->opts.candidate };
	for (int k = 0; k < 2; k++) {
		bool seen = !names[k];
		for (size_t i = 0; i < rt->nseries && !seen; i++)
			seen = key_in_view(r, &rt->series[i]) && on_kernel(rt, &rt->series[i], names[k]);
		if (!seen) {
			const struct ior_report_opts *o = &r->opts;
			return ior_error_set(IOR_ENOTFOUND, "no samples for %s kernel '%s'%s", roles[k], names[k],
					     o->host || o->device || o->scheduler || o->engine ? " matching the filters" : "");
		}
	}
	r->baseline = r->opts.baseline;
	r->verdicts = calloc(rt->nseries ? rt->nseries : 1, sizeof(*r->verdicts));
	if (!r->verdicts)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < rt->nseries; i++)
		if (key_in_view(r, &rt->series[i]) && compare_series(r, i))
			return IOR_ERROR;
	if (regression_order(r))
		return IOR_ERROR;
	return left_out(r, db);
}
