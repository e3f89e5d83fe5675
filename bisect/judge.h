/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Judging in a bisection, on rounds (good end, candidate, bad end measured together): are the
 * calibrated ends far enough apart, is a round stable, and is a candidate good, bad, in need of
 * more rounds, or to be skipped. */
#ifndef IOR_BISECT_JUDGE_H
#define IOR_BISECT_JUDGE_H

#include <stdbool.h>
#include <stddef.h>


struct ior_bisect_judge_opts {
	double alpha;          /* of each look's paired test, one-sided toward the nearer end; default 0.001 */
	size_t calibrate;      /* rounds of both ends before the first look; default 10 */
	size_t calibrate_cap;  /* rounds of the ends before refusing; default 60 */
	size_t first;          /* rounds of a candidate before its first look; default 5 */
	size_t step;           /* rounds added per further look; default 5 */
	size_t cap;            /* rounds of a candidate before it is skipped as undecided; default 60 */
	size_t confirm;        /* fresh rounds of the culprit, its parent and the ends before it is named; default 10 */
	double unstable;       /* a candidate whose contrast is noisier than this many times the ends' is skipped; default 4 */
	double confirm_alpha;  /* the culprit against its parent directly, one-sided; default 0.01 */
	bool higher_is_better;
	/* A sequential probability ratio test per commit instead of the looks at first, first + step ...:
	 * the candidate at the good end against at the bad end, errors alpha each way, looked at after
	 * every round from the first look on, and only off the midpoint at one-sided 0.05 too; default on
	 * (false: today's looks, for bench/bisect.sh's side by side). */
	bool sequential;
};
void ior_bisect_judge_opts_default(struct ior_bisect_judge_opts *o);

enum ior_bisect_call { IOR_CALL_GOOD, IOR_CALL_BAD, IOR_CALL_MORE, IOR_CALL_SKIP };
const char *ior_bisect_call_name(enum ior_bisect_call c);

/* What calibration found, in log units: the ends' gap and the noise, from their paired rounds. */
struct ior_bisect_calibration {
	size_t rounds;         /* rounds holding both ends */
	double gap;            /* mean per-round log(bad / good), signed */
	double noise;          /* one measurement's noise: sd of the per-round gap / sqrt 2 */
	double drift;          /* how far the machine moved over those rounds: exp(range of the ends' level) - 1 */
	double smallest;       /* the smallest |gap| findable at o->cap rounds with 95% power */
	double p;              /* one-sided paired p that the bad end is worse than the good end */
	/* The noise a candidate's rounds are pooled with and judged unstable against: the largest of the
	 * calibration's and the ends' over every round of the bisection so far (the driver sets it before
	 * each look), so a calibration that fell in a quiet minute does not make later commits look
	 * noisy, nor their looks overconfident. 0: the calibration's. */
	double floor;
};

/* Smallest findable change and margin: a candidate at an end sits gap / 2 from the midpoint and its
 * contrast has sd noise * sqrt(1.5); the gap must be ior_bisect_margin(rounds) times the one found at
 * the cap with 95% power, so a wrong call stays rare when the noise estimate is low: the 95% upper
 * bound of a noise estimated from that many calibration rounds over the estimate (1.64 at 10, 1.19 at
 * 60; INFINITY below 2). */
double ior_bisect_margin(size_t rounds);

/* The fewest rounds per commit at which |gap| clears the margin (noise estimated from `rounds` rounds,
 * looks at alpha), 0 when none up to 10000 does. */
size_t ior_bisect_cap_needed(double noise, double gap, size_t rounds, double alpha);
/* The smallest |gap| (log units) found with 95% power at n rounds per commit, noise estimated from
 * `rounds` rounds (without the margin). */
double ior_bisect_smallest(double noise, size_t n, size_t rounds, double alpha);

/* A gap between the smallest findable and the margin at the calibration's cap gets more rounds of the
 * ends, up to this many times the cap, before a refusal. */
#define IOR_BISECT_CALIBRATE_MORE 2

/* The ends from n paired rounds (good[i], bad[i] measured in round i): MORE while fewer than
 * o->calibrate rounds, or the gap is not yet clear of the noise below o->calibrate_cap (or below
 * IOR_BISECT_CALIBRATE_MORE times it while the gap is past the smallest findable but not the margin);
 * GOOD (usable) or SKIP (refuse; the reason names the noise, the drift, the rounds and which --cap
 * would make the gap findable). cal is filled whenever n >= 2. */
enum ior_bisect_call ior_bisect_calibrated(struct ior_bisect_calibration *cal, const double *good, const double *bad,
					   size_t n, const struct ior_bisect_judge_opts *o, char *reason, size_t len);

/* Whether one round must be measured again rather than judged: the candidate beyond half the
 * calibrated gap past either end, or the ends' own gap in the round off the calibrated one by more
 * than the gap itself (the machine moved within the round), each also by more than 3 times the
 * noise (the calibration's, or the floor when larger). why gets the reason. */
bool ior_bisect_round_unstable(const struct ior_bisect_calibration *cal, double good, double cand, double bad,
			       char *why, size_t len);

/* One candidate's n stable rounds (good[i], x[i], bad[i] of round i), judged by its within-round
 * position between the ends (stats/paired.h): GOOD or BAD when the paired test puts it off the
 * midpoint at o->alpha, MORE below the cap (need: rounds the next look wants), SKIP undecided at
 * the cap or unstable (its contrast noisier than o->unstable times the calibrated noise). */
enum ior_bisect_call ior_bisect_judge(const struct ior_bisect_calibration *cal, const double *good, const double *x,
				      const double *bad, size_t n, size_t cap, const struct ior_bisect_judge_opts *o,
				      size_t *need, char *reason, size_t len);

/* The culprit against its parent in the same rounds (paired t on per-round log ratios): the
 * one-sided p that c is worse than parent. The ends play no part. */
double ior_bisect_step_p(const double *parent, const double *c, size_t n, const struct ior_bisect_judge_opts *o);

#endif
