/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for engines/hdparm.c on a real scratch loop device: figures, end of device, O_DIRECT vs page cache, stop. */
#include "common/error.h"
#include "common/stop.h"
#include "device/loopdev.h"
#include "engines/engine.h"
#include "tests/engine_fixture.h"
#include "tests/suite.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define DEV_SIZE (256ull << 20)
#define MIB (1024.0 * 1024.0)

static const struct ior_loopdev *ld;
static struct ior_target target;
static const struct ior_engine_ops *ops;

/* Options from the engine's own rows: defaults, then "key", "value" pairs. */
static void *options(const char *const *kv)
{
	return ior_test_engine_opts(ops, kv);
}

static int measure(const char *const *kv, struct ior_sample *out)
{
	return ior_test_engine_once(ops, kv, &target, out);
}

/* Pages of the loop device that sit in the page cache, seen through mincore on a mapping of it. */
static size_t cached_pages(void)
{
	int fd = open(ld->path, O_RDONLY);
	CU_ASSERT_FATAL(fd >= 0);
	void *map = mmap(NULL, DEV_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	CU_ASSERT_FATAL(map != MAP_FAILED);
	size_t pages = DEV_SIZE / (size_t)sysconf(_SC_PAGESIZE), resident = 0;
	unsigned char *vec = malloc(pages);
	CU_ASSERT_FATAL(vec != NULL);
	CU_ASSERT_EQUAL(mincore(map, DEV_SIZE, vec), 0);
	for (size_t i = 0; i < pages; i++)
		resident += vec[i] & 1;
	free(vec);
	munmap(map, DEV_SIZE);
	close(fd);
	return resident;
}

static void drop_device_cache(void)
{
	int fd = open(ld->path, O_RDONLY);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(ioctl(fd, BLKFLSBUF, 0), 0);
	close(fd);
}

static void check_figures(const struct ior_sample *s, uint64_t bs)
{
	CU_ASSERT_TRUE(s->bytes > 0);
	CU_ASSERT_EQUAL(s->bytes, s->ios * bs);
	CU_ASSERT_TRUE(s->wall_s > 0);
	CU_ASSERT_STRING_EQUAL(s->unit, IOR_UNIT_MIB_S); /* hdparm's "MB/sec", named as dd and aio name it */
	CU_ASSERT_TRUE(s->higher_is_better);
	/* hdparm's MB is 1024*1024 bytes. */
	CU_ASSERT_DOUBLE_EQUAL(s->value, (double)s->bytes / MIB / s->wall_s, s->value * 1e-9);
	CU_ASSERT_TRUE(s->usr_s >= 0 && s->sys_s >= 0);
	CU_ASSERT_TRUE(s->usr_s + s->sys_s <= s->wall_s * 1.1 + 0.02);
}

static void test_buffered_reads_for_the_duration(void)
{
	struct ior_sample s;
	CU_ASSERT_EQUAL_FATAL(measure((const char *[]){ "settle", "0", "duration", "200ms", "bs", "64k", NULL }, &s), IOR_OK);
	check_figures(&s, 64 << 10);
	/* At least the duration's worth, unless the device ran out first. */
	CU_ASSERT_TRUE(s.wall_s >= 0.2 || s.bytes == DEV_SIZE);
	CU_ASSERT_TRUE(s.bytes <= DEV_SIZE);
	CU_ASSERT_PTR_NOT_NULL(strstr(s.detail, "buffered"));
}

static void test_stops_at_the_end_of_the_device(void)
{
	struct ior_sample s;
	CU_ASSERT_EQUAL_FATAL(measure((const char *[]){ "settle", "0", "duration", "60s", NULL }, &s), IOR_OK);
	check_figures(&s, 2 << 20);
	/* hdparm never wraps: it reads what fits and times that. */
	CU_ASSERT_EQUAL(s.bytes, DEV_SIZE);
	CU_ASSERT_EQUAL(s.ios, DEV_SIZE / (2 << 20));
	CU_ASSERT_TRUE(s.wall_s < 60);
	CU_ASSERT_PTR_NOT_NULL(strstr(s.detail, "end of the device"));
}

static void test_buffered_fills_the_page_cache(void)
{
	drop_device_cache();
	CU_ASSERT_EQUAL(cached_pages(), 0);
	struct ior_sample s;
	CU_ASSERT_EQUAL_FATAL(measure((const char *[]){ "settle", "0", "duration", "100ms", NULL }, &s), IOR_OK);
	/* The flush comes before the reads, so what was read stays cached. */
	CU_ASSERT_TRUE(cached_pages() * (size_t)sysconf(_SC_PAGESIZE) >= 2u << 20);
}

static void test_direct_bypasses_the_page_cache(void)
{
	struct ior_sample s;
	CU_ASSERT_EQUAL_FATAL(measure((const char *[]){ "settle", "0", "duration", "200ms", NULL }, &s), IOR_OK);
	CU_ASSERT_TRUE(cached_pages() > 0); /* cached by the buffered run... */
	CU_ASSERT_EQUAL_FATAL(measure((const char *[]){ "settle", "0", "direct", "yes", "duration", "200ms", NULL }, &s), IOR_OK);
	check_figures(&s, 2 << 20);
	CU_ASSERT_TRUE(s.wall_s >= 0.2 || s.bytes == DEV_SIZE);
	CU_ASSERT_PTR_NOT_NULL(strstr(s.detail, "O_DIRECT"));
	/* ...dropped by the engine's flush and not refilled by O_DIRECT reads. */
	CU_ASSERT_EQUAL(cached_pages(), 0);
}

static void test_direct_refuses_unaligned_block_size(void)
{
	struct ior_sample s;
	CU_ASSERT_EQUAL(measure((const char *[]){ "direct", "yes", "bs", "1000", NULL }, &s), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "logical block size"));
	/* Buffered reads of an odd size are fine, as with hdparm. */
	CU_ASSERT_EQUAL(measure((const char *[]){ "settle", "0", "bs", "1000", "duration", "50ms", NULL }, &s), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, s.ios * 1000);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_settle_pause_is_outside_the_timing(void)
{
	struct ior_sample s;
	double t0 = now_s();
	CU_ASSERT_EQUAL_FATAL(measure((const char *[]){ "settle", "400ms", "duration", "50ms", NULL }, &s), IOR_OK);
	double took = now_s() - t0;
	CU_ASSERT_TRUE(took >= 0.4 + s.wall_s);
	CU_ASSERT_TRUE(s.wall_s < 0.4);
}

static void test_stop_request_interrupts(void)
{
	struct ior_sample s;
	ior_stop_request(SIGINT);
	int rc = measure((const char *[]){ "settle", "0", "duration", "60s", NULL }, &s);
	ior_stop_reset();
	CU_ASSERT_EQUAL(rc, IOR_EINTERRUPTED);
}

static void test_missing_device_and_registry(void)
{
	CU_ASSERT_PTR_EQUAL(ior_engine_find("hdparm"), ops);
	CU_ASSERT_EQUAL(ior_engine_validate(ops), IOR_OK);
	CU_ASSERT_EQUAL(ior_engine_flags(ops, NULL) & IOR_ENGINE_WRITES, 0);
	struct ior_target missing = { .name = "x", .path = "/dev/ioregress-no-such-device" };
	void *blob = options(NULL), *state = NULL;
	struct ior_engine_args args = { .opts = blob, .target = &missing,
					.deadline_s = IOR_ENGINE_DEADLINE_SECONDS };
	CU_ASSERT_EQUAL(ops->init(&state, &args), IOR_ENOTFOUND);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "/dev/ioregress-no-such-device"));
	ops->cleanup(state);
	free(blob);
}

int main(void)
{
	ior_test_require_root("attaches a loop device");
	ops = ior_engine_find("hdparm");
	if (!ops) {
		fprintf(stderr, "%s\n", ior_error_last());
		return 1;
	}
	if (!(ld = ior_test_scratch_device(&target, DEV_SIZE, false, false))) {
		fprintf(stderr, "%s\n", ior_error_last());
		return 1;
	}
	static const struct ior_test tests[] = {
		IOR_TEST(test_buffered_reads_for_the_duration),
		IOR_TEST(test_stops_at_the_end_of_the_device),
		IOR_TEST(test_buffered_fills_the_page_cache),
		IOR_TEST(test_direct_bypasses_the_page_cache),
		IOR_TEST(test_direct_refuses_unaligned_block_size),
		IOR_TEST(test_settle_pause_is_outside_the_timing),
		IOR_TEST(test_stop_request_interrupts),
		IOR_TEST(test_missing_device_and_registry),
		IOR_TEST_END,
	};
	return ior_test_run("engine_hdparm", tests); /* the scratch device goes at exit */
}
