/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for `ioregress vm run` with real Debian kernels under qemu: two kernels merged, a truncated
 * image, a hang, null_blk in a guest, and clean-up after success, failure and SIGINT. */
#include "device/fill.h"
#include "tests/suite.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


#define K61 "linux-image-6.1.0-47-cloud-amd64"
#define K612 "linux-image-6.12.113+deb12-cloud-amd64-unsigned"
#define R61 "6.1.0-47-cloud-amd64"
#define R612 "6.12.113+deb12-cloud-amd64"

static char out[65536], err[65536], cache[4096];

static const char *db_in_tmp(const char *name)
{
	static char paths[4][4096];
	static unsigned slot;
	char *p = paths[slot++ % 4];
	snprintf(p, sizeof(paths[0]), "%s/%s", ior_test_tmpdir(), name);
	return p;
}

static int count_qemus(void)
{
	int n = 0;
	char self_ns[64] = "", ns[64];
	ssize_t len = readlink("/proc/self/ns/mnt", self_ns, sizeof(self_ns) - 1);
	self_ns[len > 0 ? len : 0] = '\0';
	DIR *d = opendir("/proc");
	for (struct dirent *e; d && (e = readdir(d));) {
		char path[300], cmd[4096] = "";
		/* a vm run in another mount namespace (a benchmark with a /tmp of its own) is not ours:
		 * its work directories are not in our /tmp either */
		snprintf(path, sizeof(path), "/proc/%s/ns/mnt", e->d_name);
		len = readlink(path, ns, sizeof(ns) - 1);
		ns[len > 0 ? len : 0] = '\0';
		if (len > 0 && self_ns[0] && strcmp(ns, self_ns) != 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t got = fread(cmd, 1, sizeof(cmd) - 1, f);
		fclose(f);
		for (size_t i = 0; i < got; i++)
			cmd[i] = cmd[i] ? cmd[i] : ' ';
		cmd[got] = '\0';
		n += strstr(cmd, "qemu-system") && strstr(cmd, "/tmp/ioregress-vm.");
	}
	if (d)
		closedir(d);
	return n;
}

/* Lines of a file (or of each file matching a glob) that contain needle. */
static int count_containing(const char *pattern, const char *needle)
{
	glob_t g;
	int n = 0;
	if (glob(pattern, 0, NULL, &g) != 0)
		return 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");
		char line[4096];
		while (f && fgets(line, sizeof(line), f))
			n += strstr(line, needle) != NULL;
		if (f)
			fclose(f);
	}
	globfree(&g);
	return n;
}

/* What a vm run may leave behind on the host: its work directories under /tmp, qemu processes,
 * and loop devices or mounts over its files. Other suites on this machine create loop devices
 * of their own, so only those over a vm run's files count. */
static void assert_clean(int vm_dirs_before)
{
	CU_ASSERT_EQUAL(ior_test_count_glob("/tmp/ioregress-vm.*"), vm_dirs_before);
	CU_ASSERT_EQUAL(count_qemus(), 0);
	CU_ASSERT_EQUAL(count_containing("/sys/block/loop*/loop/backing_file", "/tmp/ioregress-vm."), 0);
	CU_ASSERT_EQUAL(count_containing("/proc/self/mounts", "/tmp/ioregress-vm."), 0);
}

static int vm_run(const char *db, char **extra)
{
	char *args[40] = { "--db", (char *)db, "vm", "run", "--cache-dir", cache };
	int n = 6;
	for (int i = 0; extra[i] && n < 38; i++)
		args[n++] = extra[i];
	args[n] = NULL;
	int status = ior_test_ioregress(args, out, sizeof(out), err, sizeof(err));
	fprintf(stderr, "%s%s", out, err);
	return status;
}

/* The scratch disk an earlier vm run kept in the cache (vm/scratch_keep.c), removed: the next vm
 * run fills its own. */
static void drop_kept_scratch(void)
{
	char kept[4200];
	snprintf(kept, sizeof(kept), "%s/scratch-512M-random.img", cache);
	unlink(kept);
}

