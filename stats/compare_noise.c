/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the noise of a comparison let it tell: the noise of one observation and the smallest change the
 * verdict's test could find at these sizes, in the words an inconclusive answer ends with. */
#include "stats/compare.h"
#include "stats/tdist.h"

#include <math.h>
#include <stdio.h>

/* Issue 22: an inconclusive answer that names neither the noise nor the smallest change it could have
 * found leaves the reader guessing whether to measure more or to stop. */

static double at_least(double s, double min_effect)
{
	return s > min_effect ? s : min_effect;
}

/* Welch's standard error of the mean log difference holds both sides' noise; with equal noise a side's
 * sd is se / sqrt(1/ka + 1/kb). Either test may claim the change at alpha / 2 (compare.c), so the
 * smallest change Welch could tell is its two-sided alpha / 2 quantile times se; under the rank test's
 * floor only the small-sample rule decides, at its stricter level, or nothing does. */
void ior_compare_noise(struct ior_comparison *c, const struct ior_compare_opts *o)
{
	size_t ka = c->na - c->excluded_a, kb = c->nb - c->excluded_b;
	c->per = "sample";
	c->noise = c->smallest = NAN;
	if (ka < 2 || kb < 2 || !(c->welch.se >= 0))
		return;
	double sd = c->welch.se / sqrt(1.0 / (double)ka + 1.0 / (double)kb);
	c->noise = expm1(sd);
	double level = o->alpha / 2;
	if (c->min_p >= o->alpha) {
		if (!ior_compare_small_applies(c, o->alpha)) {
			c->smallest = INFINITY;
			return;
		}
		level = ior_compare_small_alpha(o->alpha);
	}
	if (c->welch.se == 0)
		c->smallest = o->min_effect;
	else if (c->welch.df >= 1)
		c->smallest = at_least(expm1(ior_t_quantile(1 - level / 2, c->welch.df) * c->welch.se), o->min_effect);
}

void ior_compare_noise_paired(struct ior_comparison *c, double sd, size_t n, const struct ior_compare_opts *o)
{
	c->per = "round";
	c->noise = n >= 2 ? expm1(sd / sqrt(2)) : NAN;   /* the contrast of a round holds two observations' noise */
	c->smallest = n >= 2 ? at_least(expm1(ior_t_quantile(1 - o->alpha / 2, (double)n - 1) * sd / sqrt((double)n)),
					o->min_effect)
			     : NAN;
}

void ior_compare_noise_text(char *buf, size_t len, const struct ior_comparison *c)
{
	const char *per = c->per ? c->per : "sample";
	char sizes[96];
	if (c->na == c->nb)
		snprintf(sizes, sizeof(sizes), "%zu %s%s a side", c->na, per, c->na == 1 ? "" : "s");
	else
		snprintf(sizes, sizeof(sizes), "%zu %s%s against %zu", c->na, per, c->na == 1 ? "" : "s", c->nb);
	if (isnan(c->noise))
		snprintf(buf, len, "%s: the noise between %ss cannot be put as a share (a side with fewer than 2, or a value "
			 "of 0, which has no ratio)", sizes, per);
	else if (isinf(c->smallest))
		snprintf(buf, len, "noise %.1f%% between %ss: no change can be told at %s (the rank test's smallest p is "
			 "%.3g); measure more", c->noise * 100, per, sizes, c->min_p);
	else if (isnan(c->smallest))
		snprintf(buf, len, "noise %.1f%% between %ss: the smallest change that could be told is unknown (%s)",
			 c->noise * 100, per, sizes);
	else if (c->smallest > 1)
		snprintf(buf, len, "noise %.1f%% between %ss: not even a doubling or halving can be told at %s; measure "
			 "more", c->noise * 100, per, sizes);
	else
		snprintf(buf, len, "noise %.1f%% between %ss: changes below %.1f%% cannot be told (%s)", c->noise * 100, per,
			 c->smallest * 100, sizes);
}
