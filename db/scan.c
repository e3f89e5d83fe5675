/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Streaming reads for reports: one statement per scan, prepared here because a report runs each once. */
#include "db/scan.h"
#include "db/internal.h"

#include "common/error.h"

#include <string.h>

/* Cells with their context; the three sub-selects use samples' UNIQUE (cell_id, rep) index. */
static const char cells_sql[] =
	"SELECT c.id, r.id, h.name, k.release, d.name, d.model, c.scheduler, c.engine, c.engine_type, c.params, "
	"c.status, c.reason, r.status, r.started_at, "
	"(SELECT unit FROM samples WHERE cell_id = c.id ORDER BY rep LIMIT 1), "
	"(SELECT higher_is_better FROM samples WHERE cell_id = c.id ORDER BY rep LIMIT 1), "
	"(SELECT count(*) FROM samples WHERE cell_id = c.id), "
	"(SELECT fill FROM samples WHERE cell_id = c.id ORDER BY rep LIMIT 1), r.rep_order "
	"FROM cells c JOIN runs r ON r.id = c.run_id JOIN hosts h ON h.id = r.host_id "
	"JOIN kernels k ON k.id = r.kernel_id JOIN devices d ON d.id = c.device_id "
	"WHERE (?1 IS NULL OR h.name = ?1) AND (?2 IS NULL OR d.name = ?2) AND (?3 IS NULL OR c.scheduler = ?3) "
	"AND (?4 IS NULL OR c.engine = ?4) AND ((?5 IS NULL AND ?6 IS NULL) OR k.release = ?5 OR k.release = ?6) "
	"AND (?7 IS NULL OR r.started_at >= ?7) ORDER BY c.id";

static const char samples_sql[] =
	"SELECT cell_id, id, rep, value, warmup FROM samples WHERE cell_id BETWEEN ?1 AND ?2 ORDER BY cell_id, rep";

static const char samples_detail_sql[] =
	"SELECT cell_id, id, rep, value, warmup, bytes, ios, wall_s, usr_s, sys_s, measured_at, detail, fill, "
	"lat_p50_us, lat_p99_us, lat_p999_us, lat_mean_us, clat_p50_us, clat_p99_us, clat_p999_us, clat_mean_us FROM samples WHERE cell_id BETWEEN ?1 AND ?2 ORDER BY cell_id, rep";

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
		.run_started_at = text(st, 13), .unit = text(st, 14),
		.higher_is_better = sqlite3_column_int(st, 15) != 0, .samples = sqlite3_column_int64(st, 16),
		.fill = text(st, 17), .rep_order = text(st, 18),
	};
	return ((ior_db_cell_fn)fn)(ctx, &c);
}

/* The statement with f's fields bound as ?1..?7 (every scan numbers them alike; a statement
 * need not use them all). */
static sqlite3_stmt *prepare_filtered(struct ior_db *db, const char *sql, const struct ior_db_scan_filter *f)
{
	sqlite3_stmt *st = prepare(db, sql);
	if (!st || !f)
		return st;
	const char *values[] = { f->host, f->device, f->scheduler, f->engine, f->kernels[0], f->kernels[1], f->since };
	int params = sqlite3_bind_parameter_count(st);
	for (int i = 0; i < 7; i++)
		if (i + 1 <= params && sqlite3_bind_parameter_name(st, i + 1))
			ior_db_bind_text(st, i + 1, values[i]);
	return st;
}

int ior_db_scan_cells(struct ior_db *db, const struct ior_db_scan_filter *f, ior_db_cell_fn fn, void *ctx)
{
	sqlite3_stmt *st = prepare_filtered(db, cells_sql, f);
	return st ? each_row(db, st, cell_row, (void *)fn, ctx) : IOR_ERROR;
}

/* Four latency columns from col on (p50, p99, p99.9, mean); false when the engine had none. */
static bool latency(sqlite3_stmt *st, int col, double *p50, double *p99, double *p999, double *mean)
{
	*p50 = sqlite3_column_double(st, col);
	*p99 = sqlite3_column_double(st, col + 1);
	*p999 = sqlite3_column_double(st, col + 2);
	*mean = sqlite3_column_double(st, col + 3);
	return sqlite3_column_type(st, col) != SQLITE_NULL;
}

static int sample_row(sqlite3_stmt *st, void *fn, void *ctx)
{
	struct ior_db_sample_row s = { .cell_id = sqlite3_column_int64(st, 0), .sample_id = sqlite3_column_int64(st, 1),
				       .rep = sqlite3_column_int(st, 2), .value = sqlite3_column_double(st, 3),
				       .warmup = sqlite3_column_int(st, 4) != 0 };
	if (sqlite3_column_count(st) > 5) {
		s.bytes = (uint64_t)sqlite3_column_int64(st, 5);
		s.ios = (uint64_t)sqlite3_column_int64(st, 6);
		s.wall_s = sqlite3_column_double(st, 7);
		s.usr_s = sqlite3_column_double(st, 8);
		s.sys_s = sqlite3_column_double(st, 9);
		s.measured_at = text(st, 10);
		s.detail = text(st, 11);
		s.fill = text(st, 12);
		s.has_latency = latency(st, 13, &s.lat_p50_us, &s.lat_p99_us, &s.lat_p999_us, &s.lat_mean_us);
		s.has_clat = latency(st, 17, &s.clat_p50_us, &s.clat_p99_us, &s.clat_p999_us, &s.clat_mean_us);
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
	if (sqlite3_open_v2(db->path, &own->h, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		sqlite3_close(own->h);
		return db;
	}
	sqlite3_busy_timeout(own->h, IOR_DB_BUSY_TIMEOUT_MS);
	return own;
}

int ior_db_scan_samples(struct ior_db *db, int64_t first_cell, int64_t last_cell, bool detail,
			ior_db_sample_fn fn, void *ctx)
{
	struct ior_db own;
	struct ior_db *use = reader(db, &own);
	sqlite3_stmt *st = prepare(use, detail ? samples_detail_sql : samples_sql);
	int rc = IOR_ERROR;
	if (st) {
		sqlite3_bind_int64(st, 1, first_cell);
		sqlite3_bind_int64(st, 2, last_cell);
		rc = each_row(use, st, sample_row, (void *)fn, ctx);
	}
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
