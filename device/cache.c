/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The measured device's caches written back and dropped with a deadline (see cache.h). */
#include "device/cache.h"

#include "common/error.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

void ior_device_flush(int fd, struct ior_thread_watch *w, uint64_t budget_ns)
{
	/* the dirty pages written back and waited for, as sync() did for a device, but no cache-flush
	 * command: fsync sends one, which the device counts as a write (blkstat's read-only cells saw
	 * one more write per repetition than their samples held) and a disk pays for */
	ior_thread_enter(w, "write-back", budget_ns);
	(void)sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
	ior_thread_enter(w, "BLKFLSBUF", budget_ns);
	(void)ioctl(fd, BLKFLSBUF, NULL); /* ENOTTY on a regular file: nothing to drop there */
	ior_thread_leave(w);
}

/* What the drop's thread shares with the run; kept for the process's life when the thread is
 * left behind (it may return from the kernel one day and write into it). */
struct drop {
	char path[4096];
	uint64_t budget_ns;
	struct ior_thread_watch watch;
	int fd;
	int err;             /* errno of the open of path or of the drop's write, 0 when done */
	const char *failed, *failed_path;  /* which of them failed: "cannot open", and on what */
};

static void *drop_body(void *arg)
{
	struct drop *d = arg;
	ior_thread_enter(&d->watch, "open", d->budget_ns);
	d->fd = open(d->path, O_RDONLY | O_CLOEXEC);
	if (d->fd < 0) {
		d->err = errno, d->failed = "cannot open", d->failed_path = d->path;
		ior_thread_leave(&d->watch);
		return NULL;
	}
	ior_device_flush(d->fd, &d->watch, d->budget_ns);
	close(d->fd);
	d->fd = -1;
	/* page cache, dentries and inodes of the whole machine: none of it waits for write-back (it
	 * drops only clean pages), so a device that stopped answering does not hold it up */
	ior_thread_enter(&d->watch, "write of /proc/sys/vm/drop_caches", d->budget_ns);
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "3\n", 2) != 2)
		d->err = errno, d->failed = "cannot drop caches through", d->failed_path = "/proc/sys/vm/drop_caches";
	if (fd >= 0)
		close(fd);
	ior_thread_leave(&d->watch);
	return NULL;
}

int ior_device_drop_caches(const char *path, double deadline_s)
{
	struct drop *d = calloc(1, sizeof(*d));
	if (!d)
		return ior_error_set(IOR_ERROR, "out of memory");
	snprintf(d->path, sizeof(d->path), "%s", path);
	d->budget_ns = (uint64_t)(deadline_s * 1e9);
	d->fd = -1;
	struct ior_thread_stuck stuck;
	int rc = ior_thread_run_watched(drop_body, d, &d->watch, 0, NULL, &stuck);
	if (rc == IOR_ETIMEDOUT) {
		ior_thread_keep(d);
		return ior_error_set(IOR_ETIMEDOUT, "dropping caches: %s of '%s' still in the kernel %.1f s after it began "
				     "(deadline %g s): the device never answered; left behind", stuck.call, path,
				     stuck.in_call_s, deadline_s);
	}
	if (rc == IOR_OK && d->err)
		rc = ior_error_errno(IOR_ERROR, d->err, "%s '%s'", d->failed, d->failed_path);
	free(d);
	return rc;
}
