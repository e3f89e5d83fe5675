/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Groups stored cells into the report model and computes totals, shares, best schedulers and spreads. */
#include "judge/table.h"

#include "common/error.h"
#include "kernel/version.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int ior_rt_build_series(struct ior_tables *rt);  /* table_series.c */

int ior_rt_strcmp(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* Inputs are sorted through an index: host, kernel (version order), engine, params, then
 * the cell id so devices and schedulers keep the order they were run or imported in. */
static int input_order(const void *x, const void *y, void *ctx)
{
	const struct ior_rt_input *in = ctx;
	const struct ior_rt_input *a = &in[*(const size_t *)x], *b = &in[*(const size_t *)y];
	int c = a->host == b->host ? 0 : ior_rt_strcmp(a->host, b->host);
	if (!c && a->kernel != b->kernel) {  /* interned names: one pointer, no parse */
		c = ior_kver_cmp(a->kernel, b->kernel);
		if (!c)
			c = ior_rt_strcmp(a->kernel, b->kernel);
	}
	if (!c)
		c = ior_rt_strcmp(a->engine, b->engine);
	if (!c)
		c = ior_rt_strcmp(a->params, b->params);
	if (!c)
		c = (a->order > b->order) - (a->order < b->order);
	if (!c)
		c = (*(const size_t *)x > *(const size_t *)y) - (*(const size_t *)x < *(const size_t *)y);
	return c;
}

static bool same_key(const char *host, const char *kernel, const char *engine, const char *params,
		     const struct ior_rt_input *r)
{
	return !ior_rt_strcmp(host, r->host) && !ior_rt_strcmp(kernel, r->kernel) && !ior_rt_strcmp(engine, r->engine) &&
	       !ior_rt_strcmp(params, r->params);
}

static bool same_group(const struct ior_rt_group *g, const struct ior_rt_input *r)
{
	return same_key(g->host, g->kernel, g->engine, g->params, r);
}

static int append(double **v, size_t *n, const double *x, size_t k)
{
	if (!k)
		return IOR_OK;
	double *nv = realloc(*v, (*n + k) * sizeof(*nv));
	if (!nv)
		return ior_error_set(IOR_ERROR, "out of memory");
	memcpy(nv + *n, x, k * sizeof(*x));
	*n += k;
	*v = nv;
	return IOR_OK;
}

static struct ior_rt_device *device_slot(struct ior_rt_group *g, const char *name)
{
	for (size_t i = 0; i < g->ndevices; i++)
		if (!ior_rt_strcmp(g->devices[i].name, name))
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
		if (!ior_rt_strcmp(g->cells[i].device, device) && !ior_rt_strcmp(g->cells[i].scheduler, scheduler))
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

/* The first input's fill, or "mixed" once two inputs disagree. */
static void merge_fill(const char **have, bool first, const char *fill)
{
	if (first)
		*have = fill;
	else if (ior_rt_strcmp(*have, fill))
		*have = "mixed";
}

static int add_input(struct ior_rt_group *g, const struct ior_rt_input *r)
{
	struct ior_rt_device *d = device_slot(g, r->device);
	struct ior_rt_cell *c = d ? cell_slot(g, r->device, r->scheduler) : NULL;
	if (!c)
		return ior_error_set(IOR_ERROR, "out of memory");
	/* each input is one run's repetitions in order: a trend is judged there, never across runs */
	if (c->trend.kind == IOR_TREND_NONE)
		ior_trend_detect(&c->trend, r->values, r->n, NULL);
	merge_fill(&c->fill, c->n == 0, r->fill);
	merge_fill(&d->fill, d->n == 0, r->fill);
	int rc = append(&c->values, &c->n, r->values, r->n);
	if (!rc)
		rc = append(&d->values, &d->n, r->values, r->n);
	for (size_t i = 0; i < r->n; i++) {
		c->total += r->values[i];
		d->total += r->values[i];
	}
	return rc;
}

/* Devices' first-seen order is the cell order's device order; keep cells grouped by device. */
static int group_cells_by_device(struct ior_rt_group *g)
{
	struct ior_rt_cell *sorted = malloc((g->ncells ? g->ncells : 1) * sizeof(*sorted));
	if (!sorted)
		return ior_error_set(IOR_ERROR, "out of memory");
	size_t k = 0;
	for (size_t d = 0; d < g->ndevices; d++)
		for (size_t i = 0; i < g->ncells; i++)
			if (!ior_rt_strcmp(g->cells[i].device, g->devices[d].name))
				sorted[k++] = g->cells[i];
	memcpy(g->cells, sorted, k * sizeof(*sorted));
	free(sorted);
	return IOR_OK;
}

static int finish_group(struct ior_rt_group *g)
{
	if (group_cells_by_device(g))
		return IOR_ERROR;
	for (size_t d = 0; d < g->ndevices; d++) {
		struct ior_rt_device *dev = &g->devices[d];
		if (ior_stats_compute(&dev->st, dev->values, dev->n))
			return IOR_ERROR;
		struct ior_rt_cell *best = NULL;
		for (size_t i = 0; i < g->ncells; i++) {
			struct ior_rt_cell *c = &g->cells[i];
			if (ior_rt_strcmp(c->device, dev->name))
				continue;
			c->share = dev->total != 0 ? c->total / dev->total : 0;
			if (!best || (g->higher_is_better ? c->total > best->total : c->total < best->total))
				best = c;
		}
		if (best)
			best->best = true;
	}
	for (size_t i = 0; i < g->ncells; i++) {
		if (ior_stats_compute(&g->cells[i].st, g->cells[i].values, g->cells[i].n))
			return IOR_ERROR;
		if (g->cells[i].n > g->max_n)
			g->max_n = g->cells[i].n;
	}
	return IOR_OK;
}

static struct ior_rt_group *new_group(struct ior_tables *rt, size_t *cap, const struct ior_rt_input *r)
{
	if (rt->ngroups == *cap) {
		size_t n = *cap ? *cap * 2 : 16;
		struct ior_rt_group *g = realloc(rt->groups, n * sizeof(*g));
		if (!g)
			return NULL;
		rt->groups = g;
		*cap = n;
	}
	struct ior_rt_group *g = &rt->groups[rt->ngroups++];
	memset(g, 0, sizeof(*g));
	g->host = r->host;
	g->kernel = r->kernel;
	g->engine = r->engine;
	g->params = r->params;
	g->unit = r->unit;
	g->higher_is_better = r->higher_is_better;
	return g;
}

static int fill(struct ior_tables *rt, const struct ior_rt_input *in, const size_t *idx, size_t n, size_t *group_of)
{
	struct ior_rt_group *g = NULL;
	size_t cap = 0;
	for (size_t i = 0; i < n; i++) {
		const struct ior_rt_input *r = &in[idx[i]];
		if (!r->n)
			continue;  /* a cell that stored nothing is not a cell of the tables */
		if (!g || !same_group(g, r)) {
			if (g && finish_group(g))
				return IOR_ERROR;
			if (!(g = new_group(rt, &cap, r)))
				return ior_error_set(IOR_ERROR, "out of memory");
		}
		if (!g->unit)
			g->unit = r->unit;
		if (group_of)
			group_of[idx[i]] = rt->ngroups - 1;
		if (add_input(g, r))
			return IOR_ERROR;
	}
	return g ? finish_group(g) : IOR_OK;
}

/* An input without values still names its key's group (its warm-ups are shown there): inputs of
 * one key are adjacent in the sorted index, so each run of them takes the group one of them made. */
static void group_of_empty(const struct ior_rt_input *in, const size_t *idx, size_t n, size_t *group_of)
{
	for (size_t lo = 0, hi; lo < n; lo = hi) {
		const struct ior_rt_input *k = &in[idx[lo]];
		size_t g = SIZE_MAX;
		for (hi = lo; hi < n && same_key(k->host, k->kernel, k->engine, k->params, &in[idx[hi]]); hi++)
			if (group_of[idx[hi]] != SIZE_MAX)
				g = group_of[idx[hi]];
		for (size_t i = lo; i < hi; i++)
			group_of[idx[i]] = g;
	}
}

int ior_rt_build_cells(struct ior_tables **out, const struct ior_rt_input *in, size_t n, size_t *group_of)
{
	*out = NULL;
	struct ior_tables *rt = calloc(1, sizeof(*rt));
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	if (!rt || !idx) {
		free(rt), free(idx);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		idx[i] = i;
		if (group_of)
			group_of[i] = SIZE_MAX;
	}
	qsort_r(idx, n, sizeof(*idx), input_order, (void *)in);
	int rc = fill(rt, in, idx, n, group_of);
	if (!rc && group_of)
		group_of_empty(in, idx, n, group_of);
	free(idx);
	if (!rc)
		rc = ior_rt_build_series(rt);
	if (rc) {
		ior_rt_free(rt);
		return rc;
	}
	*out = rt;
	return IOR_OK;
}

int ior_rt_row_order(const void *x, const void *y, void *ctx)
{
	const struct ior_db_row *rows = ctx;
	const struct ior_db_row *a = &rows[*(const size_t *)x], *b = &rows[*(const size_t *)y];
	int c = (a->cell_id > b->cell_id) - (a->cell_id < b->cell_id);
	if (!c)
		c = (a->run_id > b->run_id) - (a->run_id < b->run_id);
	if (!c)
		c = (a->rep > b->rep) - (a->rep < b->rep);
	if (!c)
		c = (*(const size_t *)x > *(const size_t *)y) - (*(const size_t *)x < *(const size_t *)y);
	return c;
}

int ior_rt_build(struct ior_tables **out, const struct ior_db_row *rows, size_t n)
{
	*out = NULL;
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	double *values = malloc((n ? n : 1) * sizeof(*values));
	struct ior_rt_input *in = calloc(n ? n : 1, sizeof(*in));
	int rc = IOR_OK;
	if (!idx || !values || !in)
		rc = ior_error_set(IOR_ERROR, "out of memory");
	size_t nin = 0;
	for (size_t i = 0; !rc && i < n; i++)
		idx[i] = i;
	if (!rc)
		qsort_r(idx, n, sizeof(*idx), ior_rt_row_order, (void *)rows);
	size_t prev = SIZE_MAX, k = 0;  /* warm-up repetitions are never judged: left out here */
	for (size_t i = 0; !rc && i < n; i++) {
		const struct ior_db_row *r = &rows[idx[i]];
		if (r->warmup)
			continue;
		values[k] = r->value;
		if (!nin || rows[prev].cell_id != r->cell_id)
			in[nin++] = (struct ior_rt_input){ .host = r->host, .kernel = r->kernel, .engine = r->engine,
							   .params = r->params, .device = r->device,
							   .scheduler = r->scheduler, .unit = r->unit, .fill = r->fill,
							   .higher_is_better = r->higher_is_better,
							   .order = r->cell_id, .values = &values[k] };
		in[nin - 1].n++;
		k++;
		prev = idx[i];
	}
	if (!rc)
		rc = ior_rt_build_cells(out, in, nin, NULL);
	free(idx);
	free(values);
	free(in);
	return rc;
}

void ior_rt_free(struct ior_tables *rt)
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
	for (size_t i = 0; i < rt->nseries; i++)
		free(rt->series[i].m);
	for (size_t i = 0; i < rt->ndseries; i++)
		free(rt->dseries[i].m);
	free(rt->series);
	free(rt->dseries);
	free(rt->groups);
	free(rt);
}

const struct ior_rt_group *ior_rt_find(const struct ior_tables *rt, const char *host, const char *kernel,
				       const char *engine)
{
	for (size_t i = 0; i < rt->ngroups; i++) {
		const struct ior_rt_group *g = &rt->groups[i];
		if ((!host || !ior_rt_strcmp(g->host, host)) && !ior_rt_strcmp(g->kernel, kernel) &&
		    (!engine || !ior_rt_strcmp(g->engine, engine)))
			return g;
	}
	return NULL;
}

const struct ior_rt_cell *ior_rt_cell_find(const struct ior_rt_group *g, const char *device, const char *scheduler)
{
	for (size_t i = 0; g && i < g->ncells; i++)
		if (!ior_rt_strcmp(g->cells[i].device, device) && !ior_rt_strcmp(g->cells[i].scheduler, scheduler))
			return &g->cells[i];
	return NULL;
}

const struct ior_rt_device *ior_rt_device_find(const struct ior_rt_group *g, const char *device)
{
	for (size_t i = 0; g && i < g->ndevices; i++)
		if (!ior_rt_strcmp(g->devices[i].name, device))
			return &g->devices[i];
	return NULL;
}

const struct ior_rt_member *ior_rt_member_on(const struct ior_tables *rt, const struct ior_rt_series *s,
					     const char *kernel)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(rt->groups[s->m[i].group].kernel, kernel))
			return &s->m[i];
	return NULL;
}

const struct ior_rt_member *ior_rt_member_in(const struct ior_rt_series *s, size_t group)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->m[i].group == group)
			return &s->m[i];
	return NULL;
}
