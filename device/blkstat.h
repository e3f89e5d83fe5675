/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A block device's request counters (its sysfs stat file): read before and after a repetition, the
 * difference is what the block layer did. */
#ifndef IOR_DEVICE_BLKSTAT_H
#define IOR_DEVICE_BLKSTAT_H

#include <stdbool.h>
#include <stdint.h>

/* The first fields of Documentation/block/stat.rst, reads and writes (discards and flushes are
 * not I/O a benchmark asks for). Requests are what reached the driver; merges are bios the
 * block layer folded into a request already queued; sectors are 512 bytes whatever the device. */
struct ior_blkstat {
	uint64_t rd_ios, rd_merges, rd_sectors;
	uint64_t wr_ios, wr_merges, wr_sectors;
};

/* The counters of the block device at path (a /dev node, a symlink to one, or a partition),
 * found by its device number in /sys/dev/block, so any name of it works. */
int ior_blkstat_read(const char *path, struct ior_blkstat *out);

/* after - before, field by field; false when a counter went back (the device was detached and
 * another attached under its name, or the counters wrapped): then *delta is not a measurement. */
bool ior_blkstat_delta(const struct ior_blkstat *before, const struct ior_blkstat *after, struct ior_blkstat *delta);

#endif
