/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Paired round tests: two sides (or a candidate between two ends) measured in the same rounds,
 * judged on within-round log contrasts so machine drift shared by a round cancels. */
#ifndef IOR_STATS_PAIRED_H
#define IOR_STATS_PAIRED_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/compare.h"   /* enum ior_verdict, the verdict names */

/*
 * Round i holds one value of each side, measured close together (order rotated between rounds).
 * A multiplicative change of the machine's speed that hits every side of a round alike drops out
 * of log(b_i / a_i), so the tests below see the noise within a round, not the drift between
 * rounds. Values must be positive; a round with a value <= 0 or NAN is left out and counted.
 * All intervals are Student-t intervals of the mean per-round contrast (n - 1 degrees of
 * freedom); p-values are two-sided; with fewer than 2 usable rounds p and the intervals are NAN.
 */

/* --- two sides: b against a, round by round ------------------------------------- */

#define IOR_PAIRED_EXCLUDE_MIN 10   /* rounds before an outlier round may be left out */

struct ior_paired {
	size_t n;                  /* rounds used */
	size_t skipped;            /* rounds left out: a value <= 0 or NAN */
	double mean;               /* mean of log(b_i / a_i) */
	size_t excluded;           /* rounds left out as outliers of the contrast (from IOR_PAIRED_EXCLUDE_MIN rounds
				    * on: |modified z| > 3.5, at most one in IOR_OUTLIER_CAP_ONE_IN, none when more
				    * are flagged), not counted in n */
	double sd;                 /* its sample sd over rounds (the within-round noise of the contrast) */
	double ratio;              /* exp(mean): b over a, geometric mean of the per-round ratios */
	double ratio_lo, ratio_hi; /* interval of ratio at the requested level */
	double t, df, p;           /* paired t on the logs */
	double drift;              /* max - min over rounds of the round's level (log a_i + log b_i) / 2,
				    * as a relative change exp(range) - 1: how far the machine moved */
	enum ior_verdict verdict;  /* after ior_paired_decide; INCONCLUSIVE before */
	char reason[384];          /* the verdict in words, with ratio, interval, p, rounds and drift */
};

/* The paired test of b against a over n rounds (a[i], b[i] from round i), interval at level
 * (e.g. 0.95). Fails only when no round is usable. */
int ior_paired_ratio(struct ior_paired *out, const double *a, const double *b, size_t n, double level);

/* Sets verdict and reason as ior_compare's rules do, on the paired test: a change when p < alpha
 * and the interval reaches min_effect in the direction it went (improvement or regression by
 * higher_is_better); no change when the interval lies within +-min_effect; else inconclusive. */
void ior_paired_decide(struct ior_paired *p, double alpha, double min_effect, bool higher_is_better);

/* --- a candidate between two ends, round by round ------------------------------- */

struct ior_paired_position {
	size_t n;                  /* rounds used */
	size_t skipped;            /* rounds left out: a value <= 0 or NAN */
	double gap;                /* mean of log(bad_i / good_i): the ends' distance, signed */
	double gap_sd;             /* its sd over rounds */
	double position;           /* 0 = at the good end, 1 = at the bad end: 0.5 + mean(d) / gap with
				    * d_i = log cand_i - (log good_i + log bad_i) / 2; direction-free (the
				    * sign of gap carries whether higher is better) */
	double lo, hi;             /* interval of position at level (gap taken as known) */
	double t, df, p;           /* test of "at the midpoint" (mean d = 0) */
	double drift;              /* max - min over rounds of the ends' level (log good_i + log bad_i) / 2,
				    * as exp(range) - 1 */
	double sd;                 /* sd of d over rounds: the candidate's within-round noise */
};

/* Where the candidate sits between the ends over n rounds, interval at level. Fails when no
 * round is usable or the mean gap is 0. */
int ior_paired_position(struct ior_paired_position *out, const double *good, const double *cand,
			const double *bad, size_t n, double level);

/* One round's position of cand between good and bad, scaled by gap (a known log(bad / good),
 * e.g. the calibrated one, so one noisy round's own gap cannot blow it up): 0 at good, 1 at bad.
 * NAN when a value is <= 0 or gap is 0. */
double ior_paired_round_position(double good, double cand, double bad, double gap);

/* Whether that round's candidate lies beyond half the gap past either end (position < -0.5 or
 * > 1.5): a sign that the machine moved within the round, to re-measure rather than judge. */
#define IOR_PAIRED_FAR 0.5
bool ior_paired_round_far(double position);

#endif
