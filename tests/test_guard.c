/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for device/guard on real loop devices: mounted, via partition, signatures, swap, root,
 * confirmation, locking. */
#include "common/error.h"
#include "device/guard.h"
#include "device/loopdev.h"
#include "tests/suite.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

static struct ior_loopdev ld;
static char mnt[512];
static bool mounted, swapped;


static void fresh_device(void)
{
	ior_loopdev_destroy(&ld);
	if (ior_loopdev_create(&ld, ior_test_tmpdir(), 64 << 20, false, IOR_FILL_SPARSE) != IOR_OK)
		CU_FAIL_FATAL("cannot create loop device");
}

static const struct ior_guard_policy scratch_destructive = { .destructive = true, .scratch = true };

static void expect_refused(const char *path, const struct ior_guard_policy *p, const char *needle)
{
	int rc = ior_guard_check_write(path, p);
	CU_ASSERT_EQUAL(rc, IOR_EREFUSED);
	if (!strstr(ior_error_last(), needle)) {
		fprintf(stderr, "message '%s' lacks '%s'\n", ior_error_last(), needle);
		CU_FAIL("refusal does not name the reason");
	}
}

static void test_blank_scratch_device_is_writable_when_destructive(void)
{
	fresh_device();
	CU_ASSERT_EQUAL(ior_guard_check_write(ld.path, &scratch_destructive), IOR_OK);
}

static void test_not_destructive_is_refused(void)
{
	struct ior_guard_policy p = { .destructive = false, .scratch = true };
	expect_refused(ld.path, &p, "destructive = yes");
}

static void test_foreign_device_needs_confirmation(void)
{
	struct ior_guard_policy p = { .destructive = true, .scratch = false };
	expect_refused(ld.path, &p, "--allow-destructive=");
	const char *ok[] = { ld.path };
	p.confirmed = ok;
	p.nconfirmed = 1;
	CU_ASSERT_EQUAL(ior_guard_check_write(ld.path, &p), IOR_OK);
	const char *other[] = { "/dev/loop-other" };
	p.confirmed = other;
	expect_refused(ld.path, &p, "--allow-destructive=");
}

static void test_ext4_signature_refused_unless_confirmed(void)
{
	char *mkfs[] = { "mkfs.ext4", "-q", "-F", ld.path, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn(mkfs, NULL), 0);
	expect_refused(ld.path, &scratch_destructive, "'ext4' filesystem");
	const char *ok[] = { ld.path };
	struct ior_guard_policy p = { .destructive = true, .scratch = true, .confirmed = ok, .nconfirmed = 1 };
	CU_ASSERT_EQUAL(ior_guard_check_write(ld.path, &p), IOR_OK);
	/* confirmation without destructive = yes is not enough */
	p.destructive = false;
	expect_refused(ld.path, &p, "destructive = yes");
}

static void test_mounted_is_refused_even_when_confirmed(void)
{
	snprintf(mnt, sizeof(mnt), "%s/mnt", ior_test_tmpdir());
	mkdir(mnt, 0700);
	CU_ASSERT_EQUAL_FATAL(mount(ld.path, mnt, "ext4", 0, NULL), 0);
	mounted = true;
	const char *ok[] = { ld.path };
	struct ior_guard_policy p = { .destructive = true, .scratch = true, .confirmed = ok, .nconfirmed = 1 };
	expect_refused(ld.path, &p, "mounted at");
	expect_refused(ld.path, &p, mnt);
	umount(mnt);
	mounted = false;
}

static void test_partition_table_is_refused(void)
{
	fresh_device();
	const char *table = ior_test_write_file("table.sfdisk", "label: dos\n,32M,83\n");
	char *sfdisk[] = { "sfdisk", "-q", ld.path, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn(sfdisk, table), 0); /* sfdisk reads its script from stdin */
	expect_refused(ld.path, &scratch_destructive, "'dos' partition table");

}

static void test_active_swap_is_refused(void)
{
	fresh_device();
	char *mkswap[] = { "mkswap", ld.path, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn(mkswap, NULL), 0);
	if (swapon(ld.path, 0) != 0) {
		expect_refused(ld.path, &scratch_destructive, "'swap'");
		ior_test_not_run("swapon not permitted here: only the swap signature's refusal was checked, not an active swap's");
		return;
	}
	swapped = true;
	const char *ok[] = { ld.path };
	struct ior_guard_policy p = { .destructive = true, .scratch = true, .confirmed = ok, .nconfirmed = 1 };
	expect_refused(ld.path, &p, "swap");
	swapoff(ld.path);
	swapped = false;
}

static void test_root_filesystem_device_is_refused(void)
{
	struct stat root;
	CU_ASSERT_EQUAL_FATAL(stat("/", &root), 0);
	char link[64], target[PATH_MAX];   /* realpath writes up to PATH_MAX (fortify checks it) */
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(root.st_dev), minor(root.st_dev));
	if (!realpath(link, target)) {
		ior_test_not_run("root is not on a block device (%s)", link);
		return;
	}
	char dev[300];
	snprintf(dev, sizeof(dev), "/dev/%s", strrchr(target, '/') + 1);
	/* probed only: the guard reads sysfs and mountinfo, it never opens the device for writing */
	const char *ok[] = { dev };
	struct ior_guard_policy p = { .destructive = true, .scratch = false, .confirmed = ok, .nconfirmed = 1 };
	expect_refused(dev, &p, "root filesystem");
}

static void test_second_lock_is_refused_until_released(void)
{
	fresh_device();
	int a, b;
	CU_ASSERT_EQUAL_FATAL(ior_guard_lock(ld.path, &a), IOR_OK);
	pid_t pid = fork();
	if (pid == 0)
		_exit(ior_guard_lock(ld.path, &b) == IOR_EBUSY ? 0 : 1);
	int status;
	waitpid(pid, &status, 0);
	CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ior_guard_unlock(a);
	CU_ASSERT_EQUAL(ior_guard_lock(ld.path, &b), IOR_OK);
	ior_guard_unlock(b);
}

static void test_not_a_block_device(void)
{
	struct ior_guard_policy p = { .destructive = true };
	CU_ASSERT_EQUAL(ior_guard_check_write("/dev/null", &p), IOR_EINVALID);
	CU_ASSERT_EQUAL(ior_guard_check_write("/dev/ioregress-missing", &p), IOR_ENOTFOUND);
}

static void cleanup(void)
{
	if (mounted)
		umount(mnt);
	if (swapped)
		swapoff(ld.path);
	ior_loopdev_destroy(&ld);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_blank_scratch_device_is_writable_when_destructive),
		IOR_TEST(test_not_destructive_is_refused),
		IOR_TEST(test_foreign_device_needs_confirmation),
		IOR_TEST(test_ext4_signature_refused_unless_confirmed),
		IOR_TEST(test_mounted_is_refused_even_when_confirmed),
		IOR_TEST(test_partition_table_is_refused),
		IOR_TEST(test_active_swap_is_refused),
		IOR_TEST(test_root_filesystem_device_is_refused),
		IOR_TEST(test_second_lock_is_refused_until_released),
		IOR_TEST(test_not_a_block_device),
		IOR_TEST_END,
	};
	ior_test_require_root("makes filesystems, mounts and swaps on loop devices");
	atexit(cleanup);
	return ior_test_run("guard", tests);
}
