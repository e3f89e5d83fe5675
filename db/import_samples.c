/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Import of samples from CSV "host,kernel,device,scheduler,engine,rep,value,unit[,warmup][,metric]"
 * into imported runs, all or nothing. */
#include "db/import.h"
#include "db/accept.h"

#include "common/error.h"
#include "db/metric.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* metric is optional: empty or absent, the row is the repetition's headline value; otherwise it is
 * one of the stored sample columns (lat_p99_us, usr_s, ...) of the repetition the headline row made. */
enum { C_HOST, C_KERNEL, C_DEVICE, C_SCHEDULER, C_ENGINE, C_REP, C_VALUE, C_UNIT, C_WARMUP, C_METRIC, C_COUNT,
       KEYS = C_ENGINE + 1, C_REQUIRED = C_UNIT + 1 };

/* warmup is optional (absent or empty: 0), so files from before it and the seed data import as they were. */
static const char *const columns[C_COUNT] = {
	"host", "kernel", "device", "scheduler", "engine", "rep", "value", "unit", "warmup", "metric",
};

/* Units a CSV may carry, and which way is better: rates up, times down. */
static const struct {
	const char *unit;
	bool higher_is_better;
} units[] = {
	{ "MB/s", true }, { "MiB/s", true }, { "GB/s", true }, { "GiB/s", true }, { "kB/s", true },
	{ "KB/s", true }, { "KiB/s", true }, { "B/s", true }, { "IOPS", true },
	{ "s", false }, { "ms", false }, { "us", false }, { "ns", false },
};

struct row {
	size_t line;
	const char *key[KEYS];
	const char *unit;
	int rep;
	double value;
	bool higher_is_better;
	bool warmup;
	enum ior_metric metric;    /* IOR_METRIC_VALUE: the headline */
	char *storage;
};

/* 0/1 (as the CSV report writes it), or no/yes; empty is 0. */
static bool parse_warmup(struct ior_import *im, const char *text, bool *warmup)
{
	if (!*text || !strcmp(text, "0") || !strcasecmp(text, "no"))
		*warmup = false;
	else if (!strcmp(text, "1") || !strcasecmp(text, "yes"))
		*warmup = true;
	else {
		ior_import_problem(im, ior_import_line(im), "warmup", "'%s' is not 0 or 1", text);
		return false;
	}
	return true;
}

/* A metric row names a stored column in that column's unit; derived metrics are computed, not imported. */
static bool parse_metric(struct ior_import *im, const char *text, const char *unit, enum ior_metric *out)
{
	if (ior_metric_find(out, text)) {
		ior_import_problem(im, ior_import_line(im), "metric", "%s", ior_error_last());
		ior_error_clear();
		return false;
	}
	const struct ior_metric_info *mi = ior_metric_info(*out);
	if (*out != IOR_METRIC_VALUE && !mi->stored) {
		ior_import_problem(im, ior_import_line(im), "metric", "'%s' is derived from other columns and cannot be "
				   "imported", text);
		return false;
	}
	if (*out != IOR_METRIC_VALUE && *unit && strcmp(unit, mi->unit)) {
		ior_import_problem(im, ior_import_line(im), "unit", "'%s' is in %s, not '%s'", text, mi->unit, unit);
		return false;
	}
	return true;
}

static bool parse_rep(struct ior_import *im, const char *text, int *rep)
{
	char *end;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (!*text || *end || text[0] == '+' || text[0] == '-' || errno || v < 1 || v > INT_MAX) {
		ior_import_problem(im, ior_import_line(im), "rep", "'%s' is not a positive integer", text);
		return false;
	}
	*rep = (int)v;
	return true;
}

static bool parse_value(struct ior_import *im, const char *text, double *value)
{
	/* Decimal notation only: strtod would also take "nan", "inf" and hex. */
	bool decimal = *text && strspn(text, "0123456789.eE+-") == strlen(text);
	char *end = NULL;
	errno = 0;
	double v = decimal ? strtod(text, &end) : NAN;
	const char *problem = NULL;
	if (!decimal || *end || end == text)
		problem = "is not a number";
	else if (errno == ERANGE)
		problem = "is out of range";
	else
		problem = ior_db_value_problem(v);
	if (problem) {
		ior_import_problem(im, ior_import_line(im), "value", "'%s' %s", text, problem);
		return false;
	}
	*value = v;
	return true;
}