static int count_in(const char *text, const char *needle)
{
	int n = 0;
	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static long long q(const char *db, const char *sql)
{
	long long v = ior_test_query(db, sql);
	if (v < 0)
		fprintf(stderr, "query failed: %s\n", sql);
	return v;
}

/* Both kernels in one database with their release strings, offered schedulers (kyber and bfq
 * loaded from modules; mq-deadline built into 6.1 and a module on 6.12) and every cell measured. */
static void test_two_debian_kernels_merged(void)
{
	drop_kept_scratch(); /* the fill below is this vm run's own */
	int before = ior_test_count_glob("/tmp/ioregress-vm.*");
	const char *db = db_in_tmp("two.db");
	char *matrix = (char *)ior_test_source_path("tests/data/vm-tiny.ini");
	char m[4096];
	snprintf(m, sizeof(m), "%s", matrix);
	/* --boots auto capped at 2 rounds: nothing can be decided after one round, so both rounds are
	 * booted; what 2 boots a side decide depends on the machine, but every cell is either counted
	 * as decided or named as undecided, and an undecided one means the cap was reached */
	CU_ASSERT_EQUAL(vm_run(db, (char *[]){ "--matrix", m, "--boots", "auto", "--max-boots", "2", K61, K612, NULL }), 0);
	/* stderr is a pipe here, as in a CI log: the guest's progress arrives as whole lines, one a cell
	 * at least (a terminal gets the line redrawn instead) */
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "\n  guest: cell 1/4 rep 1/2  "));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "\n  guest: cell 4/4 rep "));
	CU_ASSERT_PTR_NULL(strstr(err, "\r\033[K"));
	const char *summary = strstr(out, "vm run --boots auto: 2 rounds (at most 2): ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(summary);
	unsigned decided = 99;
	CU_ASSERT_EQUAL(sscanf(summary, "vm run --boots auto: 2 rounds (at most 2): %u of 4 cells decided", &decided), 1);
	unsigned undecided = 0;
	for (const char *u = out; (u = strstr(u, "  undecided: " R612 " vs " R61 ": vda")); u++)
		undecided++;
	CU_ASSERT_EQUAL(decided + undecided, 4);
	CU_ASSERT_TRUE(decided == 4 || strstr(summary, "; the cap was reached") != NULL);
	if (undecided) { /* each undecided cell names the noise between boots; under TCG, the way out */
		CU_ASSERT_PTR_NOT_NULL(strstr(out, "% between boots: "));
		if (q(db, "SELECT count(*) FROM vm_boots WHERE accelerator = 'tcg'") > 0)
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "--metric req_kib, merge_pct or req_per_gib decide on them"));
	}
	/* rounds: each kernel once per round, one vm run, the order rotated (6.12 first in round 2) */
	CU_ASSERT_EQUAL(q(db, "SELECT count(DISTINCT vm_run) FROM vm_boots WHERE vm_run IS NOT NULL"), 1);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM (SELECT 1 FROM vm_boots GROUP BY boot_index, kernel HAVING count(*) = 1)"), 4);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots a JOIN vm_boots b ON a.boot_index = b.boot_index WHERE "
			      "a.kernel = '" K61 "' AND b.kernel = '" K612 "' AND (a.boot_index = 1) = (a.started_at < "
			      "b.started_at)"), 2);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE r.status = 'complete' "
			      "AND k.release IN ('" R61 "', '" R612 "')"), 4);
	/* three schedulers offered in each of a kernel's two runs (boots) */
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM scheduler_offers o JOIN runs r ON r.id = o.run_id JOIN kernels k ON "
			      "k.id = r.kernel_id WHERE k.release = '" R61 "' AND ((o.scheduler = 'mq-deadline' AND "
			      "o.module_state = 'built-in') OR (o.scheduler IN ('kyber', 'bfq') AND o.module_state = 'loaded'))"), 6);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM scheduler_offers o JOIN runs r ON r.id = o.run_id JOIN kernels k ON "
			      "k.id = r.kernel_id WHERE k.release = '" R612 "' AND o.scheduler IN ('mq-deadline', 'kyber', 'bfq') "
			      "AND o.module_state = 'loaded'"), 6);
	/* every cell of every run measured, 2 repetitions each: 4 schedulers x 1 engine x 2 kernels x 2 boots */
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM cells WHERE status = 'ok'"), 16);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM cells c WHERE (SELECT count(*) FROM samples s WHERE s.cell_id = c.id) = 2"), 16);
	/* each boot recorded once, ok, with its settings and console, pointing at its run */
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots b JOIN runs r ON r.id = b.run_id JOIN kernels k ON "
			      "k.id = r.kernel_id WHERE b.outcome = 'ok' AND b.kernel_release = k.release AND "
			      "b.accelerator IN ('kvm', 'tcg') AND b.qemu_version <> '' AND b.cpus = 1 AND "
			      "b.console_log LIKE '%ioregress-init: up%' AND b.guest_status = 0 AND b.boot_s > 0"), 4);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots WHERE kernel_package_version = '6.1.170-3'"), 2);
	/* the scratch disk filled once, before the first boot, and the fill stored with every run it served */
	CU_ASSERT_EQUAL(count_in(err, "vm: scratch disk filled with random data: 512 MiB in "), 1);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM fills WHERE target LIKE 'vm scratch disk /dev/vda%' AND fill = 'random' "
			      "AND bytes = 512 << 20 AND seconds > 0"), 4);
	CU_ASSERT_EQUAL(q(db, "SELECT count(DISTINCT seconds) FROM fills WHERE target LIKE 'vm scratch disk%'"), 1);
	/* and the reports compare the kernels */
	char *report[] = { "--db", (char *)db, "schedulers", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(report, out, sizeof(out), NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, R61));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, R612));
	char *rep[] = { "--db", (char *)db, "report", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(rep, out, sizeof(out), NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "kernel " R612 ", direct"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nVM boots (vm run)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, R61 " "));
	char *check[] = { "--db", (char *)db, "check", "--baseline", R61, "--candidate", R612, NULL };
	int st = ior_test_ioregress(check, out, sizeof(out), NULL, 0);
	CU_ASSERT(st == 0 || st == 1 || st == 125);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "4 cell(s) compared"));
	/* each boot's median one observation, the two rounds paired */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "paired by boot round, 2 boots a side"));
	assert_clean(before);
}

