/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict on two sides that hold a value of 0 or below (a counter metric: merge_pct where nothing
 * merges), which have no log ratio: identical everywhere is no change, otherwise Mann-Whitney decides. */
#include "stats/compare.h"
#include "stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

bool ior_compare_needs_ranks(const double *a, size_t na, const double *b, size_t nb)
{
	for (size_t i = 0; i < na; i++)
		if (a[i] <= 0)
			return true;
	for (size_t i = 0; i < nb; i++)
		if (b[i] <= 0)
			return true;
	return false;
}

/* Welch's t on logs and the bootstrap of a ratio of medians both divide by or take the log of a
 * value, so neither takes a 0; ranks need no ratio. The interval and the noise are left NAN: no
 * ratio scale exists to state them on. */
void ior_compare_ranks(struct ior_comparison *c, const double *a, size_t na, const double *b, size_t nb,
		       const struct ior_compare_opts *o, const char *unit)
{
	bool same = true;
	for (size_t i = 0; i < na; i++)
		same &= a[i] == a[0];
	for (size_t i = 0; i < nb; i++)
		same &= b[i] == a[0];
	memset(c, 0, sizeof(*c));
	c->na = na, c->nb = nb;
	c->per = unit, c->noise = c->smallest = NAN;   /* no ratio scale to state them on */
	c->median_a = ior_median(a, na), c->median_b = ior_median(b, nb);
	c->ratio = c->median_a > 0 ? c->median_b / c->median_a : same ? 1 : NAN;
	c->ratio_lo = c->ratio_hi = NAN;
	c->min_p = ior_mw_min_p(na, nb);
	if (same) {
		c->verdict = IOR_VERDICT_NO_CHANGE;
		c->welch.p = c->mw.p = 1;
		snprintf(c->reason, sizeof(c->reason), "%g on every %s of both (%zu %ss against %zu)", a[0], unit, na, unit,
			 nb);
		return;
	}
	if (ior_mann_whitney(&c->mw, a, na, b, nb))
		c->mw.p = NAN;
	c->welch.p = c->mw.p;
	bool higher = c->median_b > c->median_a;
	if (c->mw.p < o->alpha && c->median_a != c->median_b) {
		c->verdict = higher == o->higher_is_better ? IOR_VERDICT_IMPROVEMENT : IOR_VERDICT_REGRESSION;
		snprintf(c->reason, sizeof(c->reason), "median %g against %g, Mann-Whitney p = %.3g held to %g (a value of 0 "
			 "has no ratio: ranks, unpaired; %zu %ss against %zu)", c->median_b, c->median_a, c->mw.p, o->alpha, na,
			 unit, nb);
	} else {
		c->verdict = IOR_VERDICT_INCONCLUSIVE;
		snprintf(c->reason, sizeof(c->reason), "not significant: median %g against %g, Mann-Whitney p = %.3g held to %g "
			 "(a value of 0 has no ratio: ranks, unpaired; %zu %ss against %zu; the smallest p %zu against %zu %ss "
			 "can give is %.3g)", c->median_b, c->median_a, c->mw.p, o->alpha, na, unit, nb, na, nb, unit, c->min_p);
	}
}
