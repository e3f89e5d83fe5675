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

/* Every peer spread of one alert candidate, both axes, for the median. */
struct pool {
	double *v;
	size_t n, cap;
};

static int pool_add(struct pool *p, double x)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64;
		double *v = realloc(p->v, cap * sizeof(*v));
		if (!v)
			return ior_error_set(IOR_ERROR, "out of memory");
		p->v = v;
		p->cap = cap;
	}
	p->v[p->n++] = x;
	return IOR_OK;
}

static int axis_add(struct ior_alert_axis *ax, struct pool *all, struct pool *mine, const char *label, double spread)
{
	if (isnan(spread))
		return IOR_OK;
	if (ax->nlisted < IOR_ALERT_PEERS_LISTED)
		ax->listed[ax->nlisted++] = (struct ior_alert_peer){ label, spread };
	ax->n++;
	return pool_add(all, spread) || pool_add(mine, spread) ? IOR_ERROR : IOR_OK;
}

/* The same device or cell on the other kernels of its series, nearest kernels listed first
 * (so with 200 kernels the words name the neighbours, and the median still takes them all). */
static int other_kernels(struct ior_alert *a, const struct ior_rt *rt, const struct ior_rt_series *s, size_t group,
			 bool devices, struct pool *all, struct pool *mine)
{
	size_t at = 0;
	while (at < s->n && s->m[at].group != group)
		at++;
	for (size_t d = 1; d < s->n; d++) {
		size_t idx[2] = { at >= d ? at - d : SIZE_MAX, at + d < s->n ? at + d : SIZE_MAX };
		if (idx[0] == SIZE_MAX && idx[1] == SIZE_MAX)
			break;
		for (int side = 0; side < 2; side++) {
			if (idx[side] == SIZE_MAX)
				continue;
			const struct ior_rt_member *m = &s->m[idx[side]];
			const struct ior_rt_group *og = &rt->groups[m->group];
			double sp = devices ? og->devices[m->index].st.spread : og->cells[m->index].st.spread;
			if (axis_add(&a->elsewhere, all, mine, og->kernel, sp))
				return IOR_ERROR;
		}
	}
	return IOR_OK;
}

static double median_of(struct pool *p)
{
	return p->n ? ior_median(p->v, p->n) : NAN;
}

/* Applies the rule; returns whether it alerts. */
static bool judge(struct ior_alert *a, const struct ior_stats *st, struct pool *all, struct pool *here,
		  struct pool *elsewhere, const struct ior_alert_opts *o)
{
	a->n = st->n;
	a->min = st->min;
	a->max = st->max;
	a->spread = st->spread;
	a->floor = o->floor;
	a->peer_ratio = o->peer_ratio;
	a->peer_median = median_of(all);
	a->here.median = median_of(here);
	a->elsewhere.median = median_of(elsewhere);
	a->threshold = isnan(a->peer_median) ? o->floor : fmax(o->floor, o->peer_ratio * a->peer_median);
	a->severity = isnan(st->spread) ? 0 : st->spread / a->threshold;
	if (isnan(st->spread) || st->spread <= o->floor)
		return false;
	return isnan(a->peer_median) || st->spread > o->peer_ratio * a->peer_median;
}

static int push_alert(struct ior_alert **out, size_t *n, size_t *cap, const struct ior_alert *a)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		struct ior_alert *v = realloc(*out, c * sizeof(*v));
		if (!v)
			return ior_error_set(IOR_ERROR, "out of memory");
		*out = v;
		*cap = c;
	}
	(*out)[(*n)++] = *a;
	return IOR_OK;
}

struct pools {
	struct pool all, here, elsewhere;
};

static void pools_reset(struct pools *p)
{
	p->all.n = p->here.n = p->elsewhere.n = 0;
}

static int device_alert(struct ior_alert *a, const struct ior_rt *rt, size_t gi, size_t d, struct pools *p,
			const struct ior_alert_opts *o, bool *alerts)
{
	const struct ior_rt_group *g = &rt->groups[gi];
	*a = (struct ior_alert){ .kind = IOR_ALERT_DEVICE, .host = g->host, .kernel = g->kernel, .engine = g->engine,
				 .params = g->params, .device = g->devices[d].name, .group = gi, .index = d };
	pools_reset(p);
	for (size_t k = 0; k < g->ndevices; k++)
		if (k != d && axis_add(&a->here, &p->all, &p->here, g->devices[k].name, g->devices[k].st.spread))
			return IOR_ERROR;
	if (other_kernels(a, rt, &rt->dseries[g->devices[d].series], gi, true, &p->all, &p->elsewhere))
		return IOR_ERROR;
	*alerts = judge(a, &g->devices[d].st, &p->all, &p->here, &p->elsewhere, o);
	return IOR_OK;
}

