/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Cold caches before a measurement without waiting on other devices: the measured device written
 * back and its page cache dropped through its own descriptor, then the kernel's caches dropped,
 * each call with a deadline. */
#ifndef IOR_DEVICE_CACHE_H
#define IOR_DEVICE_CACHE_H

#include "common/thread.h"

#include <stdint.h>

/* Write-back of fd's dirty pages (sync_file_range, waited for; no cache-flush command), then
 * BLKFLSBUF (ignored where it does not apply: a regular file), each announced
 * on w with budget_ns: for a thread that is watched already (hdparm's). A global sync() would wait
 * for every device of the machine, and for ever for one that stopped answering. */
void ior_device_flush(int fd, struct ior_thread_watch *w, uint64_t budget_ns);

/* The device (or file) at path flushed as above, then 3 written to /proc/sys/vm/drop_caches, in a
 * thread of its own, each call with deadline_s: IOR_OK; IOR_ETIMEDOUT with a message naming the
 * call still in the kernel when the thread was left behind (the device never answered); or
 * IOR_ERROR when the drop could not be written. */
int ior_device_drop_caches(const char *path, double deadline_s);

#endif
