/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside a guest: the last heartbeat repeated every IOR_VM_TICK_S while the run does something whose
 * length it could not announce (a size-based or exec repetition, an engine's set-up), so the host's
 * watchdog calls a boot hung when the guest stops answering, not when a cell runs long. */
#include "vm/guest.h"


#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static bool started, ticking;
static char text[400];
static struct timespec since; /* CLOCK_MONOTONIC: when ticking began for this text */

static double seconds_since(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static void *tick(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	for (;;) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += IOR_VM_TICK_S;
		bool was = ticking;
		char now_text[sizeof(text)];
		snprintf(now_text, sizeof(now_text), "%s", text);
		/* woken early by a change: the next tick is a whole period after it */
		if (pthread_cond_timedwait(&changed, &lock, &until) == 0)
			continue;
		if (was && ticking && !strcmp(now_text, text))
			ior_vm_guest_beat(0, "%s  (running %.0f s)", text, seconds_since(&since));
	}
	return NULL;
}

void ior_vm_guest_ticking(bool on, const char *what)
{
	pthread_mutex_lock(&lock);
	if (!started && on) {
		pthread_t tid;
		pthread_attr_t attr;
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		started = pthread_create(&tid, &attr, tick, NULL) == 0;
		pthread_attr_destroy(&attr);
	}
	ticking = on;
	if (on) {
		snprintf(text, sizeof(text), "%s", what);
		clock_gettime(CLOCK_MONOTONIC, &since);
	}
	pthread_cond_signal(&changed);
	pthread_mutex_unlock(&lock);
}
