/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The statistics part of the report model: samples grouped by host, kernel (in version order) and
 * engine, then device and scheduler, with the series that follow one cell or device across kernels. */
#ifndef IOR_JUDGE_TABLE_H
#define IOR_JUDGE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"
#include "stats/compare.h"
#include "stats/stats.h"
#include "stats/trend.h"

/* One cell: a device and scheduler under one host, kernel and engine with its parameters.
 * The cell key every command uses is (host, engine, params, device, scheduler), per kernel. */
struct ior_rt_cell {
	const char *device, *scheduler;  /* borrowed from the input */
	double *values;                  /* in run and repetition order */
	size_t n;
	double total;                    /* sum of the values, the field report's total */
	double share;                    /* total / the device's total over its schedulers */
	bool best;                       /* best total of its device, by the metric's direction */
	bool best_significant;           /* set by the report model: best, and significantly better than the next */
	/* Set by the report model when its host has one kernel in view: median against the device's best
	 * cell's, and whether the verdict of the two says they differ (true for the best itself). */
	double vs_best;
	bool vs_best_real;
	struct ior_stats st;
	const char *fill;                /* the scratch data it ran on; "mixed" when its runs differ; NULL unknown */
	size_t series;                   /* index into ior_tables.series */
	struct ior_trend trend;          /* warm-up or drift within one of its runs (the first found), else none */
};

/* All of one device's samples on one kernel: the field report's spread. */
struct ior_rt_device {
	const char *name;
	double *values;
	size_t n;
	double total;
	struct ior_stats st;
	const char *fill;                /* as for a cell, over the device's cells */
	size_t series;                   /* index into ior_tables.dseries */
	/* Set by the report model: 1 when the best total is significantly better than the next one
	 * (the verdict of best against next), 2 when not, 0 when not judged (one scheduler). */
	size_t top_schedulers, schedulers;
	bool top_too_few;                /* best and next had too few samples for a verdict */
	size_t top_too_few_n;            /* then the fewer repetitions of best and next, */
	char too_few_effects[256];       /* and each other scheduler against the best, with its interval */
	/* Set by the report model where its host has one kernel in view and no scheduler is starred:
	 * the whole verdict of the next scheduler (top_next) against the best (top_best), as `compare
	 * --by scheduler` gives it, so the answer's words are that verdict's (no change, or not told
	 * apart and why). */
	bool top_judged;
	const char *top_best, *top_next;
	struct ior_comparison top;
};

struct ior_rt_group {
	const char *host, *kernel, *engine, *params, *unit;
	bool higher_is_better;
	struct ior_rt_cell *cells;       /* devices in order of first appearance, then schedulers */
	size_t ncells;
	struct ior_rt_device *devices;
	size_t ndevices;
	size_t max_n;                    /* the widest cell, for the repetition columns */
};

/* One cell (or device) followed over the kernels of its host: group and index per kernel. */
struct ior_rt_member {
	size_t group, index;
};
struct ior_rt_series {
	const char *host, *engine, *params, *device, *scheduler;  /* scheduler NULL for a device series */
	bool higher_is_better;
	struct ior_rt_member *m;         /* in kernel version order */
	size_t n;
	double level;                    /* the median of its kernels' medians: what "usual" is for this series */
};

/* The report's tables: every (host, kernel, engine) group with its cells and devices, and the series
 * that follow a cell or a device across kernels (named ior_rt before: "report tables"). */
struct ior_tables {
	struct ior_rt_group *groups;     /* host, then kernel by ior_kver_cmp, then engine and params */
	size_t ngroups;
	struct ior_rt_series *series;    /* one per cell key */
	size_t nseries;
	struct ior_rt_series *dseries;   /* one per (host, engine, params, device) */
	size_t ndseries;
};

/* One stored cell's samples, as the builder takes them; several inputs with one key merge. */
struct ior_rt_input {
	const char *host, *kernel, *engine, *params, *device, *scheduler, *unit;
	const char *fill;                /* NULL unknown */
	bool higher_is_better;
	int64_t order;                   /* the cell id: devices and schedulers keep the order they ran in */
	const double *values;
	size_t n;
};

/* Builds the model from inputs (any order); strings must outlive it, values are copied. group_of, when
 * not NULL, gets per input the index of the group its key made (an input without values too), or
 * SIZE_MAX when no input of that key had values. */
int ior_rt_build_cells(struct ior_tables **out, const struct ior_rt_input *in, size_t n, size_t *group_of);
/* The same from sample rows (any order); the rows must outlive it. */
int ior_rt_build(struct ior_tables **out, const struct ior_db_row *rows, size_t n);
void ior_rt_free(struct ior_tables *rt);  /* NULL is a no-op */

const struct ior_rt_group *ior_rt_find(const struct ior_tables *rt, const char *host, const char *kernel,
				       const char *engine);
const struct ior_rt_cell *ior_rt_cell_find(const struct ior_rt_group *g, const char *device, const char *scheduler);
const struct ior_rt_device *ior_rt_device_find(const struct ior_rt_group *g, const char *device);
/* The series' member on kernel, or in group; NULL when it has none there. */
const struct ior_rt_member *ior_rt_member_on(const struct ior_tables *rt, const struct ior_rt_series *s,
					     const char *kernel);
const struct ior_rt_member *ior_rt_member_in(const struct ior_rt_series *s, size_t group);

/* qsort_r comparator of indexes into rows (ctx): by cell, run and repetition, so each cell's
 * values come out in that order. */
int ior_rt_row_order(const void *x, const void *y, void *rows);

/* strcmp with NULL as "". */
int ior_rt_strcmp(const char *a, const char *b);

#endif
