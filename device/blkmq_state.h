/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where a device's stuck requests sit, as blk-mq's debugfs shows them. */
#ifndef IOR_DEVICE_BLKMQ_STATE_H
#define IOR_DEVICE_BLKMQ_STATE_H

#include <stddef.h>

/* "blk-mq debugfs of 'vda': hctx0 sched read_rqs 1 request, sched read_tokens 24 of 24 taken, ..."
 * for block device name (vda, loop4): the scheduler's lists and the dispatch, busy and requeue lists
 * that hold a request, the scheduler's tokens taken, the hardware queue's state flags. Read in a
 * thread given 2 s (a show function may wait on a lock the stuck request's waiter holds). "" when
 * debugfs is not mounted (the harness never mounts it on a host) or the kernel has no blk-mq entries
 * in it (CONFIG_BLK_DEBUG_FS off). */
void ior_blkmq_state(const char *name, char *out, size_t len);

#endif
