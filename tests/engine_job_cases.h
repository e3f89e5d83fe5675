/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test cases shared by the aio and uring engine suites (fio job semantics on a real loop device);
 * included by test_engine_aio.c and test_engine_uring.c. */
#ifndef IOR_TESTS_ENGINE_JOB_CASES_H
#define IOR_TESTS_ENGINE_JOB_CASES_H

#include "common/error.h"
#include "common/stop.h"
#include "device/loopdev.h"
#include "engines/engine.h"
#include "engines/job.h"
#include "tests/engine_fixture.h"
#include "tests/suite.h"

#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEV_SIZE (64ull << 20)

static const struct ior_loopdev *ld;
static struct ior_target target;
static const struct ior_engine_ops *ops;

static void *options(const char *const *kv)
{
	return ior_test_engine_opts(ops, kv);
}

static int measure_on(const struct ior_target *t, const char *const *kv, struct ior_sample *out)
{
	int rc = ior_test_engine_once(ops, kv, t, out);
	if (rc)
		fprintf(stderr, "(%d: %s) ", rc, ior_error_last());
	return rc;
}

static int measure(const char *const *kv, struct ior_sample *out)
{
	return measure_on(&target, kv, out);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Zeroes the whole device with O_DIRECT writes, so a read-back sees only what a job wrote. */
static void zero_device(void)
{
	int fd = open(ld->path, O_WRONLY | O_DIRECT);
	CU_ASSERT_FATAL(fd >= 0);
	void *buf = NULL;
	CU_ASSERT_FATAL(posix_memalign(&buf, 4096, 1 << 20) == 0);
	memset(buf, 0, 1 << 20);
	for (uint64_t off = 0; off < DEV_SIZE; off += 1 << 20)
		CU_ASSERT_FATAL(pwrite(fd, buf, 1 << 20, (off_t)off) == 1 << 20);
	free(buf);
	close(fd);
}

struct readback {
	uint64_t stamped, zero, wrong; /* in sectors of 512 bytes */
	uint64_t first_wrong;
};

/* Reads [from, to) back with O_DIRECT and classifies each sector: carries the
 * stamp of its own offset, is all zero, or is something else. */
static struct readback read_back(uint64_t from, uint64_t to)
{
	struct readback r = { 0, 0, 0, UINT64_MAX };
	int fd = open(ld->path, O_RDONLY | O_DIRECT);
	CU_ASSERT_FATAL(fd >= 0);
	char *buf = NULL;
	CU_ASSERT_FATAL(posix_memalign((void **)&buf, 4096, 1 << 20) == 0);
	static const char zeros[512];
	for (uint64_t off = from; off < to; off += 1 << 20) {
		uint64_t len = to - off < (1 << 20) ? to - off : (1 << 20);
		CU_ASSERT_FATAL(pread(fd, buf, len, (off_t)off) == (ssize_t)len);
		for (uint64_t i = 0; i < len; i += 512) {
			if (ior_pattern_check(buf + i, 512, off + i))
				r.stamped++;
			else if (memcmp(buf + i, zeros, 512) == 0)
				r.zero++;
			else if (r.wrong++ == 0)
				r.first_wrong = off + i;
		}
	}
	free(buf);
	close(fd);
	return r;
}

static uint64_t detail_count(const struct ior_sample *s, const char *key)
{
	const char *p = strstr(s->detail, key);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	return strtoull(p + strlen(key), NULL, 10);
}

static void check_latency(const struct ior_sample *s)
{
	CU_ASSERT_TRUE(s->has_latency && s->has_clat);
	CU_ASSERT_TRUE(s->lat_p50_us > 0);
	CU_ASSERT_TRUE(s->lat_p50_us <= s->lat_p99_us);
	CU_ASSERT_TRUE(s->lat_p99_us <= s->lat_p999_us);
	/* A completion cannot take longer than the whole run. */
	CU_ASSERT_TRUE(s->lat_p999_us <= s->wall_s * 1e6 * 1.02 + 10);
	/* clat starts when the submit call returns, lat before it: never the longer one */
	CU_ASSERT_TRUE(s->clat_mean_us <= s->lat_mean_us);
	CU_ASSERT_TRUE(s->clat_p50_us <= s->lat_p50_us * 1.02);
}

/* Little's law on a real loop device: requests in flight = throughput x time in flight, so mean
 * total latency x IOPS must come back to iodepth x numjobs. A latency stamped after the submit
 * call (as before #11) left the submission out and failed this (6.33 in flight for 8, 0.76 for
 * 1); so would a wrong IOPS. A busy host can only lower the figure (a job descheduled between a
 * completion and its next submission has fewer in flight), never raise it, so the best of three
 * measurements is judged: load cannot make a wrong stamp pass. The tolerance is 5%: taking every
 * ready completion at once (before iodepth_batch_complete, default 1 as fio's
 * iodepth_batch_complete_max) let the queue fall into a convoy with 7.1 of 8 in flight (-11%),
 * where fio and this engine now give 7.96. */
#define LITTLE_TOLERANCE 0.05
static void test_latency_obeys_littles_law(void)
{
	static const struct {
		const char *depth, *jobs;
	} cases[] = { { "8", "1" }, { "4", "2" }, { "1", "1" } };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double want = atof(cases[i].depth) * atof(cases[i].jobs), best = 0;
		for (int attempt = 0; attempt < 3 && fabs(best / want - 1) > LITTLE_TOLERANCE; attempt++) {
			struct ior_sample s;
			CU_ASSERT_EQUAL_FATAL(measure((const char *[]){ "rw", "randread", "bs", "4k", "iodepth",
								       cases[i].depth, "numjobs", cases[i].jobs, "size", "16M",
								       "direct", "yes", "runtime", "1s", NULL }, &s), IOR_OK);
			check_latency(&s);
			double in_flight = s.lat_mean_us / 1e6 * s.value;
			fprintf(stderr, "iodepth %s numjobs %s: mean lat %.1f us x %.0f IOPS = %.2f in flight, want %.0f\n",
				cases[i].depth, cases[i].jobs, s.lat_mean_us, s.value, in_flight, want);
			if (fabs(in_flight / want - 1) < fabs(best / want - 1))
				best = in_flight;
		}
		CU_ASSERT_TRUE(fabs(best / want - 1) <= LITTLE_TOLERANCE);
	}
}

