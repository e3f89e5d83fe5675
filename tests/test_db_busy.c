/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A writer holding the database past the busy timeout (issue 23: a 4M-sample merge takes 27-48 s)
 * neither loses the sample a run is storing nor ends the run. */
#include "common/error.h"
#include "common/stop.h"
#include "db/db.h"
#include "tests/suite.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* A run's database with one cell; the busy timeout cut to 100 ms so the other writer outlasts it
 * at once (the real one is 30 s). */
static struct ior_db *open_with_cell(const char *path, int64_t *cell)
{
	unlink(path);
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, path)), 0);
	struct ior_db_kernel k = { .release = "6.1.0-47-cloud-amd64" };
	struct ior_db_device d = { .name = "scratch", .rotational = -1 };
	int64_t h, kid, dev, run;
	CU_ASSERT_EQUAL_FATAL(ior_db_host_get(db, "h", NULL, &h), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_kernel_get(db, &k, &kid), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_device_get(db, h, &d, &dev), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_run_begin(db, h, kid, "m.ini", "", IOR_RUN_RUNNING, &run), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_cell_get(db, run, dev, "none", "seq", "dd", "bs=1M", cell), 0);
	sqlite3_busy_timeout(ior_db_handle(db), 100);
	return db;
}

/* A second connection (another process, as a merge is) takes the write lock and keeps it for
 * hold_s; returns its pid once the lock is held. */
static pid_t hold_write_lock(const char *path, double hold_s)
{
	int ready[2];
	CU_ASSERT_EQUAL_FATAL(pipe(ready), 0);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		sqlite3 *h = NULL;
		if (sqlite3_open(path, &h) != SQLITE_OK || sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK ||
		    sqlite3_exec(h, "INSERT INTO hosts (name) VALUES ('merged')", NULL, NULL, NULL) != SQLITE_OK)
			_exit(1);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		usleep((useconds_t)(hold_s * 1e6));
		_exit(sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : 1);
	}
	close(ready[1]);
	char c;
	CU_ASSERT_EQUAL(read(ready[0], &c, 1), 1);
	close(ready[0]);
	return pid;
}

static void test_sample_waits_for_a_long_writer(void)
{
	const char *path = ior_test_path("busy.db");
	int64_t cell;
	struct ior_db *db = open_with_cell(path, &cell);
	pid_t writer = hold_write_lock(path, 1.5);
	struct ior_sample s = { .value = 812.5, .unit = "MB/s", .higher_is_better = true };
	double t0 = now_s();
	int rc = ior_db_sample_add(db, cell, 1, &s);
	double took = now_s() - t0;
	CU_ASSERT_EQUAL(rc, IOR_OK);
	if (rc)
		fprintf(stderr, "\n  after %.2f s: %s\n", took, ior_error_last());
	else
		fprintf(stderr, "\n  the sample was stored after %.2f s, past a 1.5 s write lock (busy timeout 0.1 s)\n", took);
	CU_ASSERT_TRUE(took >= 1.0);
	int st = -1;
	waitpid(writer, &st, 0);
	CU_ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	bool exists = false;
	double value = 0;
	CU_ASSERT_EQUAL(ior_db_sample_at(db, cell, 1, &exists, &value), 0);
	CU_ASSERT_TRUE(exists);
	CU_ASSERT_DOUBLE_EQUAL(value, 812.5, 1e-9);
	ior_db_free(db);
	CU_ASSERT_EQUAL(ior_test_query(path, "SELECT count(*) FROM hosts WHERE name = 'merged'"), 1);
}

/* A stop request still ends the wait: the run is interrupted, not hung behind the lock. */
static void test_stop_ends_the_wait(void)
{
	const char *path = ior_test_path("busy-stop.db");
	int64_t cell;
	struct ior_db *db = open_with_cell(path, &cell);
	pid_t writer = hold_write_lock(path, 3);
	ior_stop_reset();
	ior_stop_request(15);
	struct ior_sample s = { .value = 1, .unit = "MB/s", .higher_is_better = true };
	double t0 = now_s();
	CU_ASSERT_EQUAL(ior_db_sample_add(db, cell, 1, &s), IOR_EBUSY);
	CU_ASSERT_TRUE(now_s() - t0 < 2);
	ior_stop_reset();
	int st;
	waitpid(writer, &st, 0);
	ior_db_free(db);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_sample_waits_for_a_long_writer),
		IOR_TEST(test_stop_ends_the_wait),
		IOR_TEST_END,
	};
	return ior_test_run("db_busy", tests);
}
