/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for db/: create, reopen, upgrade, refusal of foreign and newer files, the sample round trip
 * (every measures column), and concurrent writers. */
#include "common/error.h"
#include "db/bisect_state.h"
#include "db/db.h"
#include "db/metric.h"
#include "db/scan.h"
#include "db/schema.h"
#include "tests/suite.h"

#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *db_path(const char *name)
{
	static char paths[4][512];
	static unsigned slot;
	char *p = paths[slot++ % 4];
	snprintf(p, 512, "%s/%s", ior_test_tmpdir(), name);
	unlink(p);
	return p;
}

static long long query_int(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *st = NULL;
	long long v = -1;
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static char *query_text(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *st = NULL;
	char *v = NULL;
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_text(st, 0))
		v = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

/* A host, kernel, device, run and cell, as a run would make them. */
struct fixture {
	int64_t host, kernel, device, run, cell;
};

static int make_cell(struct ior_db *db, struct fixture *fx, const char *scheduler, const char *engine)
{
	struct ior_db_kernel k = { .release = "6.18.0-1", .version = "#1 SMP", .machine = "x86_64",
				   .cmdline = "root=/dev/vda", .commit = "abc123", .config_hash = "f00d" };
	struct ior_db_device d = { .name = "scratch", .path = "/dev/loop0", .model = "loop", .rotational = 0,
				   .size = 1 << 30, .logical_block = 512, .physical_block = 4096 };
	int rc;
	if ((rc = ior_db_host_get(db, "testhost", "x86_64", &fx->host)) ||
	    (rc = ior_db_kernel_get(db, &k, &fx->kernel)) ||
	    (rc = ior_db_device_get(db, fx->host, &d, &fx->device)))
		return rc;
	if (!fx->run && (rc = ior_db_run_begin(db, fx->host, fx->kernel, "m.ini", "[matrix]\n", IOR_RUN_RUNNING,
					       &fx->run)))
		return rc;
	return ior_db_cell_get(db, fx->run, fx->device, scheduler, engine, "aio", "bs=4k iodepth=8", &fx->cell);
}

static void test_create_sets_modes_and_reopen_keeps_rows(void)
{
	const char *path = db_path("create.db");
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	CU_ASSERT_EQUAL(ior_db_user_version(db), IOR_DB_SCHEMA_VERSION);
	sqlite3 *h = ior_db_handle(db);
	CU_ASSERT_EQUAL(query_int(h, "PRAGMA application_id"), IOR_DB_APPLICATION_ID);
	CU_ASSERT_EQUAL(query_int(h, "PRAGMA foreign_keys"), 1);
	CU_ASSERT_EQUAL(query_int(h, "PRAGMA synchronous"), 1);   /* NORMAL */
	CU_ASSERT(query_int(h, "PRAGMA busy_timeout") >= 5000);
	char *mode = query_text(h, "PRAGMA journal_mode");
	CU_ASSERT_STRING_EQUAL(mode, "wal");
	free(mode);
	CU_ASSERT_EQUAL(query_int(h, "SELECT count(*) FROM sqlite_master WHERE name = 'sample_view'"), 1);
	int64_t id1 = 0, id2 = 0;
	CU_ASSERT_EQUAL(ior_db_host_get(db, "h1", NULL, &id1), 0);
	ior_db_free(db);
	ior_db_free(NULL);

	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	CU_ASSERT_EQUAL(ior_db_host_get(db, "h1", "aarch64", &id2), 0);
	CU_ASSERT_EQUAL(id1, id2);
	char *machine = query_text(ior_db_handle(db), "SELECT machine FROM hosts WHERE name = 'h1'");
	CU_ASSERT_STRING_EQUAL(machine, "aarch64");   /* filled in once known */
	free(machine);
	ior_db_free(db);
}

static void test_empty_file_becomes_database(void)
{
	const char *path = ior_test_write_file("empty.db", "");
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	CU_ASSERT_EQUAL(ior_db_user_version(db), IOR_DB_SCHEMA_VERSION);
	ior_db_free(db);
}

static void test_get_functions_return_one_row_per_identity(void)
{
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, db_path("identity.db")), 0);
	struct ior_db_kernel a = { .release = "2.6.32" }, b = { .release = "2.6.32", .cmdline = "quiet" };
	int64_t k1, k2, k3, h, d1, d2, d3;
	CU_ASSERT_EQUAL(ior_db_kernel_get(db, &a, &k1), 0);
	CU_ASSERT_EQUAL(ior_db_kernel_get(db, &a, &k2), 0);
	CU_ASSERT_EQUAL(ior_db_kernel_get(db, &b, &k3), 0);
	CU_ASSERT_EQUAL(k1, k2);
	CU_ASSERT_NOT_EQUAL(k1, k3);
	CU_ASSERT_EQUAL(ior_db_host_get(db, "h", NULL, &h), 0);
	struct ior_db_device x = { .name = "ssd", .rotational = -1 }, y = { .name = "ssd", .rotational = -1, .size = 100 };
	CU_ASSERT_EQUAL(ior_db_device_get(db, h, &x, &d1), 0);
	CU_ASSERT_EQUAL(ior_db_device_get(db, h, &x, &d2), 0);
	CU_ASSERT_EQUAL(ior_db_device_get(db, h, &y, &d3), 0);
	CU_ASSERT_EQUAL(d1, d2);
	CU_ASSERT_NOT_EQUAL(d1, d3);
	struct ior_db_kernel empty = { .release = "" };
	CU_ASSERT_EQUAL(ior_db_kernel_get(db, &empty, &k1), IOR_EINVALID);
	CU_ASSERT_EQUAL(ior_db_host_get(db, "", NULL, &h), IOR_EINVALID);
	ior_db_free(db);
}

/* A database of schema 1 (before sample_view existed), filled by hand. */
static void make_v1(const char *path)
{
	sqlite3 *h = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &h), SQLITE_OK);
	CU_ASSERT_EQUAL_FATAL(ior_db_schema_apply(h, path, 1), 0);
	CU_ASSERT_EQUAL(sqlite3_exec(h,
		"INSERT INTO hosts (id, name) VALUES (1, 'oldhost');"
		"INSERT INTO kernels (id, release) VALUES (1, '5.10.0');"
		"INSERT INTO runs (id, host_id, kernel_id, status, ioregress_version) VALUES (1, 1, 1, 'complete', '0.0.1');"
		"INSERT INTO devices (id, host_id, name) VALUES (1, 1, 'sda');"
		"INSERT INTO cells (id, run_id, device_id, scheduler, engine) VALUES (1, 1, 1, 'bfq', 'seqread');"
		"INSERT INTO samples (cell_id, rep, value, unit, higher_is_better, wall_s) VALUES (1, 1, 42.5, 'MB/s', 1, 3.0);",
		NULL, NULL, NULL), SQLITE_OK);
	CU_ASSERT_EQUAL(query_int(h, "PRAGMA user_version"), 1);
	CU_ASSERT_EQUAL(query_int(h, "SELECT count(*) FROM sqlite_master WHERE name = 'sample_view'"), 0);
	sqlite3_close(h);
}

