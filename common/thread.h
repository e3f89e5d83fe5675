/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Threads that may sleep in the kernel past every timeout of ours: a join with a time limit, a watch on the
 * call a thread is in, and a runner that leaves a thread stuck in one behind. */
#ifndef IOR_COMMON_THREAD_H
#define IOR_COMMON_THREAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Joins tid if it ends within seconds from now; false when it is still running then (the
 * caller decides whether to wait again or detach it and go on without it). */
bool ior_thread_join_within(pthread_t tid, double seconds);

/* What a watched thread is doing, for the thread that waits for it. A read or write of a device
 * that stops answering sleeps uninterruptibly, where no timeout of ours reaches it; the waiter
 * can only see that the call has lasted too long and go on without the thread. The watched
 * thread says which call it is in and how long that call may take; it reads no clock for it (the
 * waiter times the calls on its own ticks), so a hot loop pays three stores a call and no system
 * call. Zeroed: in no call. */
struct ior_thread_watch {
	_Atomic(const char *) call;   /* as the waiter's message will name it; must outlive the thread */
	_Atomic uint64_t budget_ns;   /* how long that call may take */
	atomic_uint seq;              /* odd inside a call; moves on at every enter and leave */
};

/* Before a call that may sleep in the kernel (only the watched thread writes w); after another
 * enter without a leave, the next call begins. */
static inline void ior_thread_enter(struct ior_thread_watch *w, const char *call, uint64_t budget_ns)
{
	unsigned seq = atomic_load_explicit(&w->seq, memory_order_relaxed);
	atomic_store_explicit(&w->call, call, memory_order_relaxed);
	atomic_store_explicit(&w->budget_ns, budget_ns, memory_order_relaxed);
	atomic_store_explicit(&w->seq, (seq + 1) | 1u, memory_order_release);
}

/* After it returned. */
static inline void ior_thread_leave(struct ior_thread_watch *w)
{
	unsigned seq = atomic_load_explicit(&w->seq, memory_order_relaxed);
	atomic_store_explicit(&w->seq, (seq + 1) & ~1u, memory_order_release);
}

/* A thread left behind: the call it was in, how long it had been in it when it was left (at
 * least: the waiter first sees a call on its next tick after it began) and that call's budget. */
struct ior_thread_stuck {
	const char *call;
	double in_call_s, budget_s;
};

/* A thread to join and watch, and what became of it. */
struct ior_thread_watched {
	pthread_t tid;
	const struct ior_thread_watch *watch;
	bool left;                     /* out: left behind (detached); else joined */
	struct ior_thread_stuck stuck; /* out: where, when left */
	unsigned seen;                 /* the waiter's own: the call it last saw, and since when */
	uint64_t seen_ns;
};

/* Joins the n threads, looking at every watch every quarter of a second (threads stuck together
 * are left together, not one after the other): a thread inside one call for longer than that
 * call's budget plus grace_s is detached and left behind, with left and stuck set. It may still
 * return from the kernel one day and go on, so whatever it can touch must stay allocated, open
 * and unused for the process's life (keep it with ior_thread_keep), and it should look at left_flag
 * and stop: when not NULL, it is set as soon as a thread is left (the others' cue to stop too).
 * Returns how many were left behind. */
size_t ior_thread_join_watched(struct ior_thread_watched *threads, size_t n, double grace_s, atomic_bool *left_flag);

/* Runs body(arg) in a thread of its own and joins it as ior_thread_join_watched does, the body
 * announcing its calls on w: IOR_OK when it ran to its end (what it did is in arg), IOR_ETIMEDOUT
 * when it was left behind (*stuck says where; no message is set: the caller words it), or
 * IOR_ERROR with the message when no thread could start. */
int ior_thread_run_watched(void *(*body)(void *), void *arg, const struct ior_thread_watch *w, double grace_s,
			   atomic_bool *left_flag, struct ior_thread_stuck *stuck);

/* Keeps p allocated and reachable for the process's life (so a leak checker sees it as held,
 * which it is): for what a thread left behind may still touch. NULL is ignored. */
void ior_thread_keep(void *p);

#endif