static bool parse_unit(struct ior_import *im, const char *text, bool *higher_is_better)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(units[i].unit, text) == 0) {
			*higher_is_better = units[i].higher_is_better;
			return true;
		}
	}
	ior_import_problem(im, ior_import_line(im), "unit", "unknown unit '%s' (known: MB/s, MiB/s, GB/s, KB/s, IOPS, s, ms, us, ns...)", text);
	return false;
}

/* Checks one row's fields; fills r (its strings in one block) when all are good. */
static bool parse_row(struct ior_import *im, const char **v, void *row)
{
	struct row *r = row;
	bool ok = true;
	for (int k = 0; k < C_REQUIRED; k++)
		ok &= ior_import_require(im, columns[k], v[k]);
	ok &= parse_warmup(im, v[C_WARMUP], &r->warmup);
	if (*v[C_REP])
		ok &= parse_rep(im, v[C_REP], &r->rep);
	if (*v[C_VALUE])
		ok &= parse_value(im, v[C_VALUE], &r->value);
	r->metric = IOR_METRIC_VALUE;
	if (*v[C_METRIC])
		ok &= parse_metric(im, v[C_METRIC], v[C_UNIT], &r->metric);
	if (*v[C_UNIT] && r->metric == IOR_METRIC_VALUE)
		ok &= parse_unit(im, v[C_UNIT], &r->higher_is_better);
	if (!ok)
		return false;
	size_t size = 0;
	for (int k = 0; k < KEYS; k++)
		size += strlen(v[k]) + 1;
	size += strlen(v[C_UNIT]) + 1;
	char *p = r->storage = malloc(size);
	if (!p) {
		im->oom = true;
		return false;
	}
	for (int k = 0; k <= KEYS; k++) {
		const char *s = k < KEYS ? v[k] : v[C_UNIT];
		size_t n = strlen(s) + 1;
		memcpy(p, s, n);
		if (k < KEYS)
			r->key[k] = p;
		else
			r->unit = p;
		p += n;
	}
	r->line = ior_import_line(im);
	return true;
}

static int by_identity(const void *a, const void *b)
{
	const struct row *x = *(const struct row *const *)a, *y = *(const struct row *const *)b;
	for (int k = 0; k < KEYS; k++) {
		int c = strcmp(x->key[k], y->key[k]);
		if (c)
			return c;
	}
	if (x->rep != y->rep)
		return x->rep < y->rep ? -1 : 1;
	if (x->metric != y->metric)
		return x->metric < y->metric ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static bool same_cell(const struct row *a, const struct row *b)
{
	for (int k = 0; k < KEYS; k++)
		if (strcmp(a->key[k], b->key[k]))
			return false;
	return true;
}

/* One cell's headline samples share one unit (and so one direction): MB/s, s and IOPS as the
 * repetitions of one cell made a spread of 999999900%. order is sorted by identity. */
static void check_units(struct ior_import *im, struct row *const *order, size_t n)
{
	const struct row *first = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct row *r = order[i];
		if (r->metric != IOR_METRIC_VALUE)
			continue;
		if (!first || !same_cell(first, r))
			first = r;
		else if (strcmp(first->unit, r->unit))
			ior_import_problem(im, r->line, "unit", "'%s' differs from '%s' of line %zu, the same cell's "
					   "other sample: a cell's samples share one unit", r->unit, first->unit, first->line);
	}
}

