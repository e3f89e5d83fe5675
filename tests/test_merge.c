/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for db/merge.c: runs from other databases merged with their provenance, idempotently, all
 * or nothing, newer schemas refused. */
#include "common/error.h"
#include "db/db.h"
#include "db/schema.h"
#include "tests/suite.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *path_of(const char *name)
{
	static char paths[8][512];
	static unsigned slot;
	char *p = paths[slot++ % 8];
	snprintf(p, 512, "%s/%s", ior_test_tmpdir(), name);
	return p;
}

/* A database as `run` leaves it: host, kernel, device, offers, cells with samples, a VM boot. */
static void make_source(const char *path, const char *host, const char *release, double base, int reps)
{
	unlink(path);
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, path)), 0);
	struct ior_db_kernel k = { .release = release, .version = "#1 SMP Debian", .machine = "x86_64",
				   .cmdline = "console=ttyS0 panic=-1" };
	struct ior_db_device d = { .name = "scratch", .path = "/dev/vda", .rotational = 0, .size = 256 << 20,
				   .logical_block = 512, .physical_block = 512 };
	int64_t h, kid, dev, run, cell;
	CU_ASSERT_EQUAL_FATAL(ior_db_host_get(db, host, "x86_64", &h), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_kernel_get(db, &k, &kid), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_device_get(db, h, &d, &dev), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_run_begin(db, h, kid, "vm.ini", "[matrix]\nrepetitions = 3\n", IOR_RUN_RUNNING,
					       &run), 0);
	CU_ASSERT_EQUAL(ior_db_run_set_order(db, run, "interleaved", 0), 0);
	CU_ASSERT_EQUAL(ior_db_offer_add(db, run, dev, "mq-deadline", true, "built-in"), 0);
	CU_ASSERT_EQUAL(ior_db_offer_add(db, run, dev, "kyber", false, "loaded"), 0);
	const char *scheds[] = { "mq-deadline", "kyber" };
	for (int s = 0; s < 2; s++) {
		CU_ASSERT_EQUAL_FATAL(ior_db_cell_get(db, run, dev, scheds[s], "randread", "aio", "bs=4k", &cell), 0);
		for (int r = 1; r <= reps; r++) {
			struct ior_sample smp = { .value = base + s * 10 + r, .unit = "IOPS", .higher_is_better = true,
						  .bytes = 4096, .ios = 1, .wall_s = 1, .has_latency = true,
						  .lat_p50_us = 50 + r, .fill = "random" };
			CU_ASSERT_EQUAL(ior_db_sample_add(db, cell, r, &smp), 0);
		}
	}
	CU_ASSERT_EQUAL(ior_db_fill_add(db, run, dev, "/dev/vda", "random", 1 << 20, 0.5), 0);
	CU_ASSERT_EQUAL(ior_db_run_finish(db, run, IOR_RUN_COMPLETE), 0);
	char sql[512];
	snprintf(sql, sizeof(sql), "INSERT INTO vm_boots (host_id, run_id, kernel, kernel_release, boot_index, outcome, "
		 "accelerator, cpus, memory_mb, cache_mode, qemu_version, console_log) VALUES (%lld, %lld, "
		 "'linux-image-%s', '%s', 1, 'ok', 'tcg', 2, 512, 'none', '7.2.19', 'Linux version %s')",
		 (long long)h, (long long)run, release, release, release);
	CU_ASSERT_EQUAL(sqlite3_exec(ior_db_handle(db), sql, NULL, NULL, NULL), SQLITE_OK);
	ior_db_free(db);
}

