/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bisection's judge: the ends' gap against the noise, and each candidate classified (reports/classify.c) at growing sample counts up to a cap. */
#include "bisect/judge.h"

#include "reports/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * Why these defaults (bench/bisect.sh measures them):
 * - alpha 0.001 per one-sided test, not check's 0.01: a bisection makes about log2 N calls and
 *   one wrong call sends every later step into the wrong half, so the per-call error must be
 *   well under 1 / log2 N; the looks at 5, 10, ... samples each spend some of it.
 * - 10 samples per end first, growing with the candidates judged against them: the ends are the
 *   reference of every later call, so their noise is paid once and their medians carry every
 *   judgement.
 * - a cap of 60 samples per commit and per end, not 30: in bench/bisect.sh (200 bisections, seed
 *   1) 30 named the culprit in 83.5% and refused 14% (a drop below about 1.8 x the noise); 60
 *   named it in 94.0% and refused 4.5%, for 132 samples a bisection instead of 113 (only the
 *   close cases take more), both with no confidently wrong answer.
 * - the smallest gap accepted is the one a candidate at the cap would be told apart at with
 *   95% power (t quantiles at alpha and 0.05): below it the driver would only guess.
 * - a candidate whose spread on log values is over 4 times the ends' is skipped as unstable:
 *   a commit that makes the measure erratic is not like either end, and its median means little.
 * - the ends' own test must pass at alpha as well as the power rule: a gap the classifier does
 *   not see makes every candidate "cannot tell" (in the bench, one such bisection skipped 114
 *   commits).
 * - the culprit is named only when it is also worse than its parent directly (confirm_alpha
 *   0.01): judged against ends of 10 samples, an end estimated 2 standard errors off makes a
 *   commit like it look like the other end (a good commit was confirmed bad that way).
 */
void ior_bisect_judge_opts_default(struct ior_bisect_judge_opts *o)
{
	*o = (struct ior_bisect_judge_opts){ .alpha = 0.001, .calibrate = 10, .calibrate_cap = 60, .first = 5,
					     .step = 5, .cap = 60, .confirm = 15, .unstable = 4, .confirm_alpha = 0.01,
					     .higher_is_better = true };
}

const char *ior_bisect_call_name(enum ior_bisect_call c)
{
	switch (c) {
	case IOR_CALL_GOOD: return "good";
	case IOR_CALL_BAD: return "bad";
	case IOR_CALL_MORE: return "more samples";
	case IOR_CALL_SKIP: return "skip";
	}
	return "?";
}

/* Mean and sample standard deviation of the logs. */
static void log_moments(const double *x, size_t n, double *mean, double *sd)
{
	double s = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		s += log(x[i]);
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (log(x[i]) - *mean) * (log(x[i]) - *mean);
	*sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
}

static bool positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return false;
	return true;
}

/* The smallest gap, in log units per unit of noise, that a candidate of cap samples against ends
 * of n samples is classified at with 95% power. */
static double smallest_gap(size_t n, size_t cap, double alpha)
{
	double df = (double)(n + cap - 2);
	return (ior_t_quantile(1 - alpha, df) + ior_t_quantile(0.95, df)) * sqrt(1.0 / (double)cap + 1.0 / (double)n);
}

