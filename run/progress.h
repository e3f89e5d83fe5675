/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The progress line on stderr while a run goes on: cell i of N, repetition, elapsed, ETA. */
#ifndef IOR_RUN_PROGRESS_H
#define IOR_RUN_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

struct ior_progress {
	bool enabled;           /* stderr is a terminal and --quiet was not given */
	bool beat;              /* inside a vm run guest: a heartbeat line per repetition instead */
	double expect_s;        /* the next repetition's expected seconds (0 unknown), for the heartbeat */
	size_t cells, reps_total, reps_done;
	double started;         /* monotonic seconds */
};

void ior_progress_start(struct ior_progress *p, bool enabled, size_t cells, size_t reps_total);
/* Redraws the line before a repetition starts. */
void ior_progress_update(struct ior_progress *p, size_t cell, int rep, int reps, const char *what);
void ior_progress_rep_done(struct ior_progress *p);
/* Clears the line, so the report that follows starts clean. */
void ior_progress_finish(struct ior_progress *p);

double ior_monotonic_seconds(void);

#endif
