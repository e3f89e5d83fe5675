/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Variance alerts: spread against an absolute floor and against the spreads of comparable devices and kernels. */
#include "judge/alerts.h"

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

/* The peers on this kernel (other devices, or other schedulers): a handful, sorted per candidate. */
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

/* Each series' spreads, sorted once: the peers "on other kernels" of every member are its
 * series less itself, so medians come from a walk over this instead of a copy and a select
 * per candidate (50,000 candidates of 200 kernels each at a million samples). */
struct sorted {
	double *v;
	size_t n;
};

static double spread_of(const struct ior_tables *rt, const struct ior_rt_member *m, bool devices)
{
	const struct ior_rt_group *g = &rt->groups[m->group];
	return devices ? g->devices[m->index].st.spread : g->cells[m->index].st.spread;
}

static int sorted_build(struct sorted **out, const struct ior_tables *rt, const struct ior_rt_series *all, size_t n,
			bool devices)
{
	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct sorted *x = &(*out)[i];
		if (!(x->v = malloc((all[i].n ? all[i].n : 1) * sizeof(*x->v))))
			return ior_error_set(IOR_ERROR, "out of memory");
		for (size_t k = 0; k < all[i].n; k++) {
			double sp = spread_of(rt, &all[i].m[k], devices);
			if (!isnan(sp))
				x->v[x->n++] = sp;
		}
		qsort(x->v, x->n, sizeof(*x->v), ior_double_cmp);
	}
	return IOR_OK;
}

static void sorted_free(struct sorted *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		free(s[i].v);
	free(s);
}

/* The median of (a less one copy of skip, unless skip is NAN) together with h, both sorted:
 * a merge walk to the middle. */
static double median_union(const double *a, size_t na, double skip, const double *h, size_t nh)
{
	bool skipping = !isnan(skip);
	size_t total = na - (skipping ? 1 : 0) + nh;
	if (!total)
		return NAN;
	size_t want = total / 2, i = 0, j = 0;
	double prev = NAN, cur = NAN;
	for (size_t step = 0; step <= want; step++) {
		if (skipping && i < na && a[i] == skip) {
			skipping = false;
			i++;
			step--;
			continue;
		}
		prev = cur;
		if (j >= nh || (i < na && a[i] <= h[j]))
			cur = a[i++];
		else
			cur = h[j++];
	}
	return total % 2 ? cur : (prev + cur) / 2;
}

static void list_peer(struct ior_alert_axis *ax, const char *label, double spread)
{
	if (ax->nlisted < IOR_ALERT_PEERS_LISTED)
		ax->listed[ax->nlisted++] = (struct ior_alert_peer){ label, spread };
}

static int here_add(struct ior_alert_axis *ax, struct pool *here, const char *label, double spread)
{
	if (isnan(spread))
		return IOR_OK;
	list_peer(ax, label, spread);
	ax->n++;
	return pool_add(here, spread);
}

/* Where group sits in s (members are in group order). */
static size_t position(const struct ior_rt_series *s, size_t group)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->m[mid].group < group)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The same device or cell on the other kernels of its series: the nearest kernels are listed
 * (so with 200 kernels the words name the neighbours), the median takes them all. */
static void other_kernels(struct ior_alert *a, const struct ior_tables *rt, const struct ior_rt_series *s,
			  const struct sorted *sorted, size_t group, bool devices, double self)
{
	size_t at = position(s, group);
	for (size_t d = 1; d < s->n && a->elsewhere.nlisted < IOR_ALERT_PEERS_LISTED; d++) {
		size_t idx[2] = { at >= d ? at - d : SIZE_MAX, at + d < s->n ? at + d : SIZE_MAX };
		if (idx[0] == SIZE_MAX && idx[1] == SIZE_MAX)
			break;
		for (int side = 0; side < 2; side++) {
			if (idx[side] == SIZE_MAX)
				continue;
			double sp = spread_of(rt, &s->m[idx[side]], devices);
			if (!isnan(sp))
				list_peer(&a->elsewhere, rt->groups[s->m[idx[side]].group].kernel, sp);
		}
	}
	a->elsewhere.n = sorted->n - (isnan(self) ? 0 : 1);
	a->elsewhere.median = median_union(sorted->v, sorted->n, self, NULL, 0);
}

