/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shared half of the CSV imports: header mapping, problem collection and reporting, and the
 * all-or-nothing transaction. */
#include "db/import.h"
#include "db/accept.h"

#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ior_error_last() keeps about 1 KiB; the message is cut at a line end before that. */
#define ERROR_TEXT_MAX 1000

void ior_import_problem(struct ior_import *im, size_t line, const char *column, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (im->nproblems == im->cap) {
		size_t n = im->cap ? im->cap * 2 : 16;
		struct ior_import_problem *p = realloc(im->problems, n * sizeof(*p));
		if (!p) {
			im->oom = true;
			return;
		}
		im->problems = p;
		im->cap = n;
	}
	char *text = NULL;
	if (asprintf(&text, "%s:%zu: %s: %s", im->path, line, column, what) < 0) {
		im->oom = true;
		return;
	}
	im->problems[im->nproblems] = (struct ior_import_problem){ line, im->nproblems, text };
	im->nproblems++;
}

bool ior_import_require(struct ior_import *im, const char *column, const char *value)
{
	if (*value)
		return true;
	ior_import_problem(im, ior_import_line(im), column, "empty");
	return false;
}

size_t ior_import_line(const struct ior_import *im)
{
	return im->csv.record_line;
}

static void map_header(struct ior_import *im)
{
	struct ior_csv *c = &im->csv;
	bool seen[IOR_IMPORT_MAX_COLUMNS] = { false };
	for (size_t f = 0; f < c->nfields; f++) {
		size_t k = 0;
		while (k < im->ncolumns && strcasecmp(c->fields[f], im->columns[k]) != 0)
			k++;
		if (k == im->ncolumns)
			ior_import_problem(im, c->record_line, "header", "unknown column '%s'", c->fields[f]);
		else if (seen[k])
			ior_import_problem(im, c->record_line, "header", "column '%s' appears twice", c->fields[f]);
		else
			im->field_of[k] = f;
		if (k < im->ncolumns)
			seen[k] = true;
	}
	for (size_t k = 0; k < im->nrequired; k++)
		if (!seen[k])
			ior_import_problem(im, c->record_line, "header", "missing column '%s'", im->columns[k]);
	im->nheader = c->nfields;
}

int ior_import_start(struct ior_import *im, struct ior_db *db, const char *path, const char *const *columns,
		     size_t ncolumns, size_t nrequired)
{
	memset(im, 0, sizeof(*im));
	im->db = db;
	im->path = path;
	im->columns = columns;
	im->ncolumns = ncolumns;
	im->nrequired = nrequired;
	for (size_t k = 0; k < IOR_IMPORT_MAX_COLUMNS; k++)
		im->field_of[k] = SIZE_MAX;  /* an optional column the file lacks */
	free(db->problems);
	db->problems = NULL;
	int rc = ior_csv_open(&im->csv, path);
	if (rc)
		return rc;
	size_t before = im->nproblems;
	switch (ior_csv_next(&im->csv)) {
	case 1:
		map_header(im);
		break;
	case 0:
		ior_import_problem(im, im->csv.record_line, "header", "empty file");
		break;
	case -1:
		ior_import_problem(im, im->csv.record_line, "header", "%s", im->csv.error);
		break;
	default:
		im->oom = true;
	}
	im->header_bad = im->nproblems > before || im->oom;
	return 0;
}

static const char *column_name(const struct ior_import *im, size_t field)
{
	for (size_t k = 0; k < im->ncolumns; k++)
		if (im->field_of[k] != SIZE_MAX && im->field_of[k] == field)
			return im->columns[k];
	return "row";
}

int ior_import_next(struct ior_import *im, const char **values)
{
	if (im->header_bad)
		return IOR_IMPORT_END;
	struct ior_csv *c = &im->csv;
	switch (ior_csv_next(c)) {
	case 0:
		return IOR_IMPORT_END;
	case -1:
		ior_import_problem(im, c->record_line, column_name(im, c->error_field), "%s", c->error);
		return IOR_IMPORT_BAD_ROW;
	case 1:
		break;
	default:
		im->oom = true;
		return ior_error_set(IOR_ERROR, "cannot import '%s': out of memory", im->path);
	}
	if (c->nfields != im->nheader) {
		ior_import_problem(im, c->record_line, "row", "%zu fields, expected %zu", c->nfields, im->nheader);
		return IOR_IMPORT_BAD_ROW;
	}
	for (size_t k = 0; k < im->ncolumns; k++)
		values[k] = im->field_of[k] == SIZE_MAX ? "" : c->fields[im->field_of[k]];
	/* names reach terminals and reports: an escape sequence would act there, and what reports show
	 * instead (U+FFFD) is not what `check --candidate` is then given */
	bool bad = false;
	char why[128];
	for (size_t k = 0; k < im->ncolumns; k++)
		if (!ior_db_name_ok(values[k], why, sizeof(why))) {
			ior_import_problem(im, c->record_line, im->columns[k], "%s (refused in names: they reach terminals "
					   "and reports)", why);
			bad = true;
		}
	return bad ? IOR_IMPORT_BAD_ROW : IOR_IMPORT_ROW;
}

