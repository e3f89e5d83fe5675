/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bisection's judge on rounds: the ends' paired gap against the noise, each round checked for
 * drift, and each candidate placed between the ends round by round (stats/paired.c) at growing
 * round counts up to a cap. */
#include "bisect/judge.h"

#include "stats/compare.h"
#include "stats/paired.h"
#include "stats/tdist.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Why rounds: on a machine whose speed drifts (shared CI runners, laptops, VMs: FACTS.md saw the
 * CoV of one measure go from 3.9% to 20.7% in 15 minutes, and steps of ~20%), a candidate measured
 * in one block and judged against end samples taken minutes earlier is judged against the drift,
 * and was named the culprit with p-values of 1e-17. Each round measures the good end, the
 * candidate and the bad end one after another (order rotated), and the candidate is judged by its
 * position between the two ends within the round, so speed shared by the round cancels.
 *
 * Why these defaults (bench/bisect.sh measures them):
 * - alpha 0.001 per look, one-sided toward the nearer end: a bisection makes about log2 N calls
 *   and one wrong call sends every later step into the wrong half, so the per-call error must be
 *   well under 1 / log2 N; the looks at 5, 10, ... rounds each spend some of it.
 * - a cap of 60 rounds per commit (180 measurements with its ends), 10 calibration rounds first: the
 *   looks at 5, 10 ... rounds decide clear cases early, and the cap sets the smallest findable gap.
 * - a sequential ratio test per commit (Wald's SPRT: the candidate at the good end against at the
 *   bad end, error alpha each way, looked at after every round from the 5th) instead of a paired
 *   test at each look against the midpoint: a commit of a history with one culprit is at one end or
 *   the other, and the looks' test, built for a candidate anywhere, paid for that with rounds.
 *   bench/bisect.sh, 200 histories of seed 1: 245 samples a bisection instead of 417 on a drifting
 *   machine (251 against 418 on a steady one), 72% right instead of 67%, confidently wrong 0 in both.
 * - the gap must exceed the smallest one a candidate at the cap is placed at with 95% power by a margin
 *   for the noise being estimated, not known: the 95% upper bound of the noise from the calibration's
 *   rounds over the estimate (ior_bisect_margin: 1.64 at 10 rounds, 1.19 at 60, 1.13 at 120). A fixed
 *   1.5 refused every gap under ~2.3 x the noise even after 60 rounds had pinned the noise to within a
 *   fifth (bench/bisect.sh: 39% of the drifting bisections refused, most between 1 and 2 x the noise).
 * - a gap past the smallest findable one but not yet past the margin at the calibration's cap gets more
 *   rounds of the ends, up to IOR_BISECT_CALIBRATE_MORE times the cap, instead of a refusal: they narrow
 *   the margin.
 * - a round whose candidate lies beyond half the gap past either end, or whose ends' own gap is off
 *   the calibrated one by more than the gap, is measured again, not judged: the machine moved
 *   within it (a step change mid-round), and such a round would pull the mean by a whole gap.
 * - a candidate whose contrast is over 4 times as noisy as the ends' is skipped as unstable.
 * - the culprit is named only when fresh rounds of it, its parent and the ends keep it bad and its
 *   parent good, and it is worse than its parent directly in the same rounds (confirm_alpha 0.01).
 */
void ior_bisect_judge_opts_default(struct ior_bisect_judge_opts *o)
{
	*o = (struct ior_bisect_judge_opts){ .alpha = 0.001, .calibrate = 10, .calibrate_cap = 60, .first = 5,
					     .step = 5, .cap = 60, .confirm = 10, .unstable = 4, .confirm_alpha = 0.01,
					     .higher_is_better = true, .sequential = true };
}

const char *ior_bisect_call_name(enum ior_bisect_call c)
{
	switch (c) {
	case IOR_CALL_GOOD: return "good";
	case IOR_CALL_BAD: return "bad";
	case IOR_CALL_MORE: return "more rounds";
	case IOR_CALL_SKIP: return "skip";
	}
	return "?";
}

/* The smallest |gap| (log units) a candidate at an end is placed off the midpoint at with 95%
 * power in n rounds, for this noise. */
