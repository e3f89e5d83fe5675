/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Who watches a run: what the run loop tells as it goes (its start, a line before each repetition
 * and set-up, something of unknown length running, a device given up on, each sample stored), so
 * the loop knows nothing of where it runs. The command chooses: the terminal's progress line
 * (run/progress.h), a vm run guest's heartbeats and results disk (vm/guest.h), a real machine's. */
#ifndef IOR_RUN_OBSERVER_H
#define IOR_RUN_OBSERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ior_db;

/* Every member may be NULL: nothing is told of that. ctx is passed back to each. */
struct ior_run_observer {
	void *ctx;
	/* The run began with run_id stored and cells to measure. */
	void (*start)(void *ctx, int64_t run_id, size_t cells);
	/* Before a repetition ("cell i/N rep r/R WHAT elapsed ETA") or an engine's set-up ("setting up
	 * WHAT"); expect_s is how long it should take, 0 when unknown. */
	void (*beat)(void *ctx, double expect_s, const char *text);
	/* While on, something of unknown length runs (what: the last beat's text); off at the run's end. */
	void (*ticking)(void *ctx, bool on, const char *what);
	/* Requests on device (its kernel name, "vda") never completed: the run gave up on them. */
	void (*stuck)(void *ctx, const char *device);
	/* A sample was just stored in db. An error is said once as a warning and not asked again. */
	int (*results)(void *ctx, struct ior_db *db);
	/* The run's cells are done (or it stopped): a line drawn can be cleared. */
	void (*finish)(void *ctx);
};

#endif