/* A truncated image is boot-failed and the good kernel after it still runs; a guest that
 * stops printing is a hang within the no-output limit; both consoles are kept. */
static void test_truncated_image_and_hang(void)
{
	int before = ior_test_count_glob("/tmp/ioregress-vm.*");
	char src[4096], image[4096], spec[8192], mods[4096];
	snprintf(src, sizeof(src), "%s/" K61 "/boot/vmlinuz-" R61, cache);
	snprintf(mods, sizeof(mods), "%s/" K61 "/lib/modules/" R61, cache);
	snprintf(image, sizeof(image), "%s/truncated-bzImage", ior_test_tmpdir());
	FILE *in = fopen(src, "rb"), *o = fopen(image, "wb");
	CU_ASSERT_FATAL(in && o);
	char buf[65536];
	for (size_t total = 0, got; total < (1u << 20) && (got = fread(buf, 1, sizeof(buf), in)) > 0; total += got)
		fwrite(buf, 1, got, o);
	fclose(in);
	fclose(o);
	snprintf(spec, sizeof(spec), "%s:%s", image, mods);
	const char *db = db_in_tmp("fail.db");
	char m[4096];
	snprintf(m, sizeof(m), "%s", ior_test_source_path("tests/data/vm-tiny.ini"));
	CU_ASSERT_EQUAL(vm_run(db, (char *[]){ "--matrix", m, "--accel", "tcg", "--boot-timeout", "120", spec, K61, NULL }), 1);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots WHERE outcome = 'boot-failed' AND run_id IS NULL AND "
			      "kernel LIKE '%truncated-bzImage:%' AND console_log IS NOT NULL"), 1);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots WHERE outcome = 'ok' AND kernel = '" K61 "'"), 1);

	/* a long quiet cell is not a hang: an exec cell announces no length, and the guest repeats its
	 * heartbeat while it runs, for 35 s against a 15 s limit */
	const char *quiet = ior_test_write_file("quiet.ini", "[matrix]\nrepetitions = 1\nschedulers = none\n"
					       "[device vda]\npath = /dev/vda\n[engine quiet]\ntype = exec\n"
					       "command = sleep 35\n");
	snprintf(m, sizeof(m), "%s", quiet);
	CU_ASSERT_EQUAL(vm_run(db, (char *[]){ "--matrix", m, "--accel", "tcg", "--idle-timeout", "15", K61, NULL }), 0);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots WHERE outcome = 'ok' AND console_log LIKE '%ioregress-beat "
			      "expect=0.0 cell 1/1 rep 1/1  vda none quiet %(running 3_ s)%'"), 1);

	/* a guest whose run stops answering (stopped with SIGSTOP, its ticks with it) is a hang: killed
	 * 15 s after its last heartbeat */
	const char *stall = ior_test_write_file("stall.ini", "[matrix]\nrepetitions = 1\nschedulers = none\n"
					       "[device vda]\npath = /dev/vda\n[engine stall]\ntype = exec\n"
					       "command = sh -c \"kill -STOP $PPID; sleep 300\"\n");
	snprintf(m, sizeof(m), "%s", stall);
	time_t t0 = time(NULL);
	CU_ASSERT_EQUAL(vm_run(db, (char *[]){ "--matrix", m, "--accel", "tcg", "--idle-timeout", "15", K61, NULL }), 1);
	CU_ASSERT(time(NULL) - t0 < 120);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots WHERE outcome = 'hang' AND reason LIKE '%no heartbeat from "
			      "the guest for 15 s (last: cell 1/1 rep 1/1%' AND console_log LIKE '%ioregress-init: up%' AND "
			      "total_s < 100"), 1);
	/* before the kill the guest was asked for its blocked tasks (sysrq w over the serial line); a
	 * stopped run is not blocked, and the reason says so, and where the run's tasks are (t) */
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots WHERE outcome = 'hang' AND console_log LIKE '%Show Blocked "
			      "State%' AND reason LIKE '%; sysrq w showed no blocked task%' AND reason LIKE '%ioregress (pid "
			      "%) state:T%'"), 1);
	assert_clean(before);
}

