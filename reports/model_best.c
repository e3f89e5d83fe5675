/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The best scheduler of each device, marked only where the verdict says it is better than every other: otherwise the schedulers that share the top are counted and the report says there is no significant difference. */
#include "reports/model_internal.h"

#include "common/error.h"

#include <string.h>

/* The field report starred the best total by eye; a few percent between schedulers is the size of
 * the noise (FACTS.md), so the star now needs the verdict check would give: the best against each
 * other scheduler of the device, and a scheduler it does not beat shares the top. */
static int judge_device(struct ior_report *r, size_t gi, struct ior_rt_device *dev)
{
	struct ior_rt_group *g = &r->rt->groups[gi];
	struct ior_rt_cell *best = NULL;
	size_t n = 0;
	for (size_t i = 0; i < g->ncells; i++)
		if (!ior_rt_strcmp(g->cells[i].device, dev->name)) {
			n++;
			if (g->cells[i].best)
				best = &g->cells[i];
		}
	dev->schedulers = n;
	if (n < 2 || !best)
		return IOR_OK;
	struct ior_compare_opts o = r->opts.compare;
	o.higher_is_better = g->higher_is_better;
	size_t top = 1;
	for (size_t i = 0; i < g->ncells; i++) {
		struct ior_rt_cell *c = &g->cells[i];
		if (c == best || ior_rt_strcmp(c->device, dev->name))
			continue;
		struct ior_comparison cmp;
		if (ior_compare(&cmp, c->values, c->n, best->values, best->n, &o))
			return ior_error_wrap(IOR_ERROR, "cannot compare the schedulers of '%s'", dev->name);
		top += cmp.verdict != IOR_VERDICT_IMPROVEMENT;
		dev->top_too_few |= cmp.verdict == IOR_VERDICT_INCONCLUSIVE && cmp.min_p >= o.alpha;
	}
	dev->top_schedulers = top;
	best->best_significant = top == 1;
	return IOR_OK;
}

int ior_report_best_build(struct ior_report *r)
{
	for (size_t g = 0; g < r->rt->ngroups; g++) {
		if (!r->group_in_view[g])
			continue;
		for (size_t d = 0; d < r->rt->groups[g].ndevices; d++)
			if (judge_device(r, g, &r->rt->groups[g].devices[d]))
				return IOR_ERROR;
	}
	return IOR_OK;
}