static double smallest_gap(double noise, size_t n, size_t rounds, double alpha)
{
	if (n < 2)
		return INFINITY;
	double df = (double)(n - 1) + (double)(rounds > 1 ? rounds - 1 : 0);   /* pooled as ior_bisect_judge does */
	return 2 * sqrt(1.5) * noise * (ior_t_quantile(1 - alpha, df) + ior_t_quantile(0.95, df)) / sqrt((double)n);
}

double ior_bisect_smallest(double noise, size_t n, size_t rounds, double alpha)
{
	return smallest_gap(noise, n, rounds, alpha);
}

double ior_bisect_margin(size_t rounds)
{
	if (rounds < 2)
		return INFINITY;
	/* sd estimated with k degrees of freedom lies below the true one by sqrt(k / chi2(0.05; k)) at 95%;
	 * chi2's 5% quantile by Wilson-Hilferty (within 1% of the exact one from k = 5 on) */
	double k = (double)(rounds - 1), c = 2 / (9 * k);
	double q = k * pow(1 - c - 1.6448536 * sqrt(c), 3);
	return q > 0 ? sqrt(k / q) : INFINITY;
}

size_t ior_bisect_cap_needed(double noise, double gap, size_t rounds, double alpha)
{
	for (size_t n = 2; n <= 10000; n += n < 100 ? 1 : 10)
		if (ior_bisect_margin(rounds) * smallest_gap(noise, n, rounds, alpha) <= fabs(gap))
			return n;
	return 0;
}

static double pct_of(double logv)
{
	return expm1(logv) * 100;
}

enum ior_bisect_call ior_bisect_calibrated(struct ior_bisect_calibration *cal, const double *good, const double *bad,
					   size_t n, const struct ior_bisect_judge_opts *o, char *reason, size_t len)
{
	*cal = (struct ior_bisect_calibration){ .rounds = n, .p = 1 };
	if (n < o->calibrate || n < 2) {
		snprintf(reason, len, "calibrating: %zu of %zu rounds of both ends", n, o->calibrate);
		return IOR_CALL_MORE;
	}
	struct ior_paired p;
	if (ior_paired_ratio(&p, good, bad, n, 0.95)) {
		snprintf(reason, len, "the ends' samples must be positive");
		return IOR_CALL_SKIP;
	}
	cal->gap = p.mean;
	cal->noise = p.sd / sqrt(2);
	cal->drift = p.drift;
	cal->smallest = smallest_gap(cal->noise, o->cap, n, o->alpha);
	double worse = o->higher_is_better ? -p.mean : p.mean;   /* > 0: the bad end is worse */
	double margin = ior_bisect_margin(n), need = margin * cal->smallest;
	/* one-sided toward "the bad end is worse", the convention of every p the bisection shows */
	cal->p = isnan(p.p) ? 1 : worse > 0 ? p.p / 2 : 1 - p.p / 2;
	char seen[256];
	snprintf(seen, sizeof(seen), "noise %.1f%%, drift %.1f%% over %zu rounds (one-sided paired p = %.2g)",
		 cal->noise * 100, cal->drift * 100, n, cal->p);
	if (worse > 0 && worse >= need && cal->p < o->alpha) {
		snprintf(reason, len, "the bad end is %+.1f%% against the good end (%s); the smallest difference findable "
			 "at %zu rounds is %.1f%%, and the gap clears it %.1f times (the margin for the noise's estimate "
			 "at %zu rounds: %.2f)", pct_of(p.mean), seen, o->cap, pct_of(cal->smallest),
			 worse / cal->smallest, n, margin);
		return IOR_CALL_GOOD;
	}
	if (n < o->calibrate_cap) {
		snprintf(reason, len, "the gap (%+.1f%%) is not yet clear of the noise (%s): more rounds of both ends",
			 pct_of(p.mean), seen);
		return IOR_CALL_MORE;
	}
	if (worse >= cal->smallest && n < IOR_BISECT_CALIBRATE_MORE * o->calibrate_cap) {
		snprintf(reason, len, "the gap (%+.1f%%) is %.2f times the smallest findable (%.1f%%), under the margin "
			 "%.2f for a noise estimated from %zu rounds (%s): more rounds of both ends narrow it",
			 pct_of(p.mean), worse / cal->smallest, pct_of(cal->smallest), margin, n, seen);
		return IOR_CALL_MORE;
	}
	if (worse <= 0) {
		snprintf(reason, len, "the bad end is not worse than the good end (%+.1f%%; %s): there is no regression "
			 "to bisect", pct_of(p.mean), seen);
		return IOR_CALL_SKIP;
	}
	size_t cap = ior_bisect_cap_needed(cal->noise, worse, n, o->alpha);
	char next[160];
	if (cap)
		snprintf(next, sizeof(next), "--cap %zu (rounds per commit) would make it findable", cap);
	else
		snprintf(next, sizeof(next), "no --cap up to 10000 rounds would make it findable");
	snprintf(reason, len, "the ends differ by %+.1f%% (%s); with at most %zu rounds per commit the smallest "
		 "difference that can be found is %.1f%%, and the gap must be %.2f times that (the margin for a noise "
		 "estimated from %zu rounds), so any answer would be a guess; %s", pct_of(p.mean), seen, o->cap,
		 pct_of(cal->smallest), margin, n, next);
	return IOR_CALL_SKIP;
}

