/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Warm-up and drift within a cell: whether its repetitions, in the order they ran, follow a trend
 * instead of scattering alike. */
#ifndef IOR_STATS_TREND_H
#define IOR_STATS_TREND_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Two tests on one cell's values in repetition order (one run's; never across runs):
 *
 * Warm-up (a first-k test): the first k repetitions (1 <= k < n - k, at least 2 left) all lie
 * on one side of the rest, past the rest's nearest extreme by a factor of at least
 * IOR_TREND_WARMUP_RATIO (max(first k) x ratio <= min(rest), or min(first k) >= ratio x
 * max(rest)). The smallest such k is reported. This is a minimum effect, not a p-value: no
 * test on one cell can tell a stall that happens to land on repetition 1 from warm-up, and
 * any distribution-free test of one position has p >= 1/n. Measured by bench/detection.sh
 * (`bench/detection.sh 20000 2 0 trend`): at ratio 1.5 the benchmark's stall noise (one sample
 * in ten 20-50% low) is flagged in 2.6-3.7% of trend-free cells of 5; at 2 in at most 0.2%
 * (gaussian and two-mode noise: 0.0%), and a first repetition 4x slow, as the seed-loop tmpfs
 * cell's (356 against 1,600-1,800 MiB/s, 4.5x), is found in 92-100% of cells of 5 and 10
 * (92.2%: stalls at 10% CoV, 10 repetitions). A first repetition only 1.5x slow is below the
 * minimum and reported as plain spread. On a real tmpfs loop stack with a sparse file (dd
 * sync=end, 5 repetitions) the first ran at 501 MiB/s against 1,527-1,777: flagged, 3.0x.
 *
 * Drift: Kendall's rank correlation of value with repetition number, its exact two-sided
 * permutation p-value (the distribution of inversions, Mahonian numbers) against alpha.
 * Under exchangeable repetitions (no trend, any noise shape: gaussian, stalls, two modes)
 * its false-positive rate is at most alpha by construction. Tied values count as neither
 * concordant nor discordant and the p-value comes from the untied distribution, which is
 * conservative (ties shrink the variance of S). At alpha 0.01 it needs 6 repetitions to
 * flag anything (5 in perfect order have p = 2/120); its exact size is 0.28% at 6 and 7,
 * 0.91% at 10, 0.83% at 15. Measured: 0.8-1.0% of trend-free cells of 10 flagged (20000 per
 * row, every shape), and 76-97% of cells of 10 that gain 6 x CoV from first to last.
 *
 * Warm-up is tried first: a warm-up cell is also ranked, and its first value alone would
 * make it look like a drift.
 */
#define IOR_TREND_ALPHA 0.01
#define IOR_TREND_WARMUP_RATIO 2.0
#define IOR_TREND_EXACT_MAX 60      /* exact p-values up to this many values, normal approximation beyond */

enum ior_trend_kind { IOR_TREND_NONE, IOR_TREND_WARMUP, IOR_TREND_DRIFT };

struct ior_trend_opts {
	double alpha;            /* drift: the rank test's level */
	double warmup_ratio;     /* warm-up: how far past the rest the first repetitions must be */
};
void ior_trend_opts_default(struct ior_trend_opts *o);

struct ior_trend {
	enum ior_trend_kind kind;
	size_t n;
	double tau, p;           /* Kendall's tau-a and its two-sided p; NAN when n < 3 */
	/* warm-up only */
	size_t k;                /* how many leading repetitions differ */
	double lead_lo, lead_hi; /* their range */
	double rest_lo, rest_hi; /* the other repetitions' range */
	double factor;           /* how far apart: rest/lead (lead slower) or lead/rest (lead faster), >= ratio */
	bool lead_low;           /* the first repetitions are the low ones */
};

/* Judges x[0..n) in repetition order; o NULL for the defaults. */
void ior_trend_detect(struct ior_trend *out, const double *x, size_t n, const struct ior_trend_opts *o);

/* Kendall's S (concordant minus discordant pairs of (i, x[i])) and its exact two-sided p. */
double ior_kendall_p(const double *x, size_t n, double *tau);

/* "warm-up", "drift" or "none". */
const char *ior_trend_name(enum ior_trend_kind k);

/* The trend in words: "warm-up: repetition 1 (356.00) is 4.5x below the other 4 (1600.00 to
 * 1800.00)" or "drift: values fall with the repetition number (Kendall tau -0.87, p = 0.0003)". */
void ior_trend_describe(char *buf, size_t len, const struct ior_trend *t);

#endif
