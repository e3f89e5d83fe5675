/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The best scheduler of each device, starred only where the verdict says it is better than the
 * next: otherwise the report says what the verdict of the two says (no change, or not told apart
 * and why), or that the repetitions were too few to tell. */
#include "reports/model_internal.h"

#include "common/error.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The largest ratio of medians any bootstrap resample can give: each resample's median lies
 * between its side's minimum and maximum. */
static double ratio_bound(const struct ior_rt_cell *next, const struct ior_rt_cell *best, bool higher)
{
	return higher ? best->st.max / next->st.min : next->st.max / best->st.min;
}

/* Under the rank test's floor with fewer repetitions than the small-sample rule needs: no verdict,
 * but the effect of each other scheduler against the best and its interval, so the reader sees what
 * the data say ("noop -5.6% (95% CI -6.3% to -5.5%)") and that it is not enough to decide. */
static int too_few(const struct ior_rt_group *g, struct ior_rt_device *dev, const struct ior_rt_cell *best,
		   size_t fewest, const struct ior_compare_opts *o)
{
	dev->top_too_few = true;
	dev->top_too_few_n = fewest;
	dev->top_schedulers = 2;
	size_t len = sizeof(dev->too_few_effects), at = 0;
	int k = snprintf(dev->too_few_effects, len, "against %s:", best->scheduler ? best->scheduler : "-");
	at = k > 0 ? (size_t)k : 0;
	for (size_t i = 0; i < g->ncells && at < len; i++) {
		const struct ior_rt_cell *c = &g->cells[i];
		if (c == best || ior_rt_strcmp(c->device, dev->name))
			continue;
		struct ior_comparison cmp;
		if (ior_compare(&cmp, best->values, best->n, c->values, c->n, o))
			return ior_error_wrap(IOR_ERROR, "cannot compare the schedulers of '%s'", dev->name);
		k = snprintf(dev->too_few_effects + at, len - at, " %s %+.1f%% (95%% CI %+.1f%% to %+.1f%%),",
			     c->scheduler ? c->scheduler : "-", (cmp.ratio - 1) * 100, (cmp.ratio_lo - 1) * 100,
			     (cmp.ratio_hi - 1) * 100);
		at += k > 0 ? (size_t)k : 0;
	}
	if (at > 0 && at < len && dev->too_few_effects[at - 1] == ',')
		dev->too_few_effects[at - 1] = '\0';
	return IOR_OK;
}

/* The field report starred the best total by eye; a few percent between schedulers is the size of
 * the noise (FACTS.md), so the star now needs the verdict check would give of the best against the
 * next. A report has a device per kernel and engine, and the bootstrap interval is most of a
 * verdict's cost: ior_compare_better draws it only when the tests claim the change, and stops as
 * soon as its answer is certain; the samples' ranges rule out a change below the minimum effect
 * before any of it. */
static int judge_device(struct ior_report *r, size_t gi, struct ior_rt_device *dev, bool one)
{
	struct ior_rt_group *g = &r->rt->groups[gi];
	struct ior_rt_cell *best = NULL, *next = NULL;
	size_t n = 0;
	for (size_t i = 0; i < g->ncells; i++) {
		struct ior_rt_cell *c = &g->cells[i];
		if (ior_rt_strcmp(c->device, dev->name))
			continue;
		n++;
		if (c->best)
			best = c;
	}
	dev->schedulers = n;
	if (n < 2 || !best)
		return IOR_OK;
	for (size_t i = 0; i < g->ncells; i++) {
		struct ior_rt_cell *c = &g->cells[i];
		if (c == best || ior_rt_strcmp(c->device, dev->name))
			continue;
		if (!next || (g->higher_is_better ? c->total > next->total : c->total < next->total))
			next = c;
	}
	struct ior_compare_opts o = r->opts.compare;
	o.higher_is_better = g->higher_is_better;
	bool star = false;
	size_t fewest = next->n < best->n ? next->n : best->n;
	if (ior_mw_min_p(next->n, best->n) >= o.alpha && fewest < IOR_COMPARE_SMALL_MIN_N)
		return too_few(g, dev, best, fewest, &o);
	else if (ratio_bound(next, best, g->higher_is_better) >= 1 + o.min_effect &&
		 ior_compare_better(&star, next->values, next->n, best->values, best->n, &o))
		return ior_error_wrap(IOR_ERROR, "cannot compare the schedulers of '%s'", dev->name);
	dev->top_schedulers = star ? 1 : 2;
	best->best_significant = star;
	/* Issue 37: one kernel's answer said "no significant difference" where compare on the same data
	 * said inconclusive. Its words now come from the whole verdict, which one kernel's few devices
	 * can afford; with many kernels the tables say only that the two were not told apart. */
	if (!star && one) {
		if (ior_compare(&dev->top, best->values, best->n, next->values, next->n, &o))
			return ior_error_wrap(IOR_ERROR, "cannot compare the schedulers of '%s'", dev->name);
		dev->top_judged = true;
		dev->top_best = best->scheduler;
		dev->top_next = next->scheduler;
	}
	return IOR_OK;
}

/* With one kernel there is nothing to follow across kernels, and the HTML overview (issue 24: a
 * blank square per cell, each equal to its own usual level) shows the cells against each other
 * instead: every scheduler of a device against the device's best, coloured only where the verdict
 * says they differ. One kernel's cells are few, so every pair's whole verdict is affordable. */
static int against_best(const struct ior_report *r, struct ior_rt_group *g, const struct ior_rt_device *dev)
{
	const struct ior_rt_cell *best = NULL;
	for (size_t i = 0; i < g->ncells; i++)
		if (g->cells[i].best && !ior_rt_strcmp(g->cells[i].device, dev->name))
			best = &g->cells[i];
	if (!best || !(best->st.median > 0))
		return IOR_OK;
	struct ior_compare_opts o = r->opts.compare;
	o.higher_is_better = g->higher_is_better;
	for (size_t i = 0; i < g->ncells; i++) {
		struct ior_rt_cell *c = &g->cells[i];
		if (ior_rt_strcmp(c->device, dev->name) || !c->n)
			continue;
		c->vs_best = c->st.median / best->st.median;
		c->vs_best_real = c == best;
		struct ior_comparison cmp;
		if (c != best && c->st.median > 0) {
			if (ior_compare(&cmp, best->values, best->n, c->values, c->n, &o))
				return ior_error_wrap(IOR_ERROR, "cannot compare the schedulers of '%s'", dev->name);
			c->vs_best_real = cmp.verdict == IOR_VERDICT_REGRESSION || cmp.verdict == IOR_VERDICT_IMPROVEMENT;
		}
	}
	return IOR_OK;
}

static bool one_kernel(const struct ior_report *r, const char *host)
{
	size_t n = 0;
	for (size_t k = 0; k < r->nkernels; k++)
		n += r->kernels[k].in_view && !ior_rt_strcmp(r->kernels[k].host, host);
	return n == 1;
}

int ior_report_best_build(struct ior_report *r)
{
	for (size_t g = 0; g < r->rt->ngroups; g++) {
		if (!r->group_in_view[g])
			continue;
		struct ior_rt_group *grp = &r->rt->groups[g];
		bool one = one_kernel(r, grp->host);
		for (size_t d = 0; d < grp->ndevices; d++)
			if (judge_device(r, g, &grp->devices[d], one) || (one && against_best(r, grp, &grp->devices[d])))
				return IOR_ERROR;
	}
	return IOR_OK;
}
