/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Streaming reads for reports at scale: cells (every status, with their reasons) and their samples,
 * one callback a row, nothing copied. */
#ifndef IOR_DB_SCAN_H
#define IOR_DB_SCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "db/db.h"

/* NULL fields match everything. kernels[0] and kernels[1] both NULL: any kernel;
 * otherwise a cell's kernel must be one of the non-NULL ones. since: an ISO date or
 * time ("2026-11-30", "2026-11-30T10:00:00Z"); only runs started at or after it. vm_run: only
 * the runs that boots of that `vm run` stored (vm_boots.vm_run). */
struct ior_db_scan_filter {
	const char *host, *device, *scheduler, *engine;
	const char *kernels[2];
	const char *since;
	const char *vm_run;
};

/* One cell with its context. Strings are valid only during the callback. Its unit, direction and
 * fill are its first sample's (struct ior_db_sample_row): the sample scan reads them. */
struct ior_db_cell_row {
	int64_t cell_id, run_id;
	const char *host, *kernel, *device, *device_model, *scheduler, *engine, *engine_type, *params;
	const char *status, *reason;          /* "ok", "unavailable", "skipped", "failed"; reason NULL for ok */
	const char *run_status, *run_started_at;
	const char *rep_order;                /* the run's repetition order; NULL for imports and older runs */
};

/* One sample; detail fields are filled only when asked for. */
struct ior_db_sample_row {
	int64_t cell_id, sample_id;
	int rep;
	double value;
	bool warmup;                          /* a warm-up repetition: loaded, never judged */
	const char *unit;
	bool higher_is_better;
	const char *fill;                     /* what its scratch device held: random, zeros, sparse; NULL unknown */
	/* detail */
	IOR_MEASURES_MEMBER;                  /* flags false where the sample has none */
	const char *measured_at, *detail;
};

/* A scratch device filled before a run measured on it (the fills table). */
struct ior_db_fill_row {
	int64_t run_id;
	const char *host, *kernel, *device;   /* device NULL: one an engine built */
	const char *target, *fill;
	uint64_t bytes;
	double seconds;
};

/* A callback returns 0 to go on, or an error code that stops the scan and is returned. */
typedef int (*ior_db_cell_fn)(void *ctx, const struct ior_db_cell_row *c);
typedef int (*ior_db_sample_fn)(void *ctx, const struct ior_db_sample_row *s);
typedef int (*ior_db_fill_fn)(void *ctx, const struct ior_db_fill_row *f);

/* Cells matching f in id order. */
int ior_db_scan_cells(struct ior_db *db, const struct ior_db_scan_filter *f, ior_db_cell_fn fn, void *ctx);

/* Samples of the cells ids[0..n) (ascending ids), in no promised order: when the cells are a good
 * part of the database, one pass over the whole table in storage order (the caller skips cells it
 * did not keep and orders what it keeps); otherwise cell by cell through the (cell, rep) index. */
int ior_db_scan_samples(struct ior_db *db, const int64_t *ids, size_t n, bool detail, ior_db_sample_fn fn,
			void *ctx);

/* Fills of the runs whose host, kernel and start match f (device and engine are ignored). */
int ior_db_scan_fills(struct ior_db *db, const struct ior_db_scan_filter *f, ior_db_fill_fn fn, void *ctx);

#endif
