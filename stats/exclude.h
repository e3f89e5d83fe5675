/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which samples the verdict's t-test leaves out: outliers of their own side that the other side does not explain. */
#ifndef IOR_STATS_EXCLUDE_H
#define IOR_STATS_EXCLUDE_H

#include <stdbool.h>
#include <stddef.h>

/* At most one sample in this many of a side is ever left out (floor(n / 5): none of 3 or 4). */
#define IOR_OUTLIER_CAP_ONE_IN 5

/* Flags (flags may be NULL) the samples of x that the verdict's t-test leaves
 * out, and returns how many: |0.6745 (x_i - median) / MAD| > 3.5 (the
 * Iglewicz-Hoaglin rule) about x's own median, and unexplained by the other
 * side's body (exclude.c), MAD pooled over both sides' deviations from their
 * own medians. When more than n / IOR_OUTLIER_CAP_ONE_IN would be flagged,
 * none is, and *capped (may be NULL) is set. The reasons are in compare.c and
 * exclude.c. x is not modified. */
size_t ior_compare_outliers(bool *flags, const double *x, size_t n, const double *other, size_t nother,
			    bool *capped);

#endif
