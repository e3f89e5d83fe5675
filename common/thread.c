/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Joining a thread with a time limit (pthread_timedjoin_np takes an absolute CLOCK_REALTIME time). */
#include "common/thread.h"

#include <errno.h>
#include <time.h>

bool ior_thread_join_within(pthread_t tid, double seconds)
{
	struct timespec at;
	clock_gettime(CLOCK_REALTIME, &at);
	long long ns = (long long)at.tv_nsec + (long long)(seconds * 1e9);
	at.tv_sec += (time_t)(ns / 1000000000LL);
	at.tv_nsec = (long)(ns % 1000000000LL);
	int err;
	while ((err = pthread_timedjoin_np(tid, NULL, &at)) == EINTR)
		;
	return err != ETIMEDOUT;
}
