/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Groups sample rows into the report model and computes totals, shares, best schedulers and spreads. */
#include "reports/table.h"

#include "common/error.h"
#include "kernel/version.h"

#include <stdlib.h>
#include <string.h>

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* Rows are sorted through an index: host, kernel (version order), engine,
 * then cell id so devices and schedulers keep the order they were run or imported in. */
static int row_order(const void *x, const void *y, void *ctx)
{
	const struct ior_db_row *rows = ctx;
	const struct ior_db_row *a = &rows[*(const size_t *)x], *b = &rows[*(const size_t *)y];
	int c = cmp_str(a->host, b->host);
	if (!c)
		c = ior_kver_cmp(a->kernel, b->kernel);
	if (!c)
		c = cmp_str(a->kernel, b->kernel);
	if (!c)
		c = cmp_str(a->engine, b->engine);
	if (!c)
		c = (a->cell_id > b->cell_id) - (a->cell_id < b->cell_id);
	if (!c)
		c = (a->run_id > b->run_id) - (a->run_id < b->run_id);
	if (!c)
		c = (a->rep > b->rep) - (a->rep < b->rep);
	if (!c)
		c = (*(const size_t *)x > *(const size_t *)y) - (*(const size_t *)x < *(const size_t *)y);
	return c;
}

static bool same_group(const struct ior_db_row *a, const struct ior_db_row *b)
{
	return !cmp_str(a->host, b->host) && !cmp_str(a->kernel, b->kernel) && !cmp_str(a->engine, b->engine);
}

static int push(double **v, size_t *n, double x)
{
	double *nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv)
		return ior_error_set(IOR_ERROR, "out of memory");
	nv[(*n)++] = x;
	*v = nv;
	return IOR_OK;
}

static struct ior_rt_device *device_slot(struct ior_rt_group *g, const char *name)
{
	for (size_t i = 0; i < g->ndevices; i++)
		if (!cmp_str(g->devices[i].name, name))
			return &g->devices[i];
	struct ior_rt_device *d = realloc(g->devices, (g->ndevices + 1) * sizeof(*d));
	if (!d)
		return NULL;
	g->devices = d;
	memset(&d[g->ndevices], 0, sizeof(*d));
	d[g->ndevices].name = name;
	return &d[g->ndevices++];
}

static struct ior_rt_cell *cell_slot(struct ior_rt_group *g, const char *device, const char *scheduler)
{
	for (size_t i = 0; i < g->ncells; i++)
		if (!cmp_str(g->cells[i].device, device) && !cmp_str(g->cells[i].scheduler, scheduler))
			return &g->cells[i];
	struct ior_rt_cell *c = realloc(g->cells, (g->ncells + 1) * sizeof(*c));
	if (!c)
		return NULL;
	g->cells = c;
	memset(&c[g->ncells], 0, sizeof(*c));
	c[g->ncells].device = device;
	c[g->ncells].scheduler = scheduler;
	return &c[g->ncells++];
}

static int add_row(struct ior_rt_group *g, const struct ior_db_row *r)
{
	struct ior_rt_device *d = device_slot(g, r->device);
	struct ior_rt_cell *c = d ? cell_slot(g, r->device, r->scheduler) : NULL;
	if (!c)
		return ior_error_set(IOR_ERROR, "out of memory");
	int rc = push(&c->values, &c->n, r->value);
	if (!rc)
		rc = push(&d->values, &d->n, r->value);
	c->total += r->value;
	d->total += r->value;
	return rc;
}

/* Devices first-seen order is the cell order's device order; keep cells grouped by device. */
static void group_cells_by_device(struct ior_rt_group *g)
{
	struct ior_rt_cell *sorted = malloc((g->ncells ? g->ncells : 1) * sizeof(*sorted));
	if (!sorted)
		return;
	size_t k = 0;
	for (size_t d = 0; d < g->ndevices; d++)
		for (size_t i = 0; i < g->ncells; i++)
			if (!cmp_str(g->cells[i].device, g->devices[d].name))
				sorted[k++] = g->cells[i];
	memcpy(g->cells, sorted, k * sizeof(*sorted));
	free(sorted);
}

