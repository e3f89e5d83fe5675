/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the shared test runner itself: cases that did not run are listed, counted, and a suite
 * where none ran in full is "not run" (77). */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void inner_passes(void)
{
	CU_ASSERT_EQUAL(1 + 1, 2);
}

static void inner_not_run(void)
{
	ior_test_not_run("no %s here", "widget");
}

static const struct ior_test inner_none[] = { IOR_TEST(inner_not_run), IOR_TEST(inner_not_run), IOR_TEST_END };
static const struct ior_test inner_some[] = { IOR_TEST(inner_passes), IOR_TEST(inner_not_run), IOR_TEST_END };
static const struct ior_test inner_all[] = { IOR_TEST(inner_passes), IOR_TEST_END };

/* Runs this program again with the inner suite's name (a CUnit registry cannot be started from
 * inside a running test), stdout into out; its exit status. */
static int run_inner(const char *which, const char *out)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	CU_ASSERT_FATAL(n > 0);
	self[n] = 0;
	char *argv[] = { self, (char *)which, NULL };
	return ior_test_spawn_to(argv, NULL, out, NULL);
}

static void test_a_suite_where_nothing_ran_is_not_run(void)
{
	const char *out = ior_test_path("none.out");
	CU_ASSERT_EQUAL(run_inner("none", out), 77);
	char *text = ior_test_read_file(out, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "inner: 2 of 2 case(s) did not run:"));
	free(text);
}

static void test_cases_not_run_are_listed_with_their_reason(void)
{
	const char *out = ior_test_path("some.out");
	CU_ASSERT_EQUAL(run_inner("some", out), 0);
	char *text = ior_test_read_file(out, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "inner: 1 of 2 case(s) did not run:\n  inner_not_run: no widget here\n"));
	CU_ASSERT_PTR_NULL(strstr(text, "inner_passes: "));
	free(text);
}

static void test_a_suite_where_every_case_ran_lists_nothing(void)
{
	const char *out = ior_test_path("all.out");
	CU_ASSERT_EQUAL(run_inner("all", out), 0);
	char *text = ior_test_read_file(out, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NULL(strstr(text, "did not run"));
	free(text);
}

int main(int argc, char **argv)
{
	if (argc == 2)  /* the inner suites, run by the cases below */
		return ior_test_run("inner", !strcmp(argv[1], "none") ? inner_none : !strcmp(argv[1], "some") ? inner_some : inner_all);
	static const struct ior_test tests[] = {
		IOR_TEST(test_a_suite_where_nothing_ran_is_not_run),
		IOR_TEST(test_cases_not_run_are_listed_with_their_reason),
		IOR_TEST(test_a_suite_where_every_case_ran_lists_nothing),
		IOR_TEST_END,
	};
	return ior_test_run("suite_runner", tests);
}