/* ---- the cases ---- */

static void test_read_moves_size_times_numjobs(void)
{
	struct ior_sample s;
	CU_ASSERT_EQUAL_FATAL(measure((const char *[]){ "rw", "read", "bs", "4k", "iodepth", "4", "numjobs", "4",
						       "size", "4M", "direct", "yes", NULL }, &s), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, 16u << 20);
	CU_ASSERT_EQUAL(s.ios, (16u << 20) / 4096);
	CU_ASSERT_STRING_EQUAL(s.unit, "IOPS");
	CU_ASSERT_DOUBLE_EQUAL(s.value, (double)s.ios / s.wall_s, s.value * 1e-9);
	CU_ASSERT_TRUE(s.usr_s >= 0 && s.sys_s >= 0);
	check_latency(&s);

	CU_ASSERT_EQUAL_FATAL(measure((const char *[]){ "rw", "randread", "bs", "128k", "iodepth", "8", "numjobs", "2",
						       "size", "8M", "direct", "yes", NULL }, &s), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, 16u << 20);
	CU_ASSERT_EQUAL(s.ios, 128);
	CU_ASSERT_STRING_EQUAL(s.unit, "MiB/s");
	CU_ASSERT_DOUBLE_EQUAL(s.value, (double)s.bytes / (1 << 20) / s.wall_s, s.value * 1e-9);
	check_latency(&s);
}

static void test_write_lands_at_its_offsets_in_each_region(void)
{
	zero_device();
	struct ior_sample s;
	CU_ASSERT_EQUAL_FATAL(measure((const char *[]){ "rw", "write", "bs", "64k", "iodepth", "4", "numjobs", "2",
						       "size", "8M", "direct", "yes", NULL }, &s), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, 16u << 20);
	check_latency(&s);
	struct readback in = read_back(0, 16u << 20), out = read_back(16u << 20, DEV_SIZE);
	CU_ASSERT_EQUAL(in.stamped, (16u << 20) / 512);
	CU_ASSERT_EQUAL(in.wrong, 0);
	CU_ASSERT_EQUAL(out.zero, (DEV_SIZE - (16u << 20)) / 512); /* nothing past the two regions */
}

