/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel B against kernel A on one cell: effect size with a bootstrap interval, Mann-Whitney U,
 * Welch's t on log values, Hodges-Lehmann shift and a verdict. */
#ifndef IOR_STATS_COMPARE_H
#define IOR_STATS_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/rng.h"   /* the seeded generator the bootstraps use */
#include "stats/exclude.h"
#include "stats/mannwhitney.h"
#include "stats/welch.h"

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
	/* What the noise let the test tell (compare_noise.c), for the why of an inconclusive answer: the
	 * noise of one observation, relative (exp(sd of the logs) - 1; NAN when it cannot be measured), the
	 * smallest relative change the test could tell at these sizes (never below the minimum effect;
	 * INFINITY when none could be, NAN unknown) and what one observation is ("sample", "run",
	 * "round", "boot"). */
	double noise, smallest;
	const char *per;
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

/* Compares b (candidate) against a (baseline); each needs at least one value. Sides holding a value
 * of 0 or below are judged by ior_compare_ranks. */
int ior_compare(struct ior_comparison *out, const double *a, size_t na, const double *b, size_t nb,
		const struct ior_compare_opts *opts);

/* --- the noise of a comparison (compare_noise.c) ------------------------------------- */

/* Sets c's noise and smallest from its Welch test on logs (per "sample"), as ior_compare does. */
void ior_compare_noise(struct ior_comparison *c, const struct ior_compare_opts *o);
/* The same from a paired test on logs: sd of the per-round contrast over n rounds (per "round"). */
void ior_compare_noise_paired(struct ior_comparison *c, double sd, size_t n, const struct ior_compare_opts *o);
/* "noise 4.1% between samples: changes below 6.3% cannot be told (5 samples a side)", or why no change
 * could be told at all: the words every inconclusive verdict on samples, runs or rounds ends with
 * (boots: ior_boot_noise_text). */
void ior_compare_noise_text(char *buf, size_t len, const struct ior_comparison *c);

/* --- sides with a 0 (compare_ranks.c) ------------------------------------------------ */

/* Some value of either side is 0 or below: no log ratio exists (a counter that is 0 where nothing merges). */
bool ior_compare_needs_ranks(const double *a, size_t na, const double *b, size_t nb);
/* The verdict without a ratio: the same value everywhere is no change; otherwise Mann-Whitney at alpha,
 * unpaired; no interval. unit names one observation in the reason ("sample", "boot"). */
void ior_compare_ranks(struct ior_comparison *c, const double *a, size_t na, const double *b, size_t nb,
		       const struct ior_compare_opts *o, const char *unit);

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
