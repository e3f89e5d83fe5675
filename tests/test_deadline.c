/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests that a device which stops answering costs one cell, never the run: aio and uring writes to
 * a loop device whose backing file's filesystem is frozen (fsfreeze) fail their cells with the
 * reason within the matrix's deadline, and the other cells keep their samples. */
#include "tests/suite.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>


static char outer[64], inner[64], inner2[64], inner3[64], inner4[64], mnt[4096];
static bool frozen, mounted;

/* blk-mq's debugfs, for the reasons' "where the requests sit": the machine's own when mounted, else
 * one of the test's, taken down at exit. */
static char debugfs[4096];     /* the test's own mount, "" when none */
static char debugfs_dir[4096]; /* where debugfs is, "" when nowhere */

/* 1 when this kernel has blk-mq's debugfs entries (CONFIG_BLK_DEBUG_FS): the reasons name where the
 * requests sit only then; 0 on a kernel without them (this project's hosts). */
static int blk_debugfs(void)
{
	char path[8192];
	snprintf(path, sizeof(path), "%s/block/%s/hctx0", debugfs_dir, strrchr(outer, '/') + 1);
	return debugfs_dir[0] && access(path, F_OK) == 0;
}

static void unmount_debugfs(void)
{
	if (debugfs[0])
		umount2(debugfs, MNT_DETACH);
}

static void mount_debugfs(void)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char line[1024], dir[1024];
	bool there = false;
	while (f && !there && fgets(line, sizeof(line), f))
		if ((there = sscanf(line, "%*s %1023s debugfs ", dir) == 1 && strstr(line, " debugfs ")))
			snprintf(debugfs_dir, sizeof(debugfs_dir), "%s", dir);
	if (f)
		fclose(f);
	if (there)
		return;
	snprintf(debugfs, sizeof(debugfs), "%s/debugfs", ior_test_tmpdir());
	if (mkdir(debugfs, 0700) != 0 || mount("debugfs", debugfs, "debugfs", 0, NULL) != 0) {
		fprintf(stderr, "cannot mount debugfs on '%s': %s\n", debugfs, strerror(errno));
		debugfs[0] = '\0';
		return;
	}
	snprintf(debugfs_dir, sizeof(debugfs_dir), "%s", debugfs);
	atexit(unmount_debugfs);
}

/* `losetup` prints the device it attached; "" when it failed. */
static void attach(char *dev, size_t len, const char *file, bool direct)
{
	char out[4096];
	snprintf(out, sizeof(out), "%s/losetup.out", ior_test_tmpdir());
	char *argv[] = { "losetup", "-f", "--show", direct ? "--direct-io=on" : "--direct-io=off", (char *)file, NULL };
	dev[0] = '\0';
	if (ior_test_spawn_to(argv, NULL, out, NULL) == 0) {
		char *text = ior_test_read_file(out, NULL);
		if (text)
			snprintf(dev, len, "%.*s", (int)strcspn(text, "\n"), text);
		free(text);
	}
}

static void thaw(void)
{
	if (frozen && ior_test_spawn((char *[]){ "fsfreeze", "-u", mnt, NULL }, NULL) == 0)
		frozen = false;
}

/* Always thawed and taken apart, even after a failed assertion: a frozen filesystem would block
 * every writer on the machine that touches it. */
static void take_apart(void)
{
	thaw();
	if (inner[0])
		ior_test_spawn((char *[]){ "losetup", "-d", inner, NULL }, NULL);
	if (inner2[0])
		ior_test_spawn((char *[]){ "losetup", "-d", inner2, NULL }, NULL);
	if (inner3[0])
		ior_test_spawn((char *[]){ "losetup", "-d", inner3, NULL }, NULL);
	if (inner4[0])
		ior_test_spawn((char *[]){ "losetup", "-d", inner4, NULL }, NULL);
	if (mounted)
		umount2(mnt, MNT_DETACH);
	if (outer[0])
		ior_test_spawn((char *[]){ "losetup", "-d", outer, NULL }, NULL);
}

