/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The progress of a run: cell i of N, repetition, elapsed, ETA, told to the run's observer; and
 * the terminal's observer, which draws it as one line on stderr. */
#ifndef IOR_RUN_PROGRESS_H
#define IOR_RUN_PROGRESS_H

#include "run/observer.h"

#include <stdbool.h>
#include <stddef.h>

struct ior_progress {
	const struct ior_run_observer *obs; /* NULL: nobody watches */
	double expect_s;        /* the next repetition's expected seconds (0 unknown), for the observer */
	size_t cells, reps_total, reps_done;
	double started;         /* monotonic seconds */
};

void ior_progress_start(struct ior_progress *p, const struct ior_run_observer *obs, size_t cells, size_t reps_total);
/* Tells the observer before a repetition starts. */
void ior_progress_update(struct ior_progress *p, size_t cell, int rep, int reps, const char *what);
void ior_progress_rep_done(struct ior_progress *p);
/* Tells the observer the cells are done (the terminal's line cleared, a guest's ticking off). */
void ior_progress_finish(struct ior_progress *p);

/* The progress line redrawn on stderr (a terminal's), cleared at the end. */
extern const struct ior_run_observer ior_run_terminal_observer;

double ior_monotonic_seconds(void);

#endif
