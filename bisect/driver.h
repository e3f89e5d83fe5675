/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bisect loop: calibrate both ends, judge the halfway candidate until one is left, confirm it,
 * or name the range; every step stored, so it resumes where it was killed. */
#ifndef IOR_BISECT_DRIVER_H
#define IOR_BISECT_DRIVER_H

#include <stdio.h>

#include "bisect/judge.h"
#include "bisect/measure.h"
#include "bisect/source.h"
#include "bisect/state.h"

enum ior_bisect_end { IOR_BISECT_FOUND, IOR_BISECT_RANGE, IOR_BISECT_REFUSED };

struct ior_bisect_result {
	enum ior_bisect_end end;
	char culprit[96];              /* FOUND: its id */
	size_t nrange;                 /* RANGE: how many candidates are left */
	struct ior_bisect_counts counts;
};

struct ior_bisect_driver {
	struct ior_db *db;
	int64_t id;                    /* the bisection (state.h) */
	struct ior_bisect_source *src;
	struct ior_bisect_measure *m;
	struct ior_bisect_judge_opts o;  /* higher_is_better from the bisection */
	FILE *out;                     /* progress and the verdict; NULL: silent */
	/* --budget: the seconds this run may take to an answer; the rounds per commit are planned from it
	 * (bisect/plan.h) after calibration and again before each commit, o.cap bounding them when not 0.
	 * 0: no budget, o.cap rounds per commit. The budget counts from this call: a resumed run has it anew. */
	double budget_s;
};

/* Runs (or resumes) the bisection to its end. Errors are infrastructure failures (a command
 * that cannot be started, the database); failed builds and boots are skips, not errors. */
int ior_bisect_drive(struct ior_bisect_driver *d, struct ior_bisect_result *res);

/* The bisection as it stands (for `bisect status`): candidates left and the next pick. */
int ior_bisect_print_status(FILE *out, struct ior_db *db, const struct ior_bisect_info *b,
			    struct ior_bisect_source *src);

#endif
