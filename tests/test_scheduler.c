/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for device/blockdev and device/scheduler: sysfs parsing, probing, and real scheduler
 * switches on a loop device. */
#include "common/error.h"
#include "device/blockdev.h"
#include "device/loopdev.h"
#include "device/scheduler.h"
#include "tests/suite.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How long a switch may take here: a scratch loop device answers at once. */
#define SWITCH_DEADLINE_S 30.0

static struct ior_loopdev ld;

static void test_parse_is_by_token_not_position(void)
{
	char names[IOR_MAX_SCHEDULERS][32];
	size_t n;
	int active;
	CU_ASSERT_EQUAL(ior_scheduler_parse("[mq-deadline] kyber bfq none\n", names, IOR_MAX_SCHEDULERS, &n, &active), IOR_OK);
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_EQUAL(active, 0);
	CU_ASSERT_STRING_EQUAL(names[3], "none");
	CU_ASSERT_EQUAL(ior_scheduler_parse("none [bfq]", names, IOR_MAX_SCHEDULERS, &n, &active), IOR_OK);
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT_STRING_EQUAL(names[active], "bfq");
	CU_ASSERT_EQUAL(ior_scheduler_parse("noop anticipatory deadline [cfq]", names, IOR_MAX_SCHEDULERS, &n, &active), IOR_OK);
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_STRING_EQUAL(names[active], "cfq");
	CU_ASSERT_EQUAL(ior_scheduler_parse("", names, IOR_MAX_SCHEDULERS, &n, &active), IOR_OK);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(active, -1);
	CU_ASSERT_EQUAL(ior_scheduler_parse("[] none", names, IOR_MAX_SCHEDULERS, &n, &active), IOR_EINVALID);
}

static void test_probe_loop_device(void)
{
	struct ior_blockdev bd;
	CU_ASSERT_EQUAL_FATAL(ior_blockdev_probe(ld.path, &bd), IOR_OK);
	CU_ASSERT_EQUAL(bd.size, 32u << 20);
	CU_ASSERT_EQUAL(bd.logical_block, 512);
	CU_ASSERT_TRUE(bd.has_scheduler);
	CU_ASSERT_TRUE(bd.active >= 0);
	bool has_none = false;
	for (size_t i = 0; i < bd.nschedulers; i++)
		has_none |= strcmp(bd.schedulers[i], "none") == 0;
	CU_ASSERT_TRUE(has_none);
	CU_ASSERT_EQUAL(ior_blockdev_probe("/dev/no-such-disk", &bd), IOR_ENOTFOUND);
}

static void test_list_includes_our_device(void)
{
	struct ior_blockdev *all;
	size_t n;
	CU_ASSERT_EQUAL_FATAL(ior_blockdev_list(&all, &n), IOR_OK);
	bool found = false;
	for (size_t i = 0; i < n; i++) {
		found |= strcmp(all[i].path, ld.path) == 0;
		/* bio-based devices (zram) have no scheduler and must not look as if they had one */
		if (!all[i].has_scheduler)
			CU_ASSERT_EQUAL(all[i].nschedulers, 0);
	}
	CU_ASSERT_TRUE(found);
	free(all);
}

static void test_switch_every_offered_scheduler_and_restore(void)
{
	struct ior_blockdev bd;
	CU_ASSERT_EQUAL_FATAL(ior_blockdev_probe(ld.path, &bd), IOR_OK);
	char before[32];
	CU_ASSERT_EQUAL_FATAL(ior_scheduler_active(ld.path, before, sizeof(before)), IOR_OK);
	for (size_t i = 0; i < bd.nschedulers; i++) {
		CU_ASSERT_EQUAL(ior_scheduler_switch(ld.path, bd.schedulers[i], SWITCH_DEADLINE_S), IOR_OK);
		char now[32];
		CU_ASSERT_EQUAL(ior_scheduler_active(ld.path, now, sizeof(now)), IOR_OK);
		CU_ASSERT_STRING_EQUAL(now, bd.schedulers[i]);
	}
	CU_ASSERT_EQUAL(ior_scheduler_switch(ld.path, "anticipatory", SWITCH_DEADLINE_S), IOR_EUNSUPPORTED);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "anticipatory"));
	CU_ASSERT_EQUAL(ior_scheduler_restore_all(), IOR_OK);
	char after[32];
	CU_ASSERT_EQUAL(ior_scheduler_active(ld.path, after, sizeof(after)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(after, before);
}

static void cleanup(void)
{
	ior_scheduler_restore_all();
	ior_loopdev_destroy(&ld);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_parse_is_by_token_not_position),
		IOR_TEST(test_probe_loop_device),
		IOR_TEST(test_list_includes_our_device),
		IOR_TEST(test_switch_every_offered_scheduler_and_restore),
		IOR_TEST_END,
	};
	ior_test_require_root("switches schedulers on a scratch loop device");
	atexit(cleanup);
	if (ior_loopdev_create(&ld, ior_test_tmpdir(), 32 << 20, false, IOR_FILL_SPARSE) != IOR_OK)
		ior_test_skip("cannot create a loop device: %s", ior_error_last());
	return ior_test_run("scheduler", tests);
}
