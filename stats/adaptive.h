/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Adaptive repetitions (opt-in: max_repetitions, target_cov): after each sample, continue or stop
 * because the cell is decided, stable or at the cap. */
#ifndef IOR_STATS_ADAPTIVE_H
#define IOR_STATS_ADAPTIVE_H

#include <stddef.h>

#include "stats/compare.h"

enum ior_adapt {
	IOR_ADAPT_CONTINUE,
	IOR_ADAPT_STOP_STABLE,   /* no baseline: CoV at or under target_cov */
	IOR_ADAPT_STOP_DECIDED,  /* with a baseline: regression, improvement or no change */
	IOR_ADAPT_STOP_CAP,      /* max_repetitions reached: never more */
};

struct ior_adaptive {
	size_t min_reps;         /* the matrix's repetitions: no decision before it */
	size_t max_reps;         /* max_repetitions: the cap */
	double target_cov;       /* stop when CoV <= this (without a baseline) */
	double interim_alpha;    /* the level of every look before the cap (Haybittle-Peto) */
	struct ior_compare_opts cmp;  /* verdict options; alpha is the overall level */
};

/* min_reps 5 (the fewest that can reach significance at alpha 0.01),
 * max_reps 15, target_cov 5%, interim_alpha 0.0002, compare defaults. */
void ior_adaptive_default(struct ior_adaptive *a);

/* The significance level of the look taken with n samples (Haybittle-Peto):
 * interim_alpha before the cap, the verdict's own alpha at it. The reasons
 * are in adaptive.c. */
double ior_adaptive_look_alpha(const struct ior_adaptive *a, size_t n);

/* Called after each sample: x holds the cell's samples so far; base (may be
 * NULL) the baseline kernel's samples of the same cell. why (may be NULL)
 * gets the reason in words. Never says continue at or beyond the cap. */
enum ior_adapt ior_adaptive_next(const struct ior_adaptive *a, const double *x, size_t n, const double *base,
				 size_t nbase, char *why, size_t whylen);

/* The scheduler question (matrix decide_schedulers), after a round in which each of k cells (a
 * device's schedulers under one engine; names for the words) holds n measured samples: decided
 * when the best beats the next, or every other scheduler is "no change" against the best, at the
 * look's level; the cap as for one cell. a->cmp.higher_is_better gives the direction. */
enum ior_adapt ior_adaptive_schedulers(const struct ior_adaptive *a, const double *const *cells, size_t k, size_t n,
				       const char *const *names, char *why, size_t whylen);

#endif
