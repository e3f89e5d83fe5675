/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: `bisect replay` of arbitrary bytes as a log file — an accepted log makes the current
 * bisection, stores only finite samples, and what `bisect log` then prints replays again to the same
 * samples; a refused one is IOR_EINVALID with a message naming the file; no transaction is left open. */
#include "tests/fuzz/targets.h"

#include "bisect/replay.h"
#include "common/error.h"
#include "db/db.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One number from the database (-1 when the query fails). */
static long long query(struct ior_db *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	long long v = -1;
	if (sqlite3_prepare_v2(ior_db_handle(db), sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Replays the file at path into a fresh database named name; *rc its return, *samples what it stored
 * (-1 when refused). The database is left open in *out. */
static int replay_into(const char *name, const char *path, struct ior_db **out, int *rc, long long *samples)
{
	if (ior_fuzz_open_fresh_db(out, name))
		return -1;
	int64_t id = 0;
	ior_error_clear();
	*rc = ior_bisect_replay_file(*out, path, &id);
	*samples = -1;
	if (!sqlite3_get_autocommit(ior_db_handle(*out)))
		return ior_fuzz_fail("replay (%d) left a transaction open", *rc);
	if (*rc != IOR_OK) {
		const char *msg = ior_error_last();
		if (*rc != IOR_EINVALID)
			return ior_fuzz_fail("a refusal gave %d, not IOR_EINVALID: %s", *rc, msg);
		if (strncmp(msg, path, strlen(path)))
			return ior_fuzz_fail("the refusal does not start with the file's name: %s", msg);
		return 0;
	}
	struct ior_bisect_info b;
	if (id <= 0 || ior_bisect_current(*out, &b))
		return ior_fuzz_fail("an accepted replay (id %lld) left no current bisection: %s", (long long)id,
				     ior_error_last());
	bool current = b.id == id;
	ior_bisect_info_free(&b);
	if (!current)
		return ior_fuzz_fail("the replayed bisection %lld is not the current one", (long long)id);
	if (query(*out, "SELECT count(*) FROM bisect_samples WHERE value IS NULL OR abs(value) > 1.7976931348623157e308") != 0)
		return ior_fuzz_fail("an accepted replay stored a sample that is not a finite number");
	*samples = query(*out, "SELECT count(*) FROM bisect_samples");
	return 0;
}

int ior_fuzz_bisect_replay(const uint8_t *data, size_t size)
{
	const char *log = ior_fuzz_path("bisect.log");
	if (ior_fuzz_write(log, data, size))
		return -1;
	struct ior_db *db = NULL;
	int rc = 0;
	long long samples = 0;
	int broken = replay_into("replay.db", log, &db, &rc, &samples);
	ior_fuzz_set_accepted(!broken && rc == IOR_OK);
	if (broken || rc != IOR_OK) {
		ior_db_free(db);
		return broken;
	}
	/* what `bisect log` prints of it replays again, to as many samples */
	const char *again = ior_fuzz_path("again.log");
	FILE *f = fopen(again, "w");
	struct ior_bisect_info b;
	int printed = -1;
	if (f && !ior_bisect_current(db, &b)) {
		printed = ior_bisect_log_print(f, db, &b);
		ior_bisect_info_free(&b);
	}
	if (f && fclose(f))
		printed = -1;
	ior_db_free(db);
	if (printed != IOR_OK)
		return ior_fuzz_fail("the replayed bisection's log cannot be printed: %s", ior_error_last());
	struct ior_db *db2 = NULL;
	int rc2 = 0;
	long long samples2 = 0;
	broken = replay_into("again.db", again, &db2, &rc2, &samples2);
	ior_db_free(db2);
	if (broken)
		return broken;
	if (rc2 != IOR_OK)
		return ior_fuzz_fail("the log printed of an accepted replay is refused: %s", ior_error_last());
	if (samples2 != samples)
		return ior_fuzz_fail("the printed log replays to %lld samples, the input to %lld", samples2, samples);
	return 0;
}
