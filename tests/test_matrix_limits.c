/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the matrix's limits (issue 23, case 10): max_cells refused before any engine is built,
 * and files that are not matrices (a device, a huge file) refused before they are read. */
#include "common/error.h"
#include "matrix/matrix.h"
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* 5 swept keys of 60 values: 7.8e8 engines. Parsed in a child held to 512 MiB of address space
 * (not under ASan, whose shadow needs more) and 20 s: a parser that expands first runs out of both. */
static void test_sweep_past_max_cells_refused_before_expanding(void)
{
	char text[16384], *at = text;
	at += sprintf(at, "[matrix]\nschedulers = none\n[device d]\nloop = 8M\n[engine many]\ntype = aio\n");
	const char *keys[] = { "bs", "iodepth", "numjobs", "size", "runtime" };
	for (int k = 0; k < 5; k++) {
		at += sprintf(at, "%s =", keys[k]);
		for (int v = 1; v <= 60; v++)
			at += k == 0 ? sprintf(at, " %dk", 4 * v) : k == 3 ? sprintf(at, " %dM", v) : k == 4 ? sprintf(at, " %ds", v)
									      : sprintf(at, " %d", v);
		at += sprintf(at, "\n");
	}
	fflush(NULL);
	double t0 = now_s();
	pid_t pid = fork();
	if (pid == 0) {
#ifndef UNDER_ASAN
		struct rlimit as = { 512u << 20, 512u << 20 };
		setrlimit(RLIMIT_AS, &as);
#endif
		alarm(20);
		struct ior_matrix *m = NULL;
		int rc = ior_matrix_parse_string(&m, "many.ini", text);
		bool named = strstr(ior_error_last(), "max_cells = 10000") && strstr(ior_error_last(), "many.ini:5");
		if (!named)
			fprintf(stderr, "\n  rc %d: %s", rc, ior_error_last());
		_exit(rc == IOR_EINVALID && named ? 0 : 1);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	double took = now_s() - t0;
	fprintf(stderr, "\n  refused in %.2f s (status %d)\n", took, status);
	CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CU_ASSERT_TRUE(took < 5);
}

/* What the budget must let through: exactly max_cells. */
static void test_sweep_up_to_max_cells_accepted(void)
{
	struct ior_matrix *m = NULL;
	const char text[] = "[matrix]\nschedulers = none\nmax_cells = 6\n[device a]\nloop = 8M\n[device b]\nloop = 8M\n"
			    "[engine one]\ntype = aio\nbs = 4k 8k\n[engine two]\ntype = aio\niodepth = 1\n";
	CU_ASSERT_EQUAL(ior_test_ok(ior_matrix_parse_string(&m, "six.ini", text)), IOR_OK);
	ior_matrix_free(m);
	const char over[] = "[matrix]\nschedulers = none\nmax_cells = 5\n[device a]\nloop = 8M\n[device b]\nloop = 8M\n"
			    "[engine one]\ntype = aio\nbs = 4k 8k\n[engine two]\ntype = aio\niodepth = 1\n";
	m = NULL;
	CU_ASSERT_EQUAL(ior_matrix_parse_string(&m, "five.ini", over), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "max_cells = 5"));
	ior_matrix_free(m);
}

/* include = /dev/zero read until memory ran out; a device is no matrix, nor is a file past the cap. */
static void test_include_of_a_device_or_a_huge_file_refused(void)
{
	struct ior_matrix *m = NULL;
	const char *main_ini = ior_test_write_file("zero.ini", "include = /dev/zero\n[device d]\nloop = 8M\n[engine e]\ntype = aio\n");
	double t0 = now_s();
	CU_ASSERT_EQUAL(ior_matrix_parse_file(&m, main_ini), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "not a regular file"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "zero.ini:1: include"));
	CU_ASSERT_TRUE(now_s() - t0 < 1);
	ior_matrix_free(m);

	char big[4096];
	snprintf(big, sizeof(big), "%s/big.ini", ior_test_tmpdir());
	FILE *f = fopen(big, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (int i = 0; i < (17 << 20) / 64; i++)
		fputs("; a comment line of sixty-four bytes, padding the file out......\n", f);
	fclose(f);
	const char *inc = ior_test_write_file("big-main.ini", "include = big.ini\n[device d]\nloop = 8M\n[engine e]\ntype = aio\n");
	m = NULL;
	CU_ASSERT_EQUAL(ior_matrix_parse_file(&m, inc), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "16 MiB"));
	ior_matrix_free(m);
	m = NULL;
	CU_ASSERT_EQUAL(ior_matrix_parse_file(&m, "/dev/zero"), IOR_EINVALID);
	ior_matrix_free(m);
}

