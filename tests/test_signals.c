/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SIGINT, SIGTERM and SIGHUP sent to a real run at several points: the machine is left as it was and the run is marked interrupted with its samples. */
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

/* Waits until the run has committed a sample (at most 60 s): the set-up before it (the scratch
 * fill, the loop stack) takes 1.5 s in a plain build and 5 s under ASan here, so a fixed delay
 * cannot say "after the first samples" in both. */
static void wait_for_a_sample(const char *db)
{
	for (int i = 0; i < 1200 && !(ior_test_query(db, "SELECT count(*) FROM samples") > 0); i++)
		usleep(50000);
}

/* delay 0: signal once the first sample is stored. */
static void signal_run_after(int signo, useconds_t delay, int round)
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
	if (delay)
		usleep(delay);
	else
		wait_for_a_sample(db);
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
	if (delay == 0) /* late signals: samples were measured and are kept */
		CU_ASSERT_TRUE(ior_test_query(db, "SELECT count(*) FROM samples") > 0);
}

static const useconds_t points[] = { 150000, 900000, 0 }; /* set-up, first cells, after a sample */

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
		 "[matrix]\nrepetitions = 2000\nschedulers = mq-deadline bfq\ndrop_caches = no\n"
		 "[device scratch]\nloop = 64M\nbacking_dir = %s\n"
		 "[engine nested]\ntype = loop\nbacking = tmpfs\nbacking_size = 80M\nsize = 64M\ndepth = 2\n"
		 "inner = dd\ninner_options = bs=1M count=8 sync=end\n"
		 "[engine quick]\ntype = hdparm\nduration = 0.1s\nsettle = 0s\n", ior_test_tmpdir());
	snprintf(matrix, sizeof(matrix), "%s", ior_test_write_file("signals.ini", text));
	return ior_test_run("signals", tests);
}