/* outer loop device > ext4 at mnt > four 16 MiB files of random data > inner loop devices (direct I/O);
 * once, for whichever test runs first (IOR_TEST_ONLY can pick any) */
static void build(void)
{
	if (outer[0])
		return;
	const char *dir = ior_test_tmpdir();
	char fs[4096], disk[8192];
	snprintf(fs, sizeof(fs), "%s/fs.img", dir);
	snprintf(mnt, sizeof(mnt), "%s/mnt", dir);
	int fd = open(fs, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	CU_ASSERT_FATAL(fd >= 0 && ftruncate(fd, 96 << 20) == 0);
	close(fd);
	atexit(take_apart);
	attach(outer, sizeof(outer), fs, false);
	CU_ASSERT_FATAL(outer[0] != '\0');
	CU_ASSERT_FATAL(ior_test_spawn((char *[]){ "mkfs.ext4", "-q", "-F", outer, NULL }, NULL) == 0);
	CU_ASSERT_FATAL(mkdir(mnt, 0700) == 0 && mount(outer, mnt, "ext4", 0, NULL) == 0);
	mounted = true;
	snprintf(disk, sizeof(disk), "%s/disk.img", mnt);
	ior_test_random_file(disk, 16);
	attach(inner, sizeof(inner), disk, true);
	CU_ASSERT_FATAL(inner[0] != '\0');
	snprintf(disk, sizeof(disk), "%s/disk2.img", mnt);
	ior_test_random_file(disk, 16);
	attach(inner2, sizeof(inner2), disk, true);
	CU_ASSERT_FATAL(inner2[0] != '\0');
	snprintf(disk, sizeof(disk), "%s/disk3.img", mnt);
	ior_test_random_file(disk, 16);
	attach(inner3, sizeof(inner3), disk, true);
	CU_ASSERT_FATAL(inner3[0] != '\0');
	snprintf(disk, sizeof(disk), "%s/disk4.img", mnt);
	ior_test_random_file(disk, 16);
	attach(inner4, sizeof(inner4), disk, true);
	CU_ASSERT_FATAL(inner4[0] != '\0');
}

/* Freezes the filesystem, runs the matrix with ioregress, waits until the run has reached its
 * end while still frozen (the process itself may not exit before the thaw: a process's exit waits
 * for its aio requests), thaws and returns the exit status; db gets the results. */
static int run_frozen(const char *db, const char *name, const char *text, const char *dev)
{
	const char *matrix = ior_test_write_file(name, text);
	char allow[200];
	snprintf(allow, sizeof(allow), "--allow-destructive=%s", dev);
	CU_ASSERT_FATAL(ior_test_spawn((char *[]){ "fsfreeze", "-f", mnt, NULL }, NULL) == 0);
	frozen = true;
	const char *bin = getenv("IOR_BINARY");
	char *argv[] = { (char *)bin, "--db", (char *)db, "--quiet", "run", (char *)matrix, allow, NULL };
	pid_t pid = ior_test_start(argv);
	CU_ASSERT_FATAL(pid > 0);
	long long finished = 0;
	for (int i = 0; i < 600 && finished != 1; i++) {
		usleep(100000);
		finished = ior_test_query(db, "SELECT count(*) FROM runs WHERE finished_at IS NOT NULL");
	}
	CU_ASSERT_EQUAL(finished, 1);
	thaw();
	int status = -1;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#define JOB "bs = 4k\niodepth = 4\ndirect = yes\nsize = 1M\n"
#define SETTINGS "[matrix]\nrepetitions = 2\nschedulers = none\ndrop_caches = no\ndeadline = 2s\norder = sequential\n"

/* Writes to the frozen filesystem's files never complete (the loop device's worker waits for the
 * thaw in the kernel, and every later request queues behind them). Before the deadlines, the aio
 * cell waited for ever. The cells in turn (order = sequential): a read that works, the lost aio
 * writes, and a cell after them that is failed without touching the device. */
static void test_lost_aio_writes_fail_their_cell(void)
{
	build();
	char text[4096], db[4096];
	snprintf(text, sizeof(text), SETTINGS "[device frozen]\npath = %s\ndestructive = yes\n"
		 "[engine read]\ntype = aio\nrw = randread\n" JOB "[engine awrite]\ntype = aio\nrw = randwrite\n" JOB
		 "[engine uwrite]\ntype = uring\nrw = randwrite\n" JOB, inner);
	snprintf(db, sizeof(db), "%s/aio.db", ior_test_tmpdir());
	CU_ASSERT_EQUAL(run_frozen(db, "aio.ini", text, inner), 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM samples s JOIN cells c ON c.id = s.cell_id "
				       "WHERE c.engine = 'read' AND c.status = 'ok'"), 2);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM cells WHERE engine = 'awrite' AND status = 'failed' AND "
				       "reason LIKE 'repetition 1: 4 of 4 requests never completed within 2 s (aio%'"), 1);
	/* and where they sit: with the loop driver, which waits on the frozen filesystem */
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM cells WHERE engine = 'awrite' AND reason LIKE "
				       "'%; blk-mq debugfs of ''loop%'': %hctx0 busy 4 requests%'"), blk_debugfs());
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM cells WHERE engine = 'uwrite' AND status = 'failed' AND "
				       "reason LIKE '%not measured: requests on % never completed earlier in this run'"), 1);
}

