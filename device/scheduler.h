/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Switching a device's I/O scheduler through sysfs, with the previous one remembered for a guaranteed restore. */
#ifndef IOR_DEVICE_SCHEDULER_H
#define IOR_DEVICE_SCHEDULER_H

#include <stdbool.h>

/* Reads the active scheduler of /sys/block/NAME/queue/scheduler into out. */
int ior_scheduler_active(const char *dev, char *out, unsigned len);

/* Writes want, reads it back, and fails unless it is now the active one.
 * IOR_EUNSUPPORTED when the device does not offer it. IOR_ETIMEDOUT when the write has not
 * returned within deadline_s (the matrix's deadline: the kernel drains the queue for a switch,
 * and a request that never completes holds it for ever): the writing thread is left behind, the
 * reason names where the request is held. IOR_EINVALID without a deadline. */
int ior_scheduler_set(const char *dev, const char *want, double deadline_s);

/* Every device whose scheduler was changed by ior_scheduler_switch, with the original, so
 * the run loop, a signal path and `recover` can put them back (each within the deadline of its
 * last switch). */
int ior_scheduler_switch(const char *dev, const char *want, double deadline_s);
/* Restores every device switched so far; returns the first error but tries all. */
int ior_scheduler_restore_all(void);
/* Drops dev from what restore_all puts back, filling original (may be NULL) with what it had:
 * a device whose requests never complete cannot take a switch (the kernel freezes the queue
 * for it and waits for every request in flight). */
void ior_scheduler_forget(const char *dev, char *original, unsigned len);

#endif
