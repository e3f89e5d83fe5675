/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report model: samples grouped by host, kernel (in version order) and engine, then device and scheduler, with their statistics. */
#ifndef IOR_REPORTS_TABLE_H
#define IOR_REPORTS_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"
#include "reports/stats.h"

/* One cell: a device and scheduler under one host, kernel and engine. */
struct ior_rt_cell {
	const char *device, *scheduler;  /* borrowed from the rows */
	double *values;                  /* in row order (run, repetition) */
	size_t n;
	double total;                    /* sum of the values, the field report's total */
	double share;                    /* total / the device's total over its schedulers */
	bool best;                       /* best total of its device, by the metric's direction */
	struct ior_stats st;
};

/* All of one device's samples on one kernel: the field report's spread. */
struct ior_rt_device {
	const char *name;
	double *values;
	size_t n;
	double total;
	struct ior_stats st;
};

struct ior_rt_group {
	const char *host, *kernel, *engine, *unit;
	bool higher_is_better;
	struct ior_rt_cell *cells;       /* devices in order of first appearance, then schedulers */
	size_t ncells;
	struct ior_rt_device *devices;
	size_t ndevices;
	size_t max_n;                    /* the widest cell, for the repetition columns */
};

struct ior_rt {
	struct ior_rt_group *groups;     /* host, then kernel by ior_kver_cmp, then engine */
	size_t ngroups;
};

/* Builds the model from rows (any order); the rows must outlive it. */
int ior_rt_build(struct ior_rt **out, const struct ior_db_row *rows, size_t n);
void ior_rt_free(struct ior_rt *rt);  /* NULL is a no-op */

const struct ior_rt_group *ior_rt_find(const struct ior_rt *rt, const char *host, const char *kernel,
				       const char *engine);
const struct ior_rt_cell *ior_rt_cell_find(const struct ior_rt_group *g, const char *device, const char *scheduler);
const struct ior_rt_device *ior_rt_device_find(const struct ior_rt_group *g, const char *device);

#endif
