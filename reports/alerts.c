/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Variance alerts: spread against an absolute floor and against the spreads of comparable devices and kernels. */
#include "reports/alerts.h"

#include "common/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ior_alert_opts_default(struct ior_alert_opts *o)
{
	o->floor = IOR_ALERT_FLOOR;
	o->peer_ratio = IOR_ALERT_PEER_RATIO;
}

/* Peer spreads and their description, gathered on one axis. */
struct peers {
	double v[64];
	size_t n;
	char text[320];
	size_t len;
};

static void peer_add(struct peers *p, const char *label, double spread)
{
	if (isnan(spread) || p->n >= sizeof(p->v) / sizeof(p->v[0]))
		return;
	p->v[p->n++] = spread;
	if (p->len < sizeof(p->text))
		p->len += (size_t)snprintf(p->text + p->len, sizeof(p->text) - p->len, "%s%s %.1f%%",
					   p->len ? ", " : "", label, spread * 100);
}

static double peer_median(const struct peers *a, const struct peers *b)
{
	double all[128];
	size_t n = 0;
	for (size_t i = 0; i < a->n; i++)
		all[n++] = a->v[i];
	for (size_t i = 0; i < b->n; i++)
		all[n++] = b->v[i];
	return n ? ior_median(all, n) : NAN;
}

static bool same(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* Same host and engine, another kernel: where "the same device on other kernels" lives. */
static bool sibling(const struct ior_rt_group *g, const struct ior_rt_group *o)
{
	return o != g && same(o->host, g->host) && same(o->engine, g->engine) && !same(o->kernel, g->kernel);
}

static void describe(char *buf, size_t len, const char *what, const struct peers *p)
{
	double m = p->n ? ior_median(p->v, p->n) : NAN;
	if (!p->n)
		snprintf(buf, len, "nothing to compare with among %s", what);
	else
		snprintf(buf, len, "%s: %s (median %.1f%%)", what, p->text, m * 100);
}

static int push_alert(struct ior_alert **out, size_t *n, const struct ior_alert *a)
{
	struct ior_alert *v = realloc(*out, (*n + 1) * sizeof(*v));
	if (!v)
		return ior_error_set(IOR_ERROR, "out of memory");
	v[(*n)++] = *a;
	*out = v;
	return IOR_OK;
}

/* Applies the rule and writes the words; returns whether it alerts. */
static bool judge(struct ior_alert *a, const struct ior_stats *st, const struct peers *here,
		  const struct peers *elsewhere, const struct ior_alert_opts *o)
{
	a->spread = st->spread;
	a->peer_median = peer_median(here, elsewhere);
	if (isnan(st->spread) || st->spread <= o->floor)
		return false;
	if (!isnan(a->peer_median) && st->spread <= o->peer_ratio * a->peer_median)
		return false;
	char h[400], e[400], head[200];
	if (a->kind == IOR_ALERT_DEVICE)
		snprintf(head, sizeof(head), "device '%s' on %s", a->device, a->kernel);
	else
		snprintf(head, sizeof(head), "cell '%s' %s on %s", a->device, a->scheduler, a->kernel);
	describe(h, sizeof(h), a->kind == IOR_ALERT_DEVICE ? "other devices on this kernel" :
		 "other schedulers on this device", here);
	describe(e, sizeof(e), a->kind == IOR_ALERT_DEVICE ? "the same device on other kernels" :
		 "the same cell on other kernels", elsewhere);
	if (isnan(a->peer_median))
		snprintf(a->text, sizeof(a->text),
			 "%s: spread %.1f%% over %zu samples (%.2f to %.2f) exceeds %.0f%%; nothing to compare it with",
			 head, st->spread * 100, st->n, st->min, st->max, o->floor * 100);
	else
		snprintf(a->text, sizeof(a->text),
			 "%s: spread %.1f%% over %zu samples (%.2f to %.2f), %.1fx the peers' median %.1f%%; %s; %s",
			 head, st->spread * 100, st->n, st->min, st->max, st->spread / a->peer_median,
			 a->peer_median * 100, h, e);
	return true;
}

static int device_alerts(struct ior_alert **out, size_t *n, const struct ior_rt *rt, size_t gi,
			 const struct ior_alert_opts *o)
{
	const struct ior_rt_group *g = &rt->groups[gi];
	for (size_t d = 0; d < g->ndevices; d++) {
		struct peers here = { 0 }, elsewhere = { 0 };
		for (size_t k = 0; k < g->ndevices; k++)
			if (k != d)
				peer_add(&here, g->devices[k].name, g->devices[k].st.spread);
		for (size_t j = 0; j < rt->ngroups; j++) {
			const struct ior_rt_device *od = ior_rt_device_find(&rt->groups[j], g->devices[d].name);
			if (sibling(g, &rt->groups[j]) && od)
				peer_add(&elsewhere, rt->groups[j].kernel, od->st.spread);
		}
		struct ior_alert a = { .kind = IOR_ALERT_DEVICE, .host = g->host, .kernel = g->kernel,
				       .engine = g->engine, .device = g->devices[d].name };
		if (judge(&a, &g->devices[d].st, &here, &elsewhere, o) && push_alert(out, n, &a))
			return IOR_ERROR;
	}
	return IOR_OK;
}

static int cell_alerts(struct ior_alert **out, size_t *n, const struct ior_rt *rt, size_t gi,
		       const struct ior_alert_opts *o)
{
	const struct ior_rt_group *g = &rt->groups[gi];
	for (size_t c = 0; c < g->ncells; c++) {
		const struct ior_rt_cell *cell = &g->cells[c];
		struct peers here = { 0 }, elsewhere = { 0 };
		for (size_t k = 0; k < g->ncells; k++)
			if (k != c && same(g->cells[k].device, cell->device))
				peer_add(&here, g->cells[k].scheduler, g->cells[k].st.spread);
		for (size_t j = 0; j < rt->ngroups; j++) {
			const struct ior_rt_cell *oc = ior_rt_cell_find(&rt->groups[j], cell->device, cell->scheduler);
			if (sibling(g, &rt->groups[j]) && oc)
				peer_add(&elsewhere, rt->groups[j].kernel, oc->st.spread);
		}
		struct ior_alert a = { .kind = IOR_ALERT_CELL, .host = g->host, .kernel = g->kernel,
				       .engine = g->engine, .device = cell->device, .scheduler = cell->scheduler };
		if (judge(&a, &cell->st, &here, &elsewhere, o) && push_alert(out, n, &a))
			return IOR_ERROR;
	}
	return IOR_OK;
}

int ior_alerts_compute(struct ior_alert **out, size_t *n, const struct ior_rt *rt, const struct ior_alert_opts *o)
{
	struct ior_alert_opts def;
	if (!o) {
		ior_alert_opts_default(&def);
		o = &def;
	}
	*out = NULL;
	*n = 0;
	for (size_t g = 0; g < rt->ngroups; g++) {
		if (device_alerts(out, n, rt, g, o) || cell_alerts(out, n, rt, g, o)) {
			free(*out);
			*out = NULL;
			*n = 0;
			return IOR_ERROR;
		}
	}
	return IOR_OK;
}
