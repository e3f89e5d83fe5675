/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Threads that may sleep in the kernel past every timeout of ours; see common/thread.h. */
#include "common/thread.h"
#include "common/error.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

/* How often a watched thread is looked at: a stuck one is left at most this late, and a thread
 * that ends is joined at once (the join wakes on its exit, not on the tick). */
#define WATCH_TICK_S 0.25

bool ior_thread_join_within(pthread_t tid, double seconds)
{
	struct timespec at;
	clock_gettime(CLOCK_REALTIME, &at); /* pthread_timedjoin_np takes an absolute CLOCK_REALTIME time */
	long long ns = (long long)at.tv_nsec + (long long)(seconds * 1e9);
	at.tv_sec += (time_t)(ns / 1000000000LL);
	at.tv_nsec = (long)(ns % 1000000000LL);
	int err;
	while ((err = pthread_timedjoin_np(tid, NULL, &at)) == EINTR)
		;
	return err != ETIMEDOUT;
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* True when t has been inside one call for longer than its budget plus grace_s, as of now. */
static bool stuck_in_call(struct ior_thread_watched *t, uint64_t now, double grace_s)
{
	const struct ior_thread_watch *w = t->watch;
	unsigned seq = atomic_load_explicit(&w->seq, memory_order_acquire);
	if (seq != t->seen) {
		t->seen = seq;
		t->seen_ns = now;
		return false;
	}
	if (!(seq & 1))
		return false; /* between calls: working, or waiting on something of its own */
	uint64_t budget = atomic_load_explicit(&w->budget_ns, memory_order_relaxed);
	const char *call = atomic_load_explicit(&w->call, memory_order_relaxed);
	if (atomic_load_explicit(&w->seq, memory_order_acquire) != seq)
		return false; /* it moved on while we looked: call and budget may be the next call's */
	double in_call_s = (double)(now - t->seen_ns) / 1e9, budget_s = (double)budget / 1e9;
	if (in_call_s < budget_s + grace_s)
		return false;
	t->stuck = (struct ior_thread_stuck){ .call = call, .in_call_s = in_call_s, .budget_s = budget_s };
	return true;
}

size_t ior_thread_join_watched(struct ior_thread_watched *threads, size_t n, double grace_s, atomic_bool *left_flag)
{
	uint64_t start = monotonic_ns();
	for (size_t i = 0; i < n; i++) {
		threads[i].left = false;
		threads[i].seen = atomic_load_explicit(&threads[i].watch->seq, memory_order_acquire);
		threads[i].seen_ns = start;
	}
	size_t left = 0;
	/* the threads in turn, each joined as soon as it ends; on each tick, a look at all the rest
	 * (one that ended but is not joined yet is in no call, and is never left) */
	for (size_t i = 0; i < n; i++) {
		bool joined = false;
		while (!threads[i].left && !joined) {
			joined = ior_thread_join_within(threads[i].tid, WATCH_TICK_S);
			uint64_t now = monotonic_ns();
			for (size_t j = joined ? i + 1 : i; j < n; j++) {
				if (threads[j].left || !stuck_in_call(&threads[j], now, grace_s))
					continue;
				if (left_flag)
					atomic_store(left_flag, true);
				pthread_detach(threads[j].tid);
				threads[j].left = true;
				left++;
			}
		}
	}
	return left;
}

int ior_thread_run_watched(void *(*body)(void *), void *arg, const struct ior_thread_watch *w, double grace_s,
			   atomic_bool *left_flag, struct ior_thread_stuck *stuck)
{
	struct ior_thread_watched t = { .watch = w };
	int err = pthread_create(&t.tid, NULL, body, arg);
	if (err)
		return ior_error_errno(IOR_ERROR, err, "cannot start a thread");
	if (!ior_thread_join_watched(&t, 1, grace_s, left_flag))
		return IOR_OK;
	*stuck = t.stuck;
	return IOR_ETIMEDOUT;
}

/* Everything kept for threads left behind, reachable from here for the process's life. */
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static void **kept;
static size_t nkept;

void ior_thread_keep(void *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&kept_lock);
	void **grown = realloc(kept, (nkept + 1) * sizeof(*kept));
	if (grown) {
		kept = grown;
		kept[nkept++] = p;
	}
	pthread_mutex_unlock(&kept_lock);
}
