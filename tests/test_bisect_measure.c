/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for bisect/measure_cmd.c's commands (issue 23, case 8: a hung measure ends with the timeout
 * or a stop request, its whole process group with it) and the samples parser (nan, inf, hex,
 * denormals, long lines, bounded output). */
#include "bisect/measure.h"
#include "common/error.h"
#include "common/stop.h"
#include "tests/suite.h"

#include <pthread.h>
#include <signal.h>
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
	for (int i = 0; i < 250 && !(text = ior_test_read_file(pidfile, NULL)); i++)
		usleep(20000);
	if (!text)
		return false;
	pid_t pid = (pid_t)atoi(text);
	free(text);
	for (int i = 0; i < 250; i++) { /* dead: gone, or a zombie until whoever adopted it reaps it */
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

/* Issue 23 case 8: after a SIGKILL of the process measuring (ioregress itself), what sh started
 * was left running, adopted by init. The group's guard ends it. */
static void test_sigkill_of_ioregress_ends_the_group(void)
{
	struct ior_bisect_commands c = { .measure = hung_measure(), .repo = ior_test_tmpdir() };
	fflush(NULL);
	pid_t p = fork();
	CU_ASSERT_TRUE_FATAL(p >= 0);
	if (p == 0) {
		struct ior_bisect_measure *m = NULL;
		if (ior_bisect_measure_commands(&m, &c) != IOR_OK)
			_exit(1);
		double *x = NULL;
		size_t n = 0;
		enum ior_step_outcome o;
		m->measure(m, "abc", &x, &n, &o);
		_exit(0);
	}
	char *text = NULL;
	for (int i = 0; i < 250 && !(text = ior_test_read_file(pidfile, NULL)); i++)
		usleep(20000);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	free(text);
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
	CU_ASSERT_TRUE(child_gone());
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

/* One measure command's outcome and samples. */
static enum ior_step_outcome measure_once(const char *cmd, double **x, size_t *n, double *took)
{
	struct ior_bisect_commands c = { .measure = cmd, .repo = ior_test_tmpdir(), .timeout_s = 60 };
	struct ior_bisect_measure *m = NULL;
	enum ior_step_outcome o = IOR_STEP_OK;
	CU_ASSERT_EQUAL_FATAL(ior_bisect_measure_commands(&m, &c), IOR_OK);
	double t0 = now_s();
	CU_ASSERT_EQUAL(m->measure(m, "abc", x, n, &o), IOR_OK);
	if (took)
		*took = now_s() - t0;
	ior_bisect_measure_free(m);
	return o;
}

/* Issue 23: nan (stored as NULL, then a NOT NULL failure), inf, hex and denormals were samples. */
static void test_measure_refuses_what_is_no_measurement(void)
{
	static const char *const bad[] = { "nan", "NAN", "-nan", "inf", "-Infinity", "0x1p3", "0x10", "1e-320",
					   "4.9e-324", "1e999", "1e", "12abc", "1,5", "." };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char cmd[128];
		snprintf(cmd, sizeof(cmd), "printf '1.5\\n%s\\n'", bad[i]);
		double *x = NULL;
		size_t n = 0;
		enum ior_step_outcome o = measure_once(cmd, &x, &n, NULL);
		CU_ASSERT_EQUAL(o, IOR_STEP_MEASURE_FAILED);
		CU_ASSERT_EQUAL(n, 0);
		if (o != IOR_STEP_MEASURE_FAILED)
			fprintf(stderr, "\n  '%s' was taken as a sample (%zu samples)", bad[i], n);
		free(x);
	}
	/* the parser itself names the line */
	double *x = NULL;
	size_t n = 0;
	CU_ASSERT_EQUAL(ior_bisect_parse_samples("1\n2\nnan\n", 8, &x, &n), IOR_EINVALID);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "line 3: 'nan' is not a decimal number"));
	CU_ASSERT_EQUAL(ior_bisect_parse_samples("1\0" "2\n", 4, &x, &n), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "NUL byte"));
	const char *good = " -5.25e2 \r\n\n+0.5\n0\n";
	CU_ASSERT_EQUAL(ior_bisect_parse_samples(good, strlen(good), &x, &n), IOR_OK);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_DOUBLE_EQUAL(x[0], -525, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(x[1], 0.5, 1e-12);
	free(x);
}

/* Issue 23: lines were cut at 127 characters (0.000...0001 read as 0). */
static void test_measure_reads_long_lines_whole(void)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "printf '%%150s0.%%0150d1\\n' '' 0");
	double *x = NULL;
	size_t n = 0;
	enum ior_step_outcome o = measure_once(cmd, &x, &n, NULL);
	CU_ASSERT_EQUAL(o, IOR_STEP_OK);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_DOUBLE_EQUAL(x[0] * 1e151, 1.0, 1e-9);
	free(x);
}

/* Issue 23: output was buffered without bound (1 GB from `yes`); past 1 MiB the step fails. */
static void test_measure_output_is_bounded(void)
{
	double *x = NULL, took = 0;
	size_t n = 0;
	enum ior_step_outcome o = measure_once("yes 1 | head -c 3000000", &x, &n, &took);
	CU_ASSERT_EQUAL(o, IOR_STEP_MEASURE_FAILED);
	CU_ASSERT_EQUAL(n, 0);
	free(x);
	x = NULL, n = 0;
	/* and an endless one is ended at the bound, long before its timeout */
	o = measure_once("yes 1", &x, &n, &took);
	CU_ASSERT_EQUAL(o, IOR_STEP_MEASURE_FAILED);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_TRUE(took < 20);
	free(x);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_measure_reads_samples),
		IOR_TEST(test_artifact_relative_or_absolute),
		IOR_TEST(test_sigterm_ends_a_hung_measure_and_its_group),
		IOR_TEST(test_sigkill_of_ioregress_ends_the_group),
		IOR_TEST(test_timeout_skips_the_step_and_ends_the_group),
		IOR_TEST(test_measure_refuses_what_is_no_measurement),
		IOR_TEST(test_measure_reads_long_lines_whole),
		IOR_TEST(test_measure_output_is_bounded),
		IOR_TEST_END,
	};
	return ior_test_run("bisect_measure", tests);
}
