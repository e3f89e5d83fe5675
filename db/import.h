/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to db/: what both CSV imports share — header mapping, the problem list, the all-or-nothing transaction. */
#ifndef IOR_DB_IMPORT_H
#define IOR_DB_IMPORT_H

#include "db/csv.h"
#include "db/internal.h"

/* Problems are all collected (so each can be sorted into line order), and
 * the first IOR_IMPORT_REPORTED of them reported. */
#define IOR_IMPORT_REPORTED 20
#define IOR_IMPORT_MAX_COLUMNS 16

struct ior_import_problem {
	size_t line, seq;
	char *text;          /* "file:line: column: problem" */
};

struct ior_import {
	struct ior_db *db;
	const char *path;
	struct ior_csv csv;
	const char *const *columns;            /* the expected header, in the order callers index values */
	size_t ncolumns;
	size_t nrequired;                      /* columns[nrequired..] may be absent: their values are "" */
	size_t nheader;                        /* fields in the file's header */
	size_t field_of[IOR_IMPORT_MAX_COLUMNS];  /* expected column -> field index */
	bool header_bad;
	struct ior_import_problem *problems;
	size_t nproblems, cap;
	bool oom;
};

/* Opens path and maps its header onto columns (any order, each once; the first nrequired must
 * be there, the rest may be absent). A bad header is a problem on its line; rows are then not read. */
int ior_import_start(struct ior_import *im, struct ior_db *db, const char *path, const char *const *columns,
		     size_t ncolumns, size_t nrequired);

enum ior_import_next { IOR_IMPORT_END, IOR_IMPORT_ROW, IOR_IMPORT_BAD_ROW };
/* The next row's fields in columns order in values[ncolumns] ("" for an absent optional column); a row with a
 * syntax error or the wrong field count is recorded as a problem and
 * reported as IOR_IMPORT_BAD_ROW. Negative: out of memory. */
int ior_import_next(struct ior_import *im, const char **values);
size_t ior_import_line(const struct ior_import *im);

void ior_import_problem(struct ior_import *im, size_t line, const char *column, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The database phase: one BEGIN IMMEDIATE transaction, refused inside another. */
int ior_import_begin(struct ior_import *im);
/* Commits when rc is 0 and no problem was found, else rolls back; frees im.
 * Returns rc, or IOR_EINVALID with the sorted problem list as the message. */
int ior_import_end(struct ior_import *im, int rc, bool in_transaction);

/* One kind of CSV import: its header, its row type and what it does with rows. */
struct ior_import_kind {
	const char *const *columns;
	size_t ncolumns;
	size_t noptional;    /* the last noptional columns may be absent from a file */
	size_t row_size;
	/* Parses one row's values into row (zeroed before the call); false when the row had a
	 * problem (recorded) and is not kept. */
	bool (*parse)(struct ior_import *im, const char **values, void *row);
	/* May be NULL: problems between rows (duplicates), once every row is read. */
	int (*check)(struct ior_import *im, void *rows, size_t n);
	/* Stores one parsed row, counting what it stored. */
	int (*store)(struct ior_import *im, const void *row, size_t *imported);
	/* May be NULL: frees what parse allocated in a row. */
	void (*row_free)(void *row);
};

/* The whole import: reads every row, checks them, and when the file had no problem stores them
 * all in one transaction; with any problem nothing is stored and the sorted list is the error.
 * *imported (may be NULL) gets the rows stored. */
int ior_import_csv(struct ior_db *db, const char *path, const struct ior_import_kind *kind, size_t *imported);

/* Helpers for field checks: empty -> problem, returns false. */
bool ior_import_require(struct ior_import *im, const char *column, const char *value);

#endif
