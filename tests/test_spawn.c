/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for common/spawn: environment additions, directory, captured and piped output, the limit, a
 * group ended whole, start errors. */
#include "common/error.h"
#include "common/spawn.h"
#include "tests/suite.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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

static void test_shell_gets_env_additions_and_dir(void)
{
	setenv("IOR_SPAWN_TEST_OLD", "ours", 1);
	struct ior_spawn c = { .shell = "printf '%s %s %s' \"$IOR_SPAWN_TEST_NEW\" \"$IOR_SPAWN_TEST_OLD\" \"$(pwd -P)\"",
			       .env = (const char *const[]){ "IOR_SPAWN_TEST_NEW=added", "IOR_SPAWN_TEST_OLD=replaced", NULL },
			       .dir = ior_test_tmpdir(), .out_to = IOR_SPAWN_OUT_CAPTURE };
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_spawn_run(&c)), IOR_OK);
	CU_ASSERT_EQUAL(ior_spawn_check(&c, "sh"), IOR_OK);
	char want[4200], dir[4096];
	CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(ior_test_tmpdir(), dir));
	snprintf(want, sizeof(want), "added replaced %s", dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c.out);
	CU_ASSERT_STRING_EQUAL(c.out, want);
	CU_ASSERT_STRING_EQUAL(getenv("IOR_SPAWN_TEST_OLD"), "ours");   /* ours untouched */
	ior_spawn_free(&c);
}

static void test_check_names_status_and_stderr_tail(void)
{
	struct ior_spawn c = { .shell = "echo first >&2; echo 'the reason' >&2; exit 3" };
	CU_ASSERT_EQUAL_FATAL(ior_spawn_run(&c), IOR_OK);
	CU_ASSERT_EQUAL(ior_spawn_check(&c, "tool"), IOR_ERROR);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "'tool' exited with status 3: the reason");
	ior_spawn_free(&c);
}

/* Both ways of starting (posix_spawn and fork) say a missing program at the start, not as a status. */
static void test_missing_program_is_a_start_error(void)
{
	for (unsigned flags = 0; flags <= IOR_SPAWN_DIE_WITH_US; flags += IOR_SPAWN_DIE_WITH_US) {
		struct ior_spawn c = { .argv = (const char *const[]){ "ioregress-no-such-program", NULL }, .flags = flags };
		CU_ASSERT_EQUAL(ior_spawn_run(&c), IOR_ERROR);
		CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "cannot run 'ioregress-no-such-program'"));
		ior_spawn_free(&c);
	}
	struct ior_spawn d = { .argv = (const char *const[]){ "true", NULL }, .dir = "/nonexistent/ioregress",
			       .flags = IOR_SPAWN_GROUP };
	CU_ASSERT_EQUAL(ior_spawn_run(&d), IOR_ERROR);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "No such file or directory"));
}

static void test_limit_kills_and_check_names_it(void)
{
	struct ior_spawn c = { .argv = (const char *const[]){ "sleep", "30", NULL }, .limit_s = 0.5 };
	double t0 = now_s();
	CU_ASSERT_EQUAL_FATAL(ior_spawn_run(&c), IOR_OK);
	CU_ASSERT_TRUE(now_s() - t0 < 3);
	CU_ASSERT_TRUE(c.timed_out);
	CU_ASSERT_TRUE(WIFSIGNALED(c.status) && WTERMSIG(c.status) == SIGKILL);
	CU_ASSERT_EQUAL(ior_spawn_check(&c, "sleep"), IOR_ETIMEDOUT);
	ior_spawn_free(&c);
}

static bool gone(pid_t pid)
{
	for (int i = 0; i < 250; i++) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		char *st = ior_test_read_file(path, NULL);
		if (!st)
			return true;
		char *paren = strrchr(st, ')');
		bool zombie = paren && (paren[2] == 'Z' || paren[2] == 'X');
		free(st);
		if (zombie)
			return true;
		usleep(20000);
	}
	return false;
}

