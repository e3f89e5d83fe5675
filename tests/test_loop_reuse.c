/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scratch loop devices whose number changes hands (issue 23, cases 6 and 7): run --resume finds the
 * run's cells by the device's matrix name; recover restores a scheduler only on the attach the
 * killed run switched. */
#include "common/error.h"
#include "db/db.h"
#include "device/loopdev.h"
#include "device/scheduler.h"
#include "run/recover.h"
#include "run/run.h"
#include "matrix/matrix.h"
#include "tests/suite.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How long a switch may take here: a scratch loop device answers at once. */
#define SWITCH_DEADLINE_S 30.0

static long long q(struct ior_db *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;
	if (sqlite3_prepare_v2(ior_db_handle(db), sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* A small hdparm matrix on a scratch loop device, run once into a new database (named name.db). */
static struct ior_db *run_small(const char *name, int repetitions, const char *scheduler, struct ior_matrix **m)
{
	const char *t = ior_test_tmpdir();
	char text[1024], dbpath[4096];
	snprintf(text, sizeof(text),
		 "[matrix]\nrepetitions = %d\nschedulers = %s\ndrop_caches = no\n"
		 "[device scratch]\nloop = 16M\nbacking_dir = %s\n"
		 "[engine r]\ntype = hdparm\nsettle = 0s\nduration = 0.1s\n", repetitions, scheduler, t);
	snprintf(dbpath, sizeof(dbpath), "%s/%s.db", t, name);
	struct ior_db *db = NULL;
	struct ior_run_options o = { .observer = NULL };
	struct ior_run_summary s;
	if (ior_test_ok(ior_matrix_parse_string(m, name, text)) || ior_test_ok(ior_db_open(&db, dbpath)) ||
	    ior_test_ok(ior_run_matrix(db, *m, &o, &s))) {
		ior_db_free(db);
		return NULL;
	}
	return db;
}

static void test_resume_on_another_loop_number_measures_only_the_missing(void)
{
	const char *t = ior_test_tmpdir();
	struct ior_matrix *m = NULL;
	struct ior_db *db = run_small("resume", 4, "none", &m);
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	struct ior_run_options o = { .observer = NULL };
	struct ior_run_summary s;
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

static void test_reused_loop_number_is_left_alone(void)
{
	const char *t = ior_test_tmpdir();
	struct ior_matrix *m = NULL;
	struct ior_db *db = run_small("recover", 1, "mq-deadline", &m);
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	/* as if it had been killed after switching: its scheduler entry pending, its process gone */
	CU_ASSERT_EQUAL_FATAL(sqlite3_exec(ior_db_handle(db),
		"UPDATE undo_log SET undone_at = NULL WHERE kind = 'scheduler';"
		"UPDATE runs SET status = 'running', pid = 999999999;", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_stmt *st;
	char used[256] = "";
	CU_ASSERT_EQUAL_FATAL(sqlite3_prepare_v2(ior_db_handle(db), "SELECT target FROM undo_log WHERE kind = 'scheduler'",
						 -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		snprintf(used, sizeof(used), "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	CU_ASSERT_FATAL(*used != '\0');

	/* another user's device now sits on that number, set to mq-deadline */
	struct ior_loopdev theirs;
	CU_ASSERT_EQUAL_FATAL(ior_loopdev_create(&theirs, t, 8 << 20, false, IOR_FILL_SPARSE), IOR_OK);
	fprintf(stderr, "\n  the run's device was %s, the new one is %s\n", used, theirs.path);
	if (strcmp(used, theirs.path) != 0) {
		ior_loopdev_destroy(&theirs);
		ior_db_free(db);
		ior_matrix_free(m);
		ior_test_skip("the run's loop number was taken by someone else meanwhile");
	}
	char before[32] = "";
	CU_ASSERT_EQUAL(ior_scheduler_active(theirs.path, before, sizeof(before)), IOR_OK);
	CU_ASSERT_EQUAL_FATAL(ior_scheduler_set(theirs.path, "mq-deadline", SWITCH_DEADLINE_S), IOR_OK);

	char out[8192] = "";
	FILE *f = fmemopen(out, sizeof(out) - 1, "w");
	struct ior_recover_summary rs;
	CU_ASSERT_EQUAL(ior_test_ok(ior_recover(db, f, &rs)), IOR_OK);
	fclose(f);
	char now[32] = "";
	CU_ASSERT_EQUAL(ior_scheduler_active(theirs.path, now, sizeof(now)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(now, "mq-deadline");
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "left alone, it is another device now"));
	if (strcmp(now, "mq-deadline"))
		fprintf(stderr, "  recover said: %s", out);

	ior_scheduler_set(theirs.path, before, SWITCH_DEADLINE_S);
	CU_ASSERT_EQUAL(ior_loopdev_destroy(&theirs), IOR_OK);
	ior_db_free(db);
	ior_matrix_free(m);
}

int main(void)
{
	ior_test_require_root("scratch loop devices and schedulers");
	static const struct ior_test tests[] = {
		IOR_TEST(test_resume_on_another_loop_number_measures_only_the_missing),
		IOR_TEST(test_reused_loop_number_is_left_alone),
		IOR_TEST_END,
	};
	return ior_test_run("loop_reuse", tests);
}
