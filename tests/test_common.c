/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for common/: the last-error message, kept across clean-up, and the stop flag. */
#include "common/error.h"
#include "common/stop.h"
#include "tests/suite.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

static void test_error_set_returns_code_and_keeps_message(void)
{
	CU_ASSERT_EQUAL(ior_error_set(IOR_EINVALID, "bad key '%s'", "bs"), IOR_EINVALID);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "bad key 'bs'");
	ior_error_clear();
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "");
}

static void test_error_errno_appends_strerror(void)
{
	ior_error_errno(IOR_ERROR, ENOENT, "cannot open '%s'", "x.ini");
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "cannot open 'x.ini': No such file or directory");
}

static void test_error_wrap_prefixes_context(void)
{
	ior_error_set(IOR_EINVALID, "bs: '4q' is not a size");
	CU_ASSERT_EQUAL(ior_error_wrap(IOR_EINVALID, "m.ini:7"), IOR_EINVALID);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "m.ini:7: bs: '4q' is not a size");
}

/* Clean-up that fails on its own does not replace the first error; without one, its own stands. */
static void test_error_save_restore_keeps_the_first(void)
{
	struct ior_error_state first;
	CU_ASSERT_EQUAL(ior_error_save(&first, ior_error_set(IOR_EINVALID, "bad key 'bs'")), IOR_EINVALID);
	ior_error_set(IOR_ERROR, "cannot roll back");
	CU_ASSERT_EQUAL(ior_error_restore(&first, IOR_ERROR), IOR_EINVALID);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "bad key 'bs'");
	struct ior_error_state none;
	ior_error_save(&none, IOR_OK);
	ior_error_set(IOR_ERROR, "cannot roll back");
	CU_ASSERT_EQUAL(ior_error_restore(&none, IOR_ERROR), IOR_ERROR);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "cannot roll back");
}

static void test_stop_flag_follows_signal(void)
{
	ior_stop_reset();
	CU_ASSERT_FALSE(ior_stop_requested());
	CU_ASSERT_EQUAL(ior_stop_install_handlers(), IOR_OK);
	raise(SIGHUP);
	CU_ASSERT_TRUE(ior_stop_requested());
	CU_ASSERT_EQUAL(ior_stop_signal(), SIGHUP);
	ior_stop_reset();
	CU_ASSERT_FALSE(ior_stop_requested());
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_error_set_returns_code_and_keeps_message),
		IOR_TEST(test_error_errno_appends_strerror),
		IOR_TEST(test_error_wrap_prefixes_context),
		IOR_TEST(test_error_save_restore_keeps_the_first),
		IOR_TEST(test_stop_flag_follows_signal),
		IOR_TEST_END,
	};
	return ior_test_run("common", tests);
}