/* Points the source's kernel of that release at a commit (as run --kernel-tree does). */
static void set_commit(const char *path, const char *release, const char *sha, const char *subject)
{
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, path)), 0);
	struct ior_db_kernel k = { .release = release, .version = "#1 SMP Debian", .machine = "x86_64",
				   .cmdline = "console=ttyS0 panic=-1" };
	int64_t kid;
	CU_ASSERT_EQUAL_FATAL(ior_db_kernel_get(db, &k, &kid), 0);
	struct ior_db_commit c = { .sha = sha, .describe = "v6.8-rc3-42-gdeadbeef1234", .subject = subject,
				   .author_name = "Jens Axboe", .author_email = "axboe@example.org",
				   .author_date = "2024-02-11T15:04:05+01:00" };
	CU_ASSERT_EQUAL(ior_test_ok(ior_db_kernel_set_commit(db, kid, &c)), 0);
	ior_db_free(db);
}

static const char sha_a[] = "deadbeef1234deadbeef1234deadbeef12345678";
static const char sha_b[] = "0123456789abcdef0123456789abcdef01234567";

/* Opens out, merges in, closes out: the merge's status, its error left for the caller. */
static int merge_file(const char *out, const char *in, struct ior_db_merge_stats *s)
{
	struct ior_db *db = NULL;
	int rc = ior_db_open(&db, out);
	if (rc == IOR_OK)
		rc = ior_db_merge(db, in, s);
	ior_db_free(db);
	return rc;
}

static long long count(const char *path, const char *sql)
{
	return ior_test_query(path, sql);
}

static void test_merge_keeps_provenance(void)
{
	const char *a = path_of("a.db"), *b = path_of("b.db"), *out = path_of("out.db");
	make_source(a, "vm-host", "6.1.0-47-cloud-amd64", 1000, 3);
	make_source(b, "vm-host", "6.12.113+deb12-cloud-amd64", 2000, 3);
	unlink(out);
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, out), 0);
	struct ior_db_merge_stats s;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_merge(db, a, &s)), 0);
	CU_ASSERT_EQUAL(ior_db_merge_added(&s, "runs"), 1);
	CU_ASSERT_EQUAL(ior_db_merge_added(&s, "samples"), 6);
	CU_ASSERT_EQUAL(ior_db_merge_added(&s, "vm_boots"), 1);
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_merge(db, b, &s)), 0);
	CU_ASSERT_EQUAL(ior_db_merge_added(&s, "runs"), 1);
	CU_ASSERT_EQUAL(ior_db_merge_present(&s, "hosts"), 1);   /* one host, two kernels */
	ior_db_free(db);

	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM hosts"), 1);
	CU_ASSERT_EQUAL(count(out, "SELECT count(DISTINCT kernel) FROM sample_view"), 2);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM sample_view WHERE kernel = '6.12.113+deb12-cloud-amd64' "
				   "AND value > 2000 AND lat_p50_us > 50 AND fill = 'random' AND rep_order = 'interleaved'"), 6);
	/* each run's own start, matrix, status, offers with module states, fills and VM boot */
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM runs r JOIN runs x ON r.id < x.id "
				   "WHERE r.started_at <> x.started_at OR r.id <> x.id"), 1);
	long long same_start = count(a, "SELECT count(*) FROM runs");
	CU_ASSERT_EQUAL(same_start, 1);
	char sql[512], started[64] = "";
	sqlite3 *h = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open_v2(a, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(h, "SELECT started_at FROM runs", -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		snprintf(started, sizeof(started), "%s", sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(h);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE "
		 "k.release = '6.1.0-47-cloud-amd64' AND r.started_at = '%s' AND r.status = 'complete' "
		 "AND r.matrix_file = 'vm.ini' AND k.cmdline = 'console=ttyS0 panic=-1'", started);
	CU_ASSERT_EQUAL(count(out, sql), 1);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM scheduler_offers WHERE scheduler = 'kyber' AND "
				   "module_state = 'loaded'"), 2);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM fills"), 2);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM vm_boots b JOIN runs r ON r.id = b.run_id JOIN kernels k ON "
				   "k.id = r.kernel_id WHERE k.release = b.kernel_release AND b.accelerator = 'tcg' "
				   "AND b.console_log LIKE 'Linux version %'"), 2);
}