static void test_randwrite_covers_every_block_once(void)
{
	zero_device();
	struct ior_sample s;
	CU_ASSERT_EQUAL_FATAL(measure((const char *[]){ "rw", "randwrite", "bs", "4k", "iodepth", "8", "numjobs", "3",
						       "size", "4M", "direct", "yes", NULL }, &s), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, 12u << 20);
	/* fio's random map: each block of each region written exactly once per pass. */
	struct readback in = read_back(0, 12u << 20), out = read_back(12u << 20, DEV_SIZE);
	CU_ASSERT_EQUAL(in.stamped, (12u << 20) / 512);
	CU_ASSERT_EQUAL(in.wrong, 0);
	CU_ASSERT_EQUAL(out.zero, (DEV_SIZE - (12u << 20)) / 512);
}

static void test_randrw_mixes_and_writes_only_where_it_wrote(void)
{
	zero_device();
	struct ior_sample s;
	CU_ASSERT_EQUAL_FATAL(measure((const char *[]){ "rw", "randrw", "rwmixread", "70%", "bs", "4k", "iodepth", "8",
						       "numjobs", "2", "size", "8M", "direct", "yes", NULL }, &s), IOR_OK);
	uint64_t reads = detail_count(&s, "reads="), writes = detail_count(&s, "writes=");
	CU_ASSERT_EQUAL(reads + writes, s.ios);
	CU_ASSERT_EQUAL(s.ios, 4096);
	double share = (double)reads / (double)s.ios;
	CU_ASSERT_TRUE(share > 0.65 && share < 0.75);
	/* Every block is touched once: the written ones carry their stamp, the read ones stay zero. */
	struct readback in = read_back(0, 16u << 20);
	CU_ASSERT_EQUAL(in.wrong, 0);
	CU_ASSERT_EQUAL(in.stamped, writes * 8);
	CU_ASSERT_EQUAL(in.zero, reads * 8);
}

static void test_time_based_loops_over_region(void)
{
	struct ior_sample s;
	double t0 = now_s();
	CU_ASSERT_EQUAL_FATAL(measure((const char *[]){ "rw", "randread", "bs", "4k", "iodepth", "4", "size", "256k",
						       "runtime", "300ms", "direct", "yes", NULL }, &s), IOR_OK);
	double took = now_s() - t0;
	CU_ASSERT_TRUE(s.bytes > 256u << 10); /* went round its 64-block region more than once */
	CU_ASSERT_TRUE(s.wall_s >= 0.3 && s.wall_s < 0.5);
	CU_ASSERT_TRUE(took >= 0.3);
	check_latency(&s);
}

static void test_ramp_time_is_excluded(void)
{
	struct ior_sample s;
	double t0 = now_s();
	CU_ASSERT_EQUAL_FATAL(measure((const char *[]){ "rw", "read", "bs", "4k", "iodepth", "2", "numjobs", "2",
						       "runtime", "300ms", "ramp_time", "400ms", "direct", "yes", NULL },
				      &s), IOR_OK);
	double took = now_s() - t0;
	CU_ASSERT_TRUE(took >= 0.7);                       /* the ramp ran... */
	CU_ASSERT_TRUE(s.wall_s >= 0.3 && s.wall_s < 0.5);  /* ...and is not in the figures */

	/* Size-based: exactly size bytes are counted after the ramp. */
	CU_ASSERT_EQUAL_FATAL(measure((const char *[]){ "rw", "randread", "bs", "4k", "iodepth", "4", "size", "2M",
						       "ramp_time", "200ms", "direct", "yes", NULL }, &s), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, 2u << 20);
	CU_ASSERT_EQUAL(s.ios, 512);
}

static void *stop_later(void *arg)
{
	(void)arg;
	usleep(200 * 1000);
	ior_stop_request(SIGINT);
	return NULL;
}

