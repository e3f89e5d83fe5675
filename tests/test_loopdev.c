/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for device/loopdev and device/fill: real loop devices over files in /tmp, filled before
 * they are attached, attached and fully detached. */
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
	return ior_loopdev_backing_file(dev, out, len) == IOR_OK;
}

/* Holes before the end, by the kernel's own SEEK_HOLE (not through the code under test). */
static off_t first_hole(const char *path, off_t *size)
{
	int fd = open(path, O_RDONLY);
	CU_ASSERT_FATAL(fd >= 0);
	struct stat st;
	CU_ASSERT_EQUAL(fstat(fd, &st), 0);
	*size = st.st_size;
	off_t hole = lseek(fd, 0, SEEK_HOLE);
	close(fd);
	return hole;
}

static void read_block(const char *dev, uint64_t off, unsigned char *buf, size_t len)
{
	int fd = open(dev, O_RDONLY);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(pread(fd, buf, len, (off_t)off), (ssize_t)len);
	close(fd);
}

static void test_create_gives_device_of_requested_size(void)
{
	CU_ASSERT_EQUAL_FATAL(ior_loopdev_create(&ld, ior_test_tmpdir(), 64 << 20, false, IOR_FILL_RANDOM), IOR_OK);
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

/* The default fill: no hole before the end, every block different and not zero, so neither
 * the filesystem below nor a compressing or deduplicating layer can shortcut a read. */
static void test_random_fill_leaves_no_holes_and_no_repeats(void)
{
	off_t size = 0;
	CU_ASSERT_EQUAL(first_hole(ld.backing, &size), size);
	CU_ASSERT_EQUAL(size, 64 << 20);
	uint64_t holes = 1;
	CU_ASSERT_EQUAL(ior_fill_hole_bytes(ld.backing, &holes), IOR_OK);
	CU_ASSERT_EQUAL(holes, 0);
	CU_ASSERT_EQUAL(ld.filled.fill, IOR_FILL_RANDOM);
	CU_ASSERT_EQUAL(ld.filled.bytes, 64u << 20);
	CU_ASSERT_TRUE(ld.filled.seconds > 0);
	static unsigned char a[4096], b[4096], zero[4096];
	read_block(ld.path, 0, a, sizeof(a));
	read_block(ld.path, 63u << 20, b, sizeof(b));
	CU_ASSERT_NOT_EQUAL(memcmp(a, zero, sizeof(a)), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(a, b, sizeof(a)), 0);
	/* within a block too: no 8-byte word repeats the one before it */
	size_t repeats = 0;
	for (size_t i = 8; i < sizeof(a); i += 8)
		repeats += memcmp(a + i, a + i - 8, 8) == 0;
	CU_ASSERT_EQUAL(repeats, 0);
}

static void test_zeros_fill_is_allocated_zeros_and_sparse_is_holes(void)
{
	struct ior_loopdev z, sp;
	CU_ASSERT_EQUAL_FATAL(ior_loopdev_create(&z, ior_test_tmpdir(), 8 << 20, false, IOR_FILL_ZEROS), IOR_OK);
	off_t size = 0;
	CU_ASSERT_EQUAL(first_hole(z.backing, &size), size);
	static unsigned char buf[4096], zero[4096];
	read_block(z.path, 4u << 20, buf, sizeof(buf));
	CU_ASSERT_EQUAL(memcmp(buf, zero, sizeof(buf)), 0);
	CU_ASSERT_EQUAL(z.filled.bytes, 8u << 20);
	CU_ASSERT_EQUAL(ior_loopdev_destroy(&z), IOR_OK);

	CU_ASSERT_EQUAL_FATAL(ior_loopdev_create(&sp, ior_test_tmpdir(), 8 << 20, false, IOR_FILL_SPARSE), IOR_OK);
	CU_ASSERT_EQUAL(first_hole(sp.backing, &size), 0);
	uint64_t holes = 0;
	CU_ASSERT_EQUAL(ior_fill_hole_bytes(sp.backing, &holes), IOR_OK);
	CU_ASSERT_EQUAL(holes, 8u << 20);
	CU_ASSERT_EQUAL(sp.filled.bytes, 0);
	CU_ASSERT_EQUAL(ior_loopdev_destroy(&sp), IOR_OK);
}

/* A hole in the middle of data is counted, and only it. */
static void test_hole_bytes_counts_a_hole_between_data(void)
{
	const char *file = ior_test_write_file("holey.img", "");
	int fd = open(file, O_WRONLY);
	CU_ASSERT_FATAL(fd >= 0);
	static unsigned char data[1 << 20];
	memset(data, 0xa5, sizeof(data));
	CU_ASSERT_EQUAL(pwrite(fd, data, sizeof(data), 0), (ssize_t)sizeof(data));
	CU_ASSERT_EQUAL(pwrite(fd, data, sizeof(data), 3 << 20), (ssize_t)sizeof(data));
	close(fd);
	uint64_t holes = 0;
	CU_ASSERT_EQUAL(ior_fill_hole_bytes(file, &holes), IOR_OK);
	CU_ASSERT_EQUAL(holes, 2u << 20);
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
	CU_ASSERT_EQUAL_FATAL(ior_loopdev_create(&d, ior_test_tmpdir(), 16 << 20, true, IOR_FILL_SPARSE), IOR_OK);
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
	CU_ASSERT_EQUAL(ior_loopdev_create(&d, ior_test_tmpdir(), 0, false, IOR_FILL_RANDOM), IOR_EINVALID);
	CU_ASSERT_NOT_EQUAL(ior_loopdev_create(&d, "/nonexistent-dir", 1 << 20, false, IOR_FILL_RANDOM), IOR_OK);
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
		IOR_TEST(test_random_fill_leaves_no_holes_and_no_repeats),
		IOR_TEST(test_zeros_fill_is_allocated_zeros_and_sparse_is_holes),
		IOR_TEST(test_hole_bytes_counts_a_hole_between_data),
		IOR_TEST(test_destroy_detaches_and_removes_file),
		IOR_TEST(test_direct_io_flag_is_set),
		IOR_TEST(test_attach_keeps_callers_file),
		IOR_TEST(test_bad_inputs_are_refused),
		IOR_TEST_END,
	};
	return ior_test_run("loopdev", tests);
}