/* The same with io_uring's wait (io_uring_wait_cqe_timeout), on the second file. */
static void test_lost_uring_writes_fail_their_cell(void)
{
	build();
	CU_ASSERT_FATAL(inner2[0] != '\0');
	char text[4096], db[4096];
	snprintf(text, sizeof(text), SETTINGS "[device frozen2]\npath = %s\ndestructive = yes\n"
		 "[engine uwrite]\ntype = uring\nrw = randwrite\n" JOB "[engine read]\ntype = aio\nrw = randread\n" JOB,
		 inner2);
	snprintf(db, sizeof(db), "%s/uring.db", ior_test_tmpdir());
	CU_ASSERT_EQUAL(run_frozen(db, "uring.ini", text, inner2), 3); /* nothing measured */
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM cells WHERE engine = 'uwrite' AND status = 'failed' AND "
				       "reason LIKE 'repetition 1: 4 of 4 requests never completed within 2 s (uring%'"), 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM cells WHERE engine = 'read' AND status = 'failed'"), 1);
}

/* A submit that sleeps in the kernel: with 4 request tags on the device and 32 requests a
 * submit, the fifth waits for a tag the lost writes hold, uninterruptibly, where no timeout of
 * ours reaches it. The job's thread is left behind and the cell fails with the reason; before,
 * the run waited in pthread_join for as long as the filesystem stayed frozen. The read cell after
 * it is failed without touching the device, and the run ends while the filesystem is frozen. */
static void test_thread_stuck_in_submit_is_left_behind(void)
{
	build();
	CU_ASSERT_FATAL(inner3[0] != '\0');
	char queue[256];
	snprintf(queue, sizeof(queue), "/sys/block/%s/queue/nr_requests", inner3 + strlen("/dev/"));
	int fd = open(queue, O_WRONLY | O_CLOEXEC);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, "4", 1) == 1);
	close(fd);
	char text[4096], db[4096];
	snprintf(text, sizeof(text), SETTINGS "[device frozen3]\npath = %s\ndestructive = yes\n"
		 "[engine awrite]\ntype = aio\nrw = randwrite\nbs = 4k\niodepth = 32\niodepth_batch = 32\n"
		 "direct = yes\nsize = 1M\n[engine read]\ntype = aio\nrw = randread\n" JOB,
		 inner3);
	snprintf(db, sizeof(db), "%s/stuck.db", ior_test_tmpdir());
	CU_ASSERT_EQUAL(run_frozen(db, "stuck.ini", text, inner3), 3); /* nothing measured */
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM cells WHERE engine = 'awrite' AND status = 'failed' AND "
				       "reason LIKE 'repetition 1: 1 of 1 job threads stuck in the kernel: thread 0''s "
				       "aio submit was still in it % s past its own timeout (deadline 2 s) on ''%'"), 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM cells WHERE engine = 'read' AND status = 'failed' AND "
				       "reason LIKE '%not measured: requests on % never completed earlier in this run'"), 1);
}

