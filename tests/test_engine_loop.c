/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the loop engine: real tmpfs, loop devices and ext4 stacked up to depth 2, measured with
 * dd, and torn down without a trace. */
#include "common/error.h"
#include "common/stop.h"
#include "engines/engine.h"
#include "engines/loopstack.h"
#include "device/scheduler.h"
#include "tests/engine_fixture.h"
#include "tests/suite.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern const struct ior_engine_ops ior_engine_loop;
extern const struct ior_engine_ops ior_engine_dd;

/* What must come back to its earlier state: our mounts, attached loop devices, our mount points. */
struct traces {
	int mounts;       /* /proc/self/mounts lines naming ioregress */
	int loops;        /* loop devices over a file in one of our mounts (other tests' devices do not count) */
	int mountpoints;  /* /tmp/ioregress-mnt.* */
	int backing;      /* ioregress-loop.* files in the test directory */
};

static int count_lines_with(const char *file, const char *needle)
{
	FILE *f = fopen(file, "r");
	if (!f)
		return -1;
	char line[4096];
	int n = 0;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, needle) != NULL;
	fclose(f);
	return n;
}

static int count_entries(const char *dir, const char *prefix, const char *suffix)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
			continue;
		if (suffix) {
			char p[512], backing[4096] = "";
			snprintf(p, sizeof(p), "%s/%s/%s", dir, e->d_name, suffix);
			FILE *f = fopen(p, "r");
			if (f && fgets(backing, sizeof(backing), f))
				n += strncmp(backing, "/tmp/ioregress-mnt.", 19) == 0;
			if (f)
				fclose(f);
		} else {
			n++;
		}
	}
	closedir(d);
	return n;
}

static struct traces traces_now(void)
{
	return (struct traces){
		.mounts = count_lines_with("/proc/self/mounts", "ioregress"),
		.loops = count_entries("/sys/block", "loop", "loop/backing_file"),
		.mountpoints = count_entries("/tmp", "ioregress-mnt.", NULL),
		.backing = count_entries(ior_test_tmpdir(), "ioregress-loop.", NULL),
	};
}

static void check_no_traces(const struct traces *before)
{
	struct traces now = traces_now();
	CU_ASSERT_EQUAL(now.mounts, before->mounts);
	CU_ASSERT_EQUAL(now.loops, before->loops);
	CU_ASSERT_EQUAL(now.mountpoints, before->mountpoints);
	CU_ASSERT_EQUAL(now.backing, before->backing);
}

static void *make_opts(const struct ior_engine_ops *ops, const char *const *kv)
{
	return ior_test_engine_opts(ops, kv);
}

/* The matrix's engines as the harness would offer them: one dd named "writer". */
static struct ior_engine_ref writer;

static const struct ior_engine_ref *lookup(void *ctx, const char *name)
{
	(void)ctx;
	return strcmp(name, "writer") == 0 ? &writer : NULL;
}

static const struct ior_target unused_target = { .name = "cell", .path = "/nonexistent", .destructive = false };

/* A journal that remembers what it was told, as the run's undo journal would. */
struct noted {
	char kind[16], target[64], original[32];
	bool done;
};
static struct noted notes[16];
static int nnotes;

static int note(void *ctx, const char *kind, const char *target, const char *original, int64_t *id)
{
	(void)ctx;
	CU_ASSERT_FATAL(nnotes < 16);
	struct noted *n = &notes[nnotes++];
	snprintf(n->kind, sizeof(n->kind), "%s", kind);
	snprintf(n->target, sizeof(n->target), "%s", target);
	snprintf(n->original, sizeof(n->original), "%s", original ? original : "");
	n->done = false;
	*id = nnotes;
	return IOR_OK;
}

static void note_done(void *ctx, int64_t id)
{
	(void)ctx;
	notes[id - 1].done = true;
}

static const struct ior_journal recorder = { .note = note, .done = note_done };

/* The loop engine as the harness starts it: the matrix's engines, the recording journal and
 * the cell's scheduler (NULL: none). */
static int init_loop_sched(void **state, const char *const *kv, void **opts, const char *sched)
{
	nnotes = 0;
	*opts = make_opts(&ior_engine_loop, kv);
	struct ior_engine_args args = { .opts = *opts, .target = &unused_target, .lookup = lookup,
					.deadline_s = IOR_ENGINE_DEADLINE_SECONDS,
					.journal = &recorder, .scheduler = sched };
	return ior_engine_loop.init(state, &args);
}

static int init_loop(void **state, const char *const *kv, void **opts)
{
	return init_loop_sched(state, kv, opts, NULL);
}

