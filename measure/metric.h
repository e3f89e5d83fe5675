/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The metrics a verdict can judge, in one table: the headline value, stored columns and derived
 * ones, each with its name, unit, direction, kind, group and help. The enum, the name lists of
 * the --metric help, the unknown-name message and the names an import takes all come from it. */
#ifndef IOR_MEASURE_METRIC_H
#define IOR_MEASURE_METRIC_H

#include <stdbool.h>

#include "measure/measures.h"

/* X(ID, name, unit, higher_is_better, kind, group, help), named as sample_view's columns.
 * kind: HEADLINE (the sample's value: its unit and direction are the sample's), COLUMN (a samples
 * column of struct ior_measures), DERIVED (computed from the timed columns) or COUNTERS (computed
 * from the device's request counters). group: the measure group a sample needs for it.
 * Latency, time and CPU are costs: lower is better. CPU per GiB is the field's cost of a
 * transfer: a kernel that moves the same bytes at the same rate with more CPU got worse. Bigger
 * requests and more bios merged into them mean fewer requests for the same bytes: better.
 * A new metric is appended (the enum numbers metric sets, 32 at most). */
#define IOR_METRIC_LIST(X) \
	X(VALUE, value, NULL, true, HEADLINE, TIMED, "the headline figure (its unit and direction are the engine's)") \
	X(LAT_P50, lat_p50_us, "us", false, COLUMN, LATENCY, "median total latency") \
	X(LAT_P99, lat_p99_us, "us", false, COLUMN, LATENCY, "99th percentile total latency (the tail)") \
	X(LAT_P999, lat_p999_us, "us", false, COLUMN, LATENCY, "99.9th percentile total latency") \
	X(LAT_MEAN, lat_mean_us, "us", false, COLUMN, LATENCY, "mean total latency") \
	X(CLAT_P50, clat_p50_us, "us", false, COLUMN, CLAT, "median completion latency") \
	X(CLAT_P99, clat_p99_us, "us", false, COLUMN, CLAT, "99th percentile completion latency") \
	X(CLAT_P999, clat_p999_us, "us", false, COLUMN, CLAT, "99.9th percentile completion latency") \
	X(CLAT_MEAN, clat_mean_us, "us", false, COLUMN, CLAT, "mean completion latency") \
	X(WALL, wall_s, "s", false, COLUMN, TIMED, "elapsed seconds of the timed part") \
	X(USR, usr_s, "s", false, COLUMN, TIMED, "user CPU seconds") \
	X(SYS, sys_s, "s", false, COLUMN, TIMED, "system CPU seconds") \
	X(CPU, cpu_s, "s", false, DERIVED, TIMED, "user and system CPU seconds (derived)") \
	X(CPU_PER_GIB, cpu_s_per_gib, "s/GiB", false, DERIVED, TIMED, \
	  "CPU seconds per GiB moved (derived; needs bytes)") \
	X(REQ_KIB, req_kib, "KiB", true, COUNTERS, BLKSTAT, \
	  "average request size the device saw (derived from its stat counters)") \
	X(MERGE_PCT, merge_pct, "%", true, COUNTERS, BLKSTAT, \
	  "share of bios merged into another request (derived, iostat's %rrqm/%wrqm)") \
	X(REQ_PER_GIB, req_per_gib, "req/GiB", false, COUNTERS, BLKSTAT, \
	  "requests per GiB the device moved (derived from its stat counters)")

#define IOR_METRIC_ENUM(id, ...) IOR_METRIC_##id,
enum ior_metric {
	IOR_METRIC_LIST(IOR_METRIC_ENUM)
	IOR_METRIC_COUNT,
};
#undef IOR_METRIC_ENUM

/* A set of metrics, one bit each. */
_Static_assert(IOR_METRIC_COUNT <= 32, "a set of metrics is an unsigned of 32 bits: widen it before adding a 33rd");
#define IOR_METRIC_BIT(m) (1u << (m))
#define IOR_METRICS_ALL ((unsigned)(((unsigned long long)1 << IOR_METRIC_COUNT) - 1))
/* What verdicts judge by default: the headline and the tail latency where the engine records it. */
#define IOR_METRICS_DEFAULT (IOR_METRIC_BIT(IOR_METRIC_VALUE) | IOR_METRIC_BIT(IOR_METRIC_LAT_P99))

/* The names of one kind as a string literal, each after a space (" lat_p50_us lat_p99_us"), for
 * option rows' help, which must be constant: IOR_METRIC_NAMES(COLUMN). HEADLINE counts as a column. */
#define IOR_METRIC_NAMES(want) IOR_METRIC_LIST(IOR_METRIC_NAME_IF_##want)
#define IOR_METRIC_NAME_IF_COLUMN(id, name, unit, hib, kind, ...) IOR_METRIC_COLUMN_##kind(" " #name)
#define IOR_METRIC_NAME_IF_DERIVED(id, name, unit, hib, kind, ...) IOR_METRIC_DERIVED_##kind(" " #name)
#define IOR_METRIC_NAME_IF_COUNTERS(id, name, unit, hib, kind, ...) IOR_METRIC_COUNTERS_##kind(" " #name)
#define IOR_METRIC_COLUMN_HEADLINE(s) s
#define IOR_METRIC_COLUMN_COLUMN(s) s
#define IOR_METRIC_COLUMN_DERIVED(s)
#define IOR_METRIC_COLUMN_COUNTERS(s)
#define IOR_METRIC_DERIVED_HEADLINE(s)
#define IOR_METRIC_DERIVED_COLUMN(s)
#define IOR_METRIC_DERIVED_DERIVED(s) s
#define IOR_METRIC_DERIVED_COUNTERS(s)
#define IOR_METRIC_COUNTERS_HEADLINE(s)
#define IOR_METRIC_COUNTERS_COLUMN(s)
#define IOR_METRIC_COUNTERS_DERIVED(s)
#define IOR_METRIC_COUNTERS_COUNTERS(s) s
/* Every name by kind, for the --metric rows' help. */
#define IOR_METRIC_HELP_NAMES \
	"named as sample_view's columns:" IOR_METRIC_NAMES(COLUMN) "; derived:" IOR_METRIC_NAMES(DERIVED) \
	"; from the device's request counters:" IOR_METRIC_NAMES(COUNTERS)

enum ior_metric_kind {
	IOR_METRIC_KIND_HEADLINE,
	IOR_METRIC_KIND_COLUMN,
	IOR_METRIC_KIND_DERIVED,
	IOR_METRIC_KIND_COUNTERS,
};

struct ior_metric_info {
	const char *name;         /* "lat_p99_us" */
	const char *unit;         /* NULL for the headline (the sample's own) */
	bool higher_is_better;    /* not used for the headline */
	enum ior_metric_kind kind;
	enum ior_measure_group group; /* what a sample needs for it */
	bool stored;              /* a samples column of struct ior_measures: an import may carry it */
	const char *column;       /* the samples column, or the SQL expression of a derived one */
	const char *where;        /* NULL, or what a sample needs for a derived one to mean something */
	const char *help;
};
const struct ior_metric_info *ior_metric_info(enum ior_metric m);

/* The metric named name (as sample_view names it); IOR_EINVALID with the nearest name otherwise. */
int ior_metric_find(enum ior_metric *out, const char *name);

/* "NAME[,NAME...]" or "all" into a set; IOR_EINVALID naming the bad name. */
int ior_metric_parse_list(unsigned *out, const char *text);

#endif