/* Applies the rule; returns whether it alerts. */
static bool judge(struct ior_alert *a, const struct ior_stats *st, struct pool *here, const struct sorted *sorted,
		  const struct ior_alert_opts *o)
{
	a->n = st->n;
	a->min = st->min;
	a->max = st->max;
	a->spread = st->spread;
	a->floor = o->floor;
	a->peer_ratio = o->peer_ratio;
	if (here->n > 1)
		qsort(here->v, here->n, sizeof(*here->v), ior_double_cmp);
	a->here.median = median_union(here->v, here->n, NAN, NULL, 0);
	a->peer_median = median_union(sorted->v, sorted->n, st->spread, here->v, here->n);
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

struct ctx {
	const struct ior_tables *rt;
	const struct ior_alert_opts *o;
	struct sorted *cells, *devices;  /* per series, per device series */
	struct pool here;
};

static int device_alert(struct ior_alert *a, struct ctx *x, size_t gi, size_t d, bool *alerts)
{
	const struct ior_rt_group *g = &x->rt->groups[gi];
	const struct ior_rt_device *dev = &g->devices[d];
	*a = (struct ior_alert){ .kind = IOR_ALERT_DEVICE, .host = g->host, .kernel = g->kernel, .engine = g->engine,
				 .params = g->params, .device = dev->name, .group = gi, .index = d };
	x->here.n = 0;
	for (size_t k = 0; k < g->ndevices; k++)
		if (k != d && here_add(&a->here, &x->here, g->devices[k].name, g->devices[k].st.spread))
			return IOR_ERROR;
	const struct sorted *sorted = &x->devices[dev->series];
	other_kernels(a, x->rt, &x->rt->dseries[dev->series], sorted, gi, true, dev->st.spread);
	*alerts = judge(a, &dev->st, &x->here, sorted, x->o);
	return IOR_OK;
}

static int cell_alert(struct ior_alert *a, struct ctx *x, size_t gi, size_t c, bool *alerts)
{
	const struct ior_rt_group *g = &x->rt->groups[gi];
	const struct ior_rt_cell *cell = &g->cells[c];
	*a = (struct ior_alert){ .kind = IOR_ALERT_CELL, .host = g->host, .kernel = g->kernel, .engine = g->engine,
				 .params = g->params, .device = cell->device, .scheduler = cell->scheduler,
				 .group = gi, .index = c };
	x->here.n = 0;
	for (size_t k = 0; k < g->ncells; k++)
		if (k != c && !ior_rt_strcmp(g->cells[k].device, cell->device) &&
		    here_add(&a->here, &x->here, g->cells[k].scheduler, g->cells[k].st.spread))
			return IOR_ERROR;
	const struct sorted *sorted = &x->cells[cell->series];
	other_kernels(a, x->rt, &x->rt->series[cell->series], sorted, gi, false, cell->st.spread);
	a->spread_alert = judge(a, &cell->st, &x->here, sorted, x->o);
	a->trend = cell->trend;
	*alerts = a->spread_alert || a->trend.kind != IOR_TREND_NONE;
	if (!a->spread_alert && *alerts)
		a->severity = IOR_ALERT_TREND_SEVERITY;
	return IOR_OK;
}

static int group_alerts(struct ior_alert **out, size_t *n, size_t *cap, struct ctx *x, size_t gi)
{
	const struct ior_rt_group *g = &x->rt->groups[gi];
	struct ior_alert a;
	bool hit;
	for (size_t d = 0; d < g->ndevices; d++)
		if (device_alert(&a, x, gi, d, &hit) || (hit && push_alert(out, n, cap, &a)))
			return IOR_ERROR;
	for (size_t c = 0; c < g->ncells; c++)
		if (cell_alert(&a, x, gi, c, &hit) || (hit && push_alert(out, n, cap, &a)))
			return IOR_ERROR;
	return IOR_OK;
}

int ior_alerts_compute(struct ior_alert **out, size_t *n, const struct ior_tables *rt, const struct ior_alert_opts *o)
{
	struct ior_alert_opts def;
	if (!o) {
		ior_alert_opts_default(&def);
		o = &def;
	}
	*out = NULL;
	*n = 0;
	size_t cap = 0;
	struct ctx x = { .rt = rt, .o = o };
	int rc = sorted_build(&x.cells, rt, rt->series, rt->nseries, false);
	if (!rc)
		rc = sorted_build(&x.devices, rt, rt->dseries, rt->ndseries, true);
	for (size_t g = 0; !rc && g < rt->ngroups; g++)
		rc = group_alerts(out, n, &cap, &x, g);
	sorted_free(x.cells, rt->nseries);
	sorted_free(x.devices, rt->ndseries);
	free(x.here.v);
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
	char head[700], h[600], e[600];
	if (a->kind == IOR_ALERT_DEVICE)
		snprintf(head, sizeof(head), "device '%s' on %s", a->device, a->kernel);
	else
		snprintf(head, sizeof(head), "cell '%s' %s on %s", a->device, a->scheduler ? a->scheduler : "-",
			 a->kernel);
	if (a->trend.kind != IOR_TREND_NONE) {
		/* the order of the repetitions explains the spread: say so before the spread's figures */
		char t[300];
		size_t at = strlen(head);
		ior_trend_describe(t, sizeof(t), &a->trend);
		snprintf(head + at, sizeof(head) - at, ": %s: that is not plain spread (%s)", t,
			 a->trend.kind == IOR_TREND_WARMUP ? "warmup = N runs that many repetitions first and leaves them out"
							   : "the repetitions are not alike: the host or device changed while they ran");
		if (!a->spread_alert) {
			snprintf(buf, len, "%s; spread %.1f%% over %zu samples (%.2f to %.2f) is within the threshold %.1f%%",
				 head, a->spread * 100, a->n, a->min, a->max, a->threshold * 100);
			return;
		}
	}
	if (isnan(a->peer_median)) {
		snprintf(buf, len, "%s: value spread %.1f%% over %zu samples (%.2f to %.2f) exceeds %.0f%%; nothing to compare it with",
			 head, a->spread * 100, a->n, a->min, a->max, a->floor * 100);
		return;
	}
	describe_axis(h, sizeof(h), a->kind == IOR_ALERT_DEVICE ? "other devices on this kernel" :
		      "other schedulers on this device", &a->here);
	describe_axis(e, sizeof(e), a->kind == IOR_ALERT_DEVICE ? "the same device on other kernels" :
		      "the same cell on other kernels", &a->elsewhere);
	snprintf(buf, len, "%s: value spread %.1f%% over %zu samples (%.2f to %.2f), %.1fx the peers' median %.1f%%; %s; %s",
		 head, a->spread * 100, a->n, a->min, a->max, a->spread / a->peer_median, a->peer_median * 100, h, e);
}