enum ior_bisect_call ior_bisect_calibrated(const double *good, size_t ng, const double *bad, size_t nb,
					   const struct ior_bisect_judge_opts *o, char *reason, size_t len)
{
	if (ng < o->calibrate || nb < o->calibrate) {
		snprintf(reason, len, "calibrating: %zu good and %zu bad samples of %zu each", ng, nb, o->calibrate);
		return IOR_CALL_MORE;
	}
	if (!positive(good, ng) || !positive(bad, nb)) {
		snprintf(reason, len, "the ends' samples must be positive");
		return IOR_CALL_SKIP;
	}
	double mg, sg, mb, sb;
	log_moments(good, ng, &mg, &sg);
	log_moments(bad, nb, &mb, &sb);
	double gap = o->higher_is_better ? mg - mb : mb - mg;
	double s = sqrt(((double)(ng - 1) * sg * sg + (double)(nb - 1) * sb * sb) / (double)(ng + nb - 2));
	size_t n = ng < nb ? ng : nb;
	double need = smallest_gap(n, o->cap, o->alpha) * s;
	double pct = (exp(o->higher_is_better ? mb - mg : mg - mb) - 1) * 100;
	double floor_pct = (exp(o->higher_is_better ? -need : need) - 1) * 100;
	/* the classifier's own test of the ends must pass too, or every candidate would be "cannot tell" */
	struct ior_classification k;
	struct ior_classify_opts co = { .alpha = o->alpha, .higher_is_better = o->higher_is_better };
	bool apart = ior_classify(&k, good, ng, bad, nb, good, ng, &co) == 0 && k.p_ends < o->alpha;
	if (gap > 0 && gap >= need && apart) {
		snprintf(reason, len, "the bad end is %+.1f%% against the good end with %.1f%% noise (%zu and %zu "
			 "samples); the smallest difference findable is %+.1f%%", pct, s * 100, ng, nb, floor_pct);
		return IOR_CALL_GOOD;
	}
	if (n < o->calibrate_cap) {
		snprintf(reason, len, "the gap (%+.1f%%) is not yet clear of the noise (%.1f%%): more samples of both ends",
			 pct, s * 100);
		return IOR_CALL_MORE;
	}
	if (gap <= 0)
		snprintf(reason, len, "refused: the bad end is not worse than the good end (%+.1f%%, %zu and %zu "
			 "samples): there is no regression to bisect", pct, ng, nb);
	else
		snprintf(reason, len, "refused: the ends differ by %+.1f%% while the noise is %.1f%%; with %zu samples "
			 "per end and at most %zu per commit the smallest difference that can be found is %+.1f%%, so any "
			 "answer would be a guess", pct, s * 100, n, o->cap, floor_pct);
	return IOR_CALL_SKIP;
}

enum ior_bisect_call ior_bisect_judge(const double *good, size_t ng, const double *bad, size_t nb, const double *x,
				      size_t n, size_t cap, const struct ior_bisect_judge_opts *o, size_t *need,
				      struct ior_classification *k, char *reason, size_t len)
{
	struct ior_classification local;
	if (!k)
		k = &local;
	*need = n;
	if (n < o->first) {
		*need = o->first;
		snprintf(reason, len, "%zu of %zu samples", n, o->first);
		return IOR_CALL_MORE;
	}
	if (!positive(x, n)) {
		snprintf(reason, len, "unstable: a sample is not positive");
		return IOR_CALL_SKIP;
	}
	double mg, sg, mb, sb, mx, sx;
	log_moments(good, ng, &mg, &sg);
	log_moments(bad, nb, &mb, &sb);
	log_moments(x, n, &mx, &sx);
	double s = sqrt(((double)(ng - 1) * sg * sg + (double)(nb - 1) * sb * sb) / (double)(ng + nb - 2));
	if (s > 0 && sx > o->unstable * s) {
		snprintf(reason, len, "unstable: its noise (%.1f%%) is over %g times the ends' (%.1f%%)", sx * 100,
			 o->unstable, s * 100);
		return IOR_CALL_SKIP;
	}
	struct ior_classify_opts co = { .alpha = o->alpha, .higher_is_better = o->higher_is_better };
	if (ior_classify(k, good, ng, bad, nb, x, n, &co)) {
		snprintf(reason, len, "cannot classify");
		return IOR_CALL_SKIP;
	}
	snprintf(reason, len, "%s", k->reason);
	if (k->verdict == IOR_CLASS_GOOD)
		return IOR_CALL_GOOD;
	if (k->verdict == IOR_CLASS_BAD)
		return IOR_CALL_BAD;
	if (k->verdict == IOR_CLASS_NO_GAP || n >= cap) {
		snprintf(reason, len, "undecided at %zu samples: %s", n, k->reason);
		return IOR_CALL_SKIP;
	}
	*need = n + o->step < cap ? n + o->step : cap;
	return IOR_CALL_MORE;
}

double ior_bisect_step_p(const double *parent, size_t np, const double *c, size_t nc, const double *bad, size_t nb,
			 const struct ior_bisect_judge_opts *o)
{
	struct ior_classification k;
	struct ior_classify_opts co = { .alpha = o->alpha, .higher_is_better = o->higher_is_better };
	/* the parent stands in for the good end: p_worse_than_good is c against the parent */
	if (ior_classify(&k, parent, np, bad, nb, c, nc, &co))
		return 1;
	return isnan(k.p_worse_than_good) ? 1 : k.p_worse_than_good;
}
