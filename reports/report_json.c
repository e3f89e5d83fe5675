/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JSON report (json-c): the same groups, cells, device spreads and alerts as the text report, for machines. */
#include "reports/report.h"

#include "common/error.h"

#include <json-c/json.h>
#include <math.h>
#include <string.h>

static json_object *num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : json_object_new_null();
}

static json_object *stats_json(const struct ior_stats *st)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "n", json_object_new_int64((int64_t)st->n));
	json_object_object_add(o, "min", num(st->min));
	json_object_object_add(o, "max", num(st->max));
	json_object_object_add(o, "median", num(st->median));
	json_object_object_add(o, "mean", num(st->mean));
	json_object_object_add(o, "harmonic_mean", num(st->hmean));
	json_object_object_add(o, "sd", num(st->sd));
	json_object_object_add(o, "cov", num(st->cov));
	json_object_object_add(o, "mad", num(st->mad));
	json_object_object_add(o, "mad_scaled", num(st->mad_scaled));
	json_object_object_add(o, "spread", num(st->spread));
	json_object_object_add(o, "tukey_outliers", json_object_new_int64((int64_t)st->tukey_outliers));
	json_object_object_add(o, "modz_outliers", json_object_new_int64((int64_t)st->modz_outliers));
	return o;
}

static json_object *values_json(const double *v, size_t n)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, num(v[i]));
	return a;
}

static json_object *cell_json(const struct ior_rt_cell *c)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "device", json_object_new_string(c->device));
	json_object_object_add(o, "scheduler", json_object_new_string(c->scheduler));
	json_object_object_add(o, "values", values_json(c->values, c->n));
	json_object_object_add(o, "repetitions", json_object_new_int64((int64_t)c->n));
	json_object_object_add(o, "total", num(c->total));
	json_object_object_add(o, "share", num(c->share));
	json_object_object_add(o, "best", json_object_new_boolean(c->best));
	json_object_object_add(o, "stats", stats_json(&c->st));
	return o;
}

static json_object *group_json(const struct ior_rt_group *g, const struct ior_alert *alerts, size_t nalerts)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "host", json_object_new_string(g->host));
	json_object_object_add(o, "kernel", json_object_new_string(g->kernel));
	json_object_object_add(o, "engine", json_object_new_string(g->engine));
	json_object_object_add(o, "unit", g->unit ? json_object_new_string(g->unit) : NULL);
	json_object_object_add(o, "higher_is_better", json_object_new_boolean(g->higher_is_better));
	json_object *cells = json_object_new_array(), *devs = json_object_new_array(), *al = json_object_new_array();
	for (size_t i = 0; i < g->ncells; i++)
		json_object_array_add(cells, cell_json(&g->cells[i]));
	for (size_t d = 0; d < g->ndevices; d++) {
		json_object *dj = json_object_new_object();
		json_object_object_add(dj, "device", json_object_new_string(g->devices[d].name));
		json_object_object_add(dj, "total", num(g->devices[d].total));
		json_object_object_add(dj, "stats", stats_json(&g->devices[d].st));
		json_object_array_add(devs, dj);
	}
	for (size_t i = 0; i < nalerts; i++) {
		const struct ior_alert *a = &alerts[i];
		if (strcmp(a->host, g->host) || strcmp(a->kernel, g->kernel) || strcmp(a->engine, g->engine))
			continue;
		json_object *aj = json_object_new_object();
		json_object_object_add(aj, "kind", json_object_new_string(a->kind == IOR_ALERT_DEVICE ? "device" : "cell"));
		json_object_object_add(aj, "device", json_object_new_string(a->device));
		if (a->scheduler)
			json_object_object_add(aj, "scheduler", json_object_new_string(a->scheduler));
		json_object_object_add(aj, "spread", num(a->spread));
		json_object_object_add(aj, "peer_median", num(a->peer_median));
		json_object_object_add(aj, "text", json_object_new_string(a->text));
		json_object_array_add(al, aj);
	}
	json_object_object_add(o, "cells", cells);
	json_object_object_add(o, "devices", devs);
	json_object_object_add(o, "alerts", al);
	return o;
}

int ior_report_json(FILE *out, const struct ior_rt *rt, const struct ior_alert *alerts, size_t nalerts)
{
	json_object *root = json_object_new_object(), *groups = json_object_new_array();
	for (size_t i = 0; i < rt->ngroups; i++)
		json_object_array_add(groups, group_json(&rt->groups[i], alerts, nalerts));
	json_object_object_add(root, "groups", groups);
	fprintf(out, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	if (ferror(out))
		return ior_error_set(IOR_ERROR, "cannot write the report");
	return IOR_OK;
}