int ior_import_begin(struct ior_import *im)
{
	if (!sqlite3_get_autocommit(im->db->h))
		return ior_error_set(IOR_ERROR, "cannot import '%s': a transaction is already open on '%s'", im->path,
				     im->db->path);
	return ior_db_begin(im->db);
}

static int by_line(const void *a, const void *b)
{
	const struct ior_import_problem *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* "cannot import 'f': N problems, nothing stored" and then the problems, one
 * a line; limit cuts the list at a line end, saying how many were left out. */
static char *report(const struct ior_import *im, size_t limit)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	fprintf(f, "cannot import '%s': %zu problem%s, nothing stored", im->path, im->nproblems,
		im->nproblems == 1 ? "" : "s");
	size_t shown = 0;
	for (; shown < im->nproblems && shown < IOR_IMPORT_REPORTED; shown++) {
		fflush(f);
		if (len + strlen(im->problems[shown].text) + 40 > limit)
			break;
		fprintf(f, "\n%s", im->problems[shown].text);
	}
	if (shown < im->nproblems)
		fprintf(f, "\n... and %zu more", im->nproblems - shown);
	fclose(f);
	return text;
}

static void free_problems(struct ior_import *im)
{
	for (size_t i = 0; i < im->nproblems; i++)
		free(im->problems[i].text);
	free(im->problems);
	ior_csv_close(&im->csv);
}

int ior_import_end(struct ior_import *im, int rc, bool in_transaction)
{
	if (!rc && im->oom)
		rc = ior_error_set(IOR_ERROR, "cannot import '%s': out of memory", im->path);
	if (!rc && im->nproblems) {
		qsort(im->problems, im->nproblems, sizeof(*im->problems), by_line);
		im->db->problems = report(im, SIZE_MAX);
		char *short_text = report(im, ERROR_TEXT_MAX);
		rc = ior_error_set(IOR_EINVALID, "%s", short_text ? short_text : "cannot import: out of memory");
		free(short_text);
	}
	if (in_transaction && !rc)
		rc = ior_db_commit(im->db);
	if (in_transaction && rc && !sqlite3_get_autocommit(im->db->h)) {
		/* Keep the first error; what a failed rollback says matters less. */
		struct ior_error_state failed;
		ior_error_save(&failed, rc);
		ior_db_rollback(im->db);
		ior_error_restore(&failed, rc);
	}
	free_problems(im);
	return rc;
}

const char *ior_db_import_problems(struct ior_db *db)
{
	return db->problems ? db->problems : "";
}

/* Every data row into a growing array of row_size-byte rows, keeping those parse accepts.
 * Bad rows are problems, not errors; negative only for out of memory. */
static int read_rows(struct ior_import *im, const struct ior_import_kind *kind, void **rows, size_t *n)
{
	size_t cap = 0;
	const char *v[IOR_IMPORT_MAX_COLUMNS];
	for (int next; (next = ior_import_next(im, v)) != IOR_IMPORT_END;) {
		if (next < 0)
			return next;
		if (next != IOR_IMPORT_ROW)
			continue;
		if (*n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			void *p = realloc(*rows, ncap * kind->row_size);
			if (!p)
				return ior_error_set(IOR_ERROR, "cannot import '%s': out of memory", im->path);
			*rows = p;
			cap = ncap;
		}
		void *row = (char *)*rows + *n * kind->row_size;
		memset(row, 0, kind->row_size);
		if (kind->parse(im, v, row))
			(*n)++;
	}
	return 0;
}

/* When the file had no problem: one transaction storing every row. *began says whether
 * the transaction was opened (for ior_import_end). */
static int store_rows(struct ior_import *im, const struct ior_import_kind *kind, const void *rows, size_t n,
		      size_t *imported, bool *began)
{
	*began = false;
	if (im->nproblems || im->oom)
		return 0; /* ior_import_end reports the problems; nothing is stored */
	int rc = ior_import_begin(im);
	if (rc)
		return rc;
	*began = true;
	for (size_t i = 0; i < n && !rc; i++)
		rc = kind->store(im, (const char *)rows + i * kind->row_size, imported);
	return rc;
}

int ior_import_csv(struct ior_db *db, const char *path, const struct ior_import_kind *kind, size_t *imported)
{
	size_t count = 0;
	if (imported)
		*imported = 0;
	struct ior_import im;
	int rc = ior_import_start(&im, db, path, kind->columns, kind->ncolumns, kind->ncolumns - kind->noptional);
	if (rc)
		return rc;
	void *rows = NULL;
	size_t n = 0;
	rc = read_rows(&im, kind, &rows, &n);
	if (!rc && kind->check)
		rc = kind->check(&im, rows, n);
	bool began = false;
	if (!rc)
		rc = store_rows(&im, kind, rows, n, &count, &began);
	for (size_t i = 0; kind->row_free && i < n; i++)
		kind->row_free((char *)rows + i * kind->row_size);
	free(rows);
	rc = ior_import_end(&im, rc, began);
	if (!rc && imported)
		*imported = count;
	return rc;
}