static void test_upgrade_from_older_version_keeps_data(void)
{
	const char *path = db_path("old.db");
	make_v1(path);
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	CU_ASSERT_EQUAL(ior_db_user_version(db), IOR_DB_SCHEMA_VERSION);
	struct ior_db_row *rows = NULL;
	size_t n = 0;
	CU_ASSERT_EQUAL(ior_db_samples(db, NULL, &rows, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(rows[0].host, "oldhost");
	CU_ASSERT_STRING_EQUAL(rows[0].kernel, "5.10.0");
	CU_ASSERT_STRING_EQUAL(rows[0].scheduler, "bfq");
	CU_ASSERT_DOUBLE_EQUAL(rows[0].value, 42.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rows[0].wall_s, 3.0, 1e-12);
	ior_db_rows_free(rows, n);
	ior_db_free(db);
}

/* Before schema 4 the latency columns held completion latencies (stamped after the submit
 * call, and fio's clat): the upgrade moves them to clat_* and leaves lat_* empty. */
static void test_upgrade_to_v4_moves_latency_to_clat(void)
{
	const char *path = db_path("v3-latency.db");
	make_v1(path);
	sqlite3 *h = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &h), SQLITE_OK);
	CU_ASSERT_EQUAL_FATAL(ior_db_schema_apply(h, path, 3), 0);
	CU_ASSERT_EQUAL(sqlite3_exec(h, "UPDATE samples SET lat_p50_us = 95, lat_p99_us = 180, lat_p999_us = 400", NULL,
				     NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	struct ior_db_row *rows = NULL;
	size_t n = 0;
	CU_ASSERT_EQUAL(ior_db_samples(db, NULL, &rows, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_FALSE(rows[0].has_latency);
	CU_ASSERT_TRUE(rows[0].has_clat);
	CU_ASSERT_DOUBLE_EQUAL(rows[0].clat_p50_us, 95, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rows[0].clat_p99_us, 180, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rows[0].clat_p999_us, 400, 1e-12);
	CU_ASSERT_PTR_NULL(rows[0].fill);
	ior_db_rows_free(rows, n);
	ior_db_free(db);
}

/* Schema 6 adds samples.warmup: a database of version 5 keeps every sample (values, reps,
 * latencies) and each of them becomes a measured repetition (warmup 0), in the view too. */
static void test_upgrade_from_v5_keeps_every_sample(void)
{
	const char *path = db_path("v5.db");
	make_v1(path);
	sqlite3 *h = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &h), SQLITE_OK);
	CU_ASSERT_EQUAL_FATAL(ior_db_schema_apply(h, path, 5), 0);
	CU_ASSERT_EQUAL(query_int(h, "PRAGMA user_version"), 5);
	CU_ASSERT_EQUAL(sqlite3_exec(h,
		"INSERT INTO samples (cell_id, rep, value, unit, higher_is_better, clat_p50_us, clat_p99_us, fill) "
		"VALUES (1, 2, 43.5, 'MB/s', 1, 90, 180, 'random'), (1, 3, 44.5, 'MB/s', 1, NULL, NULL, NULL);",
		NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	CU_ASSERT_EQUAL(ior_db_user_version(db), IOR_DB_SCHEMA_VERSION);
	h = ior_db_handle(db);
	CU_ASSERT_EQUAL(query_int(h, "SELECT count(*) FROM samples"), 3);
	CU_ASSERT_EQUAL(query_int(h, "SELECT count(*) FROM samples WHERE warmup = 0"), 3);
	CU_ASSERT_EQUAL(query_int(h, "SELECT count(*) FROM sample_view WHERE warmup = 0"), 3);
	struct ior_db_row *rows = NULL;
	size_t n = 0;
	CU_ASSERT_EQUAL(ior_db_samples(db, NULL, &rows, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	const double want[] = { 42.5, 43.5, 44.5 };
	for (size_t i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(rows[i].rep, (int)i + 1);
		CU_ASSERT_DOUBLE_EQUAL(rows[i].value, want[i], 1e-12);
		CU_ASSERT_FALSE(rows[i].warmup);
	}
	CU_ASSERT_TRUE(rows[1].has_clat);
	CU_ASSERT_DOUBLE_EQUAL(rows[1].clat_p99_us, 180, 1e-12);
	CU_ASSERT_STRING_EQUAL(rows[1].fill, "random");
	ior_db_rows_free(rows, n);
	/* a new sample can be stored marked */
	struct ior_sample w = { .value = 7, .unit = "MB/s", .higher_is_better = true, .warmup = true };
	CU_ASSERT_EQUAL(ior_test_ok(ior_db_sample_add(db, 1, 4, &w)), 0);
	CU_ASSERT_EQUAL(query_int(h, "SELECT warmup FROM samples WHERE rep = 4"), 1);
	ior_db_free(db);
}

/* The fields schema 4 added come back as stored: both latencies, the fill, the order. */
static void test_v4_fields_round_trip(void)
{
	const char *path = db_path("v4-fields.db");
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	int64_t host, kernel, run, dev, cell;
	struct ior_db_kernel k = { .release = "6.18.0" };
	struct ior_db_device d = { .name = "scratch", .path = "/dev/loop7", .rotational = 0 };
	CU_ASSERT_EQUAL_FATAL(ior_db_host_get(db, "h", NULL, &host), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_kernel_get(db, &k, &kernel), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_run_begin(db, host, kernel, "m.ini", "", IOR_RUN_RUNNING, &run), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_device_get(db, host, &d, &dev), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_cell_get(db, run, dev, "none", "randread", "aio", "bs=4k", &cell), 0);
	CU_ASSERT_EQUAL(ior_db_run_set_order(db, run, "random", 12345), 0);
	CU_ASSERT_EQUAL(ior_db_fill_add(db, run, dev, "/tmp/ioregress-loop.x", "random", 1 << 20, 0.25), 0);
	struct ior_sample s = { .value = 1000, .unit = "IOPS", .higher_is_better = true, .has_latency = true,
				.lat_p50_us = 120, .lat_p99_us = 300, .lat_p999_us = 900, .lat_mean_us = 130,
				.has_clat = true, .clat_p50_us = 110, .clat_p99_us = 280, .clat_p999_us = 850,
				.clat_mean_us = 121, .fill = "random" };
	CU_ASSERT_EQUAL_FATAL(ior_db_sample_add(db, cell, 1, &s), 0);
	struct ior_db_row *rows = NULL;
	size_t n = 0;
	CU_ASSERT_EQUAL(ior_db_samples(db, NULL, &rows, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_DOUBLE_EQUAL(rows[0].lat_mean_us, 130, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rows[0].clat_p50_us, 110, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rows[0].clat_mean_us, 121, 1e-12);
	CU_ASSERT_STRING_EQUAL(rows[0].fill, "random");
	ior_db_rows_free(rows, n);
	sqlite3 *h = ior_db_handle(db);
	CU_ASSERT_EQUAL(query_int(h, "SELECT order_seed FROM runs"), 12345);
	CU_ASSERT_EQUAL(query_int(h, "SELECT count(*) FROM sample_view WHERE rep_order = 'random'"), 1);
	CU_ASSERT_EQUAL(query_int(h, "SELECT bytes FROM fills WHERE fill = 'random'"), 1 << 20);
	ior_db_free(db);
}

/* Opening must fail, name the file, say why, and leave every byte as it was. */
static void expect_refused(const char *path, const char *why)
{
	size_t len0 = 0, len1 = 0;
	char *before = ior_test_read_file(path, &len0);
	struct ior_db *db = (struct ior_db *)1;
	CU_ASSERT_EQUAL(ior_db_open(&db, path), IOR_EINVALID);
	CU_ASSERT_PTR_NULL(db);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), path));
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), why));
	if (!strstr(ior_error_last(), why))
		fprintf(stderr, "message: %s\n", ior_error_last());
	char *after = ior_test_read_file(path, &len1);
	CU_ASSERT_FATAL(before && after);
	CU_ASSERT_EQUAL(len0, len1);
	CU_ASSERT(len0 == len1 && memcmp(before, after, len0) == 0);
	free(before);
	free(after);
}

static void test_refuses_newer_schema(void)
{
	const char *path = db_path("newer.db");
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	CU_ASSERT_EQUAL(sqlite3_exec(ior_db_handle(db), "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
	ior_db_free(db);
	expect_refused(path, "schema version 99 is newer");
}

static void test_refuses_non_sqlite_files(void)
{
	expect_refused(ior_test_write_file("notes.db", "host,kernel\nthis is not a database\n"),
		       "not an SQLite database");
	expect_refused(ior_test_write_file("short.db", "SQLite"), "not an SQLite database");
}

static void make_foreign(const char *path, const char *sql)
{
	sqlite3 *h = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &h), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
}

static void test_refuses_foreign_sqlite(void)
{
	const char *path = db_path("foreign.db");
	make_foreign(path, "CREATE TABLE songs (title TEXT); INSERT INTO songs VALUES ('x');");
	expect_refused(path, "not an ioregress database");
	/* Another application's id, even without tables yet. */
	path = db_path("foreign-id.db");
	make_foreign(path, "PRAGMA application_id = 1234; PRAGMA user_version = 1;");
	expect_refused(path, "not an ioregress database");
	/* A foreign WAL database too. */
	path = db_path("foreign-wal.db");
	make_foreign(path, "PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1);");
	expect_refused(path, "not an ioregress database");
}

/* Found by fuzzing: an ioregress file whose schema is damaged must be
 * refused before anything (the switch to WAL) writes to it. */
static void test_refuses_damaged_schema_unchanged(void)
{
	const char *path = db_path("damaged.db");
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	ior_db_free(db);
	make_foreign(path, "PRAGMA journal_mode = DELETE; PRAGMA writable_schema = ON;"
		     "UPDATE sqlite_master SET sql = replace(sql, 's.lat_p99_us', 's.lat_p73_us') "
		     "WHERE name = 'sample_view';");
	expect_refused(path, "damaged schema");
}

/* A kernel's commit: stored once per sha, read back per host and release; another commit for
 * the same kernel is refused and changes nothing; a describe first unknown is filled in. */
static void test_kernel_commit_is_stored_once_and_a_conflict_refused(void)
{
	const char *path = db_path("commits.db");
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	struct fixture fx = { 0 };
	CU_ASSERT_EQUAL_FATAL(make_cell(db, &fx, "none", "seqread"), 0);
	struct ior_db_commit c = { .sha = "abc1230000000000000000000000000000000001", .subject = "block: fix",
				   .author_name = "A", .author_email = "a@example.org", .author_date = "2024-01-02T03:04:05+00:00" };
	CU_ASSERT_EQUAL(ior_test_ok(ior_db_kernel_set_commit(db, fx.kernel, &c)), 0);
	c.describe = "v6.18-1-gabc123000000";
	CU_ASSERT_EQUAL(ior_test_ok(ior_db_kernel_set_commit(db, fx.kernel, &c)), 0);
	sqlite3 *h = ior_db_handle(db);
	CU_ASSERT_EQUAL(query_int(h, "SELECT count(*) FROM commits"), 1);
	char *d = query_text(h, "SELECT c.describe FROM kernels k JOIN commits c ON c.id = k.commit_id");
	CU_ASSERT_STRING_EQUAL(d ? d : "", "v6.18-1-gabc123000000");
	free(d);

	struct ior_db_commit other = { .sha = "ffff230000000000000000000000000000000002", .subject = "other" };
	CU_ASSERT_EQUAL(ior_db_kernel_set_commit(db, fx.kernel, &other), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "abc1230000000000000000000000000000000001"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "ffff230000000000000000000000000000000002"));
	CU_ASSERT_EQUAL(query_int(h, "SELECT count(*) FROM commits"), 1);   /* rolled back whole */
	struct ior_db_commit shortsha = { .sha = "abc123" };
	CU_ASSERT_EQUAL(ior_db_kernel_set_commit(db, fx.kernel, &shortsha), IOR_EINVALID);

	struct ior_db_commit_row *rows;
	size_t n;
	CU_ASSERT_EQUAL_FATAL(ior_db_kernel_commits(db, "testhost", "6.18.0-1", &rows, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(rows[0].sha, c.sha);
	CU_ASSERT_STRING_EQUAL(rows[0].subject, "block: fix");
	CU_ASSERT_STRING_EQUAL(rows[0].author_date, "2024-01-02T03:04:05+00:00");
	ior_db_commit_rows_free(rows, n);
	CU_ASSERT_EQUAL_FATAL(ior_db_kernel_commits(db, "otherhost", "6.18.0-1", &rows, &n), 0);
	CU_ASSERT_EQUAL(n, 0);
	ior_db_commit_rows_free(rows, n);
	ior_db_free(db);
}

static void fill_sample(struct ior_sample *s, double value, bool latency)
{
	memset(s, 0, sizeof(*s));
	s->value = value;
	s->unit = "IOPS";
	s->higher_is_better = true;
	s->bytes = 5368709120ull;   /* above 32 bits */
	s->ios = 1310720;
	s->wall_s = 10.25;
	s->usr_s = 1.5;
	s->sys_s = 7.75;
	s->has_latency = latency;
	s->lat_p50_us = 250.5;
	s->lat_p99_us = 1200.25;
	s->lat_p999_us = 4800.125;
	snprintf(s->detail, sizeof(s->detail), "fio-compatible, iodepth=8 \"quoted\"; DROP TABLE samples;");
}

static void test_sample_round_trip_with_all_fields(void)
{
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, db_path("roundtrip.db")), 0);
	struct fixture fx = { 0 }, fy;
	CU_ASSERT_EQUAL_FATAL(make_cell(db, &fx, "mq-deadline", "randread"), 0);
	fy = fx;
	CU_ASSERT_EQUAL_FATAL(make_cell(db, &fy, "bfq", "randread"), 0);
	CU_ASSERT_NOT_EQUAL(fx.cell, fy.cell);
	struct ior_sample s;
	fill_sample(&s, 31234.5, true);
	CU_ASSERT_EQUAL(ior_db_sample_add(db, fx.cell, 1, &s), 0);
	fill_sample(&s, 30000.0, false);
	s.detail[0] = '\0';
	CU_ASSERT_EQUAL(ior_db_sample_add(db, fx.cell, 2, &s), 0);
	CU_ASSERT_EQUAL(ior_db_sample_add(db, fy.cell, 1, &s), 0);
	/* A rep is stored once; a value that is not a number never. */
	CU_ASSERT_EQUAL(ior_db_sample_add(db, fx.cell, 2, &s), IOR_EINVALID);
	s.value = NAN;
	CU_ASSERT_EQUAL(ior_db_sample_add(db, fx.cell, 3, &s), IOR_EINVALID);
	int count = 0;
	CU_ASSERT_EQUAL(ior_db_cell_sample_count(db, fx.cell, &count), 0);
	CU_ASSERT_EQUAL(count, 2);

	struct ior_db_filter f = { .scheduler = "mq-deadline" };
	struct ior_db_row *rows = NULL;
	size_t n = 0;
	CU_ASSERT_EQUAL(ior_db_samples(db, &f, &rows, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	struct ior_db_row *r = &rows[0];
	CU_ASSERT_EQUAL(r->rep, 1);
	CU_ASSERT_EQUAL(r->run_id, fx.run);
	CU_ASSERT_EQUAL(r->cell_id, fx.cell);
	CU_ASSERT_STRING_EQUAL(r->host, "testhost");
	CU_ASSERT_STRING_EQUAL(r->kernel, "6.18.0-1");
	CU_ASSERT_STRING_EQUAL(r->device, "scratch");
	CU_ASSERT_STRING_EQUAL(r->scheduler, "mq-deadline");
	CU_ASSERT_STRING_EQUAL(r->engine, "randread");
	CU_ASSERT_STRING_EQUAL(r->engine_type, "aio");
	CU_ASSERT_STRING_EQUAL(r->params, "bs=4k iodepth=8");
	CU_ASSERT_STRING_EQUAL(r->unit, "IOPS");
	CU_ASSERT_STRING_EQUAL(r->run_status, "running");
	CU_ASSERT_DOUBLE_EQUAL(r->value, 31234.5, 1e-9);
	CU_ASSERT(r->higher_is_better);
	CU_ASSERT_EQUAL(r->bytes, 5368709120ull);
	CU_ASSERT_EQUAL(r->ios, 1310720);
	CU_ASSERT_DOUBLE_EQUAL(r->wall_s, 10.25, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r->usr_s, 1.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r->sys_s, 7.75, 1e-12);
	CU_ASSERT(r->has_latency);
	CU_ASSERT_DOUBLE_EQUAL(r->lat_p50_us, 250.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r->lat_p99_us, 1200.25, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r->lat_p999_us, 4800.125, 1e-12);
	CU_ASSERT_STRING_EQUAL(r->detail, "fio-compatible, iodepth=8 \"quoted\"; DROP TABLE samples;");
	CU_ASSERT_PTR_NOT_NULL(r->measured_at);
	CU_ASSERT_EQUAL(rows[1].rep, 2);
	CU_ASSERT(!rows[1].has_latency);
	CU_ASSERT_PTR_NULL(rows[1].detail);
	ior_db_rows_free(rows, n);
	/* Latency percentiles absent are NULL in SQL, not 0. */
	CU_ASSERT_EQUAL(query_int(ior_db_handle(db), "SELECT count(*) FROM samples WHERE lat_p99_us IS NULL"), 2);

	CU_ASSERT_EQUAL(ior_db_samples(db, NULL, &rows, &n), 0);
	CU_ASSERT_EQUAL(n, 3);
	CU_ASSERT_STRING_EQUAL(rows[0].scheduler, "bfq");   /* ordered by scheduler */
	ior_db_rows_free(rows, n);
	f = (struct ior_db_filter){ .host = "nohost" };
	CU_ASSERT_EQUAL(ior_db_samples(db, &f, &rows, &n), 0);
	CU_ASSERT_EQUAL(n, 0);
	ior_db_rows_free(rows, n);
	ior_db_free(db);
}

static void test_runs_cells_offers_and_host_kernels(void)
{
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, db_path("runs.db")), 0);
	sqlite3 *h = ior_db_handle(db);
	struct fixture fx = { 0 };
	CU_ASSERT_EQUAL_FATAL(make_cell(db, &fx, NULL, "seqread"), 0);
	int64_t again = 0;
	CU_ASSERT_EQUAL(ior_db_cell_get(db, fx.run, fx.device, NULL, "seqread", "aio", "bs=4k iodepth=8", &again), 0);
	CU_ASSERT_EQUAL(again, fx.cell);
	CU_ASSERT_EQUAL(ior_db_cell_set_status(db, fx.cell, IOR_CELL_UNAVAILABLE, "kyber not offered"), 0);
	char *status = query_text(h, "SELECT status || ':' || reason FROM cells");
	CU_ASSERT_STRING_EQUAL(status, "unavailable:kyber not offered");
	free(status);
	CU_ASSERT_EQUAL(ior_db_cell_set_status(db, 9999, IOR_CELL_OK, NULL), IOR_ENOTFOUND);

	CU_ASSERT_EQUAL(ior_db_offer_add(db, fx.run, fx.device, "mq-deadline", true, "built-in"), 0);
	CU_ASSERT_EQUAL(ior_db_offer_add(db, fx.run, fx.device, "bfq", false, "loadable"), 0);
	CU_ASSERT_EQUAL(ior_db_offer_add(db, fx.run, fx.device, "bfq", false, "loaded"), 0);   /* replaces */
	CU_ASSERT_EQUAL(ior_db_offer_add(db, fx.run, 0, "none", false, NULL), 0);
	CU_ASSERT_EQUAL(ior_db_offer_add(db, fx.run, 0, "x", false, "bogus"), IOR_EINVALID);
	CU_ASSERT_EQUAL(query_int(h, "SELECT count(*) FROM scheduler_offers"), 3);
	CU_ASSERT_EQUAL(query_int(h, "SELECT count(*) FROM scheduler_offers WHERE module_state = 'loaded'"), 1);
	char *offered = NULL;
	CU_ASSERT_EQUAL(ior_db_offered(db, "testhost", "6.18.0-1", &offered), 0);
	CU_ASSERT_STRING_EQUAL(offered, "bfq mq-deadline none");
	free(offered);
	CU_ASSERT_EQUAL(ior_db_offered(db, "testhost", "9.9", &offered), 0);
	CU_ASSERT_PTR_NULL(offered);

	struct ior_sample s;
	fill_sample(&s, 1.0, false);
	CU_ASSERT_EQUAL(ior_db_sample_add(db, fx.cell, 1, &s), 0);
	struct ior_db_kernel k2 = { .release = "6.1.0-47" };
	int64_t kid, run2, cell2;
	CU_ASSERT_EQUAL(ior_db_kernel_get(db, &k2, &kid), 0);
	CU_ASSERT_EQUAL(ior_db_run_begin(db, fx.host, kid, NULL, NULL, IOR_RUN_RUNNING, &run2), 0);
	CU_ASSERT_EQUAL(ior_db_cell_get(db, run2, fx.device, "none", "seqread", "aio", NULL, &cell2), 0);
	CU_ASSERT_EQUAL(ior_db_sample_add(db, cell2, 1, &s), 0);
	char **hosts = NULL, **kernels = NULL;
	size_t n = 0;
	CU_ASSERT_EQUAL(ior_db_host_kernels(db, &hosts, &kernels, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_STRING_EQUAL(hosts[0], "testhost");
	CU_ASSERT_STRING_EQUAL(kernels[0], "6.1.0-47");
	CU_ASSERT_STRING_EQUAL(kernels[1], "6.18.0-1");
	ior_db_host_kernels_free(hosts, kernels, n);

	struct ior_db_filter f = { .run_id = run2 };
	struct ior_db_row *rows = NULL;
	CU_ASSERT_EQUAL(ior_db_samples(db, &f, &rows, &n), 0);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT(n == 1 && rows[0].cell_id == cell2);
	ior_db_rows_free(rows, n);

	CU_ASSERT_EQUAL(ior_db_run_finish(db, fx.run, IOR_RUN_INTERRUPTED), 0);
	char *run = query_text(h, "SELECT status || ':' || (finished_at IS NOT NULL) || ':' || ioregress_version "
				  "FROM runs ORDER BY id LIMIT 1");
	CU_ASSERT_STRING_EQUAL(run, "interrupted:1:" IOR_VERSION);
	free(run);
	CU_ASSERT_EQUAL(ior_db_run_finish(db, 12345, IOR_RUN_COMPLETE), IOR_ENOTFOUND);
	/* Foreign keys are enforced. */
	CU_ASSERT_EQUAL(ior_db_cell_get(db, 777, fx.device, "none", "x", NULL, NULL, &cell2), IOR_EINVALID);
	ior_db_free(db);
}

static void test_rollback_discards_and_commit_keeps(void)
{
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, db_path("tx.db")), 0);
	struct fixture fx = { 0 };
	CU_ASSERT_EQUAL_FATAL(make_cell(db, &fx, "none", "seqread"), 0);
	struct ior_sample s;
	fill_sample(&s, 5.0, false);
	CU_ASSERT_EQUAL(ior_db_begin(db), 0);
	CU_ASSERT_EQUAL(ior_db_sample_add(db, fx.cell, 1, &s), 0);
	CU_ASSERT_EQUAL(ior_db_rollback(db), 0);
	int count = -1;
	CU_ASSERT_EQUAL(ior_db_cell_sample_count(db, fx.cell, &count), 0);
	CU_ASSERT_EQUAL(count, 0);
	CU_ASSERT_EQUAL(ior_db_begin(db), 0);
	CU_ASSERT_EQUAL(ior_db_sample_add(db, fx.cell, 1, &s), 0);
	CU_ASSERT_EQUAL(ior_db_commit(db), 0);
	CU_ASSERT_EQUAL(ior_db_cell_sample_count(db, fx.cell, &count), 0);
	CU_ASSERT_EQUAL(count, 1);
	ior_db_free(db);
}

/* A transaction begun inside another is a part of it: an inner rollback undoes only the inner
 * part, an outer rollback undoes everything, the inner commit included. */
static void test_nested_transactions_are_parts(void)
{
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, db_path("nested.db")), 0);
	struct fixture fx = { 0 };
	CU_ASSERT_EQUAL_FATAL(make_cell(db, &fx, "none", "seqread"), 0);
	struct ior_sample s;
	fill_sample(&s, 5.0, false);
	int count = -1;
	CU_ASSERT_EQUAL(ior_db_begin(db), 0);
	CU_ASSERT_EQUAL(ior_db_sample_add(db, fx.cell, 1, &s), 0);
	CU_ASSERT_EQUAL(ior_db_begin(db), 0);
	CU_ASSERT_EQUAL(ior_db_sample_add(db, fx.cell, 2, &s), 0);
	CU_ASSERT_EQUAL(ior_db_rollback(db), 0);     /* the inner part only */
	CU_ASSERT_EQUAL(ior_db_begin(db), 0);
	CU_ASSERT_EQUAL(ior_db_sample_add(db, fx.cell, 3, &s), 0);
	CU_ASSERT_EQUAL(ior_db_commit(db), 0);       /* kept while the outer one holds */
	CU_ASSERT_EQUAL(ior_db_commit(db), 0);
	CU_ASSERT_EQUAL(ior_db_cell_sample_count(db, fx.cell, &count), 0);
	CU_ASSERT_EQUAL(count, 2);
	CU_ASSERT_EQUAL(ior_db_begin(db), 0);
	CU_ASSERT_EQUAL(ior_db_begin(db), 0);
	CU_ASSERT_EQUAL(ior_db_sample_add(db, fx.cell, 4, &s), 0);
	CU_ASSERT_EQUAL(ior_db_commit(db), 0);
	CU_ASSERT_EQUAL(ior_db_rollback(db), 0);     /* the outer one: the inner commit goes too */
	CU_ASSERT_EQUAL(ior_db_cell_sample_count(db, fx.cell, &count), 0);
	CU_ASSERT_EQUAL(count, 2);
	/* and a plain transaction still works after all that */
	CU_ASSERT_EQUAL(ior_db_begin(db), 0);
	CU_ASSERT_EQUAL(ior_db_sample_add(db, fx.cell, 5, &s), 0);
	CU_ASSERT_EQUAL(ior_db_commit(db), 0);
	CU_ASSERT_EQUAL(ior_db_cell_sample_count(db, fx.cell, &count), 0);
	CU_ASSERT_EQUAL(count, 3);
	ior_db_free(db);
}

