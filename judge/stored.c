/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The stored samples' lookups: the kernels they name, a stored cell's table cell, a run's boot. */
#include "judge/stored.h"

#include "common/error.h"
#include "kernel/version.h"

#include <stdlib.h>
#include <string.h>

void ior_stored_free(struct ior_stored *s)
{
	if (!s)
		return;
	free(s->cells);
	free(s->values);
	free(s->reps);
	free(s->warmup);
	free(s->boots);
	free(s->kernels);
	memset(s, 0, sizeof(*s));
}

static int kernel_order(const void *x, const void *y)
{
	const struct ior_stored_kernel *a = x, *b = y;
	int c = ior_rt_strcmp(a->host, b->host);
	if (!c)
		c = ior_kver_cmp(a->release, b->release);
	return c ? c : ior_rt_strcmp(a->release, b->release);
}

static bool known(const struct ior_stored *s, const char *host, const char *release)
{
	for (size_t k = 0; k < s->nkernels; k++)  /* interned: pointers compare */
		if (s->kernels[k].host == host && s->kernels[k].release == release)
			return true;
	return false;
}

/* Distinct (host, kernel) pairs over every stored cell: cells are few next to samples. */
int ior_stored_kernels(struct ior_stored *s)
{
	size_t cap = 0;
	for (size_t i = 0; i < s->ncells; i++) {
		const struct ior_stored_cell *c = &s->cells[i];
		if ((i && c->host == s->cells[i - 1].host && c->kernel == s->cells[i - 1].kernel) ||
		    known(s, c->host, c->kernel))
			continue;
		if (s->nkernels == cap) {
			cap = cap ? cap * 2 : 16;
			struct ior_stored_kernel *v = realloc(s->kernels, cap * sizeof(*v));
			if (!v)
				return ior_error_set(IOR_ERROR, "out of memory");
			s->kernels = v;
		}
		s->kernels[s->nkernels++] = (struct ior_stored_kernel){ .host = c->host, .release = c->kernel };
	}
	if (s->nkernels > 1)
		qsort(s->kernels, s->nkernels, sizeof(*s->kernels), kernel_order);
	return IOR_OK;
}

bool ior_stored_cell_of(const struct ior_stored_cell *x, const struct ior_rt_group *g, const struct ior_rt_cell *c)
{
	return x->n && !ior_rt_strcmp(x->host, g->host) && !ior_rt_strcmp(x->kernel, g->kernel) &&
	       !ior_rt_strcmp(x->engine, g->engine) && !ior_rt_strcmp(x->params, g->params) &&
	       !ior_rt_strcmp(x->device, c->device) && !ior_rt_strcmp(x->scheduler, c->scheduler);
}

const struct ior_stored_boot *ior_stored_boot_of_run(const struct ior_stored *s, int64_t run_id)
{
	for (size_t i = 0; run_id && i < s->nboots; i++)
		if (s->boots[i].run_id == run_id)
			return &s->boots[i];
	return NULL;
}

const char *ior_stored_cell_axis_value(enum ior_axis axis, const struct ior_stored_cell *c)
{
	return ior_axis_pick(axis, c->host, c->kernel, c->engine, c->device, c->scheduler);
}
