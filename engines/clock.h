/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The clocks engines time with: monotonic wall time, CPU time of this thread, this process or a reaped
 * child, and a bounded back-off for a kernel that refuses requests for a while. */
#ifndef IOR_ENGINES_CLOCK_H
#define IOR_ENGINES_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/time.h>

/* CLOCK_MONOTONIC, in seconds and in nanoseconds: never steps with the date. */
double ior_clock_s(void);
uint64_t ior_clock_ns(void);

/* A struct timeval (rusage's CPU times) in seconds. */
double ior_timeval_s(struct timeval tv);

/* CPU time consumed so far, by this thread (thread = true) or the whole process. */
struct ior_cpu {
	double usr_s, sys_s;
};
void ior_cpu_now(struct ior_cpu *out, bool thread);

/* Retrying a call the kernel refuses for now (EAGAIN): ior_backoff_wait sleeps 10 us, doubling to
 * 1 ms, so a refusal that clears in microseconds costs little and one that lasts costs no CPU, and
 * returns true once timeout_ns have passed since ior_backoff_start: then the caller gives up. */
struct ior_backoff {
	uint64_t until_ns, sleep_ns;
};
void ior_backoff_start(struct ior_backoff *b, uint64_t timeout_ns);
bool ior_backoff_wait(struct ior_backoff *b);

#endif
