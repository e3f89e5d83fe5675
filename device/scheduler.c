/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scheduler switching through sysfs, verified by reading back, with every change remembered for restore. */
#include "device/scheduler.h"
#include "device/blkmq_state.h"
#include "device/blockdev.h"
#include "common/error.h"
#include "common/thread.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SWITCHED 64

struct switched {
	char dev[64];
	char original[32];
	double deadline_s;        /* its last switch's: the restore waits as long */
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

/* One write to a sysfs scheduler file, in a thread of its own: the kernel freezes the queue for a
 * switch and waits, uninterruptibly, for every request in it. Whichever of the writer and the
 * waiter lets go of it last frees it (a writer left behind may only return much later). */
struct scheduler_write {
	char path[256], want[32];
	int err;                 /* errno of the open or write, 0 when it was taken */
	atomic_int holders;
};

static void release(struct scheduler_write *w)
{
	if (atomic_fetch_sub(&w->holders, 1) == 1)
		free(w);
}

static void *write_scheduler(void *arg)
{
	struct scheduler_write *w = arg;
	int fd = open(w->path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, w->want, strlen(w->want)) < 0)
		w->err = errno;
	if (fd >= 0)
		close(fd);
	release(w);
	return NULL;
}

/* "in the driver: R reads, W writes" from /sys/class/block/NAME/inflight: requests a switch waits
 * for that the driver holds (the device never answered them), or none (the scheduler holds them). */
static void inflight(const char *name, char *out, size_t len)
{
	char path[256], text[64] = "";
	snprintf(path, sizeof(path), "/sys/class/block/%s/inflight", name);
	FILE *f = fopen(path, "re");
	unsigned long r = 0, wr = 0;
	bool read_ok = f && fgets(text, sizeof(text), f) && sscanf(text, "%lu %lu", &r, &wr) == 2;
	if (f)
		fclose(f);
	if (!read_ok)
		snprintf(out, len, "its in-flight count unreadable");
	else if (r + wr)
		snprintf(out, len, "%lu read%s and %lu write%s still in the driver: the device never answered them", r,
			 r == 1 ? "" : "s", wr, wr == 1 ? "" : "s");
	else
		snprintf(out, len, "none in the driver: a request the scheduler holds never reached it");
}

static int write_within(const struct ior_blockdev *bd, const char *path, const char *want, double deadline_s)
{
	struct scheduler_write *w = calloc(1, sizeof(*w));
	if (!w)
		return ior_error_set(IOR_ERROR, "out of memory");
	snprintf(w->path, sizeof(w->path), "%s", path);
	snprintf(w->want, sizeof(w->want), "%s", want);
	atomic_init(&w->holders, 2);
	pthread_t tid;
	int err = pthread_create(&tid, NULL, write_scheduler, w);
	if (err) {
		free(w);
		return ior_error_errno(IOR_ERROR, err, "cannot start the scheduler switch of '%s'", bd->name);
	}
	if (!ior_thread_join_within(tid, deadline_s)) {
		pthread_detach(tid);
		char held[160], where[400];
		inflight(bd->name, held, sizeof(held));
		ior_blkmq_state(bd->name, where, sizeof(where));
		release(w);
		return ior_error_set(IOR_ETIMEDOUT, "switching '%s' from %s to %s did not finish within %.0f s: a switch "
				     "waits for every request queued, and one never completed (%s%s%s); left behind",
				     bd->name, bd->active >= 0 ? bd->schedulers[bd->active] : "?", want, deadline_s,
				     held, where[0] ? "; " : "", where);
	}
	int werr = w->err;
	release(w);
	return werr ? ior_error_errno(IOR_ERROR, werr, "cannot write '%s' to '%s'", want, path) : IOR_OK;
}

int ior_scheduler_set(const char *dev, const char *want, double deadline_s)
{
	if (!(deadline_s > 0))
		return ior_error_set(IOR_EINVALID, "switching '%s' to '%s': no deadline given", dev, want);
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
	if ((rc = write_within(&bd, path, want, deadline_s)) != IOR_OK)
		return rc;
	char now[32];
	if ((rc = ior_scheduler_active(dev, now, sizeof(now))) != 0)
		return rc;
	if (strcmp(now, want) != 0)
		return ior_error_set(IOR_ERROR, "wrote '%s' to '%s' but it reads back '%s'", want, path, now);
	return IOR_OK;
}

int ior_scheduler_switch(const char *dev, const char *want, double deadline_s)
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
	switched[i].deadline_s = deadline_s;
	return ior_scheduler_set(dev, want, deadline_s);
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
		int rc = ior_scheduler_set(s->dev, s->original, s->deadline_s);
		if (rc && first.code == IOR_OK)
			ior_error_save(&first, ior_error_wrap(rc, "cannot restore scheduler '%s' on '%s'", s->original, s->dev));
	}
	return ior_error_restore(&first, IOR_OK);
}
