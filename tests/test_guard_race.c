/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The write guard against a moving name (issue 23, case 2): a link flipped between a scratch loop
 * device and one holding a mounted ext4 while a write engine runs. */
#include "common/error.h"
#include "db/db.h"
#include "device/loopdev.h"
#include "run/run.h"
#include "matrix/matrix.h"
#include "tests/suite.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* FNV-1a of the first n bytes of a file. */
static uint64_t checksum(const char *path, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	unsigned char buf[65536];
	for (size_t done = 0; done < n;) {
		ssize_t got = pread(fd, buf, sizeof(buf), (off_t)done);
		if (got <= 0)
			break;
		for (ssize_t i = 0; i < got; i++)
			h = (h ^ buf[i]) * 1099511628211ull;
		done += (size_t)got;
	}
	close(fd);
	return h;
}

static bool ext4_magic(const char *path)
{
	unsigned char m[2] = { 0, 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool ok = fd >= 0 && pread(fd, m, 2, 1080) == 2 && m[0] == 0x53 && m[1] == 0xef;
	if (fd >= 0)
		close(fd);
	return ok;
}

/* Points link at a and b in turn, atomically (rename over it), every 100 us until killed. */
static pid_t flipper(const char *link, const char *a, const char *b)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.new", link);
	for (unsigned i = 0;; i++) {
		unlink(tmp);
		if (symlink(i % 2 ? b : a, tmp) != 0 || rename(tmp, link) != 0)
			_exit(1);
		usleep(100);
	}
}

static void test_flipped_link_never_reaches_the_mounted_device(void)
{
	const char *t = ior_test_tmpdir();
	struct ior_loopdev scratch, mounted;
	CU_ASSERT_EQUAL_FATAL(ior_loopdev_create(&scratch, t, 16 << 20, false, IOR_FILL_SPARSE), IOR_OK);
	CU_ASSERT_EQUAL_FATAL(ior_loopdev_create(&mounted, t, 16 << 20, false, IOR_FILL_SPARSE), IOR_OK);
	char *mkfs[] = { "mkfs.ext4", "-q", "-F", mounted.path, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn(mkfs, NULL), 0);
	char mnt[4096], link[4096];
	snprintf(mnt, sizeof(mnt), "%s/mnt", t);
	snprintf(link, sizeof(link), "%s/flip", t);
	CU_ASSERT_EQUAL_FATAL(mkdir(mnt, 0755), 0);
	CU_ASSERT_EQUAL_FATAL(mount(mounted.path, mnt, "ext4", MS_RDONLY, "noload"), 0);
	CU_ASSERT_EQUAL_FATAL(symlink(scratch.path, link), 0);
	uint64_t before = checksum(mounted.backing, 1 << 20);
	CU_ASSERT_TRUE(ext4_magic(mounted.backing));

	char text[2048];
	snprintf(text, sizeof(text),
		 "[matrix]\nrepetitions = 20\nschedulers = none\ndrop_caches = no\n"
		 "[device flipped]\npath = %s\ndestructive = yes\n"
		 "[engine writer]\ntype = dd\nrw = write\nbs = 64k\ncount = 1\n", link);
	struct ior_matrix *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_matrix_parse_string(&m, "flip.ini", text)), IOR_OK);
	char dbpath[4096];
	snprintf(dbpath, sizeof(dbpath), "%s/flip.db", t);
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, dbpath)), IOR_OK);
	const char *ok[] = { link };
	struct ior_run_options o = { .observer = NULL, .allow_destructive = ok, .nallow_destructive = 1 };
	/* 30 runs: each opens the link once, at either device; a run that opened the scratch one
	 * writes there 20 times while the link keeps moving, one that opened the mounted one is refused */
	unsigned samples = 0, runs = 0;
	pid_t pid = flipper(link, scratch.path, mounted.path);
	for (; runs < 30 && checksum(mounted.backing, 1 << 20) == before; runs++) {
		struct ior_run_summary s;
		CU_ASSERT_EQUAL(ior_test_ok(ior_run_matrix(db, m, &o, &s)), IOR_OK);
		samples += s.samples;
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	fprintf(stderr, "\n  %u samples in %u runs written through the link while it flipped\n", samples, runs);
	CU_ASSERT_TRUE(samples > 0);

	CU_ASSERT_EQUAL(umount(mnt), 0);
	CU_ASSERT_TRUE(ext4_magic(mounted.backing));
	CU_ASSERT_EQUAL(checksum(mounted.backing, 1 << 20), before);
	ior_db_free(db);
	ior_matrix_free(m);
	CU_ASSERT_EQUAL(ior_loopdev_destroy(&scratch), IOR_OK);
	CU_ASSERT_EQUAL(ior_loopdev_destroy(&mounted), IOR_OK);
}

int main(void)
{
	ior_test_require_root("loop devices and a mount");
	static const struct ior_test tests[] = {
		IOR_TEST(test_flipped_link_never_reaches_the_mounted_device),
		IOR_TEST_END,
	};
	return ior_test_run("guard_race", tests);
}