/* What the command started in the background ends with it, and a grouped status is the command's. */
static void test_group_is_ended_whole(void)
{
	struct ior_spawn c = { .shell = "sleep 30 & echo $!; wait", .out_to = IOR_SPAWN_OUT_CAPTURE,
			       .flags = IOR_SPAWN_GROUP, .limit_s = 0.5 };
	CU_ASSERT_EQUAL_FATAL(ior_spawn_run(&c), IOR_OK);
	CU_ASSERT_TRUE(c.timed_out);
	CU_ASSERT_TRUE(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 128 + SIGTERM);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c.out);
	pid_t sleeper = (pid_t)atoi(c.out);
	CU_ASSERT_TRUE(sleeper > 0 && gone(sleeper));
	ior_spawn_free(&c);
}

static void test_output_past_max_ends_the_child(void)
{
	struct ior_spawn c = { .argv = (const char *const[]){ "yes", NULL }, .out_to = IOR_SPAWN_OUT_CAPTURE,
			       .max_out = 100000 };
	CU_ASSERT_EQUAL_FATAL(ior_spawn_run(&c), IOR_OK);
	CU_ASSERT_TRUE(c.too_long);
	CU_ASSERT_TRUE(c.out_len > 100000);
	ior_spawn_free(&c);
}

/* A child that dies with us (qemu) is gone even when we are SIGKILLed. */
static void test_child_dies_with_us(void)
{
	int fds[2];
	CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
	fflush(NULL);
	pid_t us = fork();
	CU_ASSERT_TRUE_FATAL(us >= 0);
	if (us == 0) {
		struct ior_spawn c = { .argv = (const char *const[]){ "sleep", "30", NULL },
				       .flags = IOR_SPAWN_DIE_WITH_US };
		pid_t pid = ior_spawn_start(&c) == IOR_OK ? c.pid : -1;
		if (write(fds[1], &pid, sizeof(pid)) != sizeof(pid))
			_exit(1);
		pause();
		_exit(0);
	}
	close(fds[1]);
	pid_t sleeper = -1;
	CU_ASSERT_EQUAL(read(fds[0], &sleeper, sizeof(sleeper)), (ssize_t)sizeof(sleeper));
	close(fds[0]);
	kill(us, SIGKILL);
	waitpid(us, NULL, 0);
	CU_ASSERT_TRUE(sleeper > 0 && gone(sleeper));
}

/* A piped child (qemu's console): the caller writes its stdin and reads its stdout and stderr. */
static void test_pipe_is_the_callers(void)
{
	struct ior_spawn c = { .shell = "read line; echo \"out $line\"; echo err >&2", .out_to = IOR_SPAWN_OUT_PIPE,
			       .flags = IOR_SPAWN_DIE_WITH_US };
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_spawn_start(&c)), IOR_OK);
	CU_ASSERT_EQUAL(write(c.in_fd, "hello\n", 6), 6);
	char buf[256];
	size_t have = 0;
	ssize_t got;
	while (have < sizeof(buf) - 1 && (got = read(c.out_fd, buf + have, sizeof(buf) - 1 - have)) > 0)
		have += (size_t)got;
	buf[have] = '\0';
	CU_ASSERT_EQUAL(ior_spawn_wait(&c), IOR_OK);
	CU_ASSERT_STRING_EQUAL(buf, "out hello\nerr\n");
	CU_ASSERT_TRUE(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0);
	CU_ASSERT_EQUAL(c.in_fd, -1);
	CU_ASSERT_EQUAL(c.out_fd, -1);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_shell_gets_env_additions_and_dir),
		IOR_TEST(test_check_names_status_and_stderr_tail),
		IOR_TEST(test_missing_program_is_a_start_error),
		IOR_TEST(test_limit_kills_and_check_names_it),
		IOR_TEST(test_group_is_ended_whole),
		IOR_TEST(test_output_past_max_ends_the_child),
		IOR_TEST(test_child_dies_with_us),
		IOR_TEST(test_pipe_is_the_callers),
		IOR_TEST_END,
	};
	return ior_test_run("spawn", tests);
}
