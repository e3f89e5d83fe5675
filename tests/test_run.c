/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the run loop on real scratch loop devices: cells, samples in SQLite, unavailable
 * schedulers, restore, interruption. */
#include "common/error.h"
#include "common/stop.h"
#include "db/db.h"
#include "device/loopdev.h"
#include "run/run.h"
#include "matrix/matrix.h"
#include "reports/model.h"
#include "tests/suite.h"

#include <dirent.h>
#include <glob.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *snapshot_loop_schedulers(void)
{
	static char buf[8192];
	ior_test_loop_schedulers(buf, sizeof(buf));
	return buf;
}

static int count_scratch_files(void)
{
	char pattern[512];
	snprintf(pattern, sizeof(pattern), "%s/ioregress-loop.*", ior_test_tmpdir());
	return ior_test_count_glob(pattern);
}

static int64_t query_int(struct ior_db *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;
	if (sqlite3_prepare_v2(ior_db_handle(db), sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* A matrix whose scratch files go to the test's own directory, so leftovers can be counted. */
static struct ior_matrix *matrix_with(int repetitions, const char *duration, const char *extra)
{
	char text[1024];
	snprintf(text, sizeof(text),
		 "[matrix]\n"
		 "%s"
		 "repetitions = %d\n"
		 "schedulers = mq-deadline %s anticipatory\n"
		 "drop_caches = yes\n"
		 "[device scratch]\n"
		 "loop = 64M\n"
		 "backing_dir = %s\n"
		 "[engine quick]\n"
		 "type = hdparm\n"
		 "settle = 0s\n" /* no 3 s pause per repetition in tests */
		 "duration = %s\n",
		 extra, repetitions, ior_test_second_scheduler(), ior_test_tmpdir(), duration);
	struct ior_matrix *m = NULL;
	if (ior_matrix_parse_string(&m, "small.ini", text) != IOR_OK)
		fprintf(stderr, "matrix: %s\n", ior_error_last());
	return m;
}

static struct ior_matrix *small_matrix(int repetitions, const char *duration)
{
	return matrix_with(repetitions, duration, "");
}

static struct ior_db *fresh_db(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", ior_test_tmpdir(), name);
	struct ior_db *db = NULL;
	if (ior_db_open(&db, path) != IOR_OK)
		fprintf(stderr, "db: %s\n", ior_error_last());
	return db;
}

/* What the observer was told (issue 39: the run's context passed down, not reached for). */
struct told {
	int starts, beats, ticks_on, ticks_off, results, finishes;
	int64_t run_id;
	size_t cells;
	char last[400];
};

static void on_start(void *ctx, int64_t run_id, size_t cells)
{
	struct told *t = ctx;
	t->starts++;
	t->run_id = run_id;
	t->cells = cells;
}

static void on_beat(void *ctx, double expect_s, const char *text)
{
	struct told *t = ctx;
	(void)expect_s;
	t->beats++;
	snprintf(t->last, sizeof(t->last), "%s", text);
}

static void on_ticking(void *ctx, bool on, const char *what)
{
	struct told *t = ctx;
	(void)what;
	on ? t->ticks_on++ : t->ticks_off++;
}

static int on_results(void *ctx, struct ior_db *db)
{
	struct told *t = ctx;
	t->results++;
	/* each sample is stored before it is told */
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM samples"), t->results);
	return IOR_OK;
}

static void on_finish(void *ctx)
{
	((struct told *)ctx)->finishes++;
}

static void test_observer_is_told_the_run(void)
{
	struct ior_matrix *m = small_matrix(2, "0.2s");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	struct ior_db *db = fresh_db("observed.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	struct told t = { 0 };
	const struct ior_run_observer obs = { .ctx = &t, .start = on_start, .beat = on_beat, .ticking = on_ticking,
					      .results = on_results, .finish = on_finish };
	struct ior_run_options o = { .observer = &obs };
	struct ior_run_summary s;
	CU_ASSERT_EQUAL_FATAL(ior_run_matrix(db, m, &o, &s), IOR_OK);
	CU_ASSERT_EQUAL(t.starts, 1);
	CU_ASSERT_EQUAL(t.run_id, s.run_id);
	CU_ASSERT_TRUE(t.cells >= 2);
	/* a set-up line per measured cell (2) and a line per repetition (4) */
	CU_ASSERT_EQUAL(t.beats, 2 + 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(t.last, " rep 2/2 "));
	CU_ASSERT_EQUAL(t.results, (int)s.samples);
	CU_ASSERT_EQUAL(t.results, 4);
	CU_ASSERT_EQUAL(t.finishes, 1);
	CU_ASSERT_TRUE(t.ticks_off >= 1); /* ticking ends with the run */
	ior_db_free(db);
	ior_matrix_free(m);
}

static void test_small_matrix_stores_samples_and_restores(void)
{
	char before[8192];
	snprintf(before, sizeof(before), "%s", snapshot_loop_schedulers());
	struct ior_matrix *m = small_matrix(2, "0.2s");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	struct ior_db *db = fresh_db("run.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	struct ior_run_options o = { .observer = NULL };
	struct ior_run_summary s;
	int rc = ior_run_matrix(db, m, &o, &s);
	CU_ASSERT_EQUAL(rc, IOR_OK);
	if (rc)
		fprintf(stderr, "run failed: %s\n", ior_error_last());
	CU_ASSERT_EQUAL(s.cells, 3);
	CU_ASSERT_EQUAL(s.cells_ok, 2);
	CU_ASSERT_EQUAL(s.cells_unavailable, 1);
	CU_ASSERT_EQUAL(s.samples, 4);

	struct ior_db_filter f = { .engine = "quick" };
	struct ior_db_row *rows;
	size_t n;
	CU_ASSERT_EQUAL_FATAL(ior_db_samples(db, &f, &rows, &n), IOR_OK);
	CU_ASSERT_EQUAL(n, 4);
	int per_sched[2] = { 0, 0 };
	for (size_t i = 0; i < n; i++) {
		CU_ASSERT_TRUE(rows[i].value > 0);
		CU_ASSERT_STRING_EQUAL(rows[i].unit, "MiB/s");
		CU_ASSERT_STRING_EQUAL(rows[i].device, "scratch");
		per_sched[0] += strcmp(rows[i].scheduler, "mq-deadline") == 0;
		per_sched[1] += strcmp(rows[i].scheduler, ior_test_second_scheduler()) == 0;
	}
	CU_ASSERT_EQUAL(per_sched[0], 2);
	CU_ASSERT_EQUAL(per_sched[1], 2);
	ior_db_rows_free(rows, n);

	/* the unavailable scheduler is recorded with a reason, not dropped */
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM cells WHERE scheduler = 'anticipatory' AND status = 'unavailable' AND reason LIKE '%not offered%'"), 1);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM runs WHERE status = 'complete'"), 1);
	/* the schedulers offered were recorded for the run */
	CU_ASSERT_TRUE(query_int(db, ior_test_with_second("SELECT count(*) FROM scheduler_offers WHERE scheduler = 'bfq'")) >= 1);

	CU_ASSERT_STRING_EQUAL(snapshot_loop_schedulers(), before);
	CU_ASSERT_EQUAL(count_scratch_files(), 0);
	ior_db_free(db);
	ior_matrix_free(m);
}

/* Asks for a stop once the run has committed its first sample (seen through a second
 * connection, as another process would), so the stop lands mid-run whatever the load. */
static void *stop_after_first_sample(void *arg)
{
	const char *path = arg;
	sqlite3 *conn = NULL;
	for (int i = 0; i < 3000; i++) { /* 60 s at most */
		if (!conn && sqlite3_open_v2(path, &conn, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
			sqlite3_close(conn);
			conn = NULL;
		}
		sqlite3_stmt *st = NULL;
		bool seen = conn && sqlite3_prepare_v2(conn, "SELECT count(*) FROM samples", -1, &st, NULL) == SQLITE_OK &&
			    sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) >= 1;
		sqlite3_finalize(st);
		if (seen)
			break;
		usleep(20 * 1000);
	}
	sqlite3_close(conn);
	ior_stop_request(SIGINT);
	return NULL;
}

static void test_stop_request_keeps_samples_and_restores(void)
{
	char before[8192];
	snprintf(before, sizeof(before), "%s", snapshot_loop_schedulers());
	struct ior_matrix *m = small_matrix(10000, "0.25s"); /* far more than can finish before the stop */
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	struct ior_db *db = fresh_db("interrupted.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	ior_stop_reset();
	static char path[512];
	snprintf(path, sizeof(path), "%s/interrupted.db", ior_test_tmpdir());
	pthread_t t;
	pthread_create(&t, NULL, stop_after_first_sample, path);
	struct ior_run_options o = { .observer = NULL };
	struct ior_run_summary s;
	int rc = ior_run_matrix(db, m, &o, &s);
	pthread_join(t, NULL);
	ior_stop_reset();
	CU_ASSERT_EQUAL(rc, IOR_EINTERRUPTED);
	if (s.samples < 1 || s.samples >= 20000)
		fprintf(stderr, "samples %u, rc %d: %s\n", s.samples, rc, ior_error_last());
	CU_ASSERT_TRUE(s.samples >= 1 && s.samples < 20000);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM samples"), (int64_t)s.samples);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM runs WHERE status = 'interrupted'"), 1);
	CU_ASSERT_STRING_EQUAL(snapshot_loop_schedulers(), before);
	CU_ASSERT_EQUAL(count_scratch_files(), 0);
	ior_db_free(db);
	ior_matrix_free(m);
}

/* A loop cell's scheduler goes to the loop devices its stack makes, where its I/O is queued; they
 * are journaled and put back, so the machine's loop schedulers end as they began. */
static void test_loop_cells_run_their_stack_on_the_cell_scheduler(void)
{
	char before[8192];
	snprintf(before, sizeof(before), "%s", snapshot_loop_schedulers());
	char text[1024];
	snprintf(text, sizeof(text),
		 "[matrix]\nrepetitions = 2\nschedulers = mq-deadline %s\n"
		 "[device scratch]\nloop = 32M\nbacking_dir = %s\n"
		 "[engine nested]\ntype = loop\nsize = 32M\ndepth = 2\ninner_options = bs=1M count=4 sync=each\n",
		 ior_test_second_scheduler(), ior_test_tmpdir());
	struct ior_matrix *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_matrix_parse_string(&m, "loop.ini", text), IOR_OK);
	struct ior_db *db = fresh_db("loopsched.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	struct ior_run_options o = { .observer = NULL };
	struct ior_run_summary s;
	int rc = ior_run_matrix(db, m, &o, &s);
	if (rc)
		fprintf(stderr, "run failed: %s\n", ior_error_last());
	CU_ASSERT_EQUAL(rc, IOR_OK);
	CU_ASSERT_EQUAL(s.samples, 4);
	/* each sample's stack names its two levels with the cell's scheduler, and only that one */
	CU_ASSERT_EQUAL(query_int(db, ior_test_with_second("SELECT count(*) FROM sample_view WHERE scheduler = 'bfq' "
					  "AND detail LIKE '%/dev/loop% [bfq]%/dev/loop% [bfq]%' AND detail NOT LIKE "
					  "'%mq-deadline%'")), 2);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM sample_view WHERE scheduler = 'mq-deadline' "
				      "AND detail LIKE '%/dev/loop% [mq-deadline]%/dev/loop% [mq-deadline]%'"), 2);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM undo_log WHERE kind = 'scheduler' AND undone_at IS NULL"), 0);
	CU_ASSERT_STRING_EQUAL(snapshot_loop_schedulers(), before);
	CU_ASSERT_EQUAL(count_scratch_files(), 0);
	ior_db_free(db);
	ior_matrix_free(m);
}

