/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Block-device facts from sysfs: size, block sizes, rotational, model, and the I/O schedulers offered. */
#ifndef IOR_DEVICE_BLOCKDEV_H
#define IOR_DEVICE_BLOCKDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IOR_MAX_SCHEDULERS 16

struct ior_blockdev {
	char name[64];           /* kernel name: loop0, vda, sda1 */
	char path[80];           /* /dev/NAME */
	uint64_t size;           /* bytes */
	unsigned logical_block, physical_block;
	int rotational;          /* 1, 0, or -1 when sysfs has no queue (partitions, bio-based) */
	char model[128];         /* device/model when sysfs has one */
	bool has_scheduler;      /* bio-based devices (zram) have no queue/scheduler */
	size_t nschedulers;
	char schedulers[IOR_MAX_SCHEDULERS][32];
	int active;              /* index into schedulers of the [bracketed] one, -1 none */
};

/* Probes /sys/block/NAME; name may be "loop0" or "/dev/loop0" (a partition resolves to its disk's queue). */
int ior_blockdev_probe(const char *name, struct ior_blockdev *out);

/* /sys/block/NAME/diskseq: a number the kernel never gives twice in one boot, new with every
 * attach of a loop device, so a journaled /dev/loopN can be told from a reattached one.
 * 0 when the kernel has none (before 5.15) or the device is gone. */
uint64_t ior_blockdev_diskseq(const char *name);

/* Every entry of /sys/block, probed; *out is malloc'd. */
int ior_blockdev_list(struct ior_blockdev **out, size_t *n);

/* Parses a queue/scheduler line as tokens, never by position ("none" moves
 * between kernel versions): "[mq-deadline] kyber bfq none". */
int ior_scheduler_parse(const char *line, char names[][32], size_t max, size_t *n, int *active);

#endif
