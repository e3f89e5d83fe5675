/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The small-sample rule: where the rank test's floor leaves 3 or 4 repetitions a side inconclusive
 * by construction, decide only data that are unmistakable, and otherwise say the effect and why it
 * cannot be decided. */
#include "stats/compare.h"

#include <math.h>
#include <stdio.h>

/*
 * Why a rule, and why this one (bench/detection.sh N SEED 3 small measures it on every noise shape):
 * - At 3 against 3 Mann-Whitney's smallest p is 0.1, at 4 against 4 0.029: above alpha 0.01 whatever
 *   the data, so the verdict's floor made every such comparison inconclusive. The field report that
 *   started the project ran 3 repetitions, and its SATA RAID on 2.6.31 separates noop (68.9-69.3)
 *   from cfq (73.1-73.3) by 5.6% with Welch p 0.0005 on logs.
 * - Three conditions, all required: the two sides separate completely (every value of one beyond
 *   every value of the other: the rank test's strongest outcome); Welch on logs (after the usual
 *   exclusion, which removes nothing at n < 5) below a tenth of the verdict's alpha (0.001 at
 *   the default 0.01), because the normal model cannot be checked on three values; and the whole 95%
 *   interval past the minimum effect, so a decided change is a change that matters.
 * - Two-mode noise is what no rule on two sides' values can beat at n = 3: with two equal modes the
 *   chance that one side lands wholly in the low mode and the other wholly in the high one is
 *   2 (1/2)^6 = 3.1%, and those data look exactly like a shift. At n = 4 that chance is
 *   2 (1/2)^8 = 0.8%. So the rule decides from IOR_COMPARE_SMALL_MIN_N repetitions a side (the
 *   measured table is in the closing note of issue 24 and in ior_compare_small's comment in
 *   compare.h); below it the reason gives the effect and its interval with "not enough to decide".
 */

bool ior_compare_separated(const double *a, size_t na, const double *b, size_t nb)
{
	double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
	for (size_t i = 0; i < na; i++)
		amin = fmin(amin, a[i]), amax = fmax(amax, a[i]);
	for (size_t j = 0; j < nb; j++)
		bmin = fmin(bmin, b[j]), bmax = fmax(bmax, b[j]);
	return na && nb && (amax < bmin || bmax < amin);
}

double ior_compare_small_alpha(double alpha)
{
	return alpha / IOR_COMPARE_SMALL_STRICTER;
}

bool ior_compare_small_decides(const struct ior_comparison *c, double alpha, double min_effect)
{
	bool past = c->ratio < 1 ? c->ratio_hi <= 1 - min_effect : c->ratio_lo >= 1 + min_effect;
	return c->separated && c->welch.p < ior_compare_small_alpha(alpha) && past;
}

/* Only at the sizes it was measured for: a look of the adaptive rule at 5 against 13 is under its
 * stricter interim level's floor too, and stays with that rule's own reasoning (adaptive.c). */
bool ior_compare_small_applies(const struct ior_comparison *c, double alpha)
{
	size_t n = c->na < c->nb ? c->na : c->nb;
	return c->min_p >= alpha && n >= IOR_COMPARE_SMALL_MIN_N && n <= IOR_COMPARE_SMALL_MAX_N;
}

void ior_compare_small_reason(char *buf, size_t len, const struct ior_comparison *c, double alpha, bool decided,
			      bool separated, double min_effect)
{
	size_t n = c->na < c->nb ? c->na : c->nb;
	double pct = (c->ratio - 1) * 100, lo = (c->ratio_lo - 1) * 100, hi = (c->ratio_hi - 1) * 100;
	if (decided) {
		snprintf(buf, len, "median %+.1f%% (95%% CI %+.1f%% to %+.1f%%), decided at %zu against %zu by the small-sample "
			 "rule: the sides separate completely, Welch p = %.3g on log values (held to %g) and the interval "
			 "lies past +-%.0f%%", pct, lo, hi, c->na, c->nb, c->welch.p, ior_compare_small_alpha(alpha),
			 min_effect * 100);
		return;
	}
	const char *why = n < IOR_COMPARE_SMALL_MIN_N || n > IOR_COMPARE_SMALL_MAX_N
		? "no rule holds 1% false positives on two-mode noise below 4 repetitions a side"
		: !separated ? "the sides overlap" : c->welch.p >= ior_compare_small_alpha(alpha)
		? "Welch's p is not below the small-sample level" : "the interval reaches inside the minimum effect";
	snprintf(buf, len, "n = %zu: not enough to decide: median %+.1f%% (95%% CI %+.1f%% to %+.1f%%), Welch p = %.3g on "
		 "log values; %zu against %zu samples cannot reach p < %g with Mann-Whitney (smallest possible p = %.3f) "
		 "and %s; take more repetitions", n, pct, lo, hi, c->welch.p, c->na, c->nb, alpha, c->min_p, why);
}