/* A request no engine waits for (a write a command left in the background) keeps the queue from
 * draining, and the kernel drains it for a scheduler switch, uninterruptibly: the switch is given
 * up on after the deadline, its cell fails with where the request is held, the device is touched no
 * more, and the run ends. Before, the run waited in the sysfs write for as long as the filesystem
 * stayed frozen; in guests this was the hang after a kyber cell (stop 33). */
static void test_switch_that_never_drains_is_left_behind(void)
{
	build();
	CU_ASSERT_FATAL(inner4[0] != '\0');
	char text[4096], db[4096];
	snprintf(text, sizeof(text), "[matrix]\nrepetitions = 1\nschedulers = mq-deadline none\ndrop_caches = no\n"
		 "deadline = 2s\norder = sequential\n[device frozen4]\npath = %s\ndestructive = yes\n"
		 "[engine read]\ntype = aio\nrw = randread\n" JOB "[engine leave]\ntype = exec\n"
		 "command = sh -c \"dd if=/dev/zero of=%s oflag=direct bs=4k count=1 >/dev/null 2>&1 & sleep 0.5\"\n",
		 inner4, inner4);
	snprintf(db, sizeof(db), "%s/switch.db", ior_test_tmpdir());
	CU_ASSERT_EQUAL(run_frozen(db, "switch.ini", text, inner4), 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM cells WHERE scheduler = 'mq-deadline' AND status = 'ok'"), 2);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM cells WHERE scheduler = 'none' AND engine = 'read' AND "
				       "status = 'failed' AND reason LIKE 'repetition 1: cannot switch to ''none'': switching "
				       "''loop%'' from mq-deadline to none did not finish within 2 s: % still in the driver%'"), 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM cells WHERE scheduler = 'none' AND engine = 'read' AND "
				       "reason LIKE '%; blk-mq debugfs of ''loop%'': %hctx0 busy 1 request%; left behind'"),
			blk_debugfs());
	/* a kernel without blk-mq debugfs gets no word of it, never "no request on any list" */
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM cells WHERE reason LIKE '%blk-mq debugfs%'"),
			blk_debugfs());
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM cells WHERE scheduler = 'none' AND engine = 'leave' AND "
				       "status = 'failed' AND reason LIKE '%never completed earlier in this run'"), 1);
}

int main(void)
{
	ior_test_require_root("loop devices, ext4 mounts and fsfreeze");
	if (!getenv("IOR_BINARY"))
		ior_test_skip("IOR_BINARY is not set");
	if (ior_test_spawn((char *[]){ "fsfreeze", "--version", NULL }, NULL) != 0 ||
	    ior_test_spawn((char *[]){ "mkfs.ext4", "-V", NULL }, NULL) != 0)
		ior_test_skip("fsfreeze or mkfs.ext4 is missing");
	mount_debugfs();
	static const struct ior_test tests[] = {
		IOR_TEST(test_lost_aio_writes_fail_their_cell),
		IOR_TEST(test_lost_uring_writes_fail_their_cell),
		IOR_TEST(test_thread_stuck_in_submit_is_left_behind),
		IOR_TEST(test_switch_that_never_drains_is_left_behind),
		IOR_TEST_END,
	};
	return ior_test_run("deadline", tests);
}