static void test_merge_twice_adds_nothing(void)
{
	const char *a = path_of("twice.db"), *out = path_of("twice-out.db");
	make_source(a, "h", "6.1.0-47-cloud-amd64", 100, 3);
	unlink(out);
	struct ior_db_merge_stats s;
	CU_ASSERT_EQUAL(ior_test_ok(merge_file(out, a, &s)), 0);
	CU_ASSERT_EQUAL(ior_test_ok(merge_file(out, a, &s)), 0);
	CU_ASSERT_EQUAL(ior_db_merge_added(&s, "runs"), 0);
	CU_ASSERT_EQUAL(ior_db_merge_present(&s, "runs"), 1);
	for (size_t i = 0; i < s.ntables; i++)
		CU_ASSERT_EQUAL(s.t[i].added, 0);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM samples"), 6);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM runs"), 1);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM vm_boots"), 1);

	/* a source that measured more since (a resumed run) brings only what is new */
	struct ior_db *src = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&src, a), 0);
	CU_ASSERT_EQUAL(sqlite3_exec(ior_db_handle(src), "INSERT INTO samples (cell_id, rep, value, unit, higher_is_better) "
				     "SELECT cell_id, 4, 99, unit, 1 FROM samples WHERE rep = 3", NULL, NULL, NULL), SQLITE_OK);
	ior_db_free(src);
	CU_ASSERT_EQUAL(ior_test_ok(merge_file(out, a, &s)), 0);
	CU_ASSERT_EQUAL(ior_db_merge_added(&s, "samples"), 2);
	CU_ASSERT_EQUAL(ior_db_merge_present(&s, "samples"), 6);
}

static void expect_refused(const char *out, const char *in, const char *message)
{
	struct ior_db_merge_stats s;
	ior_error_clear();
	CU_ASSERT_EQUAL(merge_file(out, in, &s), IOR_EINVALID);
	if (!strstr(ior_error_last(), message))
		fprintf(stderr, "expected '%s' in: %s\n", message, ior_error_last());
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), message));
}