/* A (host, kernel, device, scheduler, engine, rep) given twice is one measurement too many. */
static int check_duplicates(struct ior_import *im, void *all, size_t n)
{
	struct row *rows = all;
	struct row **order = malloc((n ? n : 1) * sizeof(*order));
	if (!order)
		return ior_error_set(IOR_ERROR, "cannot import '%s': out of memory", im->path);
	for (size_t i = 0; i < n; i++)
		order[i] = &rows[i];
	qsort(order, n, sizeof(*order), by_identity);
	/* Sorted by identity then line: the first of a run of equals is the original. */
	for (size_t i = 1, first = 0; i < n; i++) {
		struct row *r = order[i];
		bool same = order[first]->rep == r->rep && order[first]->metric == r->metric;
		for (int k = 0; same && k < KEYS; k++)
			same = strcmp(order[first]->key[k], r->key[k]) == 0;
		if (!same)
			first = i;
		else
			ior_import_problem(im, r->line, "rep", "duplicate of line %zu (same host, kernel, device, "
					   "scheduler, engine, rep and metric)", order[first]->line);
	}
	check_units(im, order, n);
	free(order);
	/* headline rows first, in file order: a metric row fills in a sample its headline row made
	 * (a file of headlines alone, the common case, is left as it is: no copy) */
	size_t metrics = 0;
	for (size_t i = 0; i < n; i++)
		metrics += rows[i].metric != IOR_METRIC_VALUE;
	if (!metrics)
		return 0;
	struct row *sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return ior_error_set(IOR_ERROR, "cannot import '%s': out of memory", im->path);
	size_t k = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++)
			if ((rows[i].metric == IOR_METRIC_VALUE) == (pass == 0))
				sorted[k++] = rows[i];
	memcpy(rows, sorted, n * sizeof(*rows));
	free(sorted);
	return 0;
}

