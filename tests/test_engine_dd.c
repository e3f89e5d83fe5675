/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the dd engine on a real scratch loop device: bytes moved, what lands where (pattern or
 * dd's zeros), open flags of each sync mode, one open per repetition, refusals. */
#include "common/error.h"
#include "device/loopdev.h"
#include "engines/engine.h"
#include "tests/engine_fixture.h"
#include "tests/suite.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEV_SIZE (32u << 20)

extern const struct ior_engine_ops ior_engine_dd;

static const struct ior_loopdev *ld;
static struct ior_target target;

/* Options from "key=value" pairs through the engine's own rows, as the matrix would fill them. */
static void *make_opts(const char *const *kv)
{
	return ior_test_engine_opts(&ior_engine_dd, kv);
}

static void free_opts(void *blob)
{
	ior_test_engine_opts_free(&ior_engine_dd, blob);
}

static int run_dd(const char *const *kv, const struct ior_target *t, struct ior_sample *out)
{
	return ior_test_engine_once(&ior_engine_dd, kv, t, out);
}

static void fill_device(unsigned char byte)
{
	int fd = open(ld->path, O_WRONLY);
	CU_ASSERT_FATAL(fd >= 0);
	char *z = malloc(1 << 20);
	memset(z, byte, 1 << 20);
	for (unsigned i = 0; i < DEV_SIZE >> 20; i++)
		CU_ASSERT_EQUAL(write(fd, z, 1 << 20), 1 << 20);
	free(z);
	fsync(fd);
	close(fd);
}

static void zero_device(void)
{
	fill_device(0);
}

static void test_registered_and_valid(void)
{
	CU_ASSERT_PTR_EQUAL(ior_engine_find("dd"), &ior_engine_dd);
	CU_ASSERT_EQUAL(ior_test_ok(ior_engine_validate(&ior_engine_dd)), IOR_OK);
	CU_ASSERT_TRUE(ior_engine_dd.flags & IOR_ENGINE_WRITES);
}

/* A pattern read back from a path: block i starts with its offset, the rest is 0xa5; after count, zeros. */
static void check_pattern(const char *path, uint64_t bs, uint64_t count)
{
	int fd = open(path, O_RDONLY);
	CU_ASSERT_FATAL(fd >= 0);
	unsigned char *buf = malloc(bs);
	for (uint64_t i = 0; i <= count; i++) {
		CU_ASSERT_EQUAL_FATAL(pread(fd, buf, bs, (off_t)(i * bs)), (ssize_t)bs);
		uint64_t stamp;
		memcpy(&stamp, buf, sizeof(stamp));
		if (i < count) {
			CU_ASSERT_EQUAL(stamp, i * bs);
			CU_ASSERT_EQUAL(buf[8], 0xa5);
			CU_ASSERT_EQUAL(buf[bs - 1], 0xa5);
		} else {
			CU_ASSERT_EQUAL(stamp, 0);
			CU_ASSERT_EQUAL(buf[bs - 1], 0);
		}
	}
	free(buf);
	close(fd);
}

static void test_write_moves_what_was_asked_at_the_right_offsets(void)
{
	zero_device();
	struct ior_sample s;
	const char *kv[] = { "rw", "write", "bs", "64k", "count", "100", "input", "pattern", NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(run_dd(kv, &target, &s)), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, 100u * 65536);
	CU_ASSERT_EQUAL(s.ios, 100);
	CU_ASSERT_STRING_EQUAL(s.unit, "MiB/s");
	CU_ASSERT_TRUE(s.higher_is_better);
	CU_ASSERT_TRUE(s.wall_s > 0);
	CU_ASSERT_DOUBLE_EQUAL(s.value, s.bytes / 1048576.0 / s.wall_s, s.value * 1e-9);
	CU_ASSERT_PTR_NOT_NULL(strstr(s.detail, "bs=65536 count=100"));
	check_pattern(ld->path, 65536, 100);
}

static void test_read_moves_what_was_asked(void)
{
	struct ior_sample s;
	const char *kv[] = { "rw", "read", "bs", "1M", "count", "20", NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(run_dd(kv, &target, &s)), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, 20u << 20);
	CU_ASSERT_EQUAL(s.ios, 20);
	const char *direct[] = { "rw", "read", "bs", "1M", "count", "8", "sync", "direct", NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(run_dd(direct, &target, &s)), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, 8u << 20);
}

/* The open flags of the engine's descriptor for path, from /proc/self/fdinfo; -1 when none is open. */
static long fd_flags_of(const char *path)
{
	char skip[16];
	snprintf(skip, sizeof(skip), "%d", ld->fd); /* the loop device's own descriptor */
	DIR *d = opendir("/proc/self/fd");
	CU_ASSERT_FATAL(d != NULL);
	long flags = -1;
	struct dirent *e;
	while ((e = readdir(d)) && flags < 0) {
		char link[300], dest[256];
		snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
		ssize_t n = readlink(link, dest, sizeof(dest) - 1);
		if (n < 0 || strcmp(e->d_name, skip) == 0)
			continue;
		dest[n] = '\0';
		if (strcmp(dest, path) != 0)
			continue;
		snprintf(link, sizeof(link), "/proc/self/fdinfo/%s", e->d_name);
		FILE *f = fopen(link, "r");
		char line[128];
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "flags: %lo", &flags) == 1)
				break;
		if (f)
			fclose(f);
	}
	closedir(d);
	return flags;
}