/* --boot-only: init reached and powered off, recorded ok, no run (bench/vm.sh's bare boot). */
static void test_boot_only(void)
{
	const char *db = db_in_tmp("boot.db");
	CU_ASSERT_EQUAL(vm_run(db, (char *[]){ "--boot-only", "--accel", "tcg", K612, NULL }), 0);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots WHERE outcome = 'ok' AND run_id IS NULL AND boot_s > 0 "
			      "AND total_s >= boot_s AND matrix_file IS NULL"), 1);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM runs"), 0);
}

/* A matrix on /dev/nullb0 runs unchanged in a guest: the guest loads null_blk (shipped xz-compressed
 * by the 6.12 cloud package) because the matrix names a nullb device, and measures it; the request
 * counters come from nullb0's own stat. */
static void test_null_blk_in_guest(void)
{
	int before = ior_test_count_glob("/tmp/ioregress-vm.*");
	const char *db = db_in_tmp("nullb.db");
	const char *ini = ior_test_write_file("nullb.ini", "[matrix]\nrepetitions = 2\nschedulers = none\n"
					     "[device nullb0]\npath = /dev/nullb0\n"
					     "[engine direct]\ntype = hdparm\ndirect = yes\nduration = 0.5s\nsettle = 0s\n");
	char m[4096];
	snprintf(m, sizeof(m), "%s", ini);
	CU_ASSERT_EQUAL(vm_run(db, (char *[]){ "--matrix", m, "--accel", "tcg", K612, NULL }), 0);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots WHERE outcome = 'ok' AND run_id IS NOT NULL"), 1);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM sample_view WHERE device = 'nullb0' AND device_path = '/dev/nullb0' "
			      "AND cell_status = 'ok' AND kernel = '" R612 "' AND value > 0 AND rd_sectors > 0"), 2);
	assert_clean(before);
}

/* A --qemu wrapper that throttles the guest's scratch disk (the first virtio drive) to 256 KiB/s:
 * a device that stops answering, for as long as a test needs. qemu's throttle admits the first
 * request whatever its size and holds the next for the bytes it let through. */
