/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for common/: the last-error message, kept across clean-up, the stop flag, and the watch
 * that leaves a thread stuck in one call behind. */
#include "common/error.h"
#include "common/stop.h"
#include "common/thread.h"
#include "tests/suite.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void test_error_set_returns_code_and_keeps_message(void)
{
	CU_ASSERT_EQUAL(ior_error_set(IOR_EINVALID, "bad key '%s'", "bs"), IOR_EINVALID);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "bad key 'bs'");
	ior_error_clear();
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "");
}

static void test_error_errno_appends_strerror(void)
{
	ior_error_errno(IOR_ERROR, ENOENT, "cannot open '%s'", "x.ini");
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "cannot open 'x.ini': No such file or directory");
}

static void test_error_wrap_prefixes_context(void)
{
	ior_error_set(IOR_EINVALID, "bs: '4q' is not a size");
	CU_ASSERT_EQUAL(ior_error_wrap(IOR_EINVALID, "m.ini:7"), IOR_EINVALID);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "m.ini:7: bs: '4q' is not a size");
}

/* Clean-up that fails on its own does not replace the first error; without one, its own stands. */
static void test_error_save_restore_keeps_the_first(void)
{
	struct ior_error_state first;
	CU_ASSERT_EQUAL(ior_error_save(&first, ior_error_set(IOR_EINVALID, "bad key 'bs'")), IOR_EINVALID);
	ior_error_set(IOR_ERROR, "cannot roll back");
	CU_ASSERT_EQUAL(ior_error_restore(&first, IOR_ERROR), IOR_EINVALID);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "bad key 'bs'");
	struct ior_error_state none;
	ior_error_save(&none, IOR_OK);
	ior_error_set(IOR_ERROR, "cannot roll back");
	CU_ASSERT_EQUAL(ior_error_restore(&none, IOR_ERROR), IOR_ERROR);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "cannot roll back");
}

static void test_stop_flag_follows_signal(void)
{
	ior_stop_reset();
	CU_ASSERT_FALSE(ior_stop_requested());
	CU_ASSERT_EQUAL(ior_stop_install_handlers(), IOR_OK);
	raise(SIGHUP);
	CU_ASSERT_TRUE(ior_stop_requested());
	CU_ASSERT_EQUAL(ior_stop_signal(), SIGHUP);
	ior_stop_reset();
	CU_ASSERT_FALSE(ior_stop_requested());
}

/* A watched body: calls of call_ms each (a sleep stands in for the kernel), with gap_ms of work
 * between them; hold makes the last call wait until it is cleared. */
struct body {
	struct ior_thread_watch watch;
	int calls, call_ms, gap_ms;
	uint64_t budget_ns;
	atomic_bool hold, done;
};

static void *body_main(void *arg)
{
	struct body *b = arg;
	for (int i = 0; i < b->calls; i++) {
		usleep((useconds_t)b->gap_ms * 1000);
		ior_thread_enter(&b->watch, "read of 4 KiB", b->budget_ns);
		usleep((useconds_t)b->call_ms * 1000);
		while (i == b->calls - 1 && atomic_load(&b->hold))
			usleep(10000);
		ior_thread_leave(&b->watch);
	}
	atomic_store(&b->done, true);
	return NULL;
}

static double monotonic_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Calls that each keep within their budget are never given up on, however long they take together,
 * and neither is work between calls. */
static void test_watched_thread_within_budget_is_joined(void)
{
	static struct body b = { .calls = 12, .call_ms = 50, .gap_ms = 20, .budget_ns = 200000000 };
	struct ior_thread_stuck stuck;
	CU_ASSERT_EQUAL(ior_thread_run_watched(body_main, &b, &b.watch, 0, NULL, &stuck), IOR_OK);
	CU_ASSERT_TRUE(atomic_load(&b.done));
	static struct body slow = { .calls = 1, .call_ms = 0, .gap_ms = 700, .budget_ns = 100000000 };
	CU_ASSERT_EQUAL(ior_thread_run_watched(body_main, &slow, &slow.watch, 0, NULL, &stuck), IOR_OK);
}