static void test_stop_request_interrupts(void)
{
	pthread_t th;
	struct ior_sample s;
	double t0 = now_s();
	CU_ASSERT_EQUAL_FATAL(pthread_create(&th, NULL, stop_later, NULL), 0);
	int rc = measure((const char *[]){ "rw", "randread", "bs", "4k", "iodepth", "8", "numjobs", "4",
					   "runtime", "20s", "direct", "yes", NULL }, &s);
	pthread_join(th, NULL);
	ior_stop_reset();
	CU_ASSERT_EQUAL(rc, IOR_EINTERRUPTED);
	CU_ASSERT_TRUE(now_s() - t0 < 3);
}

static void test_writes_need_a_destructive_device(void)
{
	void *w = options((const char *[]){ "rw", "randwrite", NULL }), *r = options(NULL);
	CU_ASSERT_EQUAL(ior_engine_flags(ops, w) & IOR_ENGINE_WRITES, IOR_ENGINE_WRITES);
	CU_ASSERT_EQUAL(ior_engine_flags(ops, r) & IOR_ENGINE_WRITES, 0);
	/* Callers that only read .flags see the safe upper bound. */
	CU_ASSERT_EQUAL(ops->flags & IOR_ENGINE_WRITES, IOR_ENGINE_WRITES);
	free(w);
	free(r);
	struct ior_target safe = target;
	safe.destructive = false;
	struct ior_sample s;
	CU_ASSERT_EQUAL(measure_on(&safe, (const char *[]){ "rw", "write", "size", "1M", NULL }, &s), IOR_EREFUSED);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "destructive"));
	CU_ASSERT_EQUAL(measure_on(&safe, (const char *[]){ "rw", "read", "size", "1M", NULL }, &s), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, 1u << 20);
}

static void test_bad_sizes_are_refused(void)
{
	struct ior_sample s;
	CU_ASSERT_EQUAL(measure((const char *[]){ "numjobs", "4", "size", "32M", NULL }, &s), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "does not fit"));
	CU_ASSERT_EQUAL(measure((const char *[]){ "bs", "1536", "direct", "yes", "size", "1M", NULL }, &s) == IOR_OK,
			true); /* 1536 = 3 sectors: aligned for a 512-byte device */
	CU_ASSERT_EQUAL(measure((const char *[]){ "bs", "1000", "direct", "yes", "size", "1M", NULL }, &s), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "logical block size"));
	/* size = 0: the device shared out between the jobs. */
	CU_ASSERT_EQUAL_FATAL(measure((const char *[]){ "bs", "1M", "numjobs", "4", "iodepth", "4", NULL }, &s), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, DEV_SIZE);
}

static int job_suite_main(const char *engine, const char *suite, const struct ior_test *extra)
{
	ior_test_require_root("attaches a loop device");
	ops = ior_engine_find(engine);
	if (!ops) {
		fprintf(stderr, "%s\n", ior_error_last());
		return 1;
	}
	if (ops->supported && ops->supported(NULL))
		ior_test_skip("%s", ior_error_last());
	if (!(ld = ior_test_scratch_device(&target, DEV_SIZE, true, true))) {
		fprintf(stderr, "%s\n", ior_error_last());
		return 1;
	}
	struct ior_test tests[32] = {
		IOR_TEST(test_read_moves_size_times_numjobs),
		IOR_TEST(test_write_lands_at_its_offsets_in_each_region),
		IOR_TEST(test_randwrite_covers_every_block_once),
		IOR_TEST(test_randrw_mixes_and_writes_only_where_it_wrote),
		IOR_TEST(test_time_based_loops_over_region),
		IOR_TEST(test_ramp_time_is_excluded),
		IOR_TEST(test_stop_request_interrupts),
		IOR_TEST(test_writes_need_a_destructive_device),
		IOR_TEST(test_bad_sizes_are_refused),
		IOR_TEST(test_latency_obeys_littles_law),
	};
	size_t n = 10;
	for (; extra && extra->name && n < 31; extra++)
		tests[n++] = *extra;
	tests[n] = (struct ior_test)IOR_TEST_END;
	return ior_test_run(suite, tests); /* the scratch device goes at exit */
}

#endif
