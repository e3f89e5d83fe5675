/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The clocks engines time with: monotonic wall time, and CPU time of this thread, this process or a reaped child. */
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

#endif