/* A sample committed without an explicit transaction is visible to another
 * connection at once: what a killed run leaves behind. */
static void test_sample_add_commits_immediately(void)
{
	const char *path = db_path("autocommit.db");
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	struct fixture fx = { 0 };
	CU_ASSERT_EQUAL_FATAL(make_cell(db, &fx, "none", "seqread"), 0);
	struct ior_sample s;
	fill_sample(&s, 7.0, false);
	CU_ASSERT_EQUAL(ior_db_sample_add(db, fx.cell, 1, &s), 0);
	sqlite3 *other = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open_v2(path, &other, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	CU_ASSERT_EQUAL(query_int(other, "SELECT count(*) FROM samples"), 1);
	sqlite3_close(other);
	ior_db_free(db);
}

/* A run killed with SIGKILL keeps every sample it had added. */
static void test_killed_writer_keeps_committed_samples(void)
{
	const char *path = db_path("killed.db");
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	struct fixture fx = { 0 };
	CU_ASSERT_EQUAL_FATAL(make_cell(db, &fx, "none", "seqread"), 0);
	ior_db_free(db);
	pid_t pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		struct ior_sample s;
		fill_sample(&s, 1.0, true);
		if (ior_db_open(&db, path))
			_exit(1);
		for (int rep = 1; rep <= 50; rep++)
			if (ior_db_sample_add(db, fx.cell, rep, &s))
				_exit(1);
		raise(SIGKILL);   /* no close, no checkpoint */
	}
	int status = 0;
	CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	int count = 0;
	CU_ASSERT_EQUAL(ior_db_cell_sample_count(db, fx.cell, &count), 0);
	CU_ASSERT_EQUAL(count, 50);
	ior_db_free(db);
}

