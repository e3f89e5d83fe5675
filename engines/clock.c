/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The clocks engines time with; see engines/clock.h. */
#include "engines/clock.h"

#include <sys/resource.h>
#include <time.h>

double ior_clock_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

uint64_t ior_clock_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

double ior_timeval_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void ior_cpu_now(struct ior_cpu *out, bool thread)
{
	struct rusage ru;
	if (getrusage(thread ? RUSAGE_THREAD : RUSAGE_SELF, &ru) < 0) {
		out->usr_s = out->sys_s = 0;
		return;
	}
	out->usr_s = ior_timeval_s(ru.ru_utime);
	out->sys_s = ior_timeval_s(ru.ru_stime);
}

void ior_backoff_start(struct ior_backoff *b, uint64_t timeout_ns)
{
	b->until_ns = ior_clock_ns() + timeout_ns;
	b->sleep_ns = 10000;
}

bool ior_backoff_wait(struct ior_backoff *b)
{
	if (ior_clock_ns() >= b->until_ns)
		return true;
	struct timespec ts = { 0, (long)b->sleep_ns };
	nanosleep(&ts, NULL);
	if (b->sleep_ns < 1000000)
		b->sleep_ns *= 2;
	return false;
}
