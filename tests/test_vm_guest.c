/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of what a vm run guest loads and leaves: seed-loop.ini (loop devices, tmpfs, nested ext4)
 * runs unchanged in a guest with the block layer's counters stored, and a SIGKILLed vm run leaves
 * nothing that `recover` does not remove (its work directory journaled, its qemu gone with it). */
#include "tests/suite.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define K61 "linux-image-6.1.0-47-cloud-amd64"

static char out[65536], err[65536], cache[4096];

/* The qemu that vm run pid started (its child), or 0. */
static pid_t qemu_child_of(pid_t pid)
{
	pid_t found = 0;
	DIR *d = opendir("/proc");
	for (struct dirent *e; d && !found && (e = readdir(d));) {
		char path[300], stat[1024] = "";
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t got = fread(stat, 1, sizeof(stat) - 1, f);
		fclose(f);
		stat[got] = '\0';
		/* "PID (COMM) STATE PPID ...": the comm may hold spaces, so after the last ')' */
		const char *close = strrchr(stat, ')');
		char state;
		int ppid;
		if (close && strstr(stat, "(qemu-system") && sscanf(close + 1, " %c %d", &state, &ppid) == 2 && ppid == pid)
			found = (pid_t)atoi(e->d_name);
	}
	if (d)
		closedir(d);
	return found;
}

static bool alive(pid_t pid)
{
	char path[64], stat[512] = "";
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t got = fread(stat, 1, sizeof(stat) - 1, f);
	fclose(f);
	stat[got] = '\0';
	const char *close = strrchr(stat, ')');
	return close && close[2] != 'Z';   /* a zombie has ended */
}

/* SIGKILL mid-boot: vm run cannot clean up, its qemu dies with it (PR_SET_PDEATHSIG), its work
 * directory (scratch and results images) stays; `recover` finds it in the journal and removes
 * it, so /tmp holds what it held before. */
static void test_sigkill_then_recover(void)
{
	int before = ior_test_count_glob("/tmp/ioregress-vm.*");
	char db[4096];
	snprintf(db, sizeof(db), "%s/kill.db", ior_test_tmpdir());
	const char *m = ior_test_write_file("stall.ini", "[matrix]\nrepetitions = 1\nschedulers = none\n"
					    "[device vda]\npath = /dev/vda\n[engine stall]\ntype = exec\ncommand = sleep 300\n");
	const char *bin = getenv("IOR_BINARY");
	char *argv[] = { (char *)bin, "--db", db, "vm", "run", "--cache-dir", cache, "--accel", "tcg", "--scratch-size", "64",
			 "--matrix", (char *)m, K61, NULL };
	pid_t pid = ior_test_start(argv);
	CU_ASSERT_FATAL(pid > 0);
	pid_t qemu = 0;
	for (int i = 0; i < 1200 && !(qemu = qemu_child_of(pid)); i++)
		usleep(100000);
	CU_ASSERT_FATAL(qemu > 0);
	sleep(2);   /* mid-boot: the kernel is starting, the images are in the work directory */
	CU_ASSERT_EQUAL(ior_test_count_glob("/tmp/ioregress-vm.*/k0/b1/results.img"), 1);
	kill(pid, SIGKILL);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	CU_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	for (int i = 0; i < 100 && alive(qemu); i++)
		usleep(100000);
	CU_ASSERT_FALSE(alive(qemu));
	/* what SIGKILL leaves: the work directory, and its entry in the journal */
	CU_ASSERT_EQUAL(ior_test_count_glob("/tmp/ioregress-vm.*"), before + 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM undo_log WHERE kind = 'tree' AND undone_at IS NULL AND "
				       "target LIKE '/tmp/ioregress-vm.%'"), 1);
	int rc = ior_test_ioregress((char *[]){ "--db", db, "recover", NULL }, out, sizeof(out), err, sizeof(err));
	fprintf(stderr, "%s%s", out, err);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "vm work directory '/tmp/ioregress-vm."));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "': removed"));
	CU_ASSERT_EQUAL(ior_test_count_glob("/tmp/ioregress-vm.*"), before);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM undo_log WHERE undone_at IS NULL"), 0);
	/* and once removed, a second recover has nothing to do */
	CU_ASSERT_EQUAL(ior_test_ioregress((char *[]){ "--db", db, "recover", NULL }, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_PTR_NULL(strstr(out, "vm work directory"));
}

/* The README's seed-loop.ini, unchanged, in a guest: the loop engine's tmpfs, loop devices and
 * nested ext4 (loop module, e2fsprogs' mke2fs) are there, every cell runs, and each sample
 * carries the top loop device's request counters: 256 MiB written by dd a repetition. */
static void test_seed_loop_in_guest(void)
{
	int before = ior_test_count_glob("/tmp/ioregress-vm.*");
	char db[4096], matrix[4096];
	snprintf(db, sizeof(db), "%s/loop.db", ior_test_tmpdir());
	snprintf(matrix, sizeof(matrix), "%s", ior_test_source_path("matrix/examples/seed-loop.ini"));
	time_t t0 = time(NULL);
	/* unchanged, no --memory: vm run sizes the guest from the matrix (2048 MiB for a 320 MiB tmpfs, the
	 * loop device's dirty pages over it and the initramfs; at 512 and 1024 MiB the guest's OOM killer
	 * ended ioregress while filling the third cell's file) */
	int rc = ior_test_ioregress((char *[]){ "--db", db, "vm", "run", "--cache-dir", cache, "--accel", "tcg",
					       "--matrix", matrix, K61, NULL }, out, sizeof(out), err, sizeof(err));
	fprintf(stderr, "%s%s(%lld s)\n", out, err, (long long)(time(NULL) - t0));
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "vm: guest memory 2048 MiB, not 512: "));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM vm_boots WHERE outcome = 'ok'"), 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM cells WHERE status = 'ok'"), 4);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM samples"), 20);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM samples WHERE detail LIKE '%ext4%'"), 10);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT min(wr_sectors) FROM samples"), 256 << 11);
	CU_ASSERT(ior_test_query(db, "SELECT min(wr_ios) FROM samples") > 0);
	CU_ASSERT_EQUAL(ior_test_count_glob("/tmp/ioregress-vm.*"), before);
}

int main(void)
{
	ior_test_require_root("boots guests that attach loop devices");
	ior_test_vm_setup(cache, sizeof(cache));
	static const struct ior_test tests[] = {
		IOR_TEST(test_sigkill_then_recover),
		IOR_TEST(test_seed_loop_in_guest),
		IOR_TEST_END,
	};
	return ior_test_run("vm_guest", tests);
}
