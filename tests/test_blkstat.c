/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests that a run stores the measured device's request counters per repetition as the kernel
 * counts them: the sum over a read-only run equals the device's stat delta read by the test, a
 * deterministic fio job's stored requests and merges equal fio's own disk stats, and the derived
 * metrics read them. */
#include "tests/suite.h"

#include "common/error.h"
#include "db/metric.h"
#include "device/blkstat.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dev[64];

static void detach(void)
{
	if (dev[0])
		ior_test_spawn((char *[]){ "losetup", "-d", dev, NULL }, NULL);
}

/* A 64 MiB file of random data behind a new loop device (buffered, so reads can merge). */
static void attach(void)
{
	char file[4096], out[4096];
	snprintf(file, sizeof(file), "%s/disk.img", ior_test_tmpdir());
	ior_test_random_file(file, 64);
	atexit(detach);
	snprintf(out, sizeof(out), "%s/losetup.out", ior_test_tmpdir());
	char *argv[] = { "losetup", "-f", "--show", file, NULL };
	CU_ASSERT_FATAL(ior_test_spawn_to(argv, NULL, out, NULL) == 0);
	char *text = ior_test_read_file(out, NULL);
	CU_ASSERT_FATAL(text != NULL);
	snprintf(dev, sizeof(dev), "%.*s", (int)strcspn(text, "\n"), text);
	free(text);
}

/* The device's counters read the plain way, by its /sys/block name: the independent figure. */
static void counters(uint64_t c[6])
{
	char path[128];
	snprintf(path, sizeof(path), "/sys/block/%s/stat", dev + 5);
	FILE *f = fopen(path, "r");
	CU_ASSERT_FATAL(f != NULL);
	uint64_t ticks;
	CU_ASSERT_FATAL(fscanf(f, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
			       &c[0], &c[1], &c[2], &ticks, &c[3], &c[4], &c[5]) == 7);
	fclose(f);
}

static long long query(const char *db, const char *fmt, const char *arg)
{
	char sql[1024];
	snprintf(sql, sizeof(sql), fmt, arg);
	return ior_test_query(db, sql);
}

/* What fio counts for a job on the device: the reads it issued (its job's total_ios) and the
 * merges of its disk stats ("disk_util": sampled every 250 ms, so their request count misses the
 * last ticks and is not compared). */
static void fio_disk_stats(const char *job_args, long long *ios, long long *merges)
{
	char out[4096], cmd[2048];
	snprintf(out, sizeof(out), "%s/fio.json", ior_test_tmpdir());
	snprintf(cmd, sizeof(cmd), "fio --name=peer --filename=%s %s --output-format=json > %s", dev, job_args, out);
	CU_ASSERT_FATAL(ior_test_spawn((char *[]){ "sh", "-c", cmd, NULL }, NULL) == 0);
	char *json = ior_test_read_file(out, NULL);
	CU_ASSERT_FATAL(json != NULL);
	const char *ios_at = strstr(json, "\"total_ios\"");   /* the first is the read side's */
	const char *merges_at = strstr(json, "\"read_merges\"");
	CU_ASSERT_FATAL(ios_at && merges_at);
	*ios = strtoll(strchr(ios_at, ':') + 1, NULL, 10);
	*merges = strtoll(strchr(merges_at, ':') + 1, NULL, 10);
	free(json);
}

#define SEQ "type = fio\nrw = read\nbs = 128k\nsize = 32M\niodepth = 1\nnumjobs = 1\ndirect = yes\n"

/* Read-only cells (nothing else reads the device: a write cell's guards would): every request the
 * device served in the run is in exactly one sample, and the deterministic job's requests are the
 * reads fio issues for it (128k direct reads: one request each, none merged). */
