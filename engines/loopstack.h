/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A stack of loop devices for the loop engine: tmpfs or a directory, then depth levels of file →
 * loop device (→ ext4), torn down in reverse. */
#ifndef IOR_ENGINES_LOOPSTACK_H
#define IOR_ENGINES_LOOPSTACK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/loopdev.h"
#include "engines/engine.h"

#define IOR_LOOPSTACK_MAX_DEPTH 8

struct ior_loopstack_spec {
	const char *backing;      /* "tmpfs", or an existing directory for the first file */
	uint64_t backing_size;    /* tmpfs size; 0 = size */
	uint64_t size;            /* each level's file: this, or what fits on the level below if less */
	unsigned depth;           /* 1..IOR_LOOPSTACK_MAX_DEPTH loop devices */
	bool top_fs;              /* ext4 on the top device too, and the target is a file on it */
	enum ior_fill fill;       /* what each level's file holds before the repetitions (device/fill.h);
				   * sparse leaves the first repetition to pay for allocating it */
	const char *scheduler;    /* the cell's scheduler, set on every level's loop device (where the
				   * inner engine's I/O is queued) and restored before it is detached;
				   * NULL or "" leaves them as they come */
	double deadline_s;        /* with a scheduler: how long a switch (and its restore) may take */
	const struct ior_journal *journal; /* may be NULL; mounts and files are journaled before they exist */
};

struct ior_loopstack_level {
	struct ior_loopdev ld;
	uint64_t size;
	char mnt[64];             /* mkdtemp'd mount point under /tmp, "" when none */
	bool mounted;
	int64_t file_jid, mnt_jid, sched_jid; /* journal entries, 0 = none */
	char sched_orig[32];      /* the device's scheduler before ours, "" when not switched */
};

struct ior_loopstack {
	char base[PATH_MAX];      /* where level 1's file lives */
	bool base_tmpfs;          /* base is our mkdtemp'd dir (rmdir'd at teardown) with our tmpfs */
	bool base_mounted;
	int64_t base_jid;
	const struct ior_journal *journal;
	uint64_t base_size;
	unsigned depth;           /* levels built so far */
	struct ior_loopstack_level lv[IOR_LOOPSTACK_MAX_DEPTH];
	char target[PATH_MAX];    /* what the inner engine measures: top device, or a file on the top fs */
	uint64_t target_size;
	bool target_is_file;
	char sched[32];           /* the scheduler every level runs, "" when left alone */
	double deadline_s;        /* the spec's, for the restores at teardown */
	double fill_seconds;      /* every level's fill together: part of no repetition */
};

/* Builds the stack. On failure (or a stop request, IOR_EINTERRUPTED) what was
 * built stays recorded in *st, and the caller must still call teardown. */
int ior_loopstack_build(struct ior_loopstack *st, const struct ior_loopstack_spec *spec);

/* Undoes every step in reverse order, continuing past errors; returns the
 * first error. Safe on a zeroed, partly built or already torn-down stack. */
int ior_loopstack_teardown(struct ior_loopstack *st);

/* One line for a sample's detail: "tmpfs 256M > /dev/loop3 256M ext4 > /dev/loop4 247M", with
 * "[mq-deadline]" after each device when a scheduler was set. */
void ior_loopstack_describe(const struct ior_loopstack *st, char *buf, size_t len);

#endif
