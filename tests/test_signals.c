/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SIGINT, SIGTERM and SIGHUP sent to a real run at several points: the machine is left as it was
 * and the run is marked interrupted with its samples. */
#include "tests/suite.h"

#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static char binary[512], matrix[512];

/* Mounts, loop devices and files that only a run of this test could have made. */
static int leftovers(void)
{
	int n = 0;
	FILE *m = fopen("/proc/self/mounts", "r");
	char line[1024];
	while (m && fgets(line, sizeof(line), m))
		n += strstr(line, " /tmp/ioregress-mnt.") != NULL;
	if (m)
		fclose(m);
	char backing[8192];
	ior_test_read_glob("/sys/block/loop*/loop/backing_file", backing, sizeof(backing));
	n += strstr(backing, ior_test_tmpdir()) != NULL || strstr(backing, "/tmp/ioregress-mnt.") != NULL;
	char pattern[600];
	snprintf(pattern, sizeof(pattern), "%s/ioregress-loop.*", ior_test_tmpdir());
	return n + ior_test_count_glob(pattern);
}

/* Waits until the query counts a row (at most 60 s). The points are counted from what the run
 * has stored, not from its start: the set-up before the first sample (the scratch fill, the loop
 * stack) takes 1.5 s in a plain build and 5 s under ASan here, and under ASan on a loaded host
 * (load average 6-7) a run was not yet past its start-up 150 ms after it was spawned, so the
 * signal's default action killed it before it had any handler and the test failed. */
static void wait_for_row(const char *db, const char *count_sql)
{
	for (int i = 0; i < 1200 && !(ior_test_query(db, count_sql) > 0); i++)
		usleep(50000);
}

/* Where a signal is sent: after_sample, once the first sample is stored; otherwise delay
 * microseconds after the run is recorded (its handlers are installed just before). */
struct point {
	bool after_sample;
	useconds_t delay;
};

static void signal_run_after(int signo, struct point at, int round)
{
	char db[600];
	snprintf(db, sizeof(db), "%s/signal-%d-%d.db", ior_test_tmpdir(), signo, round);
	char before[8192], after[8192];
	ior_test_loop_schedulers(before, sizeof(before));
	char *argv[] = { binary, "--quiet", "--db", db, "run", matrix, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	CU_ASSERT_EQUAL_FATAL(posix_spawn(&pid, binary, &fa, NULL, argv, environ), 0);
	posix_spawn_file_actions_destroy(&fa);
	wait_for_row(db, "SELECT count(*) FROM runs");
	if (at.after_sample)
		wait_for_row(db, "SELECT count(*) FROM samples");
	else
		usleep(at.delay);
	kill(pid, signo);
	int status;
	waitpid(pid, &status, 0);
	CU_ASSERT_TRUE(WIFEXITED(status));
	CU_ASSERT_EQUAL(WEXITSTATUS(status), 128 + signo);
	ior_test_loop_schedulers(after, sizeof(after));
	CU_ASSERT_STRING_EQUAL(after, before);
	CU_ASSERT_EQUAL(leftovers(), 0);
	if (ior_test_query(db, "SELECT count(*) FROM runs") == 1) {
		CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM runs WHERE status = 'interrupted'"), 1);
		CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM undo_log WHERE undone_at IS NULL"), 0);
	}
	if (at.after_sample) /* late signals: samples were measured and are kept */
		CU_ASSERT_TRUE(ior_test_query(db, "SELECT count(*) FROM samples") > 0);
}

/* in the set-up, in the first cells (or still the set-up under ASan), after a sample */
static const struct point points[] = { { false, 0 }, { false, 750000 }, { true, 0 } };

static void test_sigint(void)
{
	for (int i = 0; i < 3; i++)
		signal_run_after(SIGINT, points[i], i);
}

static void test_sigterm(void)
{
	for (int i = 0; i < 3; i++)
		signal_run_after(SIGTERM, points[i], i);
}

static void test_sighup(void)
{
	for (int i = 0; i < 3; i++)
		signal_run_after(SIGHUP, points[i], i);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_sigint),
		IOR_TEST(test_sigterm),
		IOR_TEST(test_sighup),
		IOR_TEST_END,
	};
	ior_test_require_root("signals real runs that create loop devices, mounts and switch schedulers");
	const char *b = getenv("IOR_BINARY");
	if (!b || access(b, X_OK) != 0)
		ior_test_skip("IOR_BINARY does not name the ioregress binary");
	snprintf(binary, sizeof(binary), "%s", b);
	char text[2048];
	/* hdparm cells switch schedulers; loop cells mount a tmpfs and an ext4 and attach two loop devices */
	snprintf(text, sizeof(text),
		 "[matrix]\nrepetitions = 2000\nschedulers = mq-deadline %s\ndrop_caches = no\n"
		 "[device scratch]\nloop = 64M\nbacking_dir = %s\n"
		 "[engine nested]\ntype = loop\nbacking = tmpfs\nbacking_size = 80M\nsize = 64M\ndepth = 2\n"
		 "inner = dd\ninner_options = bs=1M count=8 sync=end\n"
		 "[engine quick]\ntype = hdparm\nduration = 0.1s\nsettle = 0s\n", ior_test_second_scheduler(),
		 ior_test_tmpdir());
	snprintf(matrix, sizeof(matrix), "%s", ior_test_write_file("signals.ini", text));
	return ior_test_run("signals", tests);
}
