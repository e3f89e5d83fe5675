/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Import refuses a cell whose samples are in different units (issue 23, case 9), within one file
 * and against the database, and a re-imported sample whose warm-up mark contradicts the stored one. */
#include "common/error.h"
#include "db/db.h"
#include "tests/suite.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define HEADER "host,kernel,device,scheduler,engine,rep,value,unit\n"

static long long count(struct ior_db *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	long long v = -1;
	if (sqlite3_prepare_v2(ior_db_handle(db), sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static struct ior_db *fresh(const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", ior_test_tmpdir(), name);
	unlink(path);
	struct ior_db *db = NULL;
	return ior_test_ok(ior_db_open(&db, path)) ? NULL : db;
}

/* The attack's file: five units as the five repetitions of one cell. */
static void test_mixed_units_in_one_file_refused(void)
{
	struct ior_db *db = fresh("mixed.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	const char *csv = ior_test_write_file("mixed.csv", HEADER "h,k,d,none,e,1,100,MB/s\nh,k,d,none,e,2,0.5,s\n"
							   "h,k,d,none,e,3,90000,KB/s\nh,k,d,none,e,4,2500,IOPS\n"
							   "h,k,d,none,e,5,95,MiB/s\nh,k,d,none,other,1,3,s\n");
	size_t n = 0;
	CU_ASSERT_EQUAL(ior_db_import_samples_csv(db, csv, &n), IOR_EINVALID);
	const char *e = ior_error_last();
	CU_ASSERT_PTR_NOT_NULL(strstr(e, "mixed.csv:3: unit: 's' differs from 'MB/s' of line 2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e, "mixed.csv:6"));
	if (!strstr(e, "mixed.csv:3: unit"))
		fprintf(stderr, "\n  %s\n", e);
	CU_ASSERT_EQUAL(count(db, "SELECT count(*) FROM samples"), 0);
	ior_db_free(db);
}

/* A second file adding a repetition in another unit to a stored cell. */
static void test_unit_differing_from_the_database_refused(void)
{
	struct ior_db *db = fresh("stored.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	const char *a = ior_test_write_file("a.csv", HEADER "h,k,d,none,e,1,100,MB/s\nh,k,d,none,e,2,101,MB/s\n");
	const char *b = ior_test_write_file("b.csv", HEADER "h,k,d,none,e,3,0.5,s\n");
	size_t n = 0;
	CU_ASSERT_EQUAL(ior_test_ok(ior_db_import_samples_csv(db, a, &n)), IOR_OK);
	CU_ASSERT_EQUAL(ior_db_import_samples_csv(db, b, &n), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "b.csv:2: unit: 's' differs from 'MB/s' of the cell's stored rep 1"));
	CU_ASSERT_EQUAL(count(db, "SELECT count(*) FROM samples"), 2);
	/* the same unit is still taken */
	const char *c = ior_test_write_file("c.csv", HEADER "h,k,d,none,e,3,99,MB/s\n");
	CU_ASSERT_EQUAL(ior_test_ok(ior_db_import_samples_csv(db, c, &n)), IOR_OK);
	CU_ASSERT_EQUAL(count(db, "SELECT count(*) FROM samples"), 3);
	ior_db_free(db);
}

/* Issue 23: a re-imported sample whose warm-up mark contradicts the stored one was skipped silently. */
static void test_warmup_mark_contradicting_the_stored_one_refused(void)
{
	struct ior_db *db = fresh("warmup.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	const char *a = ior_test_write_file("w1.csv", "host,kernel,device,scheduler,engine,rep,value,unit,warmup\n"
						       "h,k,d,none,e,1,100,MB/s,1\nh,k,d,none,e,2,101,MB/s,0\n");
	const char *b = ior_test_write_file("w2.csv", "host,kernel,device,scheduler,engine,rep,value,unit,warmup\n"
						       "h,k,d,none,e,1,100,MB/s,0\nh,k,d,none,e,2,101,MB/s,0\n");
	size_t n = 0;
	CU_ASSERT_EQUAL(ior_test_ok(ior_db_import_samples_csv(db, a, &n)), IOR_OK);
	CU_ASSERT_EQUAL(ior_db_import_samples_csv(db, b, &n), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "w2.csv:2: warmup: 0 contradicts the stored sample's 1"));
	CU_ASSERT_EQUAL(count(db, "SELECT count(*) FROM samples WHERE warmup = 1"), 1);
	CU_ASSERT_EQUAL(ior_test_ok(ior_db_import_samples_csv(db, a, &n)), IOR_OK);   /* the same again: nothing new */
	CU_ASSERT_EQUAL(n, 0);
	ior_db_free(db);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_mixed_units_in_one_file_refused),
		IOR_TEST(test_unit_differing_from_the_database_refused),
		IOR_TEST(test_warmup_mark_contradicting_the_stored_one_refused),
		IOR_TEST_END,
	};
	return ior_test_run("import_units", tests);
}
