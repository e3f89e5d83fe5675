/* SPDX-License-Identifier: GPL-2.0-or-later */
/* recover and a reused loop device (issue 23, case 7): a scheduler is restored only on the attach the killed run switched, never on whoever holds /dev/loopN now. */
#include "common/error.h"
#include "db/db.h"
#include "device/loopdev.h"
#include "device/scheduler.h"
#include "harness/recover.h"
#include "harness/run.h"
#include "matrix/matrix.h"
#include "tests/suite.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_reused_loop_number_is_left_alone(void)
{
	const char *t = ior_test_tmpdir();
	char text[1024], dbpath[4096];
	snprintf(text, sizeof(text),
		 "[matrix]\nrepetitions = 1\nschedulers = mq-deadline\ndrop_caches = no\n"
		 "[device scratch]\nloop = 8M\nbacking_dir = %s\n"
		 "[engine r]\ntype = hdparm\nsettle = 0s\nduration = 0.1s\n", t);
	snprintf(dbpath, sizeof(dbpath), "%s/recover.db", t);
	struct ior_matrix *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_matrix_parse_string(&m, "recover.ini", text)), IOR_OK);
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, dbpath)), IOR_OK);
	struct ior_run_options o = { .progress = false };
	struct ior_run_summary s;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_run_matrix(db, m, &o, &s)), IOR_OK);
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
	CU_ASSERT_EQUAL_FATAL(ior_scheduler_set(theirs.path, "mq-deadline"), IOR_OK);

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

	ior_scheduler_set(theirs.path, before);
	CU_ASSERT_EQUAL(ior_loopdev_destroy(&theirs), IOR_OK);
	ior_db_free(db);
	ior_matrix_free(m);
}

int main(void)
{
	ior_test_require_root("loop devices and schedulers");
	static const struct ior_test tests[] = {
		IOR_TEST(test_reused_loop_number_is_left_alone),
		IOR_TEST_END,
	};
	return ior_test_run("recover_reuse", tests);
}