static void test_refuses_newer_foreign_and_itself(void)
{
	const char *out = path_of("ref-out.db"), *newer = path_of("newer.db"), *foreign = path_of("foreign.db");
	make_source(out, "h", "6.1.0-47-cloud-amd64", 1, 1);
	make_source(newer, "h", "9.9.9", 1, 1);
	sqlite3 *h = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(newer, &h), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(h, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	unlink(foreign);
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(foreign, &h), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(h, "CREATE TABLE t (x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	expect_refused(out, newer, "schema version 99 is newer");
	expect_refused(out, foreign, "not an ioregress database");
	expect_refused(out, out, "into itself");
	expect_refused(out, path_of("missing.db"), "no such file");
	CU_ASSERT_EQUAL(access(path_of("missing.db"), F_OK), -1);   /* and it was not created */
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM runs"), 1);
}

/* A source whose rows break the target's constraints midway: OUT keeps exactly what it had. */
static void test_failed_merge_changes_nothing(void)
{
	const char *out = path_of("fail-out.db"), *bad = path_of("bad.db");
	make_source(out, "h", "6.1.0-47-cloud-amd64", 1, 3);
	make_source(bad, "h2", "6.12.113+deb12-cloud-amd64", 1, 3);
	sqlite3 *h = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(bad, &h), SQLITE_OK);
	/* the last sample points to a cell that does not exist: found only after runs, cells and most samples */
	CU_ASSERT_EQUAL(sqlite3_exec(h, "PRAGMA foreign_keys = OFF; UPDATE samples SET cell_id = 999 WHERE id = "
				     "(SELECT max(id) FROM samples)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	long long before = count(out, "SELECT count(*) FROM samples") * 1000 + count(out, "SELECT count(*) FROM runs") * 10 +
			   count(out, "SELECT count(*) FROM hosts");
	expect_refused(out, bad, "points to cells id 999");
	long long after = count(out, "SELECT count(*) FROM samples") * 1000 + count(out, "SELECT count(*) FROM runs") * 10 +
			  count(out, "SELECT count(*) FROM hosts");
	CU_ASSERT_EQUAL(before, after);
	CU_ASSERT_EQUAL(after, 6 * 1000 + 10 + 1);
}

/* An older database is upgraded in memory on the way in (its file stays as it was): its
 * completion latencies land in clat_*, as schema 4 moved them. */
static void test_older_schema_is_upgraded_in_memory(void)
{
	const char *old = path_of("v3.db"), *out = path_of("v3-out.db");
	unlink(old);
	unlink(out);
	sqlite3 *h = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(old, &h), SQLITE_OK);
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_schema_apply(h, old, 3)), 0);
	CU_ASSERT_EQUAL(sqlite3_exec(h,
		"INSERT INTO hosts (name) VALUES ('old');"
		"INSERT INTO kernels (release) VALUES ('5.10.0');"
		"INSERT INTO runs (host_id, kernel_id, status, ioregress_version) VALUES (1, 1, 'complete', '0.0.1');"
		"INSERT INTO devices (host_id, name) VALUES (1, 'sda');"
		"INSERT INTO cells (run_id, device_id, scheduler, engine) VALUES (1, 1, 'bfq', 'rr');"
		"INSERT INTO samples (cell_id, rep, value, unit, higher_is_better, lat_p50_us) VALUES (1, 1, 5, 'IOPS', 1, 77);",
		NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	struct ior_db_merge_stats s;
	CU_ASSERT_EQUAL(ior_test_ok(merge_file(out, old, &s)), 0);
	CU_ASSERT_EQUAL(count(old, "PRAGMA user_version"), 3);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM samples WHERE clat_p50_us = 77 AND lat_p50_us IS NULL"), 1);
}

/* Every table a new database has is either merged or named as local to its machine: a table
 * added by a later schema step fails here until merge.c says what identifies its rows. */
/* The commit and the kernel's pointer at it cross; a second merge adds no second commit. */
static void test_merge_carries_commits(void)
{
	const char *a = path_of("commit-src.db"), *out = path_of("commit-out.db");
	make_source(a, "h", "6.8.0-rc3-00042-gdeadbeef1234", 100, 2);
	set_commit(a, "6.8.0-rc3-00042-gdeadbeef1234", sha_a, "block: fix the queue");
	unlink(out);
	struct ior_db_merge_stats s;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(merge_file(out, a, &s)), 0);
	CU_ASSERT_EQUAL(ior_db_merge_added(&s, "commits"), 1);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM kernels k JOIN commits c ON c.id = k.commit_id "
			      "WHERE k.release = '6.8.0-rc3-00042-gdeadbeef1234' AND c.sha = 'deadbeef1234deadbeef1234deadbeef12345678' "
			      "AND c.subject = 'block: fix the queue' AND c.describe = 'v6.8-rc3-42-gdeadbeef1234' "
			      "AND c.author_name = 'Jens Axboe' AND c.author_email = 'axboe@example.org' "
			      "AND c.author_date = '2024-02-11T15:04:05+01:00'"), 1);
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(merge_file(out, a, &s)), 0);
	CU_ASSERT_EQUAL(ior_db_merge_added(&s, "commits"), 0);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM commits"), 1);
}

/* A kernel the target knows without a commit gains the source's; one it knows with another
 * commit keeps its own (the other is carried, unreferenced). */
static void test_merge_fills_in_a_kernel_commit(void)
{
	const char *a = path_of("fill-src.db"), *out = path_of("fill-out.db"), *b = path_of("fill-other.db");
	const char *release = "6.8.0-rc3-00042-gdeadbeef1234";
	make_source(out, "h", release, 100, 2);
	make_source(a, "h2", release, 200, 2);
	set_commit(a, release, sha_a, "block: fix the queue");
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM kernels WHERE commit_id IS NOT NULL"), 0);
	struct ior_db_merge_stats s;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(merge_file(out, a, &s)), 0);
	CU_ASSERT_EQUAL(ior_db_merge_present(&s, "kernels"), 1);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM kernels k JOIN commits c ON c.id = k.commit_id "
			      "WHERE c.sha = 'deadbeef1234deadbeef1234deadbeef12345678'"), 1);
	make_source(b, "h3", release, 300, 2);
	set_commit(b, release, sha_b, "another build");
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(merge_file(out, b, &s)), 0);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM kernels k JOIN commits c ON c.id = k.commit_id "
			      "WHERE c.sha = 'deadbeef1234deadbeef1234deadbeef12345678'"), 1);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM commits"), 2);
}

