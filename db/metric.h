/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The stored measures of a sample (the samples columns of struct ior_measures) and the metrics a
 * verdict can judge: the headline value, stored columns and derived ones, their units, directions
 * and reads. */
#ifndef IOR_DB_METRIC_H
#define IOR_DB_METRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"

/* The samples columns of struct ior_measures, one row a field, in the struct's order: inserts bind
 * them, selects read them, the CSV report prints them and sample_view shows them, all from this
 * table (db/metric.c), so a new stored figure is a field and a row. */
enum ior_measure_group {
	IOR_MEASURE_TIMED,        /* bytes, ios, wall and CPU: always stored (NULL only for imports) */
	IOR_MEASURE_LATENCY,      /* has_latency: NULL without it */
	IOR_MEASURE_CLAT,         /* has_clat */
	IOR_MEASURE_BLKSTAT,      /* has_blkstat */
};

struct ior_measure_column {
	const char *name;         /* the samples column, as sample_view and the CSV report name it */
	bool integer;             /* a uint64_t field; a double otherwise */
	size_t offset;            /* of the field in struct ior_measures */
	enum ior_measure_group group;
	bool in_csv;              /* a column of the CSV report (the block-layer counters are not, yet) */
};

size_t ior_measure_column_count(void);
const struct ior_measure_column *ior_measure_column_at(size_t i);

/* Whether m holds the figures of group g: its flag, or for the timed group a wall time (a sample
 * imported from a CSV has none). */
bool ior_measures_known(const struct ior_measures *m, enum ior_measure_group g);
/* A column's field of m. */
uint64_t ior_measures_u64(const struct ior_measures *m, const struct ior_measure_column *c);
double ior_measures_real(const struct ior_measures *m, const struct ior_measure_column *c);

/* Named as sample_view's columns; derived ones are computed from them. */
enum ior_metric {
	IOR_METRIC_VALUE,         /* the headline figure: its unit and direction are the sample's */
	IOR_METRIC_LAT_P50,
	IOR_METRIC_LAT_P99,
	IOR_METRIC_LAT_P999,
	IOR_METRIC_LAT_MEAN,
	IOR_METRIC_CLAT_P50,
	IOR_METRIC_CLAT_P99,
	IOR_METRIC_CLAT_P999,
	IOR_METRIC_CLAT_MEAN,
	IOR_METRIC_WALL,
	IOR_METRIC_USR,
	IOR_METRIC_SYS,
	IOR_METRIC_CPU,           /* derived: usr_s + sys_s */
	IOR_METRIC_CPU_PER_GIB,   /* derived: (usr_s + sys_s) per GiB moved */
	IOR_METRIC_REQ_KIB,       /* derived from the device's counters: KiB per request */
	IOR_METRIC_MERGE_PCT,     /* derived: merged bios per 100 bios */
	IOR_METRIC_REQ_PER_GIB,   /* derived: requests per GiB the device moved */
	IOR_METRIC_COUNT,
};

/* A set of metrics, one bit each. */
#define IOR_METRIC_BIT(m) (1u << (m))
#define IOR_METRICS_ALL ((1u << IOR_METRIC_COUNT) - 1)
/* What verdicts judge by default: the headline and the tail latency where the engine records it. */
#define IOR_METRICS_DEFAULT (IOR_METRIC_BIT(IOR_METRIC_VALUE) | IOR_METRIC_BIT(IOR_METRIC_LAT_P99))

struct ior_metric_info {
	const char *name;         /* "lat_p99_us" */
	const char *unit;         /* NULL for the headline (the sample's own) */
	bool higher_is_better;    /* not used for the headline */
	bool stored;              /* a samples column: an import may carry it */
	const char *column;       /* the samples column, or the SQL expression of a derived one */
	const char *where;        /* NULL, or what a sample needs for a derived one to mean something */
	const char *help;
};
const struct ior_metric_info *ior_metric_info(enum ior_metric m);

/* The metric named name (as sample_view names it); IOR_EINVALID with the nearest name otherwise. */
int ior_metric_find(enum ior_metric *out, const char *name);

/* "NAME[,NAME...]" or "all" into a set; IOR_EINVALID naming the bad name. */
int ior_metric_parse_list(unsigned *out, const char *text);

/* Reads one metric of stored cells, cell by cell: the values of the cell's samples where the
 * metric is recorded (NULL columns and derived ones without their inputs are left out). */
struct ior_metric_reader;
int ior_metric_reader_open(struct ior_metric_reader **out, struct ior_db *db, enum ior_metric m);
/* Appends cell_id's values to *values (grown with realloc; *n counts them). */
int ior_metric_reader_read(struct ior_metric_reader *r, int64_t cell_id, double **values, size_t *n);
void ior_metric_reader_close(struct ior_metric_reader *r);  /* NULL is a no-op */

#endif