static void test_read_counters_match_the_device_and_fio(void)
{
	attach();
	char text[2048];
	snprintf(text, sizeof(text),
		 "[matrix]\nrepetitions = 3\nschedulers = none\ndrop_caches = yes\norder = sequential\n"
		 "[device d]\npath = %s\n[engine seq]\n" SEQ
		 "[engine buffered]\ntype = hdparm\ndirect = no\nduration = 1s\n", dev);
	const char *matrix = ior_test_write_file("read.ini", text);
	const char *db = ior_test_path("read.db");
	uint64_t before[6], after[6];
	counters(before);
	int rc = ior_test_ioregress((char *[]){ "--db", (char *)db, "--quiet", "run", (char *)matrix, NULL }, NULL, 0,
				    NULL, 0);
	counters(after);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM samples WHERE rd_ios IS NULL"), 0);
	const char *col[6] = { "rd_ios", "rd_merges", "rd_sectors", "wr_ios", "wr_merges", "wr_sectors" };
	for (int i = 0; i < 6; i++) {
		long long stored = query(db, "SELECT total(%s) FROM samples", col[i]);
		if (stored != (long long)(after[i] - before[i]))
			fprintf(stderr, "%s: stored %lld, device %llu\n", col[i], stored,
				(unsigned long long)(after[i] - before[i]));
		CU_ASSERT_EQUAL(stored, (long long)(after[i] - before[i]));
	}
	/* buffered sequential reads: read-ahead makes big requests of many bios */
	CU_ASSERT(query(db, "SELECT min(rd_ios) FROM sample_view WHERE engine = '%s'", "buffered") > 0);

	long long fio_ios = 0, fio_merges = -1;
	fio_disk_stats("--rw=read --bs=128k --size=32M --iodepth=1 --direct=1 --ioengine=libaio", &fio_ios, &fio_merges);
	CU_ASSERT(fio_ios > 0);
	CU_ASSERT_EQUAL(query(db, "SELECT min(rd_ios) FROM sample_view WHERE engine = '%s'", "seq"), fio_ios);
	CU_ASSERT_EQUAL(query(db, "SELECT max(rd_ios) FROM sample_view WHERE engine = '%s'", "seq"), fio_ios);
	CU_ASSERT_EQUAL(query(db, "SELECT max(rd_merges) FROM sample_view WHERE engine = '%s'", "seq"), fio_merges);
	CU_ASSERT_EQUAL(query(db, "SELECT max(rd_sectors) FROM sample_view WHERE engine = '%s'", "seq"), 32 << 11);

	CU_ASSERT_EQUAL(fio_merges, 0);
	/* the derived metrics as verdicts read them: 32 MiB in fio_ios requests */
	struct ior_db *h = NULL;
	CU_ASSERT_FATAL(ior_test_ok(ior_db_open(&h, db)) == 0);
	long long cell = query(db, "SELECT id FROM cells WHERE engine = '%s'", "seq");
	const enum ior_metric m[3] = { IOR_METRIC_REQ_KIB, IOR_METRIC_MERGE_PCT, IOR_METRIC_REQ_PER_GIB };
	const double want[3] = { 32768.0 / (double)fio_ios, 100.0 * (double)fio_merges / (double)(fio_ios + fio_merges),
				 (double)fio_ios * 32 };
	for (int i = 0; i < 3; i++) {
		struct ior_metric_reader *r = NULL;
		double *v = NULL;
		size_t n = 0;
		CU_ASSERT_FATAL(ior_test_ok(ior_metric_reader_open(&r, h, m[i])) == 0);
		CU_ASSERT(ior_test_ok(ior_metric_reader_read(r, cell, &v, &n)) == 0);
		CU_ASSERT_EQUAL(n, 3);
		for (size_t j = 0; j < n; j++)
			CU_ASSERT_DOUBLE_EQUAL(v[j], want[i], 1e-9);
		free(v);
		ior_metric_reader_close(r);
	}
	ior_db_free(h);
	/* and by name on the command line, with their direction */
	char out[8192];
	rc = ior_test_ioregress((char *[]){ "--db", (char *)db, "report", "--metric", "req_kib,merge_pct,req_per_gib",
					    NULL }, out, sizeof(out), NULL, 0);
	CU_ASSERT_EQUAL(rc, 0);
}

/* Buffered writes with one fsync: what the block layer wrote is the bytes dd wrote, in requests
 * the writeback merged; the guards' reads before each repetition are not in the sample. */
static void test_write_counters(void)
{
	char text[2048], allow[128];
	snprintf(text, sizeof(text),
		 "[matrix]\nrepetitions = 2\nschedulers = none\ndrop_caches = yes\norder = sequential\n"
		 "[device d]\npath = %s\ndestructive = yes\n"
		 "[engine wr]\ntype = dd\nrw = write\nbs = 4k\ncount = 4096\nsync = end\n", dev);
	snprintf(allow, sizeof(allow), "--allow-destructive=%s", dev);
	const char *matrix = ior_test_write_file("write.ini", text);
	const char *db = ior_test_path("write.db");
	int rc = ior_test_ioregress((char *[]){ "--db", (char *)db, "--quiet", "run", (char *)matrix, allow, NULL },
				    NULL, 0, NULL, 0);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM samples"), 2);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT min(wr_sectors) FROM samples"), 16 << 11);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT max(wr_sectors) FROM samples"), 16 << 11);
	/* 4k pages leave as requests of more than one page */
	CU_ASSERT(ior_test_query(db, "SELECT max(wr_ios) FROM samples") < 4096);
	CU_ASSERT(ior_test_query(db, "SELECT min(wr_ios) FROM samples") > 0);
}

/* A name that is not a block device is refused with its reason; a delta that goes back is not one. */
static void test_not_a_device(void)
{
	struct ior_blkstat s;
	CU_ASSERT_EQUAL(ior_blkstat_read("/etc/hostname", &s), IOR_EINVALID);
	struct ior_blkstat a = { .rd_ios = 5 }, b = { .rd_ios = 3 }, d;
	CU_ASSERT_FALSE(ior_blkstat_delta(&a, &b, &d));
	CU_ASSERT_TRUE(ior_blkstat_delta(&b, &a, &d));
	CU_ASSERT_EQUAL(d.rd_ios, 2);
}

int main(void)
{
	ior_test_require_root("attaches a loop device and reads its counters");
	static const struct ior_test tests[] = {
		IOR_TEST(test_not_a_device),
		IOR_TEST(test_read_counters_match_the_device_and_fio),
		IOR_TEST(test_write_counters),
		IOR_TEST_END,
	};
	return ior_test_run("blkstat", tests);
}