static void throttled_qemu(char *path, size_t len)
{
	const char *wrapper = ior_test_write_file("slow-qemu",
		"#!/bin/sh\n"
		"# qemu-system-x86_64 with the first virtio drive (the scratch disk) throttled to 256 KiB/s\n"
		"n=$#; first=1\n"
		"while [ $n -gt 0 ]; do\n"
		"  a=$1; shift; n=$((n - 1))\n"
		"  case $a in file=*,if=virtio,*) [ $first = 1 ] && a=$a,throttling.bps-total=262144 && first=0;; esac\n"
		"  set -- \"$@\" \"$a\"\n"
		"done\n"
		"exec qemu-system-x86_64 \"$@\"\n");
	CU_ASSERT_FATAL(chmod(wrapper, 0755) == 0);
	snprintf(path, len, "%s", wrapper);
}

/* A guest whose device stops answering: one 1 MiB read takes 4 s against the matrix's 2 s deadline
 * (repetition 2: the throttle let the first through). The aio cell on vda fails with its reason in
 * the guest, the loop device's cell after it keeps its samples, and the boot ends with the run's
 * own status instead of a hang. */
static void test_device_that_stops_answering(void)
{
	int before = ior_test_count_glob("/tmp/ioregress-vm.*");
	const char *db = db_in_tmp("slow.db");
	const char *ini = ior_test_write_file("slow.ini", "[matrix]\nrepetitions = 2\nschedulers = none\n"
					     "order = sequential\ndrop_caches = no\ndeadline = 2s\n"
					     "[device vda]\npath = /dev/vda\n[device scratch]\nloop = 16M\n"
					     "[engine big]\ntype = aio\nrw = randread\nbs = 1M\niodepth = 1\nsize = 1M\n"
					     "direct = yes\n");
	char m[4096], w[4096];
	snprintf(m, sizeof(m), "%s", ini);
	throttled_qemu(w, sizeof(w));
	CU_ASSERT_EQUAL(vm_run(db, (char *[]){ "--matrix", m, "--accel", "tcg", "--qemu", w, K612, NULL }), 1);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots WHERE outcome = 'test-failed' AND run_id IS NOT NULL"), 1);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM cells c JOIN devices d ON d.id = c.device_id WHERE d.name = 'vda' AND "
			      "c.status = 'failed' AND c.reason LIKE 'repetition 2: 1 of 1 requests never completed within "
			      "2 s (aio on %'"), 1);
	/* and qemu, asked by the host when the guest said so, holds it: the throttle has it */
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots WHERE reason LIKE '%; qemu''s virtqueue of vda: 1 in use, %"
			      "(qemu still holds them: the emulated disk never completed them)'"), 1);
	/* and where it sits, from the guest's blk-mq debugfs: with the driver (qemu holds it) */
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM cells WHERE reason LIKE '%; blk-mq debugfs of ''vda'': %hctx0 busy 1 "
			      "request%'"), 1);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM samples s JOIN cells c ON c.id = s.cell_id JOIN devices d ON "
			      "d.id = c.device_id WHERE d.name = 'scratch' AND c.status = 'ok' AND s.value > 0 AND s.warmup = 0"), 2);
	assert_clean(before);
}

/* --boots auto --metric on a metric no cell records (hdparm has no latency): after the second round
 * it says so and stops, rather than booting to the cap for verdicts that cannot come. */
