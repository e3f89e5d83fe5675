/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for bisect/measure_cmd.c's commands (issue 23, case 8): a hung measure ends with the timeout or a stop request, its whole process group with it. */
#include "bisect/measure.h"
#include "common/error.h"
#include "common/stop.h"
#include "tests/suite.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The measure command leaves a child of sh (a sleep) and writes its pid: both must be ended. */
static char pidfile[4096], command[8192];

static const char *hung_measure(void)
{
	snprintf(pidfile, sizeof(pidfile), "%s/sleep.pid", ior_test_tmpdir());
	unlink(pidfile);
	snprintf(command, sizeof(command), "sleep 20 & echo $! > %s; wait", pidfile);
	return command;
}

static bool child_gone(void)
{
	char *text = NULL;
	for (int i = 0; i < 50 && !(text = ior_test_read_file(pidfile, NULL)); i++)
		usleep(20000);
	if (!text)
		return false;
	pid_t pid = (pid_t)atoi(text);
	free(text);
	for (int i = 0; i < 50; i++) { /* dead: gone, or a zombie until whoever adopted it reaps it */
		char stat[256], *st = NULL;
		snprintf(stat, sizeof(stat), "/proc/%d/stat", (int)pid);
		if (!(st = ior_test_read_file(stat, NULL)))
			return true;
		char *close_paren = strrchr(st, ')');
		bool zombie = close_paren && close_paren[1] == ' ' && (close_paren[2] == 'Z' || close_paren[2] == 'X');
		free(st);
		if (zombie)
			return true;
		usleep(20000);
	}
	return false;
}

static void *send_term(void *arg)
{
	(void)arg;
	usleep(500000);
	kill(getpid(), SIGTERM);
	return NULL;
}

static void test_sigterm_ends_a_hung_measure_and_its_group(void)
{
	struct ior_bisect_commands c = { .measure = hung_measure(), .repo = ior_test_tmpdir() };
	struct ior_bisect_measure *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_bisect_measure_commands(&m, &c), IOR_OK);
	ior_stop_reset();
	ior_stop_install_handlers();
	pthread_t t;
	pthread_create(&t, NULL, send_term, NULL);
	double *x = NULL, t0 = now_s();
	size_t n = 0;
	enum ior_step_outcome o;
	int rc = m->measure(m, "abc", &x, &n, &o);
	double took = now_s() - t0;
	pthread_join(t, NULL);
	CU_ASSERT_EQUAL(rc, IOR_EINTERRUPTED);
	if (rc != IOR_EINTERRUPTED)
		fprintf(stderr, "\n  rc %d outcome %d: %s", rc, (int)o, ior_error_last());
	CU_ASSERT_TRUE(took < 5);
	fprintf(stderr, "\n  SIGTERM at 0.5 s: measure returned after %.2f s\n", took);
	CU_ASSERT_TRUE(child_gone());
	free(x);
	ior_bisect_measure_free(m);
	ior_stop_reset();
}

static void test_timeout_skips_the_step_and_ends_the_group(void)
{
	struct ior_bisect_commands c = { .measure = hung_measure(), .repo = ior_test_tmpdir(), .timeout_s = 1 };
	struct ior_bisect_measure *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_bisect_measure_commands(&m, &c), IOR_OK);
	double *x = NULL, t0 = now_s();
	size_t n = 0;
	enum ior_step_outcome o = IOR_STEP_OK;
	CU_ASSERT_EQUAL(m->measure(m, "abc", &x, &n, &o), IOR_OK);
	double took = now_s() - t0;
	CU_ASSERT_EQUAL(o, IOR_STEP_MEASURE_FAILED);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_TRUE(took >= 1 && took < 5);
	CU_ASSERT_TRUE(child_gone());
	free(x);
	ior_bisect_measure_free(m);
}

/* What must keep working: a quick measure's samples. */
static void test_measure_reads_samples(void)
{
	struct ior_bisect_commands c = { .measure = "printf '1.5\\n2.5\\n'", .repo = ior_test_tmpdir(), .timeout_s = 5 };
	struct ior_bisect_measure *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_bisect_measure_commands(&m, &c), IOR_OK);
	double *x = NULL;
	size_t n = 0;
	enum ior_step_outcome o;
	CU_ASSERT_EQUAL(m->measure(m, "abc", &x, &n, &o), IOR_OK);
	CU_ASSERT_EQUAL(o, IOR_STEP_OK);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_DOUBLE_EQUAL(x[0], 1.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(x[1], 2.5, 1e-12);
	free(x);
	ior_bisect_measure_free(m);
}

/* The artifact is hashed where the build left it, named relative to the tree or by an absolute path
 * (an absolute one was joined to the tree, and every build then "failed": bench/real-bisect.sh's
 * first run refused its good end). */
static void test_artifact_relative_or_absolute(void)
{
	char abs[4096];
	snprintf(abs, sizeof(abs), "%s/artifact.bin", ior_test_tmpdir());
	const char *names[2] = { "artifact.bin", abs };
	char hash[2][80];
	for (int k = 0; k < 2; k++) {
		struct ior_bisect_commands c = { .build = "echo built > artifact.bin", .measure = "echo 1", .image = names[k],
						 .repo = ior_test_tmpdir(), .timeout_s = 5 };
		struct ior_bisect_measure *m = NULL;
		CU_ASSERT_EQUAL_FATAL(ior_bisect_measure_commands(&m, &c), IOR_OK);
		enum ior_step_outcome o;
		CU_ASSERT_EQUAL(m->build(m, "abc", &o, hash[k], sizeof(hash[k])), IOR_OK);
		CU_ASSERT_EQUAL(o, IOR_STEP_OK);
		CU_ASSERT_NOT_EQUAL(hash[k][0], '\0');
		ior_bisect_measure_free(m);
	}
	CU_ASSERT_STRING_EQUAL(hash[0], hash[1]);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_measure_reads_samples),
		IOR_TEST(test_artifact_relative_or_absolute),
		IOR_TEST(test_sigterm_ends_a_hung_measure_and_its_group),
		IOR_TEST(test_timeout_skips_the_step_and_ends_the_group),
		IOR_TEST_END,
	};
	return ior_test_run("bisect_measure", tests);
}
