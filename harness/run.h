/* The run loop: for each device and scheduler, switch, then run each engine the set number of times, storing every sample. */
#ifndef IOR_HARNESS_RUN_H
#define IOR_HARNESS_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "matrix/matrix.h"

struct ior_db;

struct ior_run_options {
	bool progress;                          /* draw the progress line on stderr */
	const char *const *allow_destructive;   /* --allow-destructive=PATH confirmations */
	size_t nallow_destructive;
	const char *baseline;                   /* kernel whose samples let adaptive cells stop once decided */
	int64_t resume_run_id;                  /* run --resume: complete this run's missing repetitions */
};

struct ior_run_summary {
	int64_t run_id;
	unsigned cells, cells_ok, cells_unavailable, cells_skipped, cells_failed;
	unsigned samples;
	char modules_loaded[512];   /* scheduler modules this run loaded (and unloaded again) */
};

/* Runs m and stores everything in db. Schedulers are restored and scratch devices
 * detached on every path out, including a stop request (IOR_EINTERRUPTED). */
int ior_run_matrix(struct ior_db *db, const struct ior_matrix *m, const struct ior_run_options *opts,
		   struct ior_run_summary *summary);

#endif