static void test_auto_metric_never_recorded(void)
{
	const char *db = db_in_tmp("auto-metric.db");
	const char *ini = ior_test_write_file("auto-metric.ini", "[matrix]\nrepetitions = 2\nschedulers = none\n"
					     "[device vda]\npath = /dev/vda\n"
					     "[engine direct]\ntype = hdparm\ndirect = yes\nduration = 0.2s\nsettle = 0s\n");
	char m[4096];
	snprintf(m, sizeof(m), "%s", ini);
	CU_ASSERT_EQUAL(vm_run(db, (char *[]){ "--matrix", m, "--accel", "tcg", "--boots", "auto", "--max-boots", "4",
					       "--metric", "lat_p99_us", K61, K612, NULL }), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no cell of the matrix records lat_p99_us"));
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots WHERE outcome = 'ok'"), 4);
}

/* A kernel that panics mid-run (sysrq's crash, from the matrix's own command, in the second
 * round) is a panic whose reason is the oops head, not its last line; qemu ends by itself
 * (panic=-1 with -no-reboot), and the samples measured before it (round 1: one of each cell, the
 * crash's own exec sample included) reach the host through the results disk. */
static void test_panic(void)
{
	int before = ior_test_count_glob("/tmp/ioregress-vm.*");
	const char *db = db_in_tmp("panic.db");
	const char *crash = ior_test_write_file("crash.ini", "[matrix]\nrepetitions = 2\nschedulers = none\n"
					       "[device vda]\npath = /dev/vda\n"
					       "[engine direct]\ntype = hdparm\ndirect = yes\nduration = 0.2s\nsettle = 0s\n"
					       "[engine crash]\ntype = exec\n"
					       "command = sh -c \"[ -f /tmp/once ] && echo c > /proc/sysrq-trigger; touch /tmp/once\"\n");
	char m[4096];
	snprintf(m, sizeof(m), "%s", crash);
	CU_ASSERT_EQUAL(vm_run(db, (char *[]){ "--matrix", m, "--accel", "tcg", K61, NULL }), 1);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots WHERE outcome = 'panic' AND console_log LIKE '%Kernel panic%' "
			      "AND reason LIKE 'kernel panic: %sysrq%' AND reason NOT LIKE '%Kernel Offset%' AND reason LIKE "
			      "'%; 3 samples measured before it kept' AND run_id IS NOT NULL AND total_s < 120"), 1);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM samples s JOIN cells c ON c.id = s.cell_id WHERE c.engine = 'direct'"), 2);
	assert_clean(before);
}

/* Issue 38: a bisection runs one vm run per boot, and each filled the 512 MiB scratch disk again
 * (4.2 s at load 12). The filled disk is kept in the cache: the next vm run takes it, writes no
 * fill and says so, and its fill row says where the data came from. */
static void test_scratch_disk_kept(void)
{
	int before = ior_test_count_glob("/tmp/ioregress-vm.*");
	char kept[4200], m[4096];
	snprintf(kept, sizeof(kept), "%s/scratch-512M-random.img", cache);
	snprintf(m, sizeof(m), "%s", ior_test_source_path("tests/data/vm-bisect.ini"));
	drop_kept_scratch();
	const char *db = db_in_tmp("kept1.db");
	CU_ASSERT_EQUAL(vm_run(db, (char *[]){ "--matrix", m, "--accel", "tcg", K61, NULL }), 0);
	CU_ASSERT_EQUAL(count_in(err, "vm: scratch disk filled with random data: 512 MiB in "), 1);
	struct stat st;
	CU_ASSERT_TRUE(stat(kept, &st) == 0 && st.st_size == 512 << 20);
	const char *db2 = db_in_tmp("kept2.db");
	CU_ASSERT_EQUAL(vm_run(db2, (char *[]){ "--matrix", m, "--accel", "tcg", K61, NULL }), 0);
	CU_ASSERT_EQUAL(count_in(err, "vm: scratch disk filled"), 0);
	CU_ASSERT_EQUAL(count_in(err, "vm: scratch disk: 512 MiB of random data kept from an earlier vm run"), 1);
	CU_ASSERT_EQUAL(q(db2, "SELECT count(*) FROM fills WHERE target LIKE '%kept in the cache%' AND fill = 'random' "
			       "AND bytes = 512 << 20"), 1);
	CU_ASSERT_EQUAL(q(db2, "SELECT count(*) FROM samples WHERE warmup = 0"), 5);
	CU_ASSERT_TRUE(stat(kept, &st) == 0 && st.st_size == 512 << 20);
	/* one with a hole (not ours to trust as filled) is not taken: filled again */
	CU_ASSERT_EQUAL(truncate(kept, 256 << 20), 0);
	CU_ASSERT_EQUAL(truncate(kept, 512 << 20), 0);
	const char *db3 = db_in_tmp("kept3.db");
	CU_ASSERT_EQUAL(vm_run(db3, (char *[]){ "--matrix", m, "--accel", "tcg", "--boots", "1", K61, NULL }), 0);
	CU_ASSERT_EQUAL(count_in(err, "vm: scratch disk filled with random data: 512 MiB in "), 1);
	assert_clean(before);
}