/* A call that outlasts its budget (plus the grace) is left behind, named, within a tick or two. */
static void test_watched_thread_stuck_in_a_call_is_left_behind(void)
{
	static struct body b = { .calls = 1, .call_ms = 0, .gap_ms = 0, .budget_ns = 200000000 };
	atomic_store(&b.hold, true);
	struct ior_thread_stuck stuck;
	double start = monotonic_s();
	CU_ASSERT_EQUAL(ior_thread_run_watched(body_main, &b, &b.watch, 0.1, NULL, &stuck), IOR_ETIMEDOUT);
	double took = monotonic_s() - start;
	CU_ASSERT_TRUE(took >= 0.3 && took < 2.0); /* a tick is 0.25 s */
	CU_ASSERT_STRING_EQUAL(stuck.call, "read of 4 KiB");
	CU_ASSERT_TRUE(stuck.in_call_s >= 0.3 && stuck.in_call_s <= took);
	CU_ASSERT_DOUBLE_EQUAL(stuck.budget_s, 0.2, 1e-9);
	CU_ASSERT_FALSE(atomic_load(&b.done));
	atomic_store(&b.hold, false); /* the thread left behind wakes and ends on its own */
	for (int i = 0; i < 100 && !atomic_load(&b.done); i++)
		usleep(10000);
	CU_ASSERT_TRUE(atomic_load(&b.done));
}

/* Threads stuck at once are left at once: each is timed from the start of the join, not from when
 * the one before it was given up on; the one that ends is joined; the flag is set. */
static void test_watched_threads_stuck_together_are_left_together(void)
{
	static struct body stuck1 = { .calls = 1, .budget_ns = 600000000 }, stuck2 = { .calls = 1, .budget_ns = 600000000 },
			   quick = { .calls = 3, .call_ms = 20, .budget_ns = 600000000 };
	struct body *bodies[] = { &stuck1, &quick, &stuck2 };
	struct ior_thread_watched t[3];
	atomic_store(&stuck1.hold, true);
	atomic_store(&stuck2.hold, true);
	for (int i = 0; i < 3; i++) {
		t[i] = (struct ior_thread_watched){ .watch = &bodies[i]->watch };
		CU_ASSERT_FATAL(pthread_create(&t[i].tid, NULL, body_main, bodies[i]) == 0);
	}
	atomic_bool left = false;
	double start = monotonic_s();
	CU_ASSERT_EQUAL(ior_thread_join_watched(t, 3, 0, &left), 2);
	double took = monotonic_s() - start;
	/* one budget and a tick (0.75 s), not one after the other (1.5 s) */
	CU_ASSERT_TRUE(took >= 0.6 && took < 1.2);
	CU_ASSERT_TRUE(t[0].left && !t[1].left && t[2].left);
	CU_ASSERT_TRUE(atomic_load(&quick.done));
	CU_ASSERT_TRUE(atomic_load(&left));
	atomic_store(&stuck1.hold, false);
	atomic_store(&stuck2.hold, false);
	for (int i = 0; i < 100 && !(atomic_load(&stuck1.done) && atomic_load(&stuck2.done)); i++)
		usleep(10000);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_error_set_returns_code_and_keeps_message),
		IOR_TEST(test_error_errno_appends_strerror),
		IOR_TEST(test_error_wrap_prefixes_context),
		IOR_TEST(test_error_save_restore_keeps_the_first),
		IOR_TEST(test_stop_flag_follows_signal),
		IOR_TEST(test_watched_thread_within_budget_is_joined),
		IOR_TEST(test_watched_thread_stuck_in_a_call_is_left_behind),
		IOR_TEST(test_watched_threads_stuck_together_are_left_together),
		IOR_TEST_END,
	};
	return ior_test_run("common", tests);
}