/* A kernel's compiler and a commit's repository and branch, known to the source only, fill in
 * the target's rows that lack them; a value the target has is kept. */
static void test_merge_fills_in_compiler_and_source(void)
{
	const char *a = path_of("cc-src.db"), *out = path_of("cc-out.db");
	const char *release = "6.8.0-rc3-00042-gdeadbeef1234";
	make_source(out, "h", release, 100, 2);
	make_source(a, "h2", release, 200, 2);
	set_commit(out, release, sha_a, "block: fix the queue");
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, a)), 0);
	struct ior_db_kernel k = { .release = release, .version = "#1 SMP Debian", .machine = "x86_64",
				   .cmdline = "console=ttyS0 panic=-1", .compiler = "gcc (Debian 12.2.0-14) 12.2.0" };
	int64_t kid;
	CU_ASSERT_EQUAL_FATAL(ior_db_kernel_get(db, &k, &kid), 0);
	struct ior_db_commit c = { .sha = sha_a, .repository_url = "https://git.kernel.org/x/linux.git", .branch = "for-next" };
	CU_ASSERT_EQUAL(ior_test_ok(ior_db_kernel_set_commit(db, kid, &c)), 0);
	ior_db_free(db);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM kernels WHERE compiler IS NULL"), 1);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM commits WHERE repository_url IS NULL AND branch IS NULL"), 1);
	struct ior_db_merge_stats s;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(merge_file(out, a, &s)), 0);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM kernels WHERE compiler = 'gcc (Debian 12.2.0-14) 12.2.0'"), 1);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM commits WHERE repository_url = 'https://git.kernel.org/x/linux.git' "
			      "AND branch = 'for-next' AND subject = 'block: fix the queue'"), 1);
	/* the target's own values stay */
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, a)), 0);
	CU_ASSERT_EQUAL(sqlite3_exec(ior_db_handle(db), "UPDATE kernels SET compiler = 'clang 16'; UPDATE commits SET branch = 'x'",
				     NULL, NULL, NULL), SQLITE_OK);
	ior_db_free(db);
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(merge_file(out, a, &s)), 0);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM kernels WHERE compiler = 'gcc (Debian 12.2.0-14) 12.2.0'"), 1);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM commits WHERE branch = 'for-next'"), 1);
}

