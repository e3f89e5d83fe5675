/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record of what one repetition measured besides its headline (struct ior_measures) and its
 * column table: one row a stored field, which db/ binds, reads and prints and engines/ fill. */
#ifndef IOR_MEASURE_MEASURES_H
#define IOR_MEASURE_MEASURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/blkstat.h"

/* One field per stored samples column (the table in measures.c binds, reads and prints them by
 * their offsets). A new stored figure is a field here, appended, and a row there (HACKING.md). */
#define IOR_MEASURES_FIELDS \
	uint64_t bytes;          /* bytes moved in the timed part */ \
	uint64_t ios;            /* I/O requests completed in the timed part */ \
	double wall_s, usr_s, sys_s; \
	/* Latency as fio reports it, microseconds: lat from just before the submit call to the \
	 * completion (fio's "lat"), clat from after the submit call returned (fio's "clat"). */ \
	bool has_latency;        /* lat_* are set */ \
	double lat_p50_us, lat_p99_us, lat_p999_us, lat_mean_us; \
	bool has_clat;           /* clat_* are set */ \
	double clat_p50_us, clat_p99_us, clat_p999_us, clat_mean_us; \
	/* What the block layer did during the repetition: the measured device's request counters, \
	 * after minus before. Set by the run from the cell's device, unless the engine measured a \
	 * device of its own (the loop engine's top device) and set them itself. */ \
	bool has_blkstat; \
	struct ior_blkstat blk;

struct ior_measures {
	IOR_MEASURES_FIELDS
};

/* Embeds the measures in a struct as one member m (copied, bound and read whole) whose fields
 * are also members of the struct by their own names (s->lat_p99_us), so an engine or a test that
 * sets one field reads as before. */
#define IOR_MEASURES_MEMBER \
	union { \
		struct ior_measures m; \
		struct { \
			IOR_MEASURES_FIELDS \
		}; \
	}

/* Which fields an engine measured, as a group: a group it does not measure is stored NULL (its
 * flag false), never 0, so "not measured" and "measured nothing" stay apart. */
enum ior_measure_group {
	IOR_MEASURE_TIMED,        /* bytes, ios, wall and CPU: always stored (NULL only for imports) */
	IOR_MEASURE_LATENCY,      /* has_latency: NULL without it */
	IOR_MEASURE_CLAT,         /* has_clat */
	IOR_MEASURE_BLKSTAT,      /* has_blkstat */
};

/* The samples columns of struct ior_measures, one row a field, in the struct's order: inserts bind
 * them, selects read them, the CSV report prints them and sample_view shows them. */
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
/* The flag of group g in m (NULL for the timed group, which has none). */
bool *ior_measures_group_flag(struct ior_measures *m, enum ior_measure_group g);
/* A column's field of m. */
uint64_t ior_measures_u64(const struct ior_measures *m, const struct ior_measure_column *c);
double ior_measures_real(const struct ior_measures *m, const struct ior_measure_column *c);
void ior_measures_set_u64(struct ior_measures *m, const struct ior_measure_column *c, uint64_t v);
void ior_measures_set_real(struct ior_measures *m, const struct ior_measure_column *c, double v);

#endif
