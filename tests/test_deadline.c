/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests that a device which stops answering costs one cell, never the run: aio, uring, dd and hdparm
 * I/O on a loop device whose backing file's filesystem is frozen (fsfreeze) fail their cells with
 * the reason within the matrix's deadline, and the other cells keep their samples. */
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
#include <time.h>
#include <unistd.h>


/* inner loop devices over files on the ext4 that is frozen, one per test; healthy over a file
 * beside it, for the cells on another device */
#define NINNER 7
static char outer[64], inner[NINNER][64], healthy[64], mnt[4096];
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
	for (int i = 0; i < NINNER; i++)
		if (inner[i][0])
			ior_test_spawn((char *[]){ "losetup", "-d", inner[i], NULL }, NULL);
	if (healthy[0])
		ior_test_spawn((char *[]){ "losetup", "-d", healthy, NULL }, NULL);
	if (mounted)
		umount2(mnt, MNT_DETACH);
	if (outer[0])
		ior_test_spawn((char *[]){ "losetup", "-d", outer, NULL }, NULL);
}

/* outer loop device > ext4 at mnt > seven 16 MiB files of random data > inner loop devices (direct I/O),
 * and the healthy one over a file in the test's directory; once, for whichever test runs first
 * (IOR_TEST_ONLY can pick any) */