static void check_mode_flags(const char *mode, int want, int not_want)
{
	const char *kv[] = { "rw", "write", "bs", "4k", "count", "16", "sync", mode, NULL };
	void *opts = make_opts(kv);
	struct ior_engine_args args = { .opts = opts, .target = &target,
					.deadline_s = IOR_ENGINE_DEADLINE_SECONDS };
	void *state = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_engine_dd.init(&state, &args)), IOR_OK);
	long flags = fd_flags_of(ld->path);
	CU_ASSERT_TRUE_FATAL(flags >= 0);
	CU_ASSERT_EQUAL(flags & want, want);
	CU_ASSERT_EQUAL(flags & not_want, 0);
	struct ior_sample s;
	CU_ASSERT_EQUAL(ior_test_ok(ior_engine_dd.measure(state, &s)), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, 16u * 4096);
	ior_engine_dd.cleanup(state);
	CU_ASSERT_EQUAL(fd_flags_of(ld->path), -1); /* closed when the repetition ended */
	free_opts(opts);
}

static void test_sync_modes_set_the_open_flags(void)
{
	/* O_SYNC is __O_SYNC | O_DSYNC: dsync must carry only the O_DSYNC bit. */
	const int sync_only = O_SYNC & ~O_DSYNC;
	check_mode_flags("each", O_SYNC, O_DIRECT);
	check_mode_flags("dsync", O_DSYNC, sync_only | O_DIRECT);
	check_mode_flags("direct", O_DIRECT, O_DSYNC);
	check_mode_flags("none", 0, O_DSYNC | O_DIRECT);
	check_mode_flags("end", 0, O_DSYNC | O_DIRECT);
}

/* sync = end fsyncs inside measure: the data reaches the loop device's backing file before the engine closes. */
static void test_sync_end_reaches_the_backing_file(void)
{
	zero_device();
	const char *kv[] = { "rw", "write", "bs", "128k", "count", "24", "sync", "end", "input", "pattern", NULL };
	void *opts = make_opts(kv);
	struct ior_engine_args args = { .opts = opts, .target = &target,
					.deadline_s = IOR_ENGINE_DEADLINE_SECONDS };
	void *state = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_engine_dd.init(&state, &args)), IOR_OK);
	struct ior_sample s;
	CU_ASSERT_EQUAL(ior_test_ok(ior_engine_dd.measure(state, &s)), IOR_OK);
	/* The test holds the device open (ld->fd), so the engine's close was not the last one and
	 * wrote nothing back: only the fsync can have put the data in the backing file. */
	check_pattern(ld->backing, 128 << 10, 24);
	ior_engine_dd.cleanup(state);
	free_opts(opts);
}

/* The default input is dd's if=/dev/zero: the blocks written are zeros, and nothing past them changes. */
static void test_default_input_writes_zeros_like_dd(void)
{
	fill_device(0x5a);
	struct ior_sample s;
	const char *kv[] = { "rw", "write", "bs", "64k", "count", "10", NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(run_dd(kv, &target, &s)), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, 10u * 65536);
	CU_ASSERT_PTR_NOT_NULL(strstr(s.detail, "input=zero"));
	int fd = open(ld->path, O_RDONLY);
	CU_ASSERT_FATAL(fd >= 0);
	unsigned char *buf = malloc(11u * 65536);
	CU_ASSERT_EQUAL(pread(fd, buf, 11u * 65536, 0), 11 * 65536);
	size_t zeros = 0;
	while (zeros < 11u * 65536 && buf[zeros] == 0)
		zeros++;
	CU_ASSERT_EQUAL(zeros, 10u * 65536);
	CU_ASSERT_EQUAL(buf[10u * 65536], 0x5a);
	free(buf);
	close(fd);
}

