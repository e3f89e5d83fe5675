/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scratch loop devices over files the harness creates: attach (autoclear) and detach, never someone else's device. */
#ifndef IOR_DEVICE_LOOPDEV_H
#define IOR_DEVICE_LOOPDEV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/fill.h"

struct ior_loopdev {
	char path[64];          /* /dev/loopN */
	char backing[PATH_MAX]; /* the file behind it, created by ior_loopdev_create */
	int fd;                 /* held open: with LO_FLAGS_AUTOCLEAR the kernel detaches if we die */
	bool own_backing;       /* the backing file is ours to remove */
	struct ior_fill_result filled; /* what create wrote into the new file, and how long it took */
};

/* Creates a file of size bytes in dir (mkstemp, 0600), fills it (ior_fill_fd) before the
 * device exists, so no cached block of the device can predate its data, and attaches a loop
 * device to it. direct_io sets LO_FLAGS_DIRECT_IO (losetup --direct-io=on). */
int ior_loopdev_create(struct ior_loopdev *out, const char *dir, uint64_t size, bool direct_io, enum ior_fill fill);

/* Like ior_loopdev_create with a backing file name chosen by the caller (created with
 * O_EXCL, 0600), so the name can be journaled before the file exists. */
int ior_loopdev_create_at(struct ior_loopdev *out, const char *file, uint64_t size, bool direct_io,
			  enum ior_fill fill);

/* A fresh backing-file name in dir ("DIR/ioregress-loop.<random>"), chosen before the file
 * exists so that it can be journaled first. */
void ior_loopdev_scratch_name(char *out, size_t len, const char *dir);

/* The backing file of an attached loop device (/dev/loopN, from sysfs), or IOR_ENOTFOUND
 * when path is not a loop device or has nothing attached. */
int ior_loopdev_backing_file(const char *path, char *out, size_t len);

/* Attaches a loop device to an existing file, which stays when destroyed. */
int ior_loopdev_attach(struct ior_loopdev *out, const char *file, bool direct_io);

/* Detaches and removes the backing file when it is ours. Safe to call twice, and on a
 * zeroed struct or one whose create failed. */
int ior_loopdev_destroy(struct ior_loopdev *ld);

#endif