static void build(void)
{
	if (outer[0])
		return;
	const char *dir = ior_test_tmpdir();
	char fs[4096], disk[8192];
	snprintf(fs, sizeof(fs), "%s/fs.img", dir);
	snprintf(mnt, sizeof(mnt), "%s/mnt", dir);
	int fd = open(fs, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	CU_ASSERT_FATAL(fd >= 0 && ftruncate(fd, 192 << 20) == 0);
	close(fd);
	atexit(take_apart);
	attach(outer, sizeof(outer), fs, false);
	CU_ASSERT_FATAL(outer[0] != '\0');
	CU_ASSERT_FATAL(ior_test_spawn((char *[]){ "mkfs.ext4", "-q", "-F", outer, NULL }, NULL) == 0);
	CU_ASSERT_FATAL(mkdir(mnt, 0700) == 0 && mount(outer, mnt, "ext4", 0, NULL) == 0);
	mounted = true;
	for (int i = 0; i < NINNER; i++) {
		snprintf(disk, sizeof(disk), i ? "%s/disk%d.img" : "%s/disk.img", mnt, i + 1);
		ior_test_random_file(disk, 16);
		attach(inner[i], sizeof(inner[i]), disk, true);
		CU_ASSERT_FATAL(inner[i][0] != '\0');
	}
	snprintf(disk, sizeof(disk), "%s/healthy.img", dir);
	ior_test_random_file(disk, 16);
	attach(healthy, sizeof(healthy), disk, false);
	CU_ASSERT_FATAL(healthy[0] != '\0');
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Freezes the filesystem, runs the matrix with ioregress, waits until the run has reached its
 * end while still frozen (the process itself may not exit before the thaw: a process's exit waits
 * for its aio requests and its threads left in the kernel), thaws and returns the exit status; db
 * gets the results, *seconds (when not NULL) how long the run took to reach its end. Writes are
 * allowed on dev, and on also when it is not NULL. */
static int run_frozen(const char *db, const char *name, const char *text, const char *dev, const char *also,
		      double *seconds)
{
	const char *matrix = ior_test_write_file(name, text);
	char allow[200], allow_also[200];
	snprintf(allow, sizeof(allow), "--allow-destructive=%s", dev);
	snprintf(allow_also, sizeof(allow_also), "--allow-destructive=%s", also ? also : "");
	CU_ASSERT_FATAL(ior_test_spawn((char *[]){ "fsfreeze", "-f", mnt, NULL }, NULL) == 0);
	frozen = true;
	const char *bin = getenv("IOR_BINARY");
	char *argv[] = { (char *)bin, "--db", (char *)db, "--quiet", "run", (char *)matrix, allow, also ? allow_also : NULL, NULL };
	double start = now_s();
	pid_t pid = ior_test_start(argv);
	CU_ASSERT_FATAL(pid > 0);
	long long finished = 0;
	for (int i = 0; i < 600 && finished != 1; i++) {
		usleep(100000);
		finished = ior_test_query(db, "SELECT count(*) FROM runs WHERE finished_at IS NOT NULL");
	}
	CU_ASSERT_EQUAL(finished, 1);
	if (seconds)
		*seconds = now_s() - start;
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
		 "[engine uwrite]\ntype = uring\nrw = randwrite\n" JOB, inner[0]);
	snprintf(db, sizeof(db), "%s/aio.db", ior_test_tmpdir());
	CU_ASSERT_EQUAL(run_frozen(db, "aio.ini", text, inner[0], NULL, NULL), 1);
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
	char text[4096], db[4096];
	snprintf(text, sizeof(text), SETTINGS "[device frozen2]\npath = %s\ndestructive = yes\n"
		 "[engine uwrite]\ntype = uring\nrw = randwrite\n" JOB "[engine read]\ntype = aio\nrw = randread\n" JOB,
		 inner[1]);
	snprintf(db, sizeof(db), "%s/uring.db", ior_test_tmpdir());
	CU_ASSERT_EQUAL(run_frozen(db, "uring.ini", text, inner[1], NULL, NULL), 3); /* nothing measured */
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
	char queue[256];
	snprintf(queue, sizeof(queue), "/sys/block/%s/queue/nr_requests", inner[2] + strlen("/dev/"));
	int fd = open(queue, O_WRONLY | O_CLOEXEC);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, "4", 1) == 1);
	close(fd);
	char text[4096], db[4096];
	snprintf(text, sizeof(text), SETTINGS "[device frozen3]\npath = %s\ndestructive = yes\n"
		 "[engine awrite]\ntype = aio\nrw = randwrite\nbs = 4k\niodepth = 32\niodepth_batch = 32\n"
		 "direct = yes\nsize = 1M\n[engine read]\ntype = aio\nrw = randread\n" JOB,
		 inner[2]);
	snprintf(db, sizeof(db), "%s/stuck.db", ior_test_tmpdir());
	CU_ASSERT_EQUAL(run_frozen(db, "stuck.ini", text, inner[2], NULL, NULL), 3); /* nothing measured */
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
	char text[4096], db[4096];
	snprintf(text, sizeof(text), "[matrix]\nrepetitions = 1\nschedulers = mq-deadline none\ndrop_caches = no\n"
		 "deadline = 2s\norder = sequential\n[device frozen4]\npath = %s\ndestructive = yes\n"
		 "[engine read]\ntype = aio\nrw = randread\n" JOB "[engine leave]\ntype = exec\n"
		 "command = sh -c \"dd if=/dev/zero of=%s oflag=direct bs=4k count=1 >/dev/null 2>&1 & sleep 0.5\"\n",
		 inner[3], inner[3]);
	snprintf(db, sizeof(db), "%s/switch.db", ior_test_tmpdir());
	CU_ASSERT_EQUAL(run_frozen(db, "switch.ini", text, inner[3], NULL, NULL), 1);
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

/* The count of cells of engine on device whose status and reason match (LIKE). */
static long long cells(const char *db, const char *device, const char *engine, const char *status, const char *reason)
{
	char sql[1024];
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM cells c JOIN devices d ON d.id = c.device_id WHERE d.name = '%s' "
		 "AND c.engine = '%s' AND c.status = '%s' AND ifnull(c.reason, '') LIKE '%s'", device, engine, status, reason);
	return ior_test_query(db, sql);
}

static long long samples(const char *db, const char *device, const char *engine)
{
	char sql[1024];
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM samples s JOIN cells c ON c.id = s.cell_id JOIN devices d ON "
		 "d.id = c.device_id WHERE d.name = '%s' AND c.engine = '%s'", device, engine);
	return ior_test_query(db, sql);
}

/* How long the stuck call of the cell of engine on device had been in the kernel when it was left
 * behind, as its reason says ("... still in the kernel 2.3 s after it began ..."); -1 without one. */
