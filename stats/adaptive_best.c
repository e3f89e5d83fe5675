/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Adaptive repetitions for the scheduler question (decide_schedulers): after each round, stop a
 * device's cells of one engine once the verdict names the best scheduler or says they are within
 * noise. */
#include "stats/adaptive.h"

#include "stats/stats.h"

#include <stdio.h>

/*
 * Why a question of its own: the built-in default asks which scheduler is best on the scratch
 * device, and a cell-by-cell rule (a stable CoV, or a stored baseline) cannot answer it: the
 * cells must go on together until best against next is decided, or every scheduler is shown
 * within the minimum effect of the best. Each look is taken at ior_adaptive_look_alpha's level
 * (Haybittle-Peto: strict before the cap, the verdict's own at it), so the early stops cost
 * little of the 1% (adaptive.c has the measurements of those levels); the report then judges
 * the stored samples with the verdict's own alpha, as it would any run's.
 */

/* The cell with the best median by the metric's direction, skipping skip (SIZE_MAX: none). */
static size_t best_of(const double *const *cells, size_t k, size_t n, bool higher, size_t skip)
{
	size_t best = SIZE_MAX;
	double bm = 0;
	for (size_t i = 0; i < k; i++) {
		if (i == skip)
			continue;
		double m = ior_median(cells[i], n);
		if (best == SIZE_MAX || (higher ? m > bm : m < bm))
			best = i, bm = m;
	}
	return best;
}

enum ior_adapt ior_adaptive_schedulers(const struct ior_adaptive *a, const double *const *cells, size_t k, size_t n,
				       const char *const *names, char *why, size_t whylen)
{
	if (a->max_reps && n >= a->max_reps) {
		if (why && whylen)
			snprintf(why, whylen, "%zu repetitions: the cap", n);
		return IOR_ADAPT_STOP_CAP;
	}
	if (k < 2 || n < a->min_reps || n < 2) {
		if (why && whylen)
			snprintf(why, whylen, "%zu repetitions: %s", n, k < 2 ? "one scheduler" : "below the minimum");
		return k < 2 && n >= a->min_reps ? IOR_ADAPT_STOP_DECIDED : IOR_ADAPT_CONTINUE;
	}
	struct ior_compare_opts o = a->cmp;
	o.alpha = ior_adaptive_look_alpha(a, n);
	size_t best = best_of(cells, k, n, o.higher_is_better, SIZE_MAX);
	size_t next = best_of(cells, k, n, o.higher_is_better, best);
	struct ior_comparison c;
	if (ior_compare(&c, cells[next], n, cells[best], n, &o) == 0 && c.verdict == IOR_VERDICT_IMPROVEMENT) {
		if (why && whylen)
			snprintf(why, whylen, "%zu repetitions: decided, %s is best (%+.1f%% over %s)", n, names[best],
				 (c.ratio - 1) * 100, names[next]);
		return IOR_ADAPT_STOP_DECIDED;
	}
	double widest = 0;
	for (size_t i = 0; i < k; i++) {
		if (i == best)
			continue;
		if (ior_compare(&c, cells[best], n, cells[i], n, &o) || c.verdict != IOR_VERDICT_NO_CHANGE) {
			if (why && whylen)
				snprintf(why, whylen, "%zu repetitions: not decided yet", n);
			return IOR_ADAPT_CONTINUE;
		}
		widest = c.ratio_lo - 1 < -widest ? 1 - c.ratio_lo : widest;
		widest = c.ratio_hi - 1 > widest ? c.ratio_hi - 1 : widest;
	}
	if (why && whylen)
		snprintf(why, whylen, "%zu repetitions: decided, the schedulers are within noise (each within %.1f%% of %s)",
			 n, widest * 100, names[best]);
	return IOR_ADAPT_STOP_DECIDED;
}