static void test_every_table_is_classified(void)
{
	const char *a = path_of("classified.db"), *out = path_of("classified-out.db");
	make_source(a, "h", "6.1.0-47-cloud-amd64", 1, 1);
	unlink(out);
	struct ior_db_merge_stats s;
	CU_ASSERT_EQUAL(ior_test_ok(merge_file(out, a, &s)), 0);
	long long tables = count(a, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
	/* + undo_log, the 6 bisect tables and the 3 of plans on targets, this machine's own */
	CU_ASSERT_EQUAL(s.ntables + 10, (size_t)tables);

	/* and a table merge does not know stops the merge rather than being dropped */
	sqlite3 *h = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(a, &h), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(h, "CREATE TABLE bisect_steps (id INTEGER PRIMARY KEY)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	CU_ASSERT_NOT_EQUAL(merge_file(out, a, &s), IOR_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "does not know table 'bisect_steps'"));
}

/* The command: OUT created, each input whole or not at all, a bad one does not stop the next. */
static void test_merge_command(void)
{
	const char *a = path_of("cmd-a.db"), *b = path_of("cmd-b.db"), *out = path_of("cmd-out.db");
	make_source(a, "h", "6.1.0-47-cloud-amd64", 1, 3);
	make_source(b, "h", "6.12.113+deb12-cloud-amd64", 1, 3);
	unlink(out);
	char stdout_text[4096], stderr_text[4096];
	CU_ASSERT_EQUAL(ior_test_ioregress((char *[]){ "merge", (char *)out, (char *)a, "/nonexistent.db", (char *)b, NULL },
					   stdout_text, sizeof(stdout_text), stderr_text, sizeof(stderr_text)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(stdout_text, "1 runs added, 0 already present; 6 samples"));
	CU_ASSERT_PTR_NOT_NULL(strstr(stderr_text, "nothing from '/nonexistent.db' was merged"));
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM runs"), 2);
	CU_ASSERT_EQUAL(ior_test_ioregress((char *[]){ "merge", (char *)out, NULL }, NULL, 0, NULL, 0), 2);
}

static void exec_sql(const char *path, const char *sql)
{
	sqlite3 *h = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &h), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
}

/* Issue 23: a merge taken mid-run kept the target's run 'running' for ever. */
static void test_later_merge_finishes_a_run_merged_mid_run(void)
{
	const char *out = path_of("mid-out.db"), *guest = path_of("mid-guest.db");
	unlink(out);
	make_source(guest, "h", "6.1.0-47-cloud-amd64", 1, 2);
	exec_sql(guest, "UPDATE runs SET status = 'running', finished_at = NULL");
	struct ior_db_merge_stats s;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(merge_file(out, guest, &s)), 0);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM runs WHERE status = 'running' AND finished_at IS NULL"), 1);
	/* the guest measures on and finishes */
	exec_sql(guest, "INSERT INTO samples (cell_id, rep, value, unit, higher_is_better) SELECT cell_id, 3, 99, unit, 1 "
			"FROM samples WHERE rep = 2; UPDATE runs SET status = 'complete', finished_at = '2026-12-02T01:02:03.000Z'");
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(merge_file(out, guest, &s)), 0);
	CU_ASSERT_EQUAL(ior_db_merge_added(&s, "samples"), 2);
	CU_ASSERT_EQUAL(ior_db_merge_updated(&s, "runs"), 1);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM runs WHERE status = 'complete' AND "
				   "finished_at = '2026-12-02T01:02:03.000Z'"), 1);
	/* a finished run is never set back by an older copy that still says running */
	exec_sql(guest, "UPDATE runs SET status = 'running', finished_at = NULL");
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(merge_file(out, guest, &s)), 0);
	CU_ASSERT_EQUAL(ior_db_merge_updated(&s, "runs"), 0);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM runs WHERE status = 'complete'"), 1);
}

/* Issue 23: a repetition both hold with another value was dropped without a word. */
static void test_contradicting_sample_refused(void)
{
	const char *out = path_of("contra-out.db"), *in = path_of("contra-in.db");
	unlink(out);
	make_source(in, "h", "6.1.0-47-cloud-amd64", 1, 3);
	struct ior_db_merge_stats s;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(merge_file(out, in, &s)), 0);
	exec_sql(in, "UPDATE samples SET value = 12345.5 WHERE rep = 2 AND value = (SELECT min(value) FROM samples WHERE rep = 2)");
	exec_sql(in, "INSERT INTO samples (cell_id, rep, value, unit, higher_is_better) SELECT cell_id, 4, 1, unit, 1 "
		     "FROM samples WHERE rep = 3");
	expect_refused(out, in, "is 12345.5 IOPS, the stored one is 3 IOPS");
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM samples"), 6);   /* the new rep 4 is not half-merged */
	exec_sql(in, "UPDATE samples SET value = 3 WHERE value = 12345.5; UPDATE samples SET warmup = 1 WHERE rep = 1");
	expect_refused(out, in, "(warm-up)");
}

/* What import refuses, merge refuses too (issue 35): sample values that are text, a blob, Inf or
 * negative, and names with a control character or a bidirectional override, each with the file,
 * table, row and column, and nothing merged. Before, all of them were merged (reports then showed
 * inf and 0.00). */