enum { PER_WRITER = 2000, WRITERS = 2 };

/* One writer process: adds PER_WRITER samples, one commit each, from the
 * start signal on. With cell 0 it opens (creating) the file and makes its
 * own cell after the signal; else it opens before and writes into cell.
 * Exits 0 on success. */
static void writer(const char *path, int go_fd, int id, int64_t cell)
{
	struct ior_db *db = NULL;
	struct fixture fx = { .cell = cell };
	char engine[32], c;
	snprintf(engine, sizeof(engine), "writer%d", id);
	if (cell && ior_db_open(&db, path))
		goto fail;
	if (read(go_fd, &c, 1) < 0)
		_exit(2);
	if (!cell && (ior_db_open(&db, path) || make_cell(db, &fx, "none", engine)))
		goto fail;
	struct ior_sample s;
	for (int rep = 1; rep <= PER_WRITER; rep++) {
		fill_sample(&s, rep, rep % 2);
		if (ior_db_sample_add(db, fx.cell, rep, &s))
			goto fail;
	}
	ior_db_free(db);
	_exit(0);   /* not exit(): the parent owns the test directory and its atexit cleanup */
fail:
	fprintf(stderr, "writer %d: %s\n", id, ior_error_last());
	_exit(1);
}

/* Starts WRITERS writers at the same instant and checks every sample arrived. */
static void run_writers(const char *path, const int64_t *cells)
{
	int go[2];
	CU_ASSERT_EQUAL_FATAL(pipe(go), 0);
	pid_t pids[WRITERS];
	for (int i = 0; i < WRITERS; i++) {
		pids[i] = fork();
		CU_ASSERT_FATAL(pids[i] >= 0);
		if (pids[i] == 0) {
			close(go[1]);
			writer(path, go[0], i, cells ? cells[i] : 0);
		}
	}
	close(go[0]);
	if (cells)
		usleep(200000);   /* let both open first */
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	close(go[1]);   /* both start now: read() returns 0 in each */
	for (int i = 0; i < WRITERS; i++) {
		int status = 0;
		CU_ASSERT_EQUAL(waitpid(pids[i], &status, 0), pids[i]);
		CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("\n    %d writers x %d samples in %.3f s (%.0f samples/s) ", WRITERS, PER_WRITER, secs,
	       WRITERS * PER_WRITER / secs);
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	sqlite3 *h = ior_db_handle(db);
	CU_ASSERT_EQUAL(query_int(h, "SELECT count(*) FROM samples"), WRITERS * PER_WRITER);
	CU_ASSERT_EQUAL(query_int(h, "SELECT count(DISTINCT cell_id) FROM samples"), WRITERS);
	CU_ASSERT_EQUAL(query_int(h, "SELECT count(*) FROM hosts"), 1);     /* *_get raced and agreed */
	CU_ASSERT_EQUAL(query_int(h, "SELECT count(*) FROM kernels"), 1);
	CU_ASSERT_EQUAL(query_int(h, "SELECT count(*) FROM devices"), 1);
	CU_ASSERT_EQUAL(query_int(h, "SELECT count(*) FROM runs"), WRITERS);
	CU_ASSERT_EQUAL(query_int(h, "PRAGMA user_version"), IOR_DB_SCHEMA_VERSION);
	ior_db_free(db);
}

static void test_two_processes_create_one_file_at_once(void)
{
	run_writers(db_path("concurrent-create.db"), NULL);
}

static void test_two_processes_insert_into_one_file_at_once(void)
{
	const char *path = db_path("concurrent-insert.db");
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	struct fixture fx = { 0 };
	int64_t cells[WRITERS];
	for (int i = 0; i < WRITERS; i++) {
		char engine[32];
		snprintf(engine, sizeof(engine), "writer%d", i);
		fx.run = 0;
		CU_ASSERT_EQUAL_FATAL(make_cell(db, &fx, "none", engine), 0);
		cells[i] = fx.cell;
	}
	ior_db_free(db);
	run_writers(path, cells);
}

/* Every field of the measures record, a value of its own (a count, or a half to show a real). */
static void fill_measures(struct ior_measures *m)
{
	memset(m, 0, sizeof(*m));
	m->has_latency = m->has_clat = m->has_blkstat = true;
	for (size_t i = 0; i < ior_measure_column_count(); i++) {
		const struct ior_measure_column *c = ior_measure_column_at(i);
		uint64_t u = 1000 + i;
		double d = 0.5 + (double)i;
		if (c->integer)
			memcpy((char *)m + c->offset, &u, sizeof(u));
		else
			memcpy((char *)m + c->offset, &d, sizeof(d));
	}
}

static void assert_measures(const struct ior_measures *got, const struct ior_measures *want)
{
	CU_ASSERT(got->has_latency && got->has_clat && got->has_blkstat);
	for (size_t i = 0; i < ior_measure_column_count(); i++) {
		const struct ior_measure_column *c = ior_measure_column_at(i);
		bool same = c->integer ? ior_measures_u64(got, c) == ior_measures_u64(want, c)
				       : ior_measures_real(got, c) == ior_measures_real(want, c);
		if (!same)
			fprintf(stderr, "\n  measures column %s did not come back", c->name);
		CU_ASSERT(same);
	}
}

static int scanned(void *ctx, const struct ior_db_sample_row *s)
{
	*(struct ior_measures *)ctx = s->m;
	return 0;
}

/* Step 13's sample_view is the text it was before the view was written from the column table
 * (tests/data/sample_view-v13.sql, as sqlite_master held it): a database upgraded through step 13
 * shows the same columns in the same order, whatever steps come after. */
static void test_step13_view_is_unchanged(void)
{
	const char *path = db_path("v13.db");
	sqlite3 *h = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &h), SQLITE_OK);
	CU_ASSERT_EQUAL_FATAL(ior_db_schema_apply(h, path, 13), 0);
	CU_ASSERT_EQUAL(query_int(h, "PRAGMA user_version"), 13);
	sqlite3_stmt *st = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_prepare_v2(h, "SELECT sql || char(10) FROM sqlite_master WHERE name = 'sample_view'",
						 -1, &st, NULL), SQLITE_OK);
	CU_ASSERT_EQUAL_FATAL(sqlite3_step(st), SQLITE_ROW);
	char *want = ior_test_read_file(ior_test_source_path("tests/data/sample_view-v13.sql"), NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	CU_ASSERT_STRING_EQUAL((const char *)sqlite3_column_text(st, 0), want);
	free(want);
	sqlite3_finalize(st);
	sqlite3_close(h);
}

