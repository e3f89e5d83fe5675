/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scheduler switching through sysfs, verified by reading back, with every change remembered for restore. */
#include "device/scheduler.h"
#include "device/blockdev.h"
#include "common/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_SWITCHED 64

struct switched {
	char dev[64];
	char original[32];
};

/* The run loop is single-threaded; restore may also run from the stop path, after the loop unwinds. */
static struct switched switched[MAX_SWITCHED];
static size_t nswitched;

int ior_scheduler_active(const char *dev, char *out, unsigned len)
{
	struct ior_blockdev bd;
	int rc = ior_blockdev_probe(dev, &bd);
	if (rc)
		return rc;
	if (!bd.has_scheduler || bd.active < 0)
		return ior_error_set(IOR_EUNSUPPORTED, "'%s' has no active I/O scheduler", dev);
	snprintf(out, len, "%s", bd.schedulers[bd.active]);
	return IOR_OK;
}

static bool offers(const struct ior_blockdev *bd, const char *name)
{
	for (size_t i = 0; i < bd->nschedulers; i++)
		if (strcmp(bd->schedulers[i], name) == 0)
			return true;
	return false;
}

int ior_scheduler_set(const char *dev, const char *want)
{
	struct ior_blockdev bd;
	int rc = ior_blockdev_probe(dev, &bd);
	if (rc)
		return rc;
	if (!bd.has_scheduler)
		return ior_error_set(IOR_EUNSUPPORTED, "'%s' has no I/O scheduler (bio-based device)", dev);
	if (!offers(&bd, want))
		return ior_error_set(IOR_EUNSUPPORTED, "'%s' does not offer scheduler '%s'", dev, want);
	/* no write for the scheduler already active: the kernel freezes the queue for any write
	 * (6.18: elevator_change waits for every request in flight), which costs a drain and never
	 * returns on a device that stopped answering */
	if (bd.active >= 0 && strcmp(bd.schedulers[bd.active], want) == 0)
		return IOR_OK;
	/* The probe above already named the device's queue: no second probe for its path. */
	char path[256];
	snprintf(path, sizeof(path), "/sys/class/block/%s/queue/scheduler", bd.name);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot open '%s'", path);
	ssize_t w = write(fd, want, strlen(want));
	int err = errno;
	close(fd);
	if (w < 0)
		return ior_error_errno(IOR_ERROR, err, "cannot write '%s' to '%s'", want, path);
	char now[32];
	if ((rc = ior_scheduler_active(dev, now, sizeof(now))) != 0)
		return rc;
	if (strcmp(now, want) != 0)
		return ior_error_set(IOR_ERROR, "wrote '%s' to '%s' but it reads back '%s'", want, path, now);
	return IOR_OK;
}

int ior_scheduler_switch(const char *dev, const char *want)
{
	size_t i;
	for (i = 0; i < nswitched; i++)
		if (strcmp(switched[i].dev, dev) == 0)
			break;
	if (i == nswitched) {
		/* First change to this device: remember what it had before anything else happens. */
		if (nswitched == MAX_SWITCHED)
			return ior_error_set(IOR_ERROR, "too many devices switched in one run (%d)", MAX_SWITCHED);
		int rc = ior_scheduler_active(dev, switched[i].original, sizeof(switched[i].original));
		if (rc)
			return rc;
		snprintf(switched[i].dev, sizeof(switched[i].dev), "%s", dev);
		nswitched++;
	}
	return ior_scheduler_set(dev, want);
}

void ior_scheduler_forget(const char *dev, char *original, unsigned len)
{
	if (original && len)
		original[0] = '\0';
	for (size_t i = 0; i < nswitched; i++) {
		if (strcmp(switched[i].dev, dev) != 0)
			continue;
		if (original && len)
			snprintf(original, len, "%s", switched[i].original);
		switched[i] = switched[--nswitched];
		return;
	}
}

int ior_scheduler_restore_all(void)
{
	struct ior_error_state first = { IOR_OK, "" };
	while (nswitched > 0) {
		struct switched *s = &switched[--nswitched];
		int rc = ior_scheduler_set(s->dev, s->original);
		if (rc && first.code == IOR_OK)
			ior_error_save(&first, ior_error_wrap(rc, "cannot restore scheduler '%s' on '%s'", s->original, s->dev));
	}
	return ior_error_restore(&first, IOR_OK);
}
