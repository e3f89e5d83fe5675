/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Welch's unequal-variance t-test with its confidence interval. */
#ifndef IOR_STATS_WELCH_H
#define IOR_STATS_WELCH_H

#include <stddef.h>

struct ior_welch {
	double diff;          /* mean(b) - mean(a) */
	double se;            /* sqrt(var_a / na + var_b / nb) */
	double t;             /* diff / se */
	double df;            /* Welch-Satterthwaite degrees of freedom */
	double p;             /* two-sided p-value; NAN when a side has fewer than 2 values */
	double lo, hi;        /* confidence interval of diff at the requested level */
};

/* Welch's unequal-variance t-test of b against a, with a level (e.g. 0.95)
 * confidence interval of the difference of means; level 0: the test alone (lo and hi NAN),
 * without the t quantile the interval costs. */
int ior_welch(struct ior_welch *out, const double *a, size_t na, const double *b, size_t nb, double level);

#endif