static void test_missing_device_fails_before_anything_runs(void)
{
	struct ior_matrix *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_matrix_parse_string(&m, "missing.ini",
		"[device gone]\npath = /dev/ioregress-no-such-device\n[engine r]\ntype = hdparm\n"), IOR_OK);
	struct ior_db *db = fresh_db("missing.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	struct ior_run_options o = { .observer = NULL };
	struct ior_run_summary s;
	CU_ASSERT_NOT_EQUAL(ior_run_matrix(db, m, &o, &s), IOR_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "/dev/ioregress-no-such-device"));
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM samples"), 0);
	ior_db_free(db);
	ior_matrix_free(m);
}

/* Adaptive repetitions: a cell that is already stable stops at the minimum, one that can
 * never be stable runs to the cap and no further; the cell says why it stopped. */
static void test_adaptive_repetitions_stop_stable_or_at_cap(void)
{
	struct ior_matrix *m = matrix_with(3, "0.1s", "max_repetitions = 6\ntarget_cov = 100%\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	struct ior_db *db = fresh_db("adaptive.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	struct ior_run_options o = { .observer = NULL };
	struct ior_run_summary s;
	CU_ASSERT_EQUAL_FATAL(ior_run_matrix(db, m, &o, &s), IOR_OK);
	CU_ASSERT_EQUAL(s.samples, 6); /* 2 offered schedulers x the minimum 3 */
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM cells WHERE status = 'ok' AND reason LIKE 'adaptive: stopped after 3 repetitions%'"), 2);
	ior_matrix_free(m);

	m = matrix_with(3, "0.1s", "max_repetitions = 6\ntarget_cov = 0.0001%\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(ior_run_matrix(db, m, &o, &s), IOR_OK);
	CU_ASSERT_EQUAL(s.samples, 12); /* never stable: the cap, 6, and not one more */
	CU_ASSERT_EQUAL(query_int(db, "SELECT max(rep) FROM samples JOIN cells ON cells.id = samples.cell_id WHERE cells.run_id = 2"), 6);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM cells WHERE run_id = 2 AND reason LIKE 'adaptive: stopped after 6 repetitions%'"), 2);
	ior_db_free(db);
	ior_matrix_free(m);
}

/* decide_schedulers: a device's cells of one engine take their rounds together and stop together
 * with one reason; target_cov (100%: each cell alone would stop at its minimum) is not used. Before
 * 8 a side no look can decide at the interim level (the rank test's floor at p < 0.0002), so with a
 * cap of 6 both cells run to the cap, whatever the device measures. */
static void test_schedulers_decided_together(void)
{
	struct ior_matrix *m = matrix_with(3, "0.1s", "max_repetitions = 6\ntarget_cov = 100%\ndecide_schedulers = yes\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	struct ior_db *db = fresh_db("decide.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	struct ior_run_options o = { .observer = NULL };
	struct ior_run_summary s;
	CU_ASSERT_EQUAL_FATAL(ior_run_matrix(db, m, &o, &s), IOR_OK);
	CU_ASSERT_EQUAL(s.samples, 12);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM cells WHERE status = 'ok' AND "
				      "reason = 'adaptive, schedulers together: 6 repetitions: the cap'"), 2);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(DISTINCT n) FROM (SELECT count(*) AS n FROM samples GROUP BY cell_id)"), 1);
	ior_db_free(db);
	ior_matrix_free(m);
}

/* A checksum of a device's first 16 MiB, to see that a refused write wrote nothing. */
static uint64_t device_checksum(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint64_t h = 1469598103934665603ull;
	if (!f)
		return 0;
	unsigned char buf[65536];
	for (int i = 0; i < 256; i++) {
		size_t n = fread(buf, 1, sizeof(buf), f);
		for (size_t j = 0; j < n; j++)
			h = (h ^ buf[j]) * 1099511628211ull;
		if (n < sizeof(buf))
			break;
	}
	fclose(f);
	return h;
}

/* Write engines meet the guards through the whole harness: a device carrying a filesystem
 * (not created by ioregress, no --allow-destructive) and a scratch device not marked
 * destructive are both skipped with the reason, and their bytes stay as they were. */
static void test_write_engine_refused_through_the_harness(void)
{
	struct ior_loopdev foreign;
	CU_ASSERT_EQUAL_FATAL(ior_loopdev_create(&foreign, ior_test_tmpdir(), 32 << 20, false, IOR_FILL_SPARSE), IOR_OK);
	char *mkfs[] = { "mkfs.ext4", "-q", "-F", foreign.path, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn(mkfs, NULL), 0);
	uint64_t before = device_checksum(foreign.path);
	char text[1024];
	snprintf(text, sizeof(text),
		 "[matrix]\nrepetitions = 1\nschedulers = none\n"
		 "[device theirs]\npath = %s\ndestructive = yes\n"
		 "[device ours]\nloop = 32M\nbacking_dir = %s\ndestructive = no\n"
		 "[engine writer]\ntype = dd\nrw = write\nbs = 1M\ncount = 8\n",
		 foreign.path, ior_test_tmpdir());
	struct ior_matrix *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_matrix_parse_string(&m, "writes.ini", text), IOR_OK);
	struct ior_db *db = fresh_db("writes.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	struct ior_run_options o = { .observer = NULL };
	struct ior_run_summary s;
	CU_ASSERT_EQUAL(ior_run_matrix(db, m, &o, &s), IOR_OK);
	CU_ASSERT_EQUAL(s.cells_skipped, 2);
	CU_ASSERT_EQUAL(s.samples, 0);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM cells WHERE status = 'skipped' AND reason LIKE '%ext4%--allow-destructive%'"), 1);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM cells WHERE status = 'skipped' AND reason LIKE '%destructive = yes%'"), 1);
	CU_ASSERT_EQUAL(device_checksum(foreign.path), before);

	/* confirmed with the exact path, the same cell runs */
	const char *allow[] = { foreign.path };
	o.allow_destructive = allow;
	o.nallow_destructive = 1;
	CU_ASSERT_EQUAL(ior_run_matrix(db, m, &o, &s), IOR_OK);
	CU_ASSERT_EQUAL(s.samples, 1);
	CU_ASSERT_NOT_EQUAL(device_checksum(foreign.path), before);
	ior_db_free(db);
	ior_matrix_free(m);
	ior_loopdev_destroy(&foreign);
}

