/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Safety guards before any engine writes to a block device: mounted, swap, root filesystem,
 * signatures, confirmation, exclusive lock. */
#ifndef IOR_DEVICE_GUARD_H
#define IOR_DEVICE_GUARD_H

#include <stdbool.h>
#include <stddef.h>

struct ior_guard_policy {
	bool destructive;               /* the matrix marks the device destructive = yes */
	bool scratch;                   /* ioregress created it (a loop device over its own file) */
	const char *const *confirmed;   /* --allow-destructive=PATH values from the command line */
	size_t nconfirmed;
};

/* IOR_OK when writing to path is allowed, else IOR_EREFUSED with the reason in the
 * message ("refusing to write to '/dev/loop3': mounted at /mnt via partition 1 ('/dev/loop3p1')").
 * Mounted (the device, a partition, or a holder such as dm or md), active swap and the
 * root filesystem's device are refused always. A filesystem, RAID or partition-table
 * signature is refused unless destructive and confirmed with the exact path. Anything
 * else needs destructive; a scratch device needs nothing more. */
int ior_guard_check_write(const char *path, const struct ior_guard_policy *policy);

/* The same checks on the device fd is open on (fstat's dev_t: its holders, partitions, mounts,
 * swap and signatures), path only naming it in messages and matched against the confirmations.
 * A name can be moved to another device between a check and an open (a link flipped, by-id
 * links re-enumerated): whoever writes must write through this fd (or /proc/PID/fd/N). */
int ior_guard_check_write_fd(int fd, const char *path, const struct ior_guard_policy *policy);

/* Opens the device once and takes an exclusive, non-blocking lock on it so a second run on it
 * at the same time is refused (IOR_EBUSY). *fd holds the lock until ior_guard_unlock, and is
 * the one descriptor the run checks and writes through; IOR_EINVALID when it is not a block device. */
int ior_guard_lock(const char *path, int *fd);
void ior_guard_unlock(int fd);

#endif
