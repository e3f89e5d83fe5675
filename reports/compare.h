/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel B against kernel A on one cell: effect size with a bootstrap interval, Mann-Whitney U, Welch's t on log values, Hodges-Lehmann shift and a verdict. */
#ifndef IOR_REPORTS_COMPARE_H
#define IOR_REPORTS_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/rng.h"   /* the seeded generator the bootstraps use */

/* --- Mann-Whitney U ----------------------------------------------------------- */

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

/* --- Student's t distribution and Welch's test ---------------------------------- */

/* Regularized incomplete beta function I_x(a, b), a, b > 0. */
double ior_beta_regularized(double x, double a, double b);

/* P(|T| >= |t|) for Student's t with df > 0 degrees of freedom (df need not
 * be an integer: Welch's df is not). */
double ior_t_two_sided_p(double t, double df);

/* The p-quantile of Student's t with df degrees of freedom, 0 < p < 1. */
double ior_t_quantile(double p, double df);

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

/* --- outliers left out of the verdict's test ------------------------------------ */

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

/* Welch's t-test (95% interval) of b against a on the logs of the values ior_compare_outliers
 * keeps, as the verdict's test is run; how many were left out of each side and whether a side's
 * cap was hit go to the pointers that are not NULL. Values must be positive. */
int ior_welch_logs_kept(struct ior_welch *w, const double *a, size_t na, const double *b, size_t nb,
			size_t *excluded_a, bool *capped_a, size_t *excluded_b, bool *capped_b);

/* --- the comparison and its verdict ------------------------------------------- */

enum ior_verdict {
	IOR_VERDICT_NO_CHANGE,
	IOR_VERDICT_IMPROVEMENT,
	IOR_VERDICT_REGRESSION,
	IOR_VERDICT_INCONCLUSIVE,
};
const char *ior_verdict_name(enum ior_verdict v);

struct ior_compare_opts {
	double alpha;             /* two-sided significance level; default IOR_COMPARE_ALPHA */
	double min_effect;        /* relative change that matters; default IOR_COMPARE_MIN_EFFECT */
	bool higher_is_better;    /* throughput: true; latency and time: false */
	size_t bootstrap;         /* resamples; default 2000 */
	uint64_t seed;            /* bootstrap seed; same seed, same interval */
};

/* Defaults, with the reasoning in compare.c. */
#define IOR_COMPARE_ALPHA 0.01
#define IOR_COMPARE_MIN_EFFECT 0.03
void ior_compare_opts_default(struct ior_compare_opts *o);

struct ior_comparison {
	size_t na, nb;
	double median_a, median_b;
	double ratio;             /* median_b / median_a */
	double ratio_lo, ratio_hi;/* percentile-bootstrap 95% interval of the ratio */
	double hl_shift;          /* Hodges-Lehmann b - a, in the metric's unit */
	struct ior_mw mw;
	double min_p;             /* best p Mann-Whitney could reach at these sizes: the sample-size floor */
	/* The verdict: significant when Welch or Mann-Whitney gives p < alpha / 2 (reasons in compare.c). */
	struct ior_welch welch;   /* Welch's t-test on log values without the excluded samples */
	size_t excluded_a, excluded_b;  /* samples left out of that test (ior_compare_outliers); raw data untouched */
	bool capped_a, capped_b;  /* more than one in five looked like outliers: none left out, noise too large */
	bool separated;           /* every value of one side beyond every value of the other (the small-sample rule) */
	enum ior_verdict verdict;
	char reason[640];         /* the verdict in words, with the evidence */
};

/* The tests alone, without the bootstrap interval and the verdict (ratio_lo, ratio_hi and
 * verdict are left zero): medians, ratio, Mann-Whitney, Welch after exclusion, the floor. */
int ior_compare_tests(struct ior_comparison *out, const double *a, size_t na, const double *b, size_t nb);
/* Whether those tests claim a change at alpha, as the verdict would: above the sample-size floor,
 * Welch or Mann-Whitney below alpha / 2. Without it no verdict is a regression or an improvement. */
bool ior_compare_significant(const struct ior_comparison *c, double alpha);

/* Whether ior_compare would call b an improvement over a, without drawing the whole interval
 * when the answer is certain before (the same seeded resamples; the report's best scheduler). */
int ior_compare_better(bool *out, const double *a, size_t na, const double *b, size_t nb,
		       const struct ior_compare_opts *opts);

/* Compares b (candidate) against a (baseline); each needs at least one value. */
int ior_compare(struct ior_comparison *out, const double *a, size_t na, const double *b, size_t nb,
		const struct ior_compare_opts *opts);

/* --- the small-sample rule (compare_small.c) --------------------------------------- */

/* Below the rank test's floor (3 against 3, 4 against 4 at alpha 0.01) the verdict is decided only
 * when the data are unmistakable: complete separation, Welch p on logs below alpha /
 * IOR_COMPARE_SMALL_STRICTER (0.001) and the whole 95% interval past the minimum effect; with
 * IOR_COMPARE_SMALL_MIN_N..MAX_N repetitions on the smaller side: 4, the only size at which the rule
 * kept false positives at or under 1% on every noise shape of bench/detection.sh (3: two-mode noise
 * 1.1-1.3%; the reasons in compare_small.c). */
#define IOR_COMPARE_SMALL_STRICTER 10
#define IOR_COMPARE_SMALL_MIN_N 4
#define IOR_COMPARE_SMALL_MAX_N 4

/* Every value of one side lies beyond every value of the other. */
bool ior_compare_separated(const double *a, size_t na, const double *b, size_t nb);
/* The rule's level at the verdict's alpha: alpha / IOR_COMPARE_SMALL_STRICTER. */
double ior_compare_small_alpha(double alpha);
/* The rule's three conditions on a comparison ior_compare drew (any sizes). */
bool ior_compare_small_decides(const struct ior_comparison *c, double alpha, double min_effect);
/* The floor holds the verdict and the smaller side has IOR_COMPARE_SMALL_MIN_N..MAX_N values. */
bool ior_compare_small_applies(const struct ior_comparison *c, double alpha);
/* The reason of a comparison under the floor: decided by the rule, or "n = K: not enough to decide"
 * with the effect, its interval and what failed. */
void ior_compare_small_reason(char *buf, size_t len, const struct ior_comparison *c, double alpha, bool decided,
			      bool separated, double min_effect);

#endif