static int cell_alert(struct ior_alert *a, const struct ior_rt *rt, size_t gi, size_t c, struct pools *p,
		      const struct ior_alert_opts *o, bool *alerts)
{
	const struct ior_rt_group *g = &rt->groups[gi];
	const struct ior_rt_cell *cell = &g->cells[c];
	*a = (struct ior_alert){ .kind = IOR_ALERT_CELL, .host = g->host, .kernel = g->kernel, .engine = g->engine,
				 .params = g->params, .device = cell->device, .scheduler = cell->scheduler,
				 .group = gi, .index = c };
	pools_reset(p);
	for (size_t k = 0; k < g->ncells; k++)
		if (k != c && !ior_rt_strcmp(g->cells[k].device, cell->device) &&
		    axis_add(&a->here, &p->all, &p->here, g->cells[k].scheduler, g->cells[k].st.spread))
			return IOR_ERROR;
	if (other_kernels(a, rt, &rt->series[cell->series], gi, false, &p->all, &p->elsewhere))
		return IOR_ERROR;
	*alerts = judge(a, &cell->st, &p->all, &p->here, &p->elsewhere, o);
	return IOR_OK;
}

static int group_alerts(struct ior_alert **out, size_t *n, size_t *cap, const struct ior_rt *rt, size_t gi,
			struct pools *p, const struct ior_alert_opts *o)
{
	const struct ior_rt_group *g = &rt->groups[gi];
	struct ior_alert a;
	bool hit;
	for (size_t d = 0; d < g->ndevices; d++)
		if (device_alert(&a, rt, gi, d, p, o, &hit) || (hit && push_alert(out, n, cap, &a)))
			return IOR_ERROR;
	for (size_t c = 0; c < g->ncells; c++)
		if (cell_alert(&a, rt, gi, c, p, o, &hit) || (hit && push_alert(out, n, cap, &a)))
			return IOR_ERROR;
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
	size_t cap = 0;
	struct pools p = { 0 };
	int rc = IOR_OK;
	for (size_t g = 0; !rc && g < rt->ngroups; g++)
		rc = group_alerts(out, n, &cap, rt, g, &p, o);
	free(p.all.v);
	free(p.here.v);
	free(p.elsewhere.v);
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

static size_t describe_axis(char *buf, size_t len, const char *what, const struct ior_alert_axis *ax)
{
	if (!ax->n)
		return (size_t)snprintf(buf, len, "nothing to compare with among %s", what);
	size_t at = (size_t)snprintf(buf, len, "%s: ", what);
	for (size_t i = 0; i < ax->nlisted && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s %.1f%%", i ? ", " : "", ax->listed[i].label,
				       ax->listed[i].spread * 100);
	if (at < len && ax->n > ax->nlisted)
		at += (size_t)snprintf(buf + at, len - at, " and %zu more", ax->n - ax->nlisted);
	if (at < len)
		at += (size_t)snprintf(buf + at, len - at, " (median %.1f%%)", ax->median * 100);
	return at;
}

void ior_alert_describe(char *buf, size_t len, const struct ior_alert *a)
{
	char head[400], h[600], e[600];
	if (a->kind == IOR_ALERT_DEVICE)
		snprintf(head, sizeof(head), "device '%s' on %s", a->device, a->kernel);
	else
		snprintf(head, sizeof(head), "cell '%s' %s on %s", a->device, a->scheduler ? a->scheduler : "-",
			 a->kernel);
	if (isnan(a->peer_median)) {
		snprintf(buf, len, "%s: spread %.1f%% over %zu samples (%.2f to %.2f) exceeds %.0f%%; nothing to compare it with",
			 head, a->spread * 100, a->n, a->min, a->max, a->floor * 100);
		return;
	}
	describe_axis(h, sizeof(h), a->kind == IOR_ALERT_DEVICE ? "other devices on this kernel" :
		      "other schedulers on this device", &a->here);
	describe_axis(e, sizeof(e), a->kind == IOR_ALERT_DEVICE ? "the same device on other kernels" :
		      "the same cell on other kernels", &a->elsewhere);
	snprintf(buf, len, "%s: spread %.1f%% over %zu samples (%.2f to %.2f), %.1fx the peers' median %.1f%%; %s; %s",
		 head, a->spread * 100, a->n, a->min, a->max, a->spread / a->peer_median, a->peer_median * 100, h, e);
}
