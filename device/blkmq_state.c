/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where a device's stuck requests sit, from blk-mq's debugfs: in the scheduler's lists, on the
 * dispatch list, with the driver, and how many of the scheduler's tokens are taken. Read when
 * requests never completed, so the cell's reason says who holds them. */
#include "device/blkmq_state.h"
#include "common/error.h"
#include "common/thread.h"

#include <dirent.h>
#include <mntent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first debugfs mount, or NULL: the harness never mounts it on a host (the guest's init does). */
static bool debugfs_at(char *dir, size_t len)
{
	FILE *f = setmntent("/proc/self/mounts", "re");
	struct mntent *e;
	bool found = false;
	while (f && !found && (e = getmntent(f)))
		if (!strcmp(e->mnt_type, "debugfs"))
			found = snprintf(dir, len, "%s", e->mnt_dir) < (int)len;
	if (f)
		endmntent(f);
	return found;
}

/* Appends ", text" (or the first text) to out while it fits. */
static void add(char *out, size_t len, const char *text)
{
	size_t used = strlen(out);
	if (used + strlen(text) + 3 < len)
		snprintf(out + used, len - used, "%s%s", used ? ", " : "", text);
}

/* Lines of a debugfs list (one request each), or for an sbitmap ("depth=24", "busy=3") its busy and
 * depth; *depth is -1 for a plain list. -1 lines when it cannot be read. */
static long read_list(const char *path, long *busy, long *depth, char *first, size_t flen)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	char line[512];
	long n = 0;
	*busy = 0, *depth = -1;
	first[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		if (!n)
			snprintf(first, flen, "%.*s", (int)strcspn(line, "\n"), line);
		n++;
		sscanf(line, "depth=%ld", depth);
		sscanf(line, "busy=%ld", busy);
	}
	fclose(f);
	return n;
}

/* One directory's files: lists with a request on them, a taken token, a set flag. prefix names the
 * directory ("hctx0 ", "sched "). */
static void scan_dir(const char *dir, const char *prefix, char *out, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		const char *n = e->d_name;
		size_t nl = strlen(n);
		/* request lists: kyber's READ_rqs, mq-deadline's fifo lists and dispatchN, the hardware
		 * queue's dispatch list and busy (with the driver); not dispatch_busy, a number */
		bool list = (nl > 4 && !strcmp(n + nl - 4, "_rqs")) || strstr(n, "fifo_list") || !strcmp(n, "dispatch") ||
			    (!strncmp(n, "dispatch", 8) && n[8] >= '0' && n[8] <= '9') || !strcmp(n, "busy") ||
			    !strcmp(n, "requeue_list");
		bool tokens = strstr(n, "_tokens") != NULL;
		/* a hardware queue's state (SCHED_RESTART, STOPPED); the queue's own state is its
		 * everyday flags, noise here */
		bool flag = strstr(n, "_waiting") || (!strcmp(n, "state") && !strncmp(prefix, "hctx", 4));
		if (!list && !tokens && !flag)
			continue;
		char path[512], first[96], text[256];
		snprintf(path, sizeof(path), "%s/%s", dir, n);
		long busy, depth, lines = read_list(path, &busy, &depth, first, sizeof(first));
		if (lines <= 0)
			continue;
		if (tokens && depth >= 0 && busy > 0)
			snprintf(text, sizeof(text), "%s%s %ld of %ld taken", prefix, n, busy, depth);
		else if (list && !tokens)
			snprintf(text, sizeof(text), "%s%s %ld request%s", prefix, n, lines, lines == 1 ? "" : "s");
		else if (flag && first[0] && strcmp(first, "0"))
			snprintf(text, sizeof(text), "%s%s %s", prefix, n, first);
		else
			continue;
		add(out, len, text);
	}
	if (d)
		closedir(d);
}

struct state_read {
	char root[384];
	char text[400];
	bool queues;         /* a hctx directory was there: a kernel without CONFIG_BLK_DEBUG_FS has none */
	atomic_int holders;  /* the reader and the waiter: the last to let go frees it */
};

static void release(struct state_read *s)
{
	if (atomic_fetch_sub(&s->holders, 1) == 1)
		free(s);
}

static void *read_state(void *arg)
{
	struct state_read *s = arg;
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/sched", s->root);
	scan_dir(dir, "sched ", s->text, sizeof(s->text));
	scan_dir(s->root, "", s->text, sizeof(s->text)); /* requeue_list */
	DIR *d = opendir(s->root);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "hctx", 4) != 0)
			continue;
		s->queues = true;
		char prefix[32];
		snprintf(prefix, sizeof(prefix), "%.16s ", e->d_name);
		snprintf(dir, sizeof(dir), "%s/%s", s->root, e->d_name);
		scan_dir(dir, prefix, s->text, sizeof(s->text));
		snprintf(dir, sizeof(dir), "%s/%s/sched", s->root, e->d_name);
		scan_dir(dir, prefix, s->text, sizeof(s->text));
	}
	if (d)
		closedir(d);
	release(s);
	return NULL;
}

void ior_blkmq_state(const char *name, char *out, size_t len)
{
	char debugfs[256];
	out[0] = '\0';
	if (!debugfs_at(debugfs, sizeof(debugfs)))
		return;
	struct state_read *s = calloc(1, sizeof(*s));
	if (!s)
		return;
	snprintf(s->root, sizeof(s->root), "%s/block/%s", debugfs, name);
	atomic_init(&s->holders, 2);
	pthread_t tid;
	if (pthread_create(&tid, NULL, read_state, s) != 0) {
		free(s);
		return;
	}
	/* a show function may take a lock the stuck request's waiter holds: 2 s, then left behind */
	if (!ior_thread_join_within(tid, 2)) {
		pthread_detach(tid);
		snprintf(out, len, "blk-mq debugfs of '%s' did not answer within 2 s", name);
	} else if (s->text[0]) {
		snprintf(out, len, "blk-mq debugfs of '%s': %s", name, s->text);
	} else if (s->queues) {
		snprintf(out, len, "blk-mq debugfs of '%s': no request on any list, no token taken", name);
	} /* else the kernel has no blk-mq debugfs: nothing to say */
	release(s);
}
