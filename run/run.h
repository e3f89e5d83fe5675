/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run loop: for each device and scheduler, switch, then run each engine the set number of
 * times, storing every sample. */
#ifndef IOR_RUN_RUN_H
#define IOR_RUN_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/git_info.h"
#include "matrix/matrix.h"
#include "run/observer.h"

struct ior_db;

struct ior_run_options {
	const struct ior_run_observer *observer; /* told the run's progress and each sample, NULL none */
	const char *const *allow_destructive;   /* --allow-destructive=PATH confirmations */
	size_t nallow_destructive;
	const char *baseline;                   /* kernel whose samples let adaptive cells stop once decided */
	int64_t resume_run_id;                  /* run --resume: complete this run's missing repetitions */
	const struct ior_git_commit *commit;    /* the commit the running kernel was built from, NULL unknown */
	const char *commit_warning;             /* why it is unknown although asked for, NULL or "" when not */
};

#define IOR_RUN_MAX_FILLS 16

/* A scratch device filled before the first measurement (its time is part of no sample). */
struct ior_run_fill {
	char device[64];
	const char *fill;           /* "random", "zeros", "sparse" */
	uint64_t bytes;
	double seconds;
};

struct ior_run_summary {
	int64_t run_id;
	unsigned cells, cells_ok, cells_unavailable, cells_skipped, cells_failed;
	unsigned samples;
	char modules_loaded[512];   /* scheduler modules this run loaded (and unloaded again) */
	const char *order;          /* the repetition order used */
	uint64_t order_seed;        /* its seed, for order = random */
	struct ior_run_fill fills[IOR_RUN_MAX_FILLS];
	size_t nfills;
	char warnings[2048];        /* one per line: things the figures depend on that the user should know */
};

/* Exit statuses of `ioregress run` beside 0 (every cell measured, or skipped/unavailable with a
 * reason) and 2 (usage): a cell failed or the run itself did; nothing at all was measured. */
enum { IOR_RUN_EXIT_FAILED = 1, IOR_RUN_EXIT_NOTHING = 3 };

/* Appends one line to s->warnings (cut when full). */
void ior_run_warn(struct ior_run_summary *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Runs m and stores everything in db. Schedulers are restored and scratch devices
 * detached on every path out, including a stop request (IOR_EINTERRUPTED). */
int ior_run_matrix(struct ior_db *db, const struct ior_matrix *m, const struct ior_run_options *opts,
		   struct ior_run_summary *summary);

#endif
