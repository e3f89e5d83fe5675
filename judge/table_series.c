/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The series of the report model: each cell key and each device followed over the kernels of its
 * host, so alerts, change points and verdicts find a cell's other kernels without a search. */
#include "judge/table.h"

#include "common/error.h"

#include <stdlib.h>
#include <string.h>

int ior_rt_build_series(struct ior_tables *rt);

struct keyed {
	const struct ior_rt_group *g;
	const char *device, *scheduler;
	struct ior_rt_member m;
};

static int key_order(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	int c = ior_rt_strcmp(a->g->host, b->g->host);
	if (!c)
		c = ior_rt_strcmp(a->g->engine, b->g->engine);
	if (!c)
		c = ior_rt_strcmp(a->g->params, b->g->params);
	if (!c)
		c = ior_rt_strcmp(a->device, b->device);
	if (!c)
		c = ior_rt_strcmp(a->scheduler, b->scheduler);
	if (!c)  /* groups are already in kernel version order */
		c = (a->m.group > b->m.group) - (a->m.group < b->m.group);
	return c;
}

/* Cuts the sorted keys into series and points each member back at its series. */
static int cut(struct ior_tables *rt, struct keyed *k, size_t n, bool devices)
{
	struct ior_rt_series **out = devices ? &rt->dseries : &rt->series;
	size_t *nout = devices ? &rt->ndseries : &rt->nseries;
	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && k[j].g->host == k[i].g->host && !ior_rt_strcmp(k[j].g->engine, k[i].g->engine) &&
		       !ior_rt_strcmp(k[j].g->params, k[i].g->params) && !ior_rt_strcmp(k[j].device, k[i].device) &&
		       !ior_rt_strcmp(k[j].scheduler, k[i].scheduler))
			j++;
		struct ior_rt_series *s = &(*out)[(*nout)++];
		*s = (struct ior_rt_series){ .host = k[i].g->host, .engine = k[i].g->engine, .params = k[i].g->params,
					     .device = k[i].device, .scheduler = k[i].scheduler,
					     .higher_is_better = k[i].g->higher_is_better };
		if (!(s->m = malloc((j - i) * sizeof(*s->m))))
			return ior_error_set(IOR_ERROR, "out of memory");
		for (size_t x = i; x < j; x++) {
			s->m[s->n++] = k[x].m;
			struct ior_rt_group *g = &rt->groups[k[x].m.group];
			if (devices)
				g->devices[k[x].m.index].series = *nout - 1;
			else
				g->cells[k[x].m.index].series = *nout - 1;
		}
		i = j;
	}
	return IOR_OK;
}

/* The median of the members' medians, each kernel counted once however many samples it has. */
static int levels(struct ior_tables *rt, struct ior_rt_series *all, size_t n, bool devices)
{
	size_t longest = 0;
	for (size_t i = 0; i < n; i++)
		longest = all[i].n > longest ? all[i].n : longest;
	double *m = malloc((longest ? longest : 1) * sizeof(*m));
	if (!m)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < all[i].n; k++) {
			const struct ior_rt_group *g = &rt->groups[all[i].m[k].group];
			m[k] = devices ? g->devices[all[i].m[k].index].st.median : g->cells[all[i].m[k].index].st.median;
		}
		all[i].level = ior_median(m, all[i].n);
	}
	free(m);
	return IOR_OK;
}

/* Hosts compare by pointer in cut(): make equal host names one pointer first. */
static void share_hosts(struct ior_tables *rt)
{
	for (size_t i = 1; i < rt->ngroups; i++)
		if (!ior_rt_strcmp(rt->groups[i].host, rt->groups[i - 1].host))
			rt->groups[i].host = rt->groups[i - 1].host;
}

static int build(struct ior_tables *rt, bool devices)
{
	size_t n = 0;
	for (size_t g = 0; g < rt->ngroups; g++)
		n += devices ? rt->groups[g].ndevices : rt->groups[g].ncells;
	struct keyed *k = malloc((n ? n : 1) * sizeof(*k));
	if (!k)
		return ior_error_set(IOR_ERROR, "out of memory");
	size_t at = 0;
	for (size_t g = 0; g < rt->ngroups; g++) {
		const struct ior_rt_group *grp = &rt->groups[g];
		size_t count = devices ? grp->ndevices : grp->ncells;
		for (size_t i = 0; i < count; i++)
			k[at++] = (struct keyed){ .g = grp,
						  .device = devices ? grp->devices[i].name : grp->cells[i].device,
						  .scheduler = devices ? NULL : grp->cells[i].scheduler,
						  .m = { g, i } };
	}
	qsort(k, n, sizeof(*k), key_order);
	int rc = cut(rt, k, n, devices);
	free(k);
	if (!rc)
		rc = devices ? levels(rt, rt->dseries, rt->ndseries, true) : levels(rt, rt->series, rt->nseries, false);
	return rc;
}

int ior_rt_build_series(struct ior_tables *rt)
{
	share_hosts(rt);  /* groups are sorted by host, so equal hosts are neighbours */
	return build(rt, false) || build(rt, true) ? IOR_ERROR : IOR_OK;
}