/* The samples of run_id as "scheduler:rep" in the order of their timestamps. */
static void order_of(struct ior_db *db, int64_t run_id, char *out, size_t len)
{
	char sql[256];
	snprintf(sql, sizeof(sql), "SELECT scheduler || ':' || rep FROM sample_view WHERE run_id = %lld "
		 "ORDER BY measured_at, sample_id", (long long)run_id);
	sqlite3_stmt *st;
	out[0] = '\0';
	if (sqlite3_prepare_v2(ior_db_handle(db), sql, -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		size_t used = strlen(out);
		snprintf(out + used, len - used, "%s%s", used ? " " : "", (const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
}

/* Interleaved (the default) takes repetition 1 of every cell, then 2, ...; sequential each cell's
 * back to back; random shuffles each round with a recorded seed, and the same seed gives the same
 * order again. The timestamps show it, and each run records its order. */
static void test_repetition_orders_show_in_the_timestamps(void)
{
	struct ior_db *db = fresh_db("order.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	struct ior_run_options o = { .observer = NULL };
	struct ior_run_summary s;
	char seq[512];

	struct ior_matrix *m = small_matrix(3, "0.05s");
	CU_ASSERT_EQUAL_FATAL(ior_run_matrix(db, m, &o, &s), IOR_OK);
	order_of(db, s.run_id, seq, sizeof(seq));
	CU_ASSERT_STRING_EQUAL(seq, ior_test_with_second("mq-deadline:1 bfq:1 mq-deadline:2 bfq:2 mq-deadline:3 bfq:3"));
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM runs WHERE rep_order = 'interleaved'"), 1);
	ior_matrix_free(m);

	m = matrix_with(3, "0.05s", "order = sequential\n");
	CU_ASSERT_EQUAL_FATAL(ior_run_matrix(db, m, &o, &s), IOR_OK);
	order_of(db, s.run_id, seq, sizeof(seq));
	CU_ASSERT_STRING_EQUAL(seq, ior_test_with_second("mq-deadline:1 mq-deadline:2 mq-deadline:3 bfq:1 bfq:2 bfq:3"));
	ior_matrix_free(m);

	/* random: every round holds each cell once, and the seed repeats the order */
	m = matrix_with(6, "0.05s", "order = random\norder_seed = 7\n");
	CU_ASSERT_EQUAL_FATAL(ior_run_matrix(db, m, &o, &s), IOR_OK);
	CU_ASSERT_EQUAL(s.order_seed, 7);
	char first[512], again[512];
	order_of(db, s.run_id, first, sizeof(first));
	CU_ASSERT_EQUAL_FATAL(ior_run_matrix(db, m, &o, &s), IOR_OK);
	order_of(db, s.run_id, again, sizeof(again));
	CU_ASSERT_STRING_EQUAL(first, again);
	for (int round = 1; round <= 6; round++) {
		char a[32], b[32];
		snprintf(a, sizeof(a), "mq-deadline:%d", round);
		snprintf(b, sizeof(b), "%s:%d", ior_test_second_scheduler(), round);
		CU_ASSERT_PTR_NOT_NULL(strstr(first, a));
		CU_ASSERT_PTR_NOT_NULL(strstr(first, b));
	}
	/* rounds stay rounds: the first two samples are repetition 1 of both cells */
	const char *mq_then = ior_test_with_second("mq-deadline:1 bfq:1"), *then_mq = ior_test_with_second("bfq:1 mq-deadline:1");
	CU_ASSERT_TRUE(strncmp(first, mq_then, strlen(mq_then)) == 0 || strncmp(first, then_mq, strlen(then_mq)) == 0);
	/* six rounds of two: a fixed order would be one of two strings; a shuffle shows both orders */
	bool second_first = false, mq_first = false;
	for (int round = 1; round <= 6; round++) {
		char a[32], b[32];
		snprintf(a, sizeof(a), "mq-deadline:%d", round);
		snprintf(b, sizeof(b), "%s:%d", ior_test_second_scheduler(), round);
		if (strstr(first, a) < strstr(first, b))
			mq_first = true;
		else
			second_first = true;
	}
	CU_ASSERT_TRUE(mq_first && second_first);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM runs WHERE rep_order = 'random' AND order_seed = 7"), 2);
	ior_matrix_free(m);
	ior_db_free(db);
}

static char *query_text(struct ior_db *db, const char *sql)
{
	sqlite3_stmt *st;
	char *v = NULL;
	if (sqlite3_prepare_v2(ior_db_handle(db), sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

/* warmup = 2 on a real loop device: each cell stores 2 + 3 samples, the first two (reps 1 and 2)
 * marked, and the model and its verdicts see only the 3 measured. To prove verdicts ignore them,
 * the run is copied as a second kernel whose warm-ups are 100x slower: the comparison still has
 * 3 against 3 equal values, and no regression. */
static void test_warmup_stored_marked_and_not_judged(void)
{
	char before[8192];
	snprintf(before, sizeof(before), "%s", snapshot_loop_schedulers());
	struct ior_matrix *m = matrix_with(3, "0.1s", "warmup = 2\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	struct ior_db *db = fresh_db("warmup.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	struct ior_run_options o = { .observer = NULL };
	struct ior_run_summary s;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_run_matrix(db, m, &o, &s)), IOR_OK);
	CU_ASSERT_EQUAL(s.cells_ok, 2);
	CU_ASSERT_EQUAL(s.samples, 10);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM samples WHERE warmup = 1"), 4);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM samples WHERE warmup = 1 AND rep IN (1, 2)"), 4);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM samples WHERE warmup = 0 AND rep IN (3, 4, 5)"), 6);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM sample_view WHERE warmup = 1 AND engine = 'quick'"), 4);
	char *kernel = query_text(db, "SELECT k.release FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE r.id = 1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(kernel);
	CU_ASSERT_EQUAL(sqlite3_exec(ior_db_handle(db),
		"INSERT INTO kernels (release) VALUES ('0.0-copy');"
		"INSERT INTO runs (host_id, kernel_id, status, ioregress_version) SELECT host_id, "
		"  (SELECT id FROM kernels WHERE release = '0.0-copy'), 'complete', ioregress_version FROM runs WHERE id = 1;"
		"INSERT INTO cells (run_id, device_id, scheduler, engine, engine_type, params, status) "
		"  SELECT 2, device_id, scheduler, engine, engine_type, params, status FROM cells WHERE run_id = 1 AND status = 'ok';"
		"INSERT INTO samples (cell_id, rep, value, unit, higher_is_better, warmup) "
		"  SELECT c2.id, x.rep, CASE WHEN x.warmup THEN x.value / 100 ELSE x.value END, x.unit, x.higher_is_better, x.warmup "
		"  FROM samples x JOIN cells c1 ON c1.id = x.cell_id JOIN cells c2 ON c2.run_id = 2 AND c2.scheduler = c1.scheduler "
		"  AND c2.engine = c1.engine;", NULL, NULL, NULL), SQLITE_OK);
	struct ior_report_opts ro;
	ior_report_opts_default(&ro);
	ro.baseline = kernel;
	ro.candidate = "0.0-copy";
	struct ior_report *r = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_report_build(&r, db, &ro)), IOR_OK);
	CU_ASSERT_EQUAL(r->nverdicts, 2);
	for (size_t i = 0; i < r->nverdicts; i++) {
		const struct ior_comparison *c = &r->verdicts[i].c;
		CU_ASSERT_EQUAL(c->na, 3);
		CU_ASSERT_EQUAL(c->nb, 3);
		CU_ASSERT_DOUBLE_EQUAL(c->median_a, c->median_b, 1e-9);
		CU_ASSERT_NOT_EQUAL(c->verdict, IOR_VERDICT_REGRESSION);
	}
	CU_ASSERT_EQUAL(r->regressions, 0);
	/* the 100x-slow warm-ups are no trend of the copy: its cells trend exactly as the original's,
	 * whose measured values it shares (a loaded machine can give those a trend of their own) */
	for (size_t i = 0; i < r->nalerts; i++) {
		const struct ior_alert *a = &r->alerts[i];
		if (!a->scheduler || strcmp(a->kernel, "0.0-copy"))
			continue;
		enum ior_trend_kind original = IOR_TREND_NONE;
		for (size_t j = 0; j < r->nalerts; j++) {
			const struct ior_alert *b = &r->alerts[j];
			if (b->scheduler && !strcmp(b->kernel, kernel) && !strcmp(b->engine, a->engine) &&
			    !strcmp(b->scheduler, a->scheduler))
				original = b->trend.kind;
		}
		CU_ASSERT_EQUAL(a->trend.kind, original);
	}
	for (size_t g = 0; g < r->rt->ngroups; g++)
		for (size_t c = 0; c < r->rt->groups[g].ncells; c++)
			CU_ASSERT_EQUAL(r->rt->groups[g].cells[c].n, 3);
	ior_report_free(r);
	free(kernel);
	CU_ASSERT_STRING_EQUAL(snapshot_loop_schedulers(), before);
	CU_ASSERT_EQUAL(count_scratch_files(), 0);
	ior_db_free(db);
	ior_matrix_free(m);
}

/* A run whose only cell stored a sample and then failed says so (exit 1, "1 of 1 cells failed"),
 * not "measured nothing" beside "1 samples" (issue 23). */
static void test_failed_cell_with_samples_is_not_nothing(void)
{
	char marker[4096], ini[4096], db[4096], text[4096];
	snprintf(marker, sizeof(marker), "%s/second-rep-fails", ior_test_tmpdir());
	snprintf(ini, sizeof(ini), "%s/fails_late.ini", ior_test_tmpdir());
	snprintf(db, sizeof(db), "%s/fails_late.db", ior_test_tmpdir());
	unlink(marker);
	unlink(db);
	snprintf(text, sizeof(text),
		 "[matrix]\nrepetitions = 2\nschedulers = none\n"
		 "[device ours]\nloop = 16M\nbacking_dir = %s\n"
		 "[engine once]\ntype = exec\ncommand = sh -c 'test -e %s && exit 1; touch %s'\n",
		 ior_test_tmpdir(), marker, marker);
	FILE *f = fopen(ini, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	char out[8192], err[8192];
	char *args[] = { "--db", db, "run", ini, NULL };
	int rc = ior_test_ioregress(args, out, sizeof(out), err, sizeof(err));
	CU_ASSERT_EQUAL(rc, 1);
	CU_ASSERT_PTR_NULL(strstr(err, "measured nothing"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "1 of 1 cells failed"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "1 samples"));
	unlink(marker);
	unlink(ini);
	unlink(db);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_small_matrix_stores_samples_and_restores),
		IOR_TEST(test_observer_is_told_the_run),
		IOR_TEST(test_stop_request_keeps_samples_and_restores),
		IOR_TEST(test_loop_cells_run_their_stack_on_the_cell_scheduler),
		IOR_TEST(test_missing_device_fails_before_anything_runs),
		IOR_TEST(test_adaptive_repetitions_stop_stable_or_at_cap),
		IOR_TEST(test_schedulers_decided_together),
		IOR_TEST(test_write_engine_refused_through_the_harness),
		IOR_TEST(test_repetition_orders_show_in_the_timestamps),
		IOR_TEST(test_warmup_stored_marked_and_not_judged),
		IOR_TEST(test_failed_cell_with_samples_is_not_nothing),
		IOR_TEST_END,
	};
	ior_test_require_root("creates loop devices and switches schedulers");
	return ior_test_run("run", tests);
}
