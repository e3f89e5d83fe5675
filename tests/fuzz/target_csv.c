/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: both CSV importers on arbitrary bytes — all or nothing (a refused file leaves every
 * table as it was), and importing accepted rows again stores nothing. */
#include "tests/fuzz/targets.h"

#include "common/error.h"
#include "db/db.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*import_fn)(struct ior_db *db, const char *path, size_t *imported);

/* Rows in every table: a refused import must not change a single one. */
static int count_rows(struct ior_db *db, int64_t *total, int64_t *samples)
{
	sqlite3 *h = ior_db_handle(db);
	sqlite3_stmt *tables = NULL;
	*total = *samples = 0;
	if (sqlite3_prepare_v2(h, "SELECT name FROM sqlite_master WHERE type = 'table'", -1, &tables, NULL) != SQLITE_OK)
		return ior_fuzz_fail("cannot list tables: %s", sqlite3_errmsg(h));
	int rc = 0;
	while (!rc && sqlite3_step(tables) == SQLITE_ROW) {
		char sql[256];
		const char *name = (const char *)sqlite3_column_text(tables, 0);
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM \"%s\"", name);
		sqlite3_stmt *st = NULL;
		if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW)
			rc = ior_fuzz_fail("cannot count '%s': %s", name, sqlite3_errmsg(h));
		else if (strcmp(name, "samples") == 0)
			*samples = sqlite3_column_int64(st, 0);
		if (!rc)
			*total += sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_finalize(tables);
	return rc;
}

/* One import and what it must leave behind; *accepted says whether it stored. */
static int import_once(struct ior_db *db, import_fn fn, const char *what, const char *path, bool *accepted,
		       size_t *imported)
{
	int64_t total0, samples0, total1, samples1;
	if (count_rows(db, &total0, &samples0))
		return -1;
	ior_error_clear();
	int rc = fn(db, path, imported);
	const char *msg = ior_error_last();
	if (!sqlite3_get_autocommit(ior_db_handle(db)))
		return ior_fuzz_fail("%s import (%d) left a transaction open", what, rc);
	if (count_rows(db, &total1, &samples1))
		return -1;
	*accepted = rc == 0;
	if (rc != 0 && total1 != total0)
		return ior_fuzz_fail("refused %s import changed the rows (%lld -> %lld): %s", what,
				     (long long)total0, (long long)total1, msg);
	if (rc != 0 && (!*msg || !strstr(msg, path)))
		return ior_fuzz_fail("refused %s import does not name the file: '%s'", what, msg);
	if (rc != 0 && *imported != 0)
		return ior_fuzz_fail("refused %s import reports %zu rows imported", what, *imported);
	if (rc == 0 && fn == ior_db_import_samples_csv && samples1 - samples0 != (int64_t)*imported)
		return ior_fuzz_fail("samples import stored %lld samples, reported %zu",
				     (long long)(samples1 - samples0), *imported);
	return 0;
}

/* Imports path as fn's kind of CSV, then again: the second must be a no-op. */
static int import_twice(struct ior_db *db, import_fn fn, const char *what, const char *path)
{
	bool accepted = false;
	size_t imported = 0;
	if (import_once(db, fn, what, path, &accepted, &imported))
		return -1;
	if (!accepted)
		return 0;
	ior_fuzz_set_accepted(true);
	int64_t total0, samples0, total1, samples1;
	if (count_rows(db, &total0, &samples0))
		return -1;
	ior_error_clear();
	int rc = fn(db, path, &imported);
	if (count_rows(db, &total1, &samples1))
		return -1;
	if (rc != 0)
		return ior_fuzz_fail("%s import accepted once, refused again: %s", what, ior_error_last());
	if (imported != 0 || total1 != total0)
		return ior_fuzz_fail("%s import again stored %zu rows (%lld -> %lld rows)", what, imported,
				     (long long)total0, (long long)total1);
	return 0;
}

int ior_fuzz_csv(const uint8_t *data, size_t size)
{
	const char *csv = ior_fuzz_path("input.csv");
	if (ior_fuzz_write(csv, data, size))
		return -1;
	struct ior_db *db = NULL;
	ior_fuzz_set_accepted(false);
	int broken = ior_fuzz_open_fresh_db(&db, "import.db");
	if (!broken)
		broken = import_twice(db, ior_db_import_samples_csv, "samples", csv);
	if (!broken)
		broken = import_twice(db, ior_db_import_offered_csv, "offered", csv);
	ior_db_free(db);
	return broken;
}