static int finish_group(struct ior_rt_group *g)
{
	group_cells_by_device(g);
	for (size_t d = 0; d < g->ndevices; d++) {
		struct ior_rt_device *dev = &g->devices[d];
		int rc = ior_stats_compute(&dev->st, dev->values, dev->n);
		if (rc)
			return rc;
		struct ior_rt_cell *best = NULL;
		for (size_t i = 0; i < g->ncells; i++) {
			struct ior_rt_cell *c = &g->cells[i];
			if (cmp_str(c->device, dev->name))
				continue;
			c->share = dev->total != 0 ? c->total / dev->total : 0;
			if (!best || (g->higher_is_better ? c->total > best->total : c->total < best->total))
				best = c;
		}
		if (best)
			best->best = true;
	}
	for (size_t i = 0; i < g->ncells; i++) {
		int rc = ior_stats_compute(&g->cells[i].st, g->cells[i].values, g->cells[i].n);
		if (rc)
			return rc;
		if (g->cells[i].n > g->max_n)
			g->max_n = g->cells[i].n;
	}
	return IOR_OK;
}

static struct ior_rt_group *new_group(struct ior_rt *rt, const struct ior_db_row *r)
{
	struct ior_rt_group *g = realloc(rt->groups, (rt->ngroups + 1) * sizeof(*g));
	if (!g)
		return NULL;
	rt->groups = g;
	g = &g[rt->ngroups++];
	memset(g, 0, sizeof(*g));
	g->host = r->host;
	g->kernel = r->kernel;
	g->engine = r->engine;
	g->unit = r->unit;
	g->higher_is_better = r->higher_is_better;
	return g;
}

static int fill(struct ior_rt *rt, const struct ior_db_row *rows, const size_t *idx, size_t n)
{
	struct ior_rt_group *g = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct ior_db_row *r = &rows[idx[i]];
		if (!g || !same_group(&rows[idx[i - 1]], r)) {
			if (g && finish_group(g))
				return IOR_ERROR;
			if (!(g = new_group(rt, r)))
				return ior_error_set(IOR_ERROR, "out of memory");
		}
		if (add_row(g, r))
			return IOR_ERROR;
	}
	return g ? finish_group(g) : IOR_OK;
}

int ior_rt_build(struct ior_rt **out, const struct ior_db_row *rows, size_t n)
{
	*out = NULL;
	struct ior_rt *rt = calloc(1, sizeof(*rt));
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	if (!rt || !idx) {
		free(rt), free(idx);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), row_order, (void *)rows);
	int rc = fill(rt, rows, idx, n);
	free(idx);
	if (rc) {
		ior_rt_free(rt);
		return rc;
	}
	*out = rt;
	return IOR_OK;
}

void ior_rt_free(struct ior_rt *rt)
{
	if (!rt)
		return;
	for (size_t i = 0; i < rt->ngroups; i++) {
		struct ior_rt_group *g = &rt->groups[i];
		for (size_t c = 0; c < g->ncells; c++)
			free(g->cells[c].values);
		for (size_t d = 0; d < g->ndevices; d++)
			free(g->devices[d].values);
		free(g->cells);
		free(g->devices);
	}
	free(rt->groups);
	free(rt);
}

const struct ior_rt_group *ior_rt_find(const struct ior_rt *rt, const char *host, const char *kernel,
				       const char *engine)
{
	for (size_t i = 0; i < rt->ngroups; i++) {
		const struct ior_rt_group *g = &rt->groups[i];
		if ((!host || !cmp_str(g->host, host)) && !cmp_str(g->kernel, kernel) &&
		    (!engine || !cmp_str(g->engine, engine)))
			return g;
	}
	return NULL;
}

const struct ior_rt_cell *ior_rt_cell_find(const struct ior_rt_group *g, const char *device, const char *scheduler)
{
	for (size_t i = 0; g && i < g->ncells; i++)
		if (!cmp_str(g->cells[i].device, device) && !cmp_str(g->cells[i].scheduler, scheduler))
			return &g->cells[i];
	return NULL;
}

const struct ior_rt_device *ior_rt_device_find(const struct ior_rt_group *g, const char *device)
{
	for (size_t i = 0; g && i < g->ndevices; i++)
		if (!cmp_str(g->devices[i].name, device))
			return &g->devices[i];
	return NULL;
}
