/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for engines/uring.c: the shared fio job cases on io_uring, and the probe that turns a
 * disabled io_uring into a skip. */
#include "tests/engine_job_cases.h"

#define SYSCTL "/proc/sys/kernel/io_uring_disabled"

static int saved_sysctl = -1;

static int read_sysctl(void)
{
	FILE *f = fopen(SYSCTL, "re");
	int v = -1;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static bool write_sysctl(int v)
{
	FILE *f = fopen(SYSCTL, "we");
	if (!f)
		return false;
	bool ok = fprintf(f, "%d\n", v) > 0;
	return fclose(f) == 0 && ok;
}

static void restore_sysctl(void)
{
	if (saved_sysctl >= 0 && read_sysctl() != saved_sysctl)
		write_sysctl(saved_sysctl);
}

static void test_supported_here(void)
{
	CU_ASSERT_EQUAL(ops->supported(NULL), IOR_OK);
}

/* Switches io_uring off for a moment (kernel.io_uring_disabled = 2) and puts the old value back:
 * the probe must report a skip with the reason, not an error. */
static void test_disabled_io_uring_is_a_skip(void)
{
	saved_sysctl = read_sysctl();
	if (saved_sysctl < 0 || !write_sysctl(2)) {
		ior_test_not_run("no %s switch here: the probe's failure path was not exercised", SYSCTL);
		saved_sysctl = -1;
		return;
	}
	int rc = ops->supported(NULL);
	char msg[256];
	snprintf(msg, sizeof(msg), "%s", ior_error_last());
	restore_sysctl();
	CU_ASSERT_EQUAL(read_sysctl(), saved_sysctl);
	CU_ASSERT_EQUAL(rc, IOR_EUNSUPPORTED);
	CU_ASSERT_PTR_NOT_NULL(strstr(msg, "io_uring_disabled"));
	CU_ASSERT_EQUAL(ops->supported(NULL), IOR_OK);
}

int main(void)
{
	atexit(restore_sysctl);
	static const struct ior_test extra[] = {
		IOR_TEST(test_supported_here),
		IOR_TEST(test_disabled_io_uring_is_a_skip),
		IOR_TEST_END,
	};
	return job_suite_main("uring", "engine_uring", extra);
}
