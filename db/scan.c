/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Streaming reads for reports: one statement per scan, prepared here because a report runs each once. */
#include "db/scan.h"
#include "db/internal.h"

#include "common/error.h"

#include <stdlib.h>
#include <string.h>

/* Cells with their context. What their samples say (unit, direction, fill, how many) comes with the
 * samples: four sub-selects per cell here were a third of a million-sample report's reading. */
static const char cells_sql[] =
	"SELECT c.id, r.id, h.name, k.release, d.name, d.model, c.scheduler, c.engine, c.engine_type, c.params, "
	"c.status, c.reason, r.status, r.started_at, r.rep_order "
	"FROM cells c JOIN runs r ON r.id = c.run_id JOIN hosts h ON h.id = r.host_id "
	"JOIN kernels k ON k.id = r.kernel_id JOIN devices d ON d.id = c.device_id "
	"WHERE (?1 IS NULL OR h.name = ?1) AND (?2 IS NULL OR d.name = ?2) AND (?3 IS NULL OR c.scheduler = ?3) "
	"AND (?4 IS NULL OR c.engine = ?4) AND ((?5 IS NULL AND ?6 IS NULL) OR k.release = ?5 OR k.release = ?6) "
	"AND (?7 IS NULL OR r.started_at >= ?7) "
	"AND (?8 IS NULL OR r.id IN (SELECT run_id FROM vm_boots WHERE vm_run = ?8)) ORDER BY c.id";

/* The samples' columns (a detail scan adds the measures), then how a scan picks them: the whole
 * table in storage order (a table scan: no index lookup per row, 40% fewer instructions than walking
 * the (cell, rep) index over every row) or one cell's through that index. */
enum { S_CELL_ID, S_ID, S_REP, S_VALUE, S_WARMUP, S_UNIT, S_HIGHER, S_FILL, S_MEASURED_AT, S_DETAIL, S_MEASURES };
#define SAMPLE_COLUMNS "SELECT cell_id, id, rep, value, warmup, unit, higher_is_better, fill"
#define DETAIL_COLUMNS ", measured_at, detail, " IOR_SQL_MEASURES
#define ALL_SAMPLES " FROM samples"
#define CELL_SAMPLES " FROM samples WHERE cell_id = ?1 ORDER BY rep"
static const char *const samples_sql[2][2] = {
	{ SAMPLE_COLUMNS ALL_SAMPLES, SAMPLE_COLUMNS CELL_SAMPLES },
	{ SAMPLE_COLUMNS DETAIL_COLUMNS ALL_SAMPLES, SAMPLE_COLUMNS DETAIL_COLUMNS CELL_SAMPLES },
};

static const char *text(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

static sqlite3_stmt *prepare(struct ior_db *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK) {
		ior_db_fail(db, "cannot read");
		return NULL;
	}
	return st;
}

/* Steps st, calling row() for each row; an error of the callback or of SQLite ends it. */
static int each_row(struct ior_db *db, sqlite3_stmt *st, int (*row)(sqlite3_stmt *, void *, void *), void *fn,
		    void *ctx)
{
	int rc, out = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if ((out = row(st, fn, ctx)))
			break;
	if (!out && rc != SQLITE_DONE)
		out = ior_db_fail(db, "cannot read samples from");
	sqlite3_finalize(st);
	return out;
}

static int cell_row(sqlite3_stmt *st, void *fn, void *ctx)
{
	struct ior_db_cell_row c = {
		.cell_id = sqlite3_column_int64(st, 0), .run_id = sqlite3_column_int64(st, 1),
		.host = text(st, 2), .kernel = text(st, 3), .device = text(st, 4), .device_model = text(st, 5),
		.scheduler = text(st, 6), .engine = text(st, 7), .engine_type = text(st, 8), .params = text(st, 9),
		.status = text(st, 10), .reason = text(st, 11), .run_status = text(st, 12),
		.run_started_at = text(st, 13), .rep_order = text(st, 14),
	};
	return ((ior_db_cell_fn)fn)(ctx, &c);
}

/* The statement with f's fields bound as ?1..?8 (every scan numbers them alike; a statement
 * need not use them all). */
static sqlite3_stmt *prepare_filtered(struct ior_db *db, const char *sql, const struct ior_db_scan_filter *f)
{
	sqlite3_stmt *st = prepare(db, sql);
	if (!st || !f)
		return st;
	const char *values[] = { f->host, f->device, f->scheduler, f->engine, f->kernels[0], f->kernels[1], f->since,
				 f->vm_run };
	int params = sqlite3_bind_parameter_count(st);
	for (int i = 0; i < 8; i++)
		if (i + 1 <= params && sqlite3_bind_parameter_name(st, i + 1))
			ior_db_bind_text(st, i + 1, values[i]);
	return st;
}

int ior_db_scan_cells(struct ior_db *db, const struct ior_db_scan_filter *f, ior_db_cell_fn fn, void *ctx)
{
	sqlite3_stmt *st = prepare_filtered(db, cells_sql, f);
	return st ? each_row(db, st, cell_row, (void *)fn, ctx) : IOR_ERROR;
}