/* Schema 15 keeps in columns what a bisection kept as prose in its log and read back: a database
 * made by the binary before it (tests/data/bisect-v14.sql) is upgraded with each value as the log
 * had it, the kernel config parsed (a fragment with a blank in its path, --nice) and written back
 * as the same text, a confirmation ended with "done" none under way. */
static void test_upgrade_to_v15_types_the_bisect_state(void)
{
	const char *path = db_path("bisect-v14.db");
	sqlite3 *h = NULL;
	char *dump = ior_test_read_file(ior_test_source_path("tests/data/bisect-v14.sql"), NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dump);
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &h), SQLITE_OK);
	CU_ASSERT_EQUAL_FATAL(sqlite3_exec(h, dump, NULL, NULL, NULL), SQLITE_OK);
	CU_ASSERT_EQUAL(query_int(h, "PRAGMA user_version"), 14);
	sqlite3_close(h);
	free(dump);
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	CU_ASSERT_EQUAL(query_int(ior_db_handle(db), "PRAGMA user_version"), IOR_DB_SCHEMA_VERSION);
	const char *G = "8a517efe7dbbf0bd7ded72dd3e959332d906d56b", *M = "1ada05fb99fd594a516bca9281f070ecde64f761",
		   *P = "0732be463d549712798664710215979a4175bcb0", *B = "7716dd6b0d0ab40a5cd3955dd206dcadedeacccc";
	struct ior_bisect_kconfig k;
	CU_ASSERT_EQUAL_FATAL(ior_bisect_kconfig_get(db, 1, &k), 0);
	CU_ASSERT_TRUE(k.found);
	CU_ASSERT_PTR_NULL(k.config);
	CU_ASSERT_STRING_EQUAL(k.defconfig ? k.defconfig : "", "defconfig");
	CU_ASSERT_EQUAL_FATAL(k.nfragments, 2);
	CU_ASSERT_STRING_EQUAL(k.fragments[1], "/tmp/bisect-v14/frag/b c.config");
	CU_ASSERT_STRING_EQUAL(k.build_dir ? k.build_dir : "", "/tmp/bisect-v14/bd");
	CU_ASSERT_EQUAL(k.nice, 7);
	char text[1024], logged[1024];
	bool found;
	CU_ASSERT_EQUAL(ior_bisect_kconfig_format(&k, text, sizeof(text)), 0);
	CU_ASSERT_EQUAL(ior_bisect_log_last(db, 1, NULL, "kernel", &found, logged, sizeof(logged)), 0);
	CU_ASSERT_STRING_EQUAL(text, logged);
	ior_bisect_kconfig_free(&k);
	CU_ASSERT_EQUAL(ior_bisect_kconfig_get(db, 2, &k), 0);
	CU_ASSERT_FALSE(k.found);
	CU_ASSERT_EQUAL(ior_bisect_build_error_get(db, 2, G, &found, text, sizeof(text)), 0);
	CU_ASSERT_TRUE(found);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "the build left no artifact that can be hashed: no artifact"));
	CU_ASSERT_EQUAL(ior_bisect_build_error_get(db, 2, B, &found, text, sizeof(text)), 0);
	CU_ASSERT_FALSE(found);
	CU_ASSERT_EQUAL(ior_bisect_config_hash_get(db, 3, M, &found, text, sizeof(text)), 0);
	CU_ASSERT_TRUE(found);
	CU_ASSERT_STRING_EQUAL(text, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
	CU_ASSERT_EQUAL(ior_bisect_boot_failure_get(db, 3, P, &found, text, sizeof(text)), 0);
	CU_ASSERT_TRUE(found);
	CU_ASSERT_STRING_EQUAL(text, "panic: Kernel panic - not syncing; oops: BUG: x");
	struct ior_bisect_confirm_state c;
	CU_ASSERT_EQUAL(ior_bisect_confirm_get(db, 3, M, &found, &c), 0);
	CU_ASSERT_TRUE(found);
	CU_ASSERT_EQUAL(c.from, 7);
	CU_ASSERT_STRING_EQUAL(c.parent, P);
	CU_ASSERT_EQUAL(c.need, 15);
	CU_ASSERT_EQUAL(ior_bisect_confirm_get(db, 3, P, &found, &c), 0);
	CU_ASSERT_FALSE(found);
	/* and set again: the column and the log row it was read from before */
	c = (struct ior_bisect_confirm_state){ .from = 9, .need = 20 };
	snprintf(c.parent, sizeof(c.parent), "%s", G);
	CU_ASSERT_EQUAL(ior_bisect_confirm_set(db, 3, P, &c), 0);
	CU_ASSERT_EQUAL(ior_bisect_confirm_get(db, 3, P, &found, &c), 0);
	CU_ASSERT_TRUE(found && c.from == 9 && c.need == 20 && !strcmp(c.parent, G));
	CU_ASSERT_EQUAL(ior_bisect_log_last(db, 3, P, "confirming", &found, logged, sizeof(logged)), 0);
	snprintf(text, sizeof(text), "9 %s 20", G);
	CU_ASSERT_STRING_EQUAL(logged, text);
	CU_ASSERT_EQUAL(ior_bisect_confirm_set(db, 3, P, NULL), 0);
	CU_ASSERT_EQUAL(ior_bisect_confirm_get(db, 3, P, &found, &c), 0);
	CU_ASSERT_FALSE(found);
	ior_db_free(db);
}