/* A metric row: the column of the stored sample, set when empty, skipped when equal, a problem otherwise. */
static int store_metric(struct ior_import *im, const struct row *r, int64_t cell_id, size_t *imported)
{
	const struct ior_metric_info *mi = ior_metric_info(r->metric);
	char sql[256];
	snprintf(sql, sizeof(sql), "SELECT %s FROM samples WHERE cell_id = ?1 AND rep = ?2", mi->column);
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(im->db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return ior_db_fail(im->db, "cannot import into");
	sqlite3_bind_int64(st, 1, cell_id);
	sqlite3_bind_int(st, 2, r->rep);
	int rc = sqlite3_step(st);
	bool found = rc == SQLITE_ROW, empty = found && sqlite3_column_type(st, 0) == SQLITE_NULL;
	double stored = found ? sqlite3_column_double(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return ior_db_fail(im->db, "cannot import into");
	if (!found) {
		ior_import_problem(im, r->line, "metric", "%s of rep %d has no headline row (the same cell and rep with an "
				   "empty metric) in this file or the database", mi->name, r->rep);
		return 0;
	}
	if (!empty) {
		if (stored != r->value)
			ior_import_problem(im, r->line, "value", "%s %.15g contradicts the stored %.15g", mi->name, r->value,
					   stored);
		return 0;
	}
	snprintf(sql, sizeof(sql), "UPDATE samples SET %s = ?3 WHERE cell_id = ?1 AND rep = ?2", mi->column);
	if (sqlite3_prepare_v2(im->db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return ior_db_fail(im->db, "cannot import into");
	sqlite3_bind_int64(st, 1, cell_id);
	sqlite3_bind_int(st, 2, r->rep);
	sqlite3_bind_double(st, 3, r->value);
	rc = ior_db_step_done(im->db, st, "cannot import into");
	sqlite3_finalize(st);
	if (!rc)
		(*imported)++;
	return rc;
}

/* Whether the cell already has this rep; one with another value, unit or warm-up mark is a problem. */
static int stored_before(struct ior_import *im, const struct row *r, int64_t cell_id, bool *present)
{
	sqlite3_stmt *st = ior_db_stmt(im->db, IOR_STMT_SAMPLE_AT_REP);
	sqlite3_bind_int64(st, 1, cell_id);
	sqlite3_bind_int(st, 2, r->rep);
	int rc = sqlite3_step(st);
	*present = rc == SQLITE_ROW;
	if (*present) {
		double value = sqlite3_column_double(st, 0);
		const char *unit = (const char *)sqlite3_column_text(st, 1);
		if (value != r->value || strcmp(unit, r->unit) != 0)
			ior_import_problem(im, r->line, "value", "%.15g %s contradicts the stored %.15g %s", r->value,
					   r->unit, value, unit);
		else if (sqlite3_column_int(st, 2) != (int)r->warmup)
			ior_import_problem(im, r->line, "warmup", "%d contradicts the stored sample's %d (a repetition is a "
					   "warm-up or a measurement, not both)", (int)r->warmup, sqlite3_column_int(st, 2));
	}
	rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : ior_db_fail(im->db, "cannot import into");
	sqlite3_reset(st);
	return rc;
}

/* The cell's samples already stored (another file, another import) are in r's unit. */
static int cell_unit_agrees(struct ior_import *im, const struct row *r, int64_t cell_id)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(im->db->h, "SELECT unit, rep FROM samples WHERE cell_id = ?1 AND unit <> ?2 LIMIT 1", -1,
			       &st, NULL) != SQLITE_OK)
		return ior_db_fail(im->db, "cannot import into");
	sqlite3_bind_int64(st, 1, cell_id);
	sqlite3_bind_text(st, 2, r->unit, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		ior_import_problem(im, r->line, "unit", "'%s' differs from '%s' of the cell's stored rep %d: a cell's "
				   "samples share one unit", r->unit, (const char *)sqlite3_column_text(st, 0),
				   sqlite3_column_int(st, 1));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : ior_db_fail(im->db, "cannot import into");
}

/* Stores one row; a row already stored with the same value is skipped
 * (importing a file twice is a no-op), one that contradicts it is a problem. */
static int store_row(struct ior_import *im, const void *row, size_t *imported)
{
	const struct row *r = row;
	struct ior_db *db = im->db;
	int64_t host_id, run_id, device_id, cell_id;
	struct ior_db_device d = { .name = r->key[C_DEVICE], .rotational = -1 };
	bool present = false;
	int rc;
	if ((rc = ior_db_imported_run(db, r->key[C_HOST], r->key[C_KERNEL], im->path, &host_id, &run_id)) ||
	    (rc = ior_db_device_get(db, host_id, &d, &device_id)) ||
	    (rc = ior_db_cell_get(db, run_id, device_id, r->key[C_SCHEDULER], r->key[C_ENGINE], NULL, NULL, &cell_id)))
		return rc;
	if (r->metric != IOR_METRIC_VALUE)
		return store_metric(im, r, cell_id, imported);
	if ((rc = stored_before(im, r, cell_id, &present)) || present)
		return rc;
	if ((rc = cell_unit_agrees(im, r, cell_id)))
		return rc;
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_SAMPLE_INSERT);
	sqlite3_bind_int64(st, IOR_SAMPLE_CELL, cell_id);   /* the measures stay NULL: a metric row fills one in */
	sqlite3_bind_int(st, IOR_SAMPLE_REP, r->rep);
	sqlite3_bind_double(st, IOR_SAMPLE_VALUE, r->value);
	ior_db_bind_text(st, IOR_SAMPLE_UNIT, r->unit);
	sqlite3_bind_int(st, IOR_SAMPLE_HIGHER, r->higher_is_better);
	sqlite3_bind_int(st, IOR_SAMPLE_WARMUP, r->warmup);
	rc = ior_db_step_done(db, st, "cannot import into");
	if (!rc)
		(*imported)++;
	return rc;
}

static void row_free(void *row)
{
	free(((struct row *)row)->storage);
}

int ior_db_import_samples_csv(struct ior_db *db, const char *path, size_t *imported)
{
	static const struct ior_import_kind kind = {
		.columns = columns, .ncolumns = C_COUNT, .noptional = C_COUNT - C_REQUIRED, .row_size = sizeof(struct row),
		.parse = parse_row, .check = check_duplicates, .store = store_row, .row_free = row_free,
	};
	return ior_import_csv(db, path, &kind, imported);
}
