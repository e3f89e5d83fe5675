/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scheduler and block-driver modules around a run: their states for the offers recorded, and
 * load_modules = yes (load before, unload exactly those after). */
#ifndef IOR_RUN_RUN_MODULES_H
#define IOR_RUN_RUN_MODULES_H

#include <stddef.h>

#include "matrix/matrix.h"

struct ior_kmod;

struct ior_run_modules {
	struct ior_kmod *kmod;      /* the running kernel's tree (may be "no module tree") */
	char loaded[512];           /* space-separated modules this run inserted */
	int64_t run_id;             /* whose journal holds them */
};

int ior_run_modules_open(struct ior_run_modules *rm);

/* The module state word of the module behind a scheduler ("built-in", "loaded", ...),
 * NULL when the scheduler is not a module ioregress knows (none) or nothing tells. */
const char *ior_run_module_state(struct ior_run_modules *rm, const char *scheduler);

/* Loads the modules of the schedulers the matrix names (for "all": every blk-mq scheduler
 * module the tree has) and of the block drivers its devices need (loop for loop = and the loop
 * engine, null_blk for a /dev/nullbN path), and notes which this call inserted. A kernel without a module tree
 * is not an error: nothing can be loaded and nothing is. */
int ior_run_modules_load(struct ior_run_modules *rm, const struct ior_matrix *m);

/* Unloads exactly what ior_run_modules_load inserted, then frees the handle. */
int ior_run_modules_close(struct ior_run_modules *rm);

#endif
