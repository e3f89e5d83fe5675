/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Mann-Whitney U (exact for small untied samples, normal approximation otherwise) and the Hodges-Lehmann shift. */
#ifndef IOR_STATS_MANNWHITNEY_H
#define IOR_STATS_MANNWHITNEY_H

#include <stdbool.h>
#include <stddef.h>

struct ior_mw {
	double u;          /* U of the first sample: #(a > b) + 0.5 #(a == b) */
	double p;          /* two-sided p-value */
	bool exact;        /* from the exact null distribution (small samples, no ties) */
	bool ties;
};

/* Exact when both samples hold at most IOR_MW_EXACT_MAX values and there are
 * no ties; otherwise the normal approximation with tie and continuity correction. */
#define IOR_MW_EXACT_MAX 25
int ior_mann_whitney(struct ior_mw *out, const double *a, size_t na, const double *b, size_t nb);

/* P(U <= u) under the null for sizes m, n without ties (exact recursion). */
double ior_mw_cdf(size_t m, size_t n, double u);

/* The smallest two-sided p-value Mann-Whitney can give for these sizes (no ties):
 * 2 / C(m+n, m). 3 against 3 gives 0.1. */
double ior_mw_min_p(size_t m, size_t n);

/* Hodges-Lehmann shift: the median of all pairwise differences b_j - a_i. */
double ior_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb);

#endif
