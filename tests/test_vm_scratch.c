/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The filled scratch disk kept in the cache between vm runs (vm/scratch_keep.c): what is taken back
 * and what is refused, without booting; test_vm's test_scratch_disk_kept boots with it. */
#include "device/fill.h"
#include "tests/suite.h"
#include "vm/internal.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char cache[1024], disk[1100], kept[1200];

/* A 1 MiB disk filled with random data at disk, and the cache directory made. */
static void fill_disk(void)
{
	snprintf(cache, sizeof(cache), "%s/cache", ior_test_tmpdir());
	snprintf(disk, sizeof(disk), "%s/scratch.img", ior_test_tmpdir());
	snprintf(kept, sizeof(kept), "%s/scratch-1M-random.img", cache);
	mkdir(cache, 0700);
	unlink(kept);
	unlink(disk);
	int fd = open(disk, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CU_ASSERT_TRUE_FATAL(fd >= 0);
	struct ior_fill_result r;
	CU_ASSERT_EQUAL(ior_fill_fd(fd, disk, 1 << 20, IOR_FILL_RANDOM, &r), 0);
	close(fd);
}

static void test_kept_and_taken_back(void)
{
	fill_disk();
	ior_vm_scratch_keep(cache, 1, IOR_FILL_RANDOM, disk);
	CU_ASSERT_NOT_EQUAL(access(disk, F_OK), 0); /* moved, not copied */
	CU_ASSERT_EQUAL(access(kept, F_OK), 0);
	/* another size or fill is another disk */
	CU_ASSERT_FALSE(ior_vm_scratch_take(cache, 2, IOR_FILL_RANDOM, disk));
	CU_ASSERT_FALSE(ior_vm_scratch_take(cache, 1, IOR_FILL_ZEROS, disk));
	CU_ASSERT_TRUE(ior_vm_scratch_take(cache, 1, IOR_FILL_RANDOM, disk));
	CU_ASSERT_NOT_EQUAL(access(kept, F_OK), 0); /* taken: a vm run beside finds none */
	CU_ASSERT_FALSE(ior_vm_scratch_take(cache, 1, IOR_FILL_RANDOM, disk));
	/* no cache directory: nothing kept, nothing taken */
	CU_ASSERT_FALSE(ior_vm_scratch_take(NULL, 1, IOR_FILL_RANDOM, disk));
}

static void test_refused(void)
{
	/* with a hole: not a filled disk */
	fill_disk();
	CU_ASSERT_EQUAL(truncate(disk, 512 << 10), 0);
	CU_ASSERT_EQUAL(truncate(disk, 1 << 20), 0);
	ior_vm_scratch_keep(cache, 1, IOR_FILL_RANDOM, disk);
	CU_ASSERT_FALSE(ior_vm_scratch_take(cache, 1, IOR_FILL_RANDOM, disk));
	CU_ASSERT_NOT_EQUAL(access(disk, F_OK), 0); /* and removed, not left for the vm run to use */
	/* a link: qemu would write where it points */
	fill_disk();
	CU_ASSERT_EQUAL(symlink(disk, kept), 0);
	CU_ASSERT_FALSE(ior_vm_scratch_take(cache, 1, IOR_FILL_RANDOM, ior_test_path("taken.img")));
	CU_ASSERT_EQUAL(access(disk, F_OK), 0); /* what it pointed at is untouched */
	/* another user's */
	if (geteuid() == 0) {
		fill_disk();
		CU_ASSERT_EQUAL(chown(disk, 65534, 65534), 0);
		ior_vm_scratch_keep(cache, 1, IOR_FILL_RANDOM, disk);
		CU_ASSERT_FALSE(ior_vm_scratch_take(cache, 1, IOR_FILL_RANDOM, disk));
	}
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_kept_and_taken_back),
		IOR_TEST(test_refused),
		IOR_TEST_END,
	};
	return ior_test_run("vm_scratch", tests);
}