bool ior_bisect_round_unstable(const struct ior_bisect_calibration *cal, double good, double cand, double bad,
			       char *why, size_t len)
{
	double pos = ior_paired_round_position(good, cand, bad, cal->gap);
	if (isnan(pos)) {
		snprintf(why, len, "a value is not positive");
		return true;
	}
	/* beyond half the gap past an end, and further than noise alone puts a round once in a few
	 * hundred (3 sd of the round's contrast): with noise near the gap, half the gap alone would
	 * throw out honest rounds and bias what is left */
	double noise = cal->floor > cal->noise ? cal->floor : cal->noise;
	double sd_pos = noise * sqrt(1.5) / fabs(cal->gap);
	double past = pos < 0.5 ? -pos : pos - 1;
	if (ior_paired_round_far(pos) && past > 3 * sd_pos) {
		snprintf(why, len, "the candidate fell at %.2f of the way from the good end to the bad end, beyond half "
			 "the gap past an end", pos);
		return true;
	}
	double g = log(bad) - log(good);
	if (fabs(g - cal->gap) > fabs(cal->gap) && fabs(g - cal->gap) > 3 * sqrt(2) * noise) {
		snprintf(why, len, "the ends were %+.1f%% apart against %+.1f%% calibrated", pct_of(g), pct_of(cal->gap));
		return true;
	}
	return false;
}

/* The midpoint one-sided p an SPRT decision must also clear: a candidate whose rounds sit about
 * half-way (two culprits of half the gap each, a machine that moved) is never pushed to an end by
 * the ratio alone. */
#define IOR_BISECT_SPRT_GUARD 0.05

/*
 * Wald's sequential probability ratio test of "the candidate is the good end" against "it is the bad
 * end": a commit of a history with one culprit is one or the other, so the two simple hypotheses are
 * the whole question, and the test stops as soon as the rounds so far favour one by (1 - alpha) /
 * alpha (errors at most about alpha each way, however often it looks). The contrast of a round has
 * mean -gap/2 or +gap/2 and sd sigma, so the log ratio after n rounds is delta * sum / sigma^2, with
 * the sum of the contrasts signed toward the bad end. Conservative where the figures are estimates:
 * delta is the calibrated gap over its margin (ior_bisect_margin: a smaller assumed gap only
 * lowers the errors), sigma the pooled contrast sd and never below the ends' noise. sum: n times the
 * mean contrast, signed as the gap.
 */