static int sample_row(sqlite3_stmt *st, void *fn, void *ctx)
{
	struct ior_db_sample_row s = {
		.cell_id = sqlite3_column_int64(st, S_CELL_ID), .sample_id = sqlite3_column_int64(st, S_ID),
		.rep = sqlite3_column_int(st, S_REP), .value = sqlite3_column_double(st, S_VALUE),
		.warmup = sqlite3_column_int(st, S_WARMUP) != 0, .unit = text(st, S_UNIT),
		.higher_is_better = sqlite3_column_int(st, S_HIGHER) != 0, .fill = text(st, S_FILL)
	};
	if (sqlite3_column_count(st) > S_MEASURED_AT) {
		s.measured_at = text(st, S_MEASURED_AT);
		s.detail = text(st, S_DETAIL);
		ior_db_read_measures(st, S_MEASURES, &s.m);
	}
	return ((ior_db_sample_fn)fn)(ctx, &s);
}

/* A million samples are a million steps and ten million column reads: on a connection of its
 * own, read-only and without SQLite's per-call mutex (this thread alone uses it), the scan
 * spends its time reading rather than locking (9% of a CSV report's CPU went to the mutex).
 * Falls back to the shared connection when the file cannot be opened that way. */
static struct ior_db *reader(struct ior_db *db, struct ior_db *own)
{
	memset(own, 0, sizeof(*own));
	own->path = db->path;
	if (db->readonly)   /* the file cannot be opened again as it is (no -shm on read-only media) */
		return db;
	if (sqlite3_open_v2(db->path, &own->h, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		sqlite3_close(own->h);
		return db;
	}
	sqlite3_busy_timeout(own->h, IOR_DB_BUSY_TIMEOUT_MS);
	return own;
}

/* Whether n cells are few enough to read through the index: a cell's seek costs about what a
 * table scan spends on a few dozen rows, so below a quarter of the stored cells (a report of one
 * kernel or two, `check`) the seeks win and above it the scan does. */
static bool few_cells(struct ior_db *db, size_t n)
{
	sqlite3_stmt *st = prepare(db, "SELECT count(*) FROM cells");
	int64_t all = st && sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return (int64_t)n * 4 < all;
}

int ior_db_scan_samples(struct ior_db *db, const int64_t *ids, size_t n, bool detail, ior_db_sample_fn fn,
			void *ctx)
{
	struct ior_db own;
	struct ior_db *use = reader(db, &own);
	bool by_cell = few_cells(use, n);
	char *sql = ior_db_measures_sql(samples_sql[detail][by_cell], 0);
	sqlite3_stmt *st = sql ? prepare(use, sql) : NULL;
	int rc = st ? IOR_OK : sql ? IOR_ERROR : ior_error_set(IOR_ERROR, "cannot read samples: out of memory");
	free(sql);
	if (st && !by_cell)
		rc = each_row(use, st, sample_row, (void *)fn, ctx), st = NULL;
	for (size_t i = 0; st && !rc && i < n; i++) {
		int step;
		sqlite3_bind_int64(st, 1, ids[i]);
		while ((step = sqlite3_step(st)) == SQLITE_ROW && !(rc = sample_row(st, (void *)fn, ctx)))
			;
		if (!rc && step != SQLITE_DONE)
			rc = ior_db_fail(use, "cannot read samples from");
		sqlite3_reset(st);
	}
	if (by_cell)
		sqlite3_finalize(st);
	if (use == &own)
		sqlite3_close(own.h);
	return rc;
}

static const char fills_sql[] =
	"SELECT f.run_id, h.name, k.release, d.name, f.target, f.fill, f.bytes, f.seconds FROM fills f "
	"JOIN runs r ON r.id = f.run_id JOIN hosts h ON h.id = r.host_id JOIN kernels k ON k.id = r.kernel_id "
	"LEFT JOIN devices d ON d.id = f.device_id "
	"WHERE (?1 IS NULL OR h.name = ?1) AND ((?5 IS NULL AND ?6 IS NULL) OR k.release = ?5 OR k.release = ?6) "
	"AND (?7 IS NULL OR r.started_at >= ?7) ORDER BY f.id";

static int fill_row(sqlite3_stmt *st, void *fn, void *ctx)
{
	struct ior_db_fill_row f = { .run_id = sqlite3_column_int64(st, 0), .host = text(st, 1), .kernel = text(st, 2),
				     .device = text(st, 3), .target = text(st, 4), .fill = text(st, 5),
				     .bytes = (uint64_t)sqlite3_column_int64(st, 6), .seconds = sqlite3_column_double(st, 7) };
	return ((ior_db_fill_fn)fn)(ctx, &f);
}

int ior_db_scan_fills(struct ior_db *db, const struct ior_db_scan_filter *f, ior_db_fill_fn fn, void *ctx)
{
	sqlite3_stmt *st = prepare_filtered(db, fills_sql, f);
	return st ? each_row(db, st, fill_row, (void *)fn, ctx) : IOR_ERROR;
}
