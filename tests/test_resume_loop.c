/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run --resume when the scratch loop device comes back under another number (issue 23, case 6): the run's cells are found by the device's matrix name, only the missing repetitions are measured. */
#include "common/error.h"
#include "db/db.h"
#include "device/loopdev.h"
#include "harness/run.h"
#include "matrix/matrix.h"
#include "tests/suite.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long long q(struct ior_db *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;
	if (sqlite3_prepare_v2(ior_db_handle(db), sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void test_resume_on_another_loop_number_measures_only_the_missing(void)
{
	const char *t = ior_test_tmpdir();
	char text[1024], dbpath[4096];
	snprintf(text, sizeof(text),
		 "[matrix]\nrepetitions = 4\nschedulers = none\ndrop_caches = no\n"
		 "[device scratch]\nloop = 16M\nbacking_dir = %s\n"
		 "[engine r]\ntype = hdparm\nsettle = 0s\nduration = 0.1s\n", t);
	snprintf(dbpath, sizeof(dbpath), "%s/resume.db", t);
	struct ior_matrix *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_matrix_parse_string(&m, "resume.ini", text)), IOR_OK);
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, dbpath)), IOR_OK);
	struct ior_run_options o = { .progress = false };
	struct ior_run_summary s;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_run_matrix(db, m, &o, &s)), IOR_OK);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM samples"), 4);
	sqlite3_stmt *why;
	if (sqlite3_prepare_v2(ior_db_handle(db), "SELECT status || ': ' || ifnull(reason, '') FROM cells", -1, &why, NULL) ==
		    SQLITE_OK && sqlite3_step(why) == SQLITE_ROW)
		fprintf(stderr, "\n  first run: %lld samples, cell %s\n", q(db, "SELECT count(*) FROM samples"),
			(const char *)sqlite3_column_text(why, 0));
	sqlite3_finalize(why);
	/* as a run killed after its second repetition leaves it (recover marks it interrupted) */
	CU_ASSERT_EQUAL(sqlite3_exec(ior_db_handle(db), "DELETE FROM samples WHERE rep > 2;"
				     "UPDATE runs SET status = 'interrupted';",
				     NULL, NULL, NULL), SQLITE_OK);
	/* the number the run had is taken by another device now, as on a shared machine */
	struct ior_loopdev other;
	CU_ASSERT_EQUAL_FATAL(ior_loopdev_create(&other, t, 8 << 20, false, IOR_FILL_SPARSE), IOR_OK);
	sqlite3_stmt *st;
	char first[64] = "";
	if (sqlite3_prepare_v2(ior_db_handle(db), "SELECT path FROM devices", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		snprintf(first, sizeof(first), "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	fprintf(stderr, "\n  first run on %s, now held by another device: %s\n", first, other.path);

	o.resume_run_id = 1;
	CU_ASSERT_EQUAL(ior_test_ok(ior_run_matrix(db, m, &o, &s)), IOR_OK);
	CU_ASSERT_EQUAL(s.samples, 2);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM samples"), 4);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM cells"), 1);
	CU_ASSERT_EQUAL(q(db, "SELECT count(DISTINCT rep) FROM samples"), 4);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM runs WHERE status = 'complete'"), 1);
	CU_ASSERT_EQUAL(ior_loopdev_destroy(&other), IOR_OK);
	ior_db_free(db);
	ior_matrix_free(m);
}

int main(void)
{
	ior_test_require_root("scratch loop devices");
	static const struct ior_test tests[] = {
		IOR_TEST(test_resume_on_another_loop_number_measures_only_the_missing),
		IOR_TEST_END,
	};
	return ior_test_run("resume_loop", tests);
}
