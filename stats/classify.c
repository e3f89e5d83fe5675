/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A candidate against a good and a bad end: two one-sided Welch tests on log values, outliers left
 * out as compare.c does, and the verdict in words. */
#include "stats/classify.h"
#include "stats/stats.h"

#include "common/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Why two one-sided tests and not "is there any change": in a bisection the
 * size and direction of the regression are known from its two ends, so the
 * question for a middle commit is which end it belongs to. The candidate is
 * good when it is significantly on the good side of the bad end and not
 * significantly on the bad side of the good end; bad the other way round.
 * Each test is one-sided at alpha (0.01): a candidate drawn like the good end
 * is called bad only when it looks worse than good (probability alpha) and at
 * the same time no better than bad, so a confident wrong answer is rarer than
 * alpha. The power comes from the gap: with 5 samples a side and ends 4 x CoV
 * apart, the candidate stands 6.3 standard errors from the far end
 * (tests/test_classify.c measures the rates). A candidate better than the good
 * end is good too: an improvement elsewhere does not make a commit bad.
 *
 * Welch on log values carries the tests for the reasons compare.c gives
 * (multiplicative noise, no rank floor at 5 against 5), and the same outlier
 * rule leaves a stall out of each pair. When the ends themselves do not differ
 * (one-sided p >= alpha) there is nothing to classify against.
 */
void ior_classify_opts_default(struct ior_classify_opts *o)
{
	o->alpha = IOR_CLASSIFY_ALPHA;
	o->higher_is_better = true;
}

const char *ior_class_name(enum ior_class c)
{
	switch (c) {
	case IOR_CLASS_GOOD: return "good";
	case IOR_CLASS_BAD: return "bad";
	case IOR_CLASS_UNDECIDED: return "cannot tell";
	case IOR_CLASS_NO_GAP: return "ends do not differ";
	}
	return "?";
}

/* Welch of b against a on the logs of the values the outlier rule keeps, as check's verdict runs it. */
static int welch_pair(struct ior_welch *w, const double *a, size_t na, const double *b, size_t nb)
{
	return ior_welch_logs_kept(w, a, na, b, nb, NULL, NULL, NULL, NULL);
}

/* P(b is worse than a) one-sided from Welch of b against a; NAN stays NAN (never significant). */
static double p_worse(const struct ior_welch *w, bool higher_is_better)
{
	if (isnan(w->p))
		return NAN;
	double t = higher_is_better ? w->t : -w->t;   /* negative: b worse */
	if (isnan(t))   /* both sides constant: equal is not worse, different is certain */
		return w->diff == 0 ? 1 : ((higher_is_better ? w->diff < 0 : w->diff > 0) ? 0 : 1);
	return t < 0 ? w->p / 2 : 1 - w->p / 2;
}

static bool all_positive(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0))
			return false;
	return true;
}

void ior_classify_decide(struct ior_classification *c, double alpha, const char *test)
{
	bool worse = c->p_worse_than_good < alpha, better = c->p_better_than_bad < alpha;
	char ev[320];
	snprintf(ev, sizeof(ev), "median %.4g against good %.4g and bad %.4g, %.0f%% of the way from bad to good; "
		 "one-sided %s p = %.3g that it is worse than good, p = %.3g that it is better than bad, each held to %g",
		 c->median_cand, c->median_good, c->median_bad, c->position * 100, test, c->p_worse_than_good,
		 c->p_better_than_bad, alpha);
	if (!(c->p_ends < alpha)) {
		c->verdict = IOR_CLASS_NO_GAP;
		snprintf(c->reason, sizeof(c->reason), "the bad end (median %.4g) is not significantly worse than the good "
			 "end (median %.4g, one-sided %s p = %.3g): nothing to classify against", c->median_bad,
			 c->median_good, test, c->p_ends);
	} else if (better && !worse) {
		c->verdict = IOR_CLASS_GOOD;
		snprintf(c->reason, sizeof(c->reason), "like the good end: %s", ev);
	} else if (worse && !better) {
		c->verdict = IOR_CLASS_BAD;
		snprintf(c->reason, sizeof(c->reason), "like the bad end: %s", ev);
	} else {
		c->verdict = IOR_CLASS_UNDECIDED;
		snprintf(c->reason, sizeof(c->reason), "%s: %s", worse ? "unlike either end" : "the noise is too large "
			 "for these sample sizes to tell the ends apart here", ev);
	}
}

int ior_classify(struct ior_classification *out, const double *good, size_t ngood, const double *bad, size_t nbad,
		 const double *cand, size_t ncand, const struct ior_classify_opts *opts)
{
	struct ior_classify_opts def;
	if (!opts) {
		ior_classify_opts_default(&def);
		opts = &def;
	}
	memset(out, 0, sizeof(*out));
	if (ngood < 2 || nbad < 2 || ncand < 2)
		return ior_error_set(IOR_EINVALID, "cannot classify: the %s has fewer than 2 samples",
				     ngood < 2 ? "good end" : nbad < 2 ? "bad end" : "candidate");
	if (!all_positive(good, ngood) || !all_positive(bad, nbad) || !all_positive(cand, ncand))
		return ior_error_set(IOR_EINVALID, "cannot classify: every sample must be positive");
	out->ngood = ngood, out->nbad = nbad, out->ncand = ncand;
	out->median_good = ior_median(good, ngood);
	out->median_bad = ior_median(bad, nbad);
	out->median_cand = ior_median(cand, ncand);
	if (welch_pair(&out->ends, good, ngood, bad, nbad) || welch_pair(&out->vs_good, good, ngood, cand, ncand) ||
	    welch_pair(&out->vs_bad, bad, nbad, cand, ncand))
		return IOR_ERROR;
	out->p_ends = p_worse(&out->ends, opts->higher_is_better);
	out->p_worse_than_good = p_worse(&out->vs_good, opts->higher_is_better);
	out->p_better_than_bad = p_worse(&out->vs_bad, !opts->higher_is_better);
	/* vs_good.diff = cand - good and ends.diff = bad - good, both in log units */
	out->position = out->ends.diff != 0 ? 1 - out->vs_good.diff / out->ends.diff : NAN;
	ior_classify_decide(out, opts->alpha, "Welch");
	return IOR_OK;
}