static void test_merge_refuses_what_import_refuses(void)
{
	const char *out = path_of("accept-out.db"), *in = path_of("accept-in.db");
	static const struct {
		const char *sql, *message;
	} cases[] = {
		{ "UPDATE samples SET value = 'fast' WHERE rep = 1", "value 'fast' is not a number" },
		{ "UPDATE samples SET value = x'00ff' WHERE rep = 1", "value '(blob)' is a blob, not a number" },
		{ "UPDATE samples SET value = 9e999 WHERE rep = 1", "value 'Inf' is out of range" },
		{ "UPDATE samples SET value = -5 WHERE rep = 1", "value '-5.0' is negative" },
		{ "UPDATE hosts SET name = 'h' || char(27) || '[2J'", "hosts row 1: name has a control character 0x1b at character 2" },
		{ "UPDATE devices SET name = 'd' || char(8238) || 'x'", "devices row 1: name has a U+202E (a bidirectional control) at character 2" },
		{ "UPDATE cells SET scheduler = 'none' || char(155) WHERE scheduler = 'kyber'", "scheduler has a U+009B (a control character) at character 5" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unlink(out);
		make_source(in, "h", "6.1.0-47-cloud-amd64", 1, 2);
		exec_sql(in, cases[i].sql);
		struct ior_db_merge_stats s;
		ior_error_clear();
		CU_ASSERT_EQUAL(merge_file(out, in, &s), IOR_EINVALID);
		CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), cases[i].message));
		if (!strstr(ior_error_last(), cases[i].message))
			fprintf(stderr, "\n  case %zu: %s", i, ior_error_last());
		CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM samples"), 0);
	}
}

/* Issue 23: a full disk during merge said "cannot roll back: no transaction is active". The
 * target is held to a few pages more than it has (SQLite's max_page_count), as a full disk would. */
static void test_full_disk_says_so(void)
{
	const char *out = path_of("full-out.db"), *in = path_of("full-in.db");
	make_source(out, "h", "6.1.0-47-cloud-amd64", 1, 1);
	make_source(in, "h2", "6.12.113+deb12-cloud-amd64", 1, 3000);
	long long before = count(out, "SELECT count(*) FROM samples");
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, out)), 0);
	CU_ASSERT_EQUAL(sqlite3_exec(ior_db_handle(db), "PRAGMA max_page_count = 40", NULL, NULL, NULL), SQLITE_OK);
	struct ior_db_merge_stats s;
	ior_error_clear();
	int rc = ior_db_merge(db, in, &s);
	CU_ASSERT_NOT_EQUAL(rc, IOR_OK);
	const char *e = ior_error_last();
	CU_ASSERT_PTR_NOT_NULL(strstr(e, "disk is full"));
	CU_ASSERT_PTR_NULL(strstr(e, "no transaction"));
	if (!strstr(e, "disk is full"))
		fprintf(stderr, "\n  %s\n", e);
	CU_ASSERT_TRUE(sqlite3_get_autocommit(ior_db_handle(db)));
	ior_db_free(db);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM samples"), before);
	CU_ASSERT_EQUAL(count(out, "SELECT count(*) FROM runs"), 1);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_merge_keeps_provenance),
		IOR_TEST(test_merge_twice_adds_nothing),
		IOR_TEST(test_refuses_newer_foreign_and_itself),
		IOR_TEST(test_failed_merge_changes_nothing),
		IOR_TEST(test_older_schema_is_upgraded_in_memory),
		IOR_TEST(test_merge_carries_commits),
		IOR_TEST(test_merge_fills_in_a_kernel_commit),
		IOR_TEST(test_merge_fills_in_compiler_and_source),
		IOR_TEST(test_every_table_is_classified),
		IOR_TEST(test_merge_command),
		IOR_TEST(test_later_merge_finishes_a_run_merged_mid_run),
		IOR_TEST(test_contradicting_sample_refused),
		IOR_TEST(test_merge_refuses_what_import_refuses),
		IOR_TEST(test_full_disk_says_so),
		IOR_TEST_END,
	};
	return ior_test_run("merge", tests);
}
