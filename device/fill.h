/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a scratch backing file holds before anything measures it: random data (the default), zeros,
 * or holes; and a check for holes. */
#ifndef IOR_DEVICE_FILL_H
#define IOR_DEVICE_FILL_H

#include <stdbool.h>
#include <stdint.h>

/* random: data no layer can compress or deduplicate, as fio's buffers; zeros: written zeros,
 * as an image made with dd if=/dev/zero (allocated, but a compressing or deduplicating layer
 * sees through it); sparse: nothing written, so reads measure how the filesystem below
 * serves holes (fast and meaningless, kept for comparison). */
enum ior_fill { IOR_FILL_RANDOM, IOR_FILL_ZEROS, IOR_FILL_SPARSE, IOR_FILL_COUNT };

/* "random", "zeros", "sparse", NULL-terminated: the matrix's enum rows use it. */
extern const char *const ior_fill_names[IOR_FILL_COUNT + 1];

struct ior_fill_result {
	enum ior_fill fill;
	uint64_t bytes;     /* written (0 for sparse) */
	double seconds;     /* the fill's own time, part of no sample */
};

/* Writes size bytes from offset 0 of fd (an open regular file, what names it in messages) as
 * fill says, syncs them and drops them from the page cache, so the first measurement reads
 * the file as stored. Polls stop requests (IOR_EINTERRUPTED). */
int ior_fill_fd(int fd, const char *what, uint64_t size, enum ior_fill fill, struct ior_fill_result *out);

/* Bytes of the file at path that are holes (SEEK_HOLE/SEEK_DATA), before its end. */
int ior_fill_hole_bytes(const char *path, uint64_t *holes);

#endif
