/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Guard test that needs the kernel to create partition devices: a write refused because a partition is mounted. */
#include "common/error.h"
#include "device/guard.h"
#include "device/loopdev.h"
#include "tests/suite.h"

#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static struct ior_loopdev ld;
static char mnt[512], part[96];
static bool mounted;

/* Runs argv with stdin from a file (or /dev/null) and output discarded; returns the exit status. */

static void test_mounted_partition_refuses_the_whole_device(void)
{
	char *mkfs[] = { "mkfs.ext4", "-q", "-F", part, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn(mkfs, NULL), 0);
	snprintf(mnt, sizeof(mnt), "%s/mnt", ior_test_tmpdir());
	mkdir(mnt, 0700);
	CU_ASSERT_EQUAL_FATAL(mount(part, mnt, "ext4", 0, NULL), 0);
	mounted = true;
	const char *ok[] = { ld.path };
	struct ior_guard_policy p = { .destructive = true, .scratch = true, .confirmed = ok, .nconfirmed = 1 };
	CU_ASSERT_EQUAL(ior_guard_check_write(ld.path, &p), IOR_EREFUSED);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "via partition 1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), mnt));
	umount(mnt);
	mounted = false;
}

static void cleanup(void)
{
	if (mounted)
		umount(mnt);
	ior_loopdev_destroy(&ld);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_mounted_partition_refuses_the_whole_device),
		IOR_TEST_END,
	};
	ior_test_require_root("partitions and mounts a loop device");
	atexit(cleanup);
	if (ior_loopdev_create(&ld, ior_test_tmpdir(), 64 << 20, false, IOR_FILL_SPARSE) != IOR_OK)
		ior_test_skip("cannot create a loop device: %s", ior_error_last());
	const char *table = ior_test_write_file("table.sfdisk", "label: dos\n,32M,83\n");
	char *sfdisk[] = { "sfdisk", "-q", ld.path, NULL };
	if (ior_test_spawn(sfdisk, table) != 0)
		ior_test_skip("sfdisk could not write a partition table");
	struct loop_info64 info;
	if (ioctl(ld.fd, LOOP_GET_STATUS64, &info) != 0)
		ior_test_skip("cannot read the loop device's flags");
	info.lo_flags |= LO_FLAGS_PARTSCAN;
	if (ioctl(ld.fd, LOOP_SET_STATUS64, &info) != 0)
		ior_test_skip("cannot turn on partition scanning");
	snprintf(part, sizeof(part), "%sp1", ld.path);
	for (int i = 0; i < 50 && access(part, F_OK) != 0; i++)
		usleep(20000);
	if (access(part, F_OK) != 0)
		ior_test_skip("this kernel creates no partition devices for a loop device (no partition-table support built in)");
	return ior_test_run("guard_partition", tests);
}
