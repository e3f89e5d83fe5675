/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Crash recovery end to end: SIGKILL a real run at random points, `recover`, `run --resume`;
 * nothing left behind, nothing lost or doubled. */
#include "tests/suite.h"

#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdbool.h>
#include <spawn.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KILLS 20
#define REPS 12

extern char **environ;

static char binary[512], db[512], matrix[512];

static pid_t start(char *const args[])
{
	char *argv[16] = { binary, "--quiet", "--db", db };
	int n = 4;
	for (int i = 0; args[i] && n < 15; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid = -1;
	if (posix_spawn(&pid, binary, &fa, NULL, argv, environ) != 0)
		pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	return pid;
}

static int finish(pid_t pid)
{
	int status;
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int64_t query(const char *sql)
{
	return ior_test_query(db, sql);
}

static char *schedulers_snapshot(void)
{
	static char buf[8192];
	ior_test_loop_schedulers(buf, sizeof(buf));
	return buf;
}

static int leftover_files(void)
{
	char pattern[600];
	snprintf(pattern, sizeof(pattern), "%s/ioregress-loop.*", ior_test_tmpdir());
	return ior_test_count_glob(pattern);
}

/* A loop device still attached to one of this test's backing files (autoclear should have
 * detached it when the killed process's descriptors closed). */
static int leftover_loops(void)
{
	char backing[8192];
	ior_test_read_glob("/sys/block/loop*/loop/backing_file", backing, sizeof(backing));
	return strstr(backing, ior_test_tmpdir()) != NULL;
}

static void test_kill_recover_resume(void)
{
	char before[8192];
	snprintf(before, sizeof(before), "%s", schedulers_snapshot());
	srand((unsigned)time(NULL));
	int kills = 0;
	for (int i = 0; i < KILLS; i++) {
		bool have_run = query("SELECT count(*) FROM runs") > 0;
		if (have_run && query("SELECT count(*) FROM runs WHERE id = 1 AND status = 'complete'") == 1)
			break; /* finished between kills: nothing more to interrupt */
		char *fresh[] = { "run", matrix, NULL };
		char *resume[] = { "run", "--resume", "1", NULL };
		pid_t pid = start(have_run ? resume : fresh);
		CU_ASSERT_FATAL(pid > 0);
		usleep((useconds_t)(50000 + rand() % 700000)); /* 50 to 750 ms: set-up, switching, measuring */
		kill(pid, SIGKILL);
		finish(pid);
		kills++;
		char *recover[] = { "recover", NULL };
		CU_ASSERT_EQUAL(finish(start(recover)), 0);
		/* after recover the machine is as it was */
		CU_ASSERT_STRING_EQUAL(schedulers_snapshot(), before);
		CU_ASSERT_EQUAL(leftover_files(), 0);
		CU_ASSERT_EQUAL(leftover_loops(), 0);
		CU_ASSERT_EQUAL(query("SELECT count(*) FROM undo_log WHERE undone_at IS NULL"), 0);
	}
	fprintf(stderr, "%d kills before the run completed\n", kills);
	if (query("SELECT count(*) FROM runs WHERE id = 1 AND status = 'complete'") != 1) {
		char *resume[] = { "run", "--resume", "1", NULL };
		CU_ASSERT_EQUAL(finish(start(resume)), 0);
	}
	CU_ASSERT_EQUAL(query("SELECT count(*) FROM runs"), 1);
	CU_ASSERT_EQUAL(query("SELECT count(*) FROM runs WHERE status = 'complete'"), 1);
	/* exactly the expected samples: every repetition of both cells once, none twice */
	CU_ASSERT_EQUAL(query("SELECT count(*) FROM samples"), 2 * REPS);
	CU_ASSERT_EQUAL(query("SELECT count(DISTINCT cell_id || '-' || rep) FROM samples"), 2 * REPS);
	CU_ASSERT_EQUAL(query("SELECT max(rep) FROM samples"), REPS);
	sqlite3 *h;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *st;
	CU_ASSERT_EQUAL(sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1, &st, NULL), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_step(st), SQLITE_ROW);
	CU_ASSERT_STRING_EQUAL((const char *)sqlite3_column_text(st, 0), "ok");
	sqlite3_finalize(st);
	sqlite3_close(h);
	CU_ASSERT_STRING_EQUAL(schedulers_snapshot(), before);
	CU_ASSERT_EQUAL(leftover_files(), 0);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_kill_recover_resume),
		IOR_TEST_END,
	};
	ior_test_require_root("kills real runs that create loop devices and switch schedulers");
	const char *b = getenv("IOR_BINARY");
	if (!b || access(b, X_OK) != 0)
		ior_test_skip("IOR_BINARY does not name the ioregress binary");
	snprintf(binary, sizeof(binary), "%s", b);
	snprintf(db, sizeof(db), "%s/crash.db", ior_test_tmpdir());
	char text[1024];
	snprintf(text, sizeof(text),
		 "[matrix]\nrepetitions = %d\nschedulers = mq-deadline %s\ndrop_caches = no\n"
		 "[device scratch]\nloop = 512M\nbacking_dir = %s\n"
		 "[engine quick]\ntype = hdparm\nduration = 0.2s\nsettle = 0s\n", REPS, ior_test_second_scheduler(),
		 ior_test_tmpdir());
	snprintf(matrix, sizeof(matrix), "%s", ior_test_write_file("crash.ini", text));
	return ior_test_run("crash", tests);
}