/* Issue 23: --set matrix.max_cells could not lift the file's own limit (the file was refused before
 * the override was applied). */
static void test_set_max_cells_lifts_the_files_limit(void)
{
	const char *path = ior_test_write_file("twelve.ini", "[matrix]\nschedulers = none\nmax_cells = 10\n[device d]\n"
					       "loop = 8M\n[engine e]\ntype = dd\nbs = 4k 8k 16k 32k 64k 128k 256k 512k 1M 2M 4M 8M\n");
	struct ior_matrix *m = NULL;
	CU_ASSERT_EQUAL(ior_matrix_parse_file(&m, path), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "max_cells = 10"));
	const char *lift[] = { "matrix.max_cells=12" };
	CU_ASSERT_EQUAL_FATAL(ior_matrix_parse_file_set(&m, path, lift, 1), IOR_OK);
	CU_ASSERT_EQUAL(m->nengines, 12);
	CU_ASSERT_PTR_NOT_NULL(strstr(m->text, "max_cells = 12")); /* what a run stores, and resumes */
	ior_matrix_free(m);
	m = NULL;
	const char *lower[] = { "matrix.max_cells=12", "matrix.max_cells=11" };
	CU_ASSERT_EQUAL(ior_matrix_parse_file_set(&m, path, lower, 2), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "max_cells = 11"));
	const char *typo[] = { "matrix.max_cels=100" };
	CU_ASSERT_EQUAL(ior_matrix_parse_file_set(&m, path, typo, 1), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "override 'matrix.max_cels=100'"));
	CU_ASSERT_PTR_NULL(m);
}

/* Issue 23: a name over 63 characters was refused as "not a valid name", without the limit. */
static void test_long_name_refused_naming_the_limit(void)
{
	char name[80], text[512];
	memset(name, 'a', 64);
	name[64] = '\0';
	snprintf(text, sizeof(text), "[device d]\nloop = 8M\n[engine %s]\ntype = dd\n", name);
	struct ior_matrix *m = NULL;
	CU_ASSERT_EQUAL(ior_matrix_parse_string(&m, "long.ini", text), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "long.ini:3:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "64 characters long: a name has at most 63"));
	name[63] = '\0';
	snprintf(text, sizeof(text), "[device d]\nloop = 8M\n[engine %s]\ntype = dd\n", name);
	CU_ASSERT_EQUAL(ior_matrix_parse_string(&m, "long.ini", text), IOR_OK);
	ior_matrix_free(m);
}

/* Duplicates among many sections (found by one sort since issue 23 measured 560 s for 200,000
 * engines): the first repeat is the one named, with the first of its name, for engines and devices. */
static void test_duplicates_among_many_sections(void)
{
	size_t cap = 64u << 10;
	char *text = malloc(cap), *at = text;
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	at += sprintf(at, "[matrix]\nschedulers = none\nmax_cells = 100000\n[device d]\nloop = 8M\n"); /* lines 1-5 */
	for (int i = 0; i < 2000; i++)   /* engine e<i> at line 6 + 2i */
		at += sprintf(at, "[engine e%d]\ntype = dd\n", i == 1500 || i == 1700 ? 7 : i);
	struct ior_matrix *m = NULL;
	CU_ASSERT_EQUAL(ior_matrix_parse_string(&m, "dup.ini", text), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "dup.ini:3006: [engine e7]: section given twice (first at line 20)"));
	at = text;
	at += sprintf(at, "[device d0]\nloop = 8M\n[device d1]\nloop = 8M\n[device d0]\nloop = 8M\n[engine e]\ntype = dd\n");
	CU_ASSERT_EQUAL(ior_matrix_parse_string(&m, "dup.ini", text), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "dup.ini:5: [device d0]: section given twice (first at line 1)"));
	free(text);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_sweep_up_to_max_cells_accepted),
		IOR_TEST(test_sweep_past_max_cells_refused_before_expanding),
		IOR_TEST(test_include_of_a_device_or_a_huge_file_refused),
		IOR_TEST(test_set_max_cells_lifts_the_files_limit),
		IOR_TEST(test_long_name_refused_naming_the_limit),
		IOR_TEST(test_duplicates_among_many_sections),
		IOR_TEST_END,
	};
	return ior_test_run("matrix_limits", tests);
}