static double left_after_s(const char *db, const char *device, const char *engine)
{
	char sql[1024];
	snprintf(sql, sizeof(sql), "SELECT ifnull(CAST(1000 * CAST(substr(c.reason, instr(c.reason, 'still in the kernel ') + 20) "
		 "AS REAL) AS INTEGER), -1000) FROM cells c JOIN devices d ON d.id = c.device_id WHERE d.name = '%s' AND "
		 "c.engine = '%s' AND instr(c.reason, 'still in the kernel ') > 0", device, engine);
	return (double)ior_test_query(db, sql) / 1000;
}

/* hdparm's buffered reads queue behind a write the frozen filesystem holds (the exec cell before
 * leaves one, as a command may) and never return. With the device's write cache off ("write
 * through"), hdparm's flushes before its timing send no flush request and pass, so it is the
 * first read that sleeps, uninterruptibly, of a region no read brought into the page cache (the
 * flush dropped it). Its thread is left behind after one deadline and the cell fails with the
 * reason; the direct read cell after it is failed without touching the device, the run ends while
 * the filesystem is still frozen, and the healthy device's cells run. Before, the run waited in
 * read() for as long as the filesystem stayed frozen. */
static void test_hdparm_read_that_never_returns_is_left_behind(void)
{
	build();
	char wc[256];
	snprintf(wc, sizeof(wc), "/sys/block/%s/queue/write_cache", inner[4] + strlen("/dev/"));
	int fd = open(wc, O_WRONLY | O_CLOEXEC);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, "write through", 13) == 13);
	close(fd);
	char text[4096], db[4096];
	snprintf(text, sizeof(text), SETTINGS "[device frozen5]\npath = %s\n[device healthy]\npath = %s\n"
		 "[engine leave]\ntype = exec\n"
		 "command = sh -c \"dd if=/dev/zero of=%s oflag=direct bs=4k count=1 >/dev/null 2>&1 & sleep 0.5\"\n"
		 "[engine hdparm]\ntype = hdparm\nsettle = 0.2s\nduration = 0.5s\n"
		 "[engine after]\ntype = hdparm\ndirect = yes\nsettle = 0s\nduration = 0.1s\n",
		 inner[4], healthy, inner[4]);
	snprintf(db, sizeof(db), "%s/hdparm.db", ior_test_tmpdir());
	double took = -1;
	CU_ASSERT_EQUAL(run_frozen(db, "hdparm.ini", text, inner[4], NULL, &took), 1);
	CU_ASSERT_TRUE(took > 0 && took < 20);
	CU_ASSERT_EQUAL(samples(db, "frozen5", "leave"), 2);
	CU_ASSERT_EQUAL(cells(db, "frozen5", "hdparm", "failed", "repetition 1: hdparm read of 2 MiB on ''%'' still in the "
			      "kernel % s after it began (deadline 2 s): the device never answered; left behind"), 1);
	double left = left_after_s(db, "frozen5", "hdparm");
	CU_ASSERT_TRUE(left >= 2 && left < 3);
	CU_ASSERT_EQUAL(cells(db, "frozen5", "after", "failed",
			      "%not measured: requests on % never completed earlier in this run"), 1);
	CU_ASSERT_EQUAL(samples(db, "healthy", "hdparm"), 2);
	CU_ASSERT_EQUAL(samples(db, "healthy", "after"), 2);
}

/* dd's direct writes never complete on the frozen filesystem's file, and the write() waits for
 * them uninterruptibly: its thread is left behind after one deadline and the cell fails with the
 * reason; dd's read cell after it on that device is failed without touching it, the run ends while
 * the filesystem is still frozen, and both cells on the healthy device run. Before, the run
 * waited in write() for as long as the filesystem stayed frozen. */