static void set_writer(const char *const *kv)
{
	if (writer.opts)
		ior_test_engine_opts_free(&ior_engine_dd, (void *)writer.opts);
	writer.ops = &ior_engine_dd;
	writer.opts = make_opts(&ior_engine_dd, kv);
}

static int count_in(const char *text, const char *needle)
{
	int n = 0;
	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void test_registered_and_valid(void)
{
	CU_ASSERT_PTR_EQUAL(ior_engine_find("loop"), &ior_engine_loop);
	CU_ASSERT_EQUAL(ior_test_ok(ior_engine_validate(&ior_engine_loop)), IOR_OK);
}

static void test_depth2_in_tmpfs_runs_dd_and_leaves_nothing(void)
{
	struct traces before = traces_now();
	const char *dd[] = { "bs", "1M", "count", "16", "sync", "each", NULL };
	set_writer(dd);
	const char *kv[] = { "inner", "writer", "size", "64M", "depth", "2", NULL };
	void *state = NULL, *opts;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(init_loop(&state, kv, &opts)), IOR_OK);
	struct traces during = traces_now();
	CU_ASSERT_EQUAL(during.mounts, before.mounts + 2);   /* tmpfs, ext4 of level 1 */
	CU_ASSERT_EQUAL(during.loops, before.loops + 2);
	CU_ASSERT_EQUAL(during.mountpoints, before.mountpoints + 2);
	for (int rep = 0; rep < 2; rep++) {
		struct ior_sample s;
		CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_engine_loop.measure(state, &s)), IOR_OK);
		CU_ASSERT_EQUAL(s.bytes, 16u << 20);
		CU_ASSERT_TRUE(s.value > 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(s.detail, "tmpfs 64M > /dev/loop"));
		char stack[sizeof(s.detail)];
		snprintf(stack, sizeof(stack), "%.*s", (int)strcspn(s.detail, "|"), s.detail);
		CU_ASSERT_EQUAL(count_in(stack, "/dev/loop"), 2);
		CU_ASSERT_EQUAL(count_in(s.detail, " ext4"), 1);
		CU_ASSERT_PTR_NOT_NULL(strstr(s.detail, "| dd write"));
	}
	ior_engine_loop.cleanup(state);
	ior_test_engine_opts_free(&ior_engine_loop, opts);
	check_no_traces(&before);
}

static void test_inner_failure_tears_down(void)
{
	struct traces before = traces_now();
	const char *dd[] = { "bs", "1M", "count", "100", NULL }; /* larger than the 32M device */
	set_writer(dd);
	const char *kv[] = { "inner", "writer", "size", "32M", "depth", "2", NULL };
	void *state = NULL, *opts;
	CU_ASSERT_EQUAL(init_loop(&state, kv, &opts), IOR_EINVALID);
	CU_ASSERT_PTR_NULL(state);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "exceeds"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "writer"));
	ior_test_engine_opts_free(&ior_engine_loop, opts);
	check_no_traces(&before);
}

static void test_stop_request_tears_down(void)
{
	struct traces before = traces_now();
	const char *dd[] = { "bs", "1M", "count", "4", NULL };
	set_writer(dd);
	/* Stop requested before the stack is built: nothing of it may stay. */
	ior_stop_request(SIGTERM);
	const char *kv[] = { "inner", "writer", "size", "32M", "depth", "2", NULL };
	void *state = NULL, *opts;
	CU_ASSERT_EQUAL(init_loop(&state, kv, &opts), IOR_EINTERRUPTED);
	ior_stop_reset();
	ior_test_engine_opts_free(&ior_engine_loop, opts);
	check_no_traces(&before);
}

/* Stops at each step of a depth-2 build, via the stack directly: every partial stack is undone. */
static void test_partial_stacks_tear_down(void)
{
	struct traces before = traces_now();
	struct ior_loopstack_spec spec = { .backing = "tmpfs", .size = 32 << 20, .depth = 2, .top_fs = true };
	struct ior_loopstack st;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_loopstack_build(&st, &spec)), IOR_OK);
	CU_ASSERT_TRUE(st.target_is_file);
	CU_ASSERT_TRUE(st.target_size > 16u << 20 && st.target_size < 32u << 20);
	CU_ASSERT_EQUAL(ior_test_ok(ior_loopstack_teardown(&st)), IOR_OK);
	CU_ASSERT_EQUAL(ior_test_ok(ior_loopstack_teardown(&st)), IOR_OK); /* twice is harmless */
	check_no_traces(&before);
	spec.depth = 9;
	CU_ASSERT_EQUAL(ior_loopstack_build(&st, &spec), IOR_EINVALID);
	CU_ASSERT_EQUAL(ior_test_ok(ior_loopstack_teardown(&st)), IOR_OK);
	check_no_traces(&before);
}