/* Like one dd process per repetition: the target is open from init (or the repetition's start)
 * until the repetition ends, and each repetition opens it again. */
static void test_each_repetition_opens_and_closes_the_target(void)
{
	const char *kv[] = { "rw", "write", "bs", "64k", "count", "8", "sync", "each", NULL };
	void *opts = make_opts(kv);
	struct ior_engine_args args = { .opts = opts, .target = &target,
					.deadline_s = IOR_ENGINE_DEADLINE_SECONDS };
	void *state = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_engine_dd.init(&state, &args)), IOR_OK);
	CU_ASSERT_TRUE(fd_flags_of(ld->path) >= 0); /* a device that cannot be opened fails at init */
	for (int rep = 0; rep < 3; rep++) {
		struct ior_sample s;
		CU_ASSERT_EQUAL(ior_test_ok(ior_engine_dd.measure(state, &s)), IOR_OK);
		CU_ASSERT_EQUAL(s.bytes, 8u * 65536);
		CU_ASSERT_EQUAL(fd_flags_of(ld->path), -1);
	}
	ior_engine_dd.cleanup(state);
	free_opts(opts);
}

static void test_refuses_non_destructive_target(void)
{
	struct ior_target t = target;
	t.destructive = false;
	struct ior_sample s;
	const char *w[] = { "rw", "write", "count", "1", NULL };
	CU_ASSERT_EQUAL(run_dd(w, &t, &s), IOR_EREFUSED);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "destructive"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), ld->path));
	const char *r[] = { "rw", "read", "count", "1", NULL };
	CU_ASSERT_EQUAL(ior_test_ok(run_dd(r, &t, &s)), IOR_OK); /* reading is allowed */
}

static void test_rejects_bad_combinations(void)
{
	struct ior_sample s;
	const char *big[] = { "bs", "1M", "count", "33", NULL };
	CU_ASSERT_EQUAL(run_dd(big, &target, &s), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "exceeds"));
	const char *rsync[] = { "rw", "read", "sync", "each", NULL };
	CU_ASSERT_EQUAL(run_dd(rsync, &target, &s), IOR_EINVALID);
	const char *rinput[] = { "rw", "read", "input", "pattern", NULL };
	CU_ASSERT_EQUAL(run_dd(rinput, &target, &s), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "input = pattern applies to rw = write only"));
	const char *odd[] = { "bs", "1000", "count", "1", "sync", "direct", NULL };
	CU_ASSERT_EQUAL(run_dd(odd, &target, &s), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "logical block"));
}

/* With no size known, the device's end shows up as a short write, an error, not a sample. */
static void test_end_of_device_is_an_error(void)
{
	struct ior_target t = target;
	t.size = 0;
	struct ior_sample s;
	const char *kv[] = { "bs", "1M", "count", "40", NULL };
	CU_ASSERT_EQUAL(run_dd(kv, &t, &s), IOR_ERROR);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "block 32"));
}

int main(void)
{
	ior_test_require_root("the dd engine is tested on a real loop device");
	if (!(ld = ior_test_scratch_device(&target, DEV_SIZE, false, true)))
		ior_test_skip("no scratch loop device: %s", ior_error_last());
	static const struct ior_test tests[] = {
		IOR_TEST(test_registered_and_valid),
		IOR_TEST(test_write_moves_what_was_asked_at_the_right_offsets),
		IOR_TEST(test_read_moves_what_was_asked),
		IOR_TEST(test_sync_modes_set_the_open_flags),
		IOR_TEST(test_sync_end_reaches_the_backing_file),
		IOR_TEST(test_default_input_writes_zeros_like_dd),
		IOR_TEST(test_each_repetition_opens_and_closes_the_target),
		IOR_TEST(test_refuses_non_destructive_target),
		IOR_TEST(test_rejects_bad_combinations),
		IOR_TEST(test_end_of_device_is_an_error),
		IOR_TEST_END
	};
	return ior_test_run("engine_dd", tests);
}
