/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Joining a thread with a time limit: for threads that may sleep in the kernel past every timeout of ours. */
#ifndef IOR_COMMON_THREAD_H
#define IOR_COMMON_THREAD_H

#include <pthread.h>
#include <stdbool.h>

/* Joins tid if it ends within seconds from now; false when it is still running then (the
 * caller decides whether to wait again or detach it and go on without it). */
bool ior_thread_join_within(pthread_t tid, double seconds);

#endif