/* The scheduler a cell names is the one its I/O goes through: for the loop engine that is every
 * level of its stack, not the matrix's device, which it never touches. */
static void test_cell_scheduler_is_set_on_every_level_and_restored(void)
{
	char offered[256];
	ior_test_loop_schedulers(offered, sizeof(offered));
	if (!strstr(offered, "mq-deadline")) {
		ior_test_not_run("loop devices here do not offer mq-deadline: '%s'", offered);
		return;
	}
	struct traces before = traces_now();
	const char *dd[] = { "bs", "1M", "count", "4", "sync", "each", NULL };
	set_writer(dd);
	const char *kv[] = { "inner", "writer", "size", "32M", "depth", "2", NULL };
	void *state = NULL, *opts;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(init_loop_sched(&state, kv, &opts, "mq-deadline")), IOR_OK);
	struct ior_sample s;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_engine_loop.measure(state, &s)), IOR_OK);
	CU_ASSERT_EQUAL(count_in(s.detail, " [mq-deadline]"), 2);
	int switched = 0;
	for (int i = 0; i < nnotes; i++) {
		if (strcmp(notes[i].kind, "scheduler") != 0)
			continue;
		switched++;
		char active[32];
		CU_ASSERT_EQUAL(ior_test_ok(ior_scheduler_active(notes[i].target, active, sizeof(active))), IOR_OK);
		CU_ASSERT_STRING_EQUAL(active, "mq-deadline");
		CU_ASSERT_STRING_NOT_EQUAL(notes[i].original, "mq-deadline");
		CU_ASSERT_PTR_NOT_NULL(strstr(s.detail, notes[i].target));
	}
	CU_ASSERT_EQUAL(switched, 2); /* both levels, each journaled with what it had */
	ior_engine_loop.cleanup(state);
	for (int i = 0; i < nnotes; i++) {
		CU_ASSERT_TRUE(notes[i].done);
		char active[32];
		if (strcmp(notes[i].kind, "scheduler") == 0 &&
		    ior_test_ok(ior_scheduler_active(notes[i].target, active, sizeof(active))) == IOR_OK)
			CU_ASSERT_STRING_EQUAL(active, notes[i].original);
	}
	ior_test_engine_opts_free(&ior_engine_loop, opts);
	check_no_traces(&before);
}

/* A scheduler loop devices do not offer makes the cell a skip (unsupported) naming the device, with nothing left. */
static void test_unoffered_scheduler_is_unsupported_and_leaves_nothing(void)
{
	struct traces before = traces_now();
	const char *dd[] = { "bs", "1M", "count", "4", NULL };
	set_writer(dd);
	const char *kv[] = { "inner", "writer", "size", "32M", "depth", "2", NULL };
	void *state = NULL, *opts;
	CU_ASSERT_EQUAL(init_loop_sched(&state, kv, &opts, "anticipatory"), IOR_EUNSUPPORTED);
	CU_ASSERT_PTR_NULL(state);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "anticipatory"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "level 1 (/dev/loop"));
	for (int i = 0; i < nnotes; i++)
		CU_ASSERT_TRUE(notes[i].done);
	ior_test_engine_opts_free(&ior_engine_loop, opts);
	check_no_traces(&before);
}

/* Each level's file is allocated (written with random data or zeros) before the repetitions
 * unless sparse is asked for; the fill is named in the stack's description. */
static void test_level_files_are_allocated_unless_sparse(void)
{
	struct traces before = traces_now();
	for (int fill = 0; fill < IOR_FILL_COUNT; fill++) {
		struct ior_loopstack_spec spec = { .backing = "tmpfs", .size = 16 << 20, .depth = 2, .fill = fill };
		struct ior_loopstack st;
		CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_loopstack_build(&st, &spec)), IOR_OK);
		for (unsigned i = 0; i < st.depth; i++) {
			struct stat sb;
			CU_ASSERT_EQUAL_FATAL(stat(st.lv[i].ld.backing, &sb), 0);
			uint64_t allocated = (uint64_t)sb.st_blocks * 512;
			if (fill == IOR_FILL_SPARSE) {
				CU_ASSERT_TRUE(allocated < st.lv[i].size / 2);
			} else {
				CU_ASSERT_TRUE(allocated >= st.lv[i].size);
			}
		}
		CU_ASSERT_TRUE(fill == IOR_FILL_SPARSE ? st.fill_seconds == 0 : st.fill_seconds > 0);
		char desc[256];
		ior_loopstack_describe(&st, desc, sizeof(desc));
		CU_ASSERT_PTR_NOT_NULL(strstr(desc, ior_fill_names[fill]));
		CU_ASSERT_EQUAL(ior_test_ok(ior_loopstack_teardown(&st)), IOR_OK);
	}
	check_no_traces(&before);
}