/* The column table is the schema's: each column is in samples and in sample_view, each stored metric
 * reads one of them, and a sample's every measure comes back through both reads. */
static void test_measure_columns_match_the_schema(void)
{
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, db_path("columns.db")), 0);
	sqlite3 *h = ior_db_handle(db);
	for (size_t i = 0; i < ior_measure_column_count(); i++) {
		const char *name = ior_measure_column_at(i)->name;
		char sql[256];
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM pragma_table_info('samples') WHERE name = '%s'", name);
		CU_ASSERT_EQUAL(query_int(h, sql), 1);
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM pragma_table_info('sample_view') WHERE name = '%s'", name);
		CU_ASSERT_EQUAL(query_int(h, sql), 1);
	}
	for (int m = 0; m < IOR_METRIC_COUNT; m++) {
		const struct ior_metric_info *mi = ior_metric_info((enum ior_metric)m);
		bool found = false;
		for (size_t i = 0; i < ior_measure_column_count(); i++)
			found |= !strcmp(ior_measure_column_at(i)->name, mi->column);
		CU_ASSERT_EQUAL(found, mi->stored);
	}
	struct fixture fx = { 0 };
	CU_ASSERT_EQUAL_FATAL(make_cell(db, &fx, "none", "randread"), 0);
	struct ior_sample s = { .value = 1, .unit = "IOPS", .higher_is_better = true };
	fill_measures(&s.m);
	CU_ASSERT_EQUAL_FATAL(ior_db_sample_add(db, fx.cell, 1, &s), 0);
	struct ior_db_row *rows = NULL;
	size_t n = 0;
	CU_ASSERT_EQUAL_FATAL(ior_db_samples(db, NULL, &rows, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	assert_measures(&rows[0].m, &s.m);
	ior_db_rows_free(rows, n);
	struct ior_measures got = { 0 };
	CU_ASSERT_EQUAL(ior_db_scan_samples(db, &fx.cell, 1, true, scanned, &got), 0);
	assert_measures(&got, &s.m);
	ior_db_free(db);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_create_sets_modes_and_reopen_keeps_rows),
		IOR_TEST(test_empty_file_becomes_database),
		IOR_TEST(test_get_functions_return_one_row_per_identity),
		IOR_TEST(test_upgrade_from_older_version_keeps_data),
		IOR_TEST(test_upgrade_to_v4_moves_latency_to_clat),
		IOR_TEST(test_v4_fields_round_trip),
		IOR_TEST(test_refuses_newer_schema),
		IOR_TEST(test_refuses_non_sqlite_files),
		IOR_TEST(test_refuses_foreign_sqlite),
		IOR_TEST(test_refuses_damaged_schema_unchanged),
		IOR_TEST(test_sample_round_trip_with_all_fields),
		IOR_TEST(test_measure_columns_match_the_schema),
		IOR_TEST(test_runs_cells_offers_and_host_kernels),
		IOR_TEST(test_upgrade_from_v5_keeps_every_sample),
		IOR_TEST(test_step13_view_is_unchanged),
		IOR_TEST(test_upgrade_to_v15_types_the_bisect_state),
		IOR_TEST(test_rollback_discards_and_commit_keeps),
		IOR_TEST(test_nested_transactions_are_parts),
		IOR_TEST(test_sample_add_commits_immediately),
		IOR_TEST(test_killed_writer_keeps_committed_samples),
		IOR_TEST(test_kernel_commit_is_stored_once_and_a_conflict_refused),
		IOR_TEST(test_two_processes_create_one_file_at_once),
		IOR_TEST(test_two_processes_insert_into_one_file_at_once),
		IOR_TEST_END,
	};
	return ior_test_run("db", tests);
}