static bool sprt_decides(const struct ior_bisect_calibration *cal, double sum, double sigma, double p,
			 const struct ior_bisect_judge_opts *o, char *seen, size_t len)
{
	double delta = fabs(cal->gap) / ior_bisect_margin(cal->rounds);
	if (!(sigma > 0) || !isfinite(delta) || !(delta > 0))
		return p < o->alpha;
	double llr = delta * (cal->gap > 0 ? sum : -sum) / (sigma * sigma), bound = log((1 - o->alpha) / o->alpha);
	size_t at = strlen(seen);
	snprintf(seen + at, len - at, "; sequential log-likelihood ratio %+.1f (bound %.1f)", llr, bound);
	return fabs(llr) >= bound && p < IOR_BISECT_SPRT_GUARD;
}

enum ior_bisect_call ior_bisect_judge(const struct ior_bisect_calibration *cal, const double *good, const double *x,
				      const double *bad, size_t n, size_t cap, const struct ior_bisect_judge_opts *o,
				      size_t *need, char *reason, size_t len)
{
	*need = n;
	if (n < o->first) {
		*need = o->first;
		snprintf(reason, len, "%zu of %zu rounds", n, o->first);
		return IOR_CALL_MORE;
	}
	struct ior_paired_position q;
	if (ior_paired_position(&q, good, x, bad, n, 0.95)) {
		snprintf(reason, len, "unstable: its rounds cannot be placed between the ends");
		return IOR_CALL_SKIP;
	}
	/* the contrast d = log x - (log good + log bad) / 2 has sd noise * sqrt(1.5); its own sd is pooled
	 * with the calibration's (the unstable rule below keeps a noisier commit out), so five rounds can
	 * decide a clear case instead of paying for t's tails at 4 degrees of freedom */
	double noise = cal->floor > cal->noise ? cal->floor : cal->noise;
	double expect = noise * sqrt(1.5), sd = q.sd;
	size_t m = cal->rounds > 1 ? cal->rounds : 1;
	double df = (double)(n - 1) + (double)(m - 1);
	double pooled = sqrt(((double)(n - 1) * sd * sd + (double)(m - 1) * expect * expect) / df);
	double mean = (q.position - 0.5) * q.gap, se = pooled / sqrt((double)n);
	double t = se > 0 ? mean / se : (mean == 0 ? 0 : copysign(INFINITY, mean));
	/* one-sided toward the end it sits nearer, as the man page states the rule: half the two-sided p */
	double p = se > 0 ? ior_t_two_sided_p(t, df) / 2 : (mean == 0 ? 0.5 : 0);
	double half = se * ior_t_quantile(0.975, df) / fabs(q.gap);
	char seen[256];
	snprintf(seen, sizeof(seen), "at %.2f of the way from the good end to the bad end (95%% CI %.2f to %.2f), one-sided "
		 "paired p = %.2g over %zu rounds, noise %.1f%%, drift %.1f%%", q.position, q.position - half, q.position + half, p,
		 n, sd / sqrt(1.5) * 100, q.drift * 100);
	if (expect > 0 && sd > o->unstable * expect) {
		snprintf(reason, len, "unstable: %s; its noise is over %g times the ends' (%.1f%%%s)", seen, o->unstable,
			 noise * 100, noise > cal->noise ? ", as seen across the bisection" : "");
		return IOR_CALL_SKIP;
	}
	if (o->sequential ? sprt_decides(cal, mean * (double)n, pooled > expect ? pooled : expect, p, o, seen, sizeof(seen))
			  : p < o->alpha) {
		snprintf(reason, len, "%s", seen);
		return q.position > 0.5 ? IOR_CALL_BAD : IOR_CALL_GOOD;
	}
	if (n >= cap) {
		snprintf(reason, len, "undecided at %zu rounds: %s", n, seen);
		return IOR_CALL_SKIP;
	}
	size_t next = n + (o->sequential ? 1 : o->step);
	*need = next < cap ? next : cap;
	snprintf(reason, len, "%s", seen);
	return IOR_CALL_MORE;
}

double ior_bisect_step_p(const double *parent, const double *c, size_t n, const struct ior_bisect_judge_opts *o)
{
	struct ior_paired p;
	if (ior_paired_ratio(&p, parent, c, n, 0.95) || isnan(p.p))
		return 1;
	bool worse = o->higher_is_better ? p.mean < 0 : p.mean > 0;
	return worse ? p.p / 2 : 1 - p.p / 2;
}