static void test_ext4_top_and_directory_backing(void)
{
	struct traces before = traces_now();
	const char *dd[] = { "bs", "1M", "count", "8", "sync", "end", NULL };
	set_writer(dd);
	const char *kv[] = { "inner", "writer", "backing", ior_test_tmpdir(), "size", "48M", "fs", "ext4", NULL };
	void *state = NULL, *opts;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(init_loop(&state, kv, &opts)), IOR_OK);
	struct traces during = traces_now();
	CU_ASSERT_EQUAL(during.mounts, before.mounts + 1);    /* ext4 only: no tmpfs */
	CU_ASSERT_EQUAL(during.backing, before.backing + 1);
	struct ior_sample s;
	CU_ASSERT_EQUAL(ior_test_ok(ior_engine_loop.measure(state, &s)), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, 8u << 20);
	CU_ASSERT_PTR_NOT_NULL(strstr(s.detail, ior_test_tmpdir()));
	CU_ASSERT_PTR_NOT_NULL(strstr(s.detail, "ext4 > file"));
	ior_engine_loop.cleanup(state);
	ior_test_engine_opts_free(&ior_engine_loop, opts);
	check_no_traces(&before);
}

static void test_inner_by_type_and_unknown_inner(void)
{
	struct traces before = traces_now();
	/* No engine of the matrix is called "dd": the dd type with its defaults (64 × 1M). */
	const char *kv[] = { "size", "80M", NULL };
	void *state = NULL, *opts;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(init_loop(&state, kv, &opts)), IOR_OK);
	struct ior_sample s;
	CU_ASSERT_EQUAL(ior_test_ok(ior_engine_loop.measure(state, &s)), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, 64u << 20);
	ior_engine_loop.cleanup(state);
	ior_test_engine_opts_free(&ior_engine_loop, opts);
	/* inner_options set a type's keys through its own rows. */
	const char *with[] = { "size", "32M", "inner_options", "bs=512k count=5 sync=end", NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(init_loop(&state, with, &opts)), IOR_OK);
	CU_ASSERT_EQUAL(ior_test_ok(ior_engine_loop.measure(state, &s)), IOR_OK);
	CU_ASSERT_EQUAL(s.bytes, 5u * 512 * 1024);
	CU_ASSERT_PTR_NOT_NULL(strstr(s.detail, "sync=end"));
	ior_engine_loop.cleanup(state);
	ior_test_engine_opts_free(&ior_engine_loop, opts);
	const char *typo[] = { "inner_options", "bs=1M cuont=5", NULL };
	CU_ASSERT_EQUAL(init_loop(&state, typo, &opts), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "count"));
	ior_test_engine_opts_free(&ior_engine_loop, opts);
	const char *matrix_engine[] = { "inner", "writer", "inner_options", "count=5", NULL };
	CU_ASSERT_EQUAL(init_loop(&state, matrix_engine, &opts), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "engine of the matrix"));
	ior_test_engine_opts_free(&ior_engine_loop, opts);
	const char *bad[] = { "inner", "wrtier", NULL };
	CU_ASSERT_EQUAL(init_loop(&state, bad, &opts), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "wrtier"));
	ior_test_engine_opts_free(&ior_engine_loop, opts);
	const char *self[] = { "inner", "loop", NULL };
	CU_ASSERT_EQUAL(init_loop(&state, self, &opts), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "depth"));
	ior_test_engine_opts_free(&ior_engine_loop, opts);
	check_no_traces(&before);
}

static void free_writer(void)
{
	if (writer.opts)
		ior_test_engine_opts_free(&ior_engine_dd, (void *)writer.opts);
	writer.opts = NULL;
}

int main(void)
{
	ior_test_require_root("the loop engine mounts tmpfs and ext4 and attaches loop devices");
	if (access("/dev/loop-control", W_OK) != 0)
		ior_test_skip("no /dev/loop-control");
	atexit(free_writer);
	static const struct ior_test tests[] = {
		IOR_TEST(test_registered_and_valid),
		IOR_TEST(test_depth2_in_tmpfs_runs_dd_and_leaves_nothing),
		IOR_TEST(test_inner_failure_tears_down),
		IOR_TEST(test_stop_request_tears_down),
		IOR_TEST(test_partial_stacks_tear_down),
		IOR_TEST(test_cell_scheduler_is_set_on_every_level_and_restored),
		IOR_TEST(test_unoffered_scheduler_is_unsupported_and_leaves_nothing),
		IOR_TEST(test_level_files_are_allocated_unless_sparse),
		IOR_TEST(test_ext4_top_and_directory_backing),
		IOR_TEST(test_inner_by_type_and_unknown_inner),
		IOR_TEST_END
	};
	return ior_test_run("engine_loop", tests);
}
