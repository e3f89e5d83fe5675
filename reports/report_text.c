/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The seed-style text report: repetitions, totals, shares, best scheduler, device ratio, spreads and alerts per host and kernel. */
#include "reports/report.h"

#include "common/error.h"

#include <math.h>
#include <string.h>

static int width_of(const struct ior_rt_group *g, bool device)
{
	int w = device ? 6 : 9;  /* "device", "scheduler" */
	for (size_t i = 0; i < g->ncells; i++) {
		int l = (int)strlen(device ? g->cells[i].device : g->cells[i].scheduler);
		if (l > w)
			w = l;
	}
	return w;
}

static void header(FILE *out, const struct ior_rt_group *g, int dw, int sw)
{
	fprintf(out, "%s, kernel %s, %s (%s, %s is better)\n", g->host, g->kernel, g->engine,
		g->unit ? g->unit : "?", g->higher_is_better ? "higher" : "lower");
	fprintf(out, "%-*s  %-*s", dw, "device", sw, "scheduler");
	for (size_t r = 0; r < g->max_n; r++) {
		char col[24];
		snprintf(col, sizeof(col), "#%zu", r + 1);
		fprintf(out, " %9s", col);
	}
	fprintf(out, " %10s %9s\n", "total", "share");
}

static void cell_rows(FILE *out, const struct ior_rt_group *g, int dw, int sw)
{
	for (size_t i = 0; i < g->ncells; i++) {
		const struct ior_rt_cell *c = &g->cells[i];
		fprintf(out, "%-*s  %-*s", dw, c->device, sw, c->scheduler);
		for (size_t r = 0; r < g->max_n; r++) {
			if (r < c->n)
				fprintf(out, " %9.2f", c->values[r]);
			else
				fprintf(out, " %9s", "-");
		}
		fprintf(out, " %10.2f %8.3f%%%s\n", c->total, c->share * 100, c->best ? " *" : "");
	}
}

/* Each device's total against the first device's: the field report's "SSD is 1.45x SATA". */
static void device_ratios(FILE *out, const struct ior_rt_group *g)
{
	if (g->ndevices < 2)
		return;
	const struct ior_rt_device *ref = &g->devices[0];
	for (size_t d = 1; d < g->ndevices; d++) {
		const struct ior_rt_device *o = &g->devices[d];
		bool comparable = o->n == ref->n && o->total != 0;
		if (comparable)
			fprintf(out, "ratio %s / %s: %.3f\n", ref->name, o->name, ref->total / o->total);
		else  /* unequal sample counts: totals would mislead, use means */
			fprintf(out, "ratio %s / %s: %.3f (means; %zu and %zu samples)\n", ref->name, o->name,
				ref->st.mean / o->st.mean, ref->n, o->n);
	}
}

static void device_spreads(FILE *out, const struct ior_rt_group *g, int dw)
{
	fprintf(out, "%-*s  %9s %9s %8s %8s %3s\n", dw, "device", "min", "max", "spread", "CoV", "n");
	for (size_t d = 0; d < g->ndevices; d++) {
		const struct ior_stats *st = &g->devices[d].st;
		fprintf(out, "%-*s  %9.2f %9.2f %7.1f%% %7.1f%% %3zu\n", dw, g->devices[d].name, st->min, st->max,
			st->spread * 100, st->cov * 100, st->n);
	}
}

static bool alert_in_group(const struct ior_alert *a, const struct ior_rt_group *g)
{
	return !strcmp(a->host, g->host) && !strcmp(a->kernel, g->kernel) && !strcmp(a->engine, g->engine);
}

static void group_alerts(FILE *out, const struct ior_rt_group *g, const struct ior_alert *alerts, size_t n)
{
	size_t shown = 0;
	for (size_t i = 0; i < n; i++) {
		if (!alert_in_group(&alerts[i], g))
			continue;
		fprintf(out, "%s %s\n", shown++ ? "      " : "alert:", alerts[i].text);
	}
	if (!shown)
		fprintf(out, "alerts: none\n");
}

int ior_report_text(FILE *out, const struct ior_rt *rt, const struct ior_alert *alerts, size_t nalerts)
{
	if (rt->ngroups == 0)
		fprintf(out, "no samples match\n");
	for (size_t i = 0; i < rt->ngroups; i++) {
		const struct ior_rt_group *g = &rt->groups[i];
		int dw = width_of(g, true), sw = width_of(g, false);
		if (i)
			fputc('\n', out);
		header(out, g, dw, sw);
		cell_rows(out, g, dw, sw);
		device_ratios(out, g);
		fputc('\n', out);
		device_spreads(out, g, dw);
		group_alerts(out, g, alerts, nalerts);
	}
	if (ferror(out))
		return ior_error_set(IOR_ERROR, "cannot write the report");
	return IOR_OK;
}
