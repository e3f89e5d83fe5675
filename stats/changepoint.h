/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Change points over a series of kernels in version order: E-divisive (Matteson & James 2014) with
 * a seeded, sequentially stopped permutation test, as Apache Otava (hunter) uses. */
#ifndef IOR_STATS_CHANGEPOINT_H
#define IOR_STATS_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

/* A segment of this many kernels or more is searched on its kernels' medians, a shorter
 * one on the raw samples (changepoint.c says why). */
#define IOR_CP_SUMMARY_FROM 20

/* One kernel of the series: its samples of one cell. */
struct ior_cp_point {
	const char *label;       /* the kernel release */
	const double *values;
	size_t n;
};

struct ior_cp_opts {
	double alpha;            /* significance of each split; default 0.05 */
	size_t permutations;     /* default 199: p resolves to 0.005 */
	uint64_t seed;
	size_t max_changes;      /* default 8 */
};
void ior_cp_opts_default(struct ior_cp_opts *o);

struct ior_changepoint {
	size_t index;            /* the first kernel after the change: where it arrived */
	double ratio;            /* median of the segment after / median of the segment before */
	double q;                /* the E-divisive statistic of the split */
	double p;                /* permutation p-value */
};

/* Points must already be in version order (ior_kver_cmp). Change points come
 * back sorted by index; *n may be 0. */
int ior_changepoints(struct ior_changepoint **out, size_t *n, const struct ior_cp_point *pts, size_t npts,
		     const struct ior_cp_opts *o);

/* Sorts points by their labels with ior_kver_cmp, for callers holding kernels in any order. */
void ior_cp_sort(struct ior_cp_point *pts, size_t npts);

#endif
