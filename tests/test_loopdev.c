/* Tests for device/loopdev: real loop devices over files in /tmp, attached and fully detached. */
#include "common/error.h"
#include "device/loopdev.h"
#include "tests/suite.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

static struct ior_loopdev ld;

static bool backing_file_of(const char *dev, char *out, size_t len)
{
	char path[128];
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", strrchr(dev, '/') + 1);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool ok = fgets(out, (int)len, f) != NULL;
	fclose(f);
	out[strcspn(out, "\n")] = '\0';
	return ok;
}

static void test_create_gives_device_of_requested_size(void)
{
	CU_ASSERT_EQUAL_FATAL(ior_loopdev_create(&ld, ior_test_tmpdir(), 64 << 20, false), IOR_OK);
	int fd = open(ld.path, O_RDONLY);
	CU_ASSERT_FATAL(fd >= 0);
	uint64_t size = 0;
	CU_ASSERT_EQUAL(ioctl(fd, BLKGETSIZE64, &size), 0);
	CU_ASSERT_EQUAL(size, 64u << 20);
	close(fd);
	struct stat st;
	CU_ASSERT_EQUAL(stat(ld.backing, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0600);
	char backing[4096];
	CU_ASSERT_TRUE(backing_file_of(ld.path, backing, sizeof(backing)));
	CU_ASSERT_STRING_EQUAL(backing, ld.backing);
}

static void test_destroy_detaches_and_removes_file(void)
{
	char dev[64], file[4096];
	snprintf(dev, sizeof(dev), "%s", ld.path);
	snprintf(file, sizeof(file), "%s", ld.backing);
	CU_ASSERT_EQUAL(ior_loopdev_destroy(&ld), IOR_OK);
	char backing[4096];
	CU_ASSERT_FALSE(backing_file_of(dev, backing, sizeof(backing)));
	CU_ASSERT_NOT_EQUAL(access(file, F_OK), 0);
	CU_ASSERT_EQUAL(ior_loopdev_destroy(&ld), IOR_OK); /* twice is harmless */
}

static void test_direct_io_flag_is_set(void)
{
	struct ior_loopdev d;
	CU_ASSERT_EQUAL_FATAL(ior_loopdev_create(&d, ior_test_tmpdir(), 16 << 20, true), IOR_OK);
	char path[128], flag[8] = "";
	snprintf(path, sizeof(path), "/sys/block/%s/loop/dio", strrchr(d.path, '/') + 1);
	FILE *f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL(f);
	if (f) {
		CU_ASSERT_PTR_NOT_NULL(fgets(flag, sizeof(flag), f));
		fclose(f);
	}
	CU_ASSERT_EQUAL(flag[0], '1');
	CU_ASSERT_EQUAL(ior_loopdev_destroy(&d), IOR_OK);
}

static void test_attach_keeps_callers_file(void)
{
	const char *file = ior_test_write_file("attach.img", "");
	CU_ASSERT_EQUAL_FATAL(truncate(file, 8 << 20), 0);
	struct ior_loopdev d;
	CU_ASSERT_EQUAL_FATAL(ior_loopdev_attach(&d, file, false), IOR_OK);
	CU_ASSERT_EQUAL(ior_loopdev_destroy(&d), IOR_OK);
	CU_ASSERT_EQUAL(access(file, F_OK), 0);
}

static void test_bad_inputs_are_refused(void)
{
	struct ior_loopdev d;
	CU_ASSERT_EQUAL(ior_loopdev_create(&d, ior_test_tmpdir(), 0, false), IOR_EINVALID);
	CU_ASSERT_NOT_EQUAL(ior_loopdev_create(&d, "/nonexistent-dir", 1 << 20, false), IOR_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "/nonexistent-dir"));
	CU_ASSERT_NOT_EQUAL(ior_loopdev_attach(&d, "/nonexistent-file", false), IOR_OK);
	struct ior_loopdev zero;
	memset(&zero, 0, sizeof(zero));
	CU_ASSERT_EQUAL(ior_loopdev_destroy(&zero), IOR_OK);
	CU_ASSERT_NOT_EQUAL(fcntl(0, F_GETFD), -1); /* stdin was not closed by it */
}

static void cleanup(void)
{
	ior_loopdev_destroy(&ld);
}

int main(void)
{
	ior_test_require_root("attaches loop devices");
	atexit(cleanup);
	static const struct ior_test tests[] = {
		IOR_TEST(test_create_gives_device_of_requested_size),
		IOR_TEST(test_destroy_detaches_and_removes_file),
		IOR_TEST(test_direct_io_flag_is_set),
		IOR_TEST(test_attach_keeps_callers_file),
		IOR_TEST(test_bad_inputs_are_refused),
		IOR_TEST_END,
	};
	return ior_test_run("loopdev", tests);
}