/* SIGINT while a guest runs: qemu is ended, the work directory removed, the boot recorded. */
static void test_sigint_cleans_up(void)
{
	int before = ior_test_count_glob("/tmp/ioregress-vm.*");
	const char *db = db_in_tmp("int.db");
	const char *stall = ior_test_write_file("stall2.ini", "[matrix]\nrepetitions = 1\nschedulers = none\n"
					       "[device vda]\npath = /dev/vda\n[engine stall]\ntype = exec\n"
					       "command = sleep 300\n");
	const char *bin = getenv("IOR_BINARY");
	char *argv[] = { (char *)bin, "--db", (char *)db, "vm", "run", "--cache-dir", cache, "--accel", "tcg",
			 "--matrix", (char *)stall, K61, NULL };
	pid_t pid = ior_test_start(argv);
	CU_ASSERT_FATAL(pid > 0);
	/* wait for qemu, then for the guest to be well inside its run */
	for (int i = 0; i < 600 && count_qemus() == 0; i++)
		usleep(100000);
	CU_ASSERT_EQUAL(count_qemus(), 1);
	/* the scratch disk every boot uses was filled before the first: not one hole in it */
	glob_t g;
	CU_ASSERT_EQUAL_FATAL(glob("/tmp/ioregress-vm.*/scratch.img", 0, NULL, &g), 0);
	uint64_t holes = 1;
	CU_ASSERT_EQUAL(ior_fill_hole_bytes(g.gl_pathv[g.gl_pathc - 1], &holes), 0);
	CU_ASSERT_EQUAL(holes, 0);
	int fd = open(g.gl_pathv[g.gl_pathc - 1], O_RDONLY);
	CU_ASSERT(fd >= 0 && lseek(fd, 0, SEEK_HOLE) == lseek(fd, 0, SEEK_END));
	close(fd);
	globfree(&g);
	sleep(8);
	kill(pid, SIGINT);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGINT);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots WHERE outcome = 'interrupted' AND reason LIKE '%interrupted%'"), 1);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM fills"), 0); /* the interrupted guest stored no run */
	assert_clean(before);
}

/* A matrix typo is found on the host, with its file and line, before anything is fetched or
 * booted: no boot is spent and none recorded. */
static void test_matrix_typo_spends_no_boot(void)
{
	int before = ior_test_count_glob("/tmp/ioregress-vm.*");
	const char *db = db_in_tmp("typo.db");
	const char *bad = ior_test_write_file("typo.ini", "[matrix]\nrepetitions = 1\n[device vda]\npath = /dev/vda\n"
					     "[engine direct]\ntype = hdparm\ndirectt = yes\n");
	char m[4096];
	snprintf(m, sizeof(m), "%s", bad);
	time_t t0 = time(NULL);
	CU_ASSERT_EQUAL(vm_run(db, (char *[]){ "--matrix", m, "--accel", "tcg", "linux-image-no-such-kernel", NULL }), 1);
	CU_ASSERT(time(NULL) - t0 < 5);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "typo.ini:7: directt"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "directt"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no boot was started"));
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots"), 0);
	assert_clean(before);
}

int main(void)
{
	const char *bin = getenv("IOR_BINARY");
	if (!bin)
		ior_test_skip("IOR_BINARY is not set");
	if (ior_test_spawn((char *[]){ "qemu-system-x86_64", "--version", NULL }, NULL) != 0)
		ior_test_skip("qemu-system-x86_64 cannot run here");
	const char *c = getenv("IOR_VM_CACHE");
	if (c && *c)
		snprintf(cache, sizeof(cache), "%s", c);
	else
		snprintf(cache, sizeof(cache), "%s/.cache/ioregress/kernels", getenv("HOME") ? getenv("HOME") : "/tmp");
	static const struct ior_test tests[] = {
		IOR_TEST(test_matrix_typo_spends_no_boot),
		IOR_TEST(test_two_debian_kernels_merged),
		IOR_TEST(test_truncated_image_and_hang),
		IOR_TEST(test_boot_only),
		IOR_TEST(test_null_blk_in_guest),
		IOR_TEST(test_device_that_stops_answering),
		IOR_TEST(test_auto_metric_never_recorded),
		IOR_TEST(test_panic),
		IOR_TEST(test_scratch_disk_kept),
		IOR_TEST(test_sigint_cleans_up),
		IOR_TEST_END,
	};
	return ior_test_run("vm", tests);
}