static void test_dd_write_that_never_returns_is_left_behind(void)
{
	build();
	char text[4096], db[4096];
	snprintf(text, sizeof(text), SETTINGS "[device frozen6]\npath = %s\ndestructive = yes\n[device healthy]\npath = %s\n"
		 "destructive = yes\n[engine dwrite]\ntype = dd\nrw = write\nbs = 64k\ncount = 16\nsync = direct\n"
		 "[engine dread]\ntype = dd\nrw = read\nbs = 64k\ncount = 16\nsync = direct\n",
		 inner[5], healthy);
	snprintf(db, sizeof(db), "%s/dd.db", ior_test_tmpdir());
	double took = -1;
	CU_ASSERT_EQUAL(run_frozen(db, "dd.ini", text, inner[5], healthy, &took), 1);
	CU_ASSERT_TRUE(took > 0 && took < 20);
	CU_ASSERT_EQUAL(cells(db, "frozen6", "dwrite", "failed", "repetition 1: dd write of 64 KiB on ''%'' still in the "
			      "kernel % s after it began (deadline 2 s): the device never answered; left behind"), 1);
	double left = left_after_s(db, "frozen6", "dwrite");
	CU_ASSERT_TRUE(left >= 2 && left < 3);
	CU_ASSERT_EQUAL(cells(db, "frozen6", "dread", "failed",
			      "%not measured: requests on % never completed earlier in this run"), 1);
	CU_ASSERT_EQUAL(samples(db, "healthy", "dwrite"), 2);
	CU_ASSERT_EQUAL(samples(db, "healthy", "dread"), 2);
}

/* A buffered write (the exec cell leaves one in the stuck device's page cache, as a command may)
 * can never be written back while the filesystem under the device is frozen. The cache drop before
 * each repetition (drop_caches = yes) flushes only the measured device, through its own descriptor
 * and with the deadline: the stuck device's fsync is left behind, its cell fails with the reason,
 * its later cells are not measured, and the healthy device's cells are measured with their caches
 * dropped. Before, every drop began with a global sync(), which waited in ksys_sync for the stuck
 * device's write-back for as long as the filesystem stayed frozen, with every other device's cells
 * behind it (issue 35, case 4). */
static void test_cache_drop_waits_for_no_other_device(void)
{
	build();
	char text[4096], db[4096];
	snprintf(text, sizeof(text), "[matrix]\nrepetitions = 2\nschedulers = none\ndrop_caches = yes\ndeadline = 2s\n"
		 "order = sequential\n[device frozen7]\npath = %s\n[device healthy]\npath = %s\n"
		 "[engine leave]\ntype = exec\n"
		 "command = sh -c \"dd if=/dev/zero of=%s bs=64k count=1 >/dev/null 2>&1 & sleep 0.5\"\n"
		 "[engine hdparm]\ntype = hdparm\nsettle = 0.2s\nduration = 0.5s\n"
		 "[engine after]\ntype = hdparm\ndirect = yes\nsettle = 0s\nduration = 0.1s\n",
		 inner[6], healthy, inner[6]);
	snprintf(db, sizeof(db), "%s/drop.db", ior_test_tmpdir());
	double took = -1;
	CU_ASSERT_EQUAL(run_frozen(db, "drop.ini", text, inner[6], NULL, &took), 1);
	CU_ASSERT_TRUE(took > 0 && took < 30);
	CU_ASSERT_EQUAL(samples(db, "frozen7", "leave"), 1);
	CU_ASSERT_EQUAL(cells(db, "frozen7", "leave", "failed", "repetition 2: dropping caches: write-back of ''%'' still in "
			      "the kernel % s after it began (deadline 2 s): the device never answered; left behind"), 1);
	CU_ASSERT_EQUAL(cells(db, "frozen7", "hdparm", "failed",
			      "%not measured: requests on % never completed earlier in this run"), 1);
	CU_ASSERT_EQUAL(samples(db, "healthy", "leave"), 2);
	CU_ASSERT_EQUAL(samples(db, "healthy", "hdparm"), 2);
	CU_ASSERT_EQUAL(samples(db, "healthy", "after"), 2);
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
		IOR_TEST(test_hdparm_read_that_never_returns_is_left_behind),
		IOR_TEST(test_dd_write_that_never_returns_is_left_behind),
		IOR_TEST(test_cache_drop_waits_for_no_other_device),
		IOR_TEST_END,
	};
	return ior_test_run("deadline", tests);
}
