/* Kernel B against kernel A on one cell: ratio of medians with a seeded bootstrap interval, Mann-Whitney, Hodges-Lehmann and the verdict. */
#include "reports/compare.h"
#include "reports/stats.h"

#include "common/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Defaults, and why:
 * - alpha 0.01: a kernel regression harness runs many cells on many kernels;
 *   at 0.05 one cell in twenty of an unchanged kernel would be called a
 *   regression. 0.01 keeps false alarms at or below 1% per cell (the exact test
 *   is conservative), at the price that 5 repetitions per side is the fewest
 *   that can ever reach it (2/C(10,5) = 0.008; 4 against 4 gives 0.029).
 * - minimum effect 3%: the field reports show scheduler-to-scheduler
 *   differences of 1-3% and tight loop-device measures repeat within 1-3%
 *   across runs; a change smaller than that is below what a re-boot or a
 *   different file placement moves. It is applied to the confidence interval,
 *   not the point estimate: a significant change is dismissed as too small
 *   only when the interval shows it stays inside +-3%.
 * - 2000 bootstrap resamples: the 2.5% and 97.5% percentiles then rest on 50
 *   resamples each, enough for two reported digits.
 */
void ior_compare_opts_default(struct ior_compare_opts *o)
{
	o->alpha = IOR_COMPARE_ALPHA;
	o->min_effect = IOR_COMPARE_MIN_EFFECT;
	o->higher_is_better = true;
	o->bootstrap = 2000;
	o->seed = 0x10e6e55ULL;
}

const char *ior_verdict_name(enum ior_verdict v)
{
	switch (v) {
	case IOR_VERDICT_NO_CHANGE: return "no change";
	case IOR_VERDICT_IMPROVEMENT: return "improvement";
	case IOR_VERDICT_REGRESSION: return "regression";
	case IOR_VERDICT_INCONCLUSIVE: return "inconclusive";
	}
	return "?";
}

/* Insertion sort: the resamples are small and sorted thousands of times. */
static double small_median(double *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double x = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return ior_quantile_sorted(v, n, 0.5);
}

static int bootstrap_ratio(struct ior_comparison *c, const double *a, size_t na, const double *b, size_t nb,
			   const struct ior_compare_opts *o)
{
	size_t reps = o->bootstrap ? o->bootstrap : 2000;
	double *ratios = malloc(reps * sizeof(*ratios));
	double *ra = malloc(na * sizeof(*ra)), *rb = malloc(nb * sizeof(*rb));
	if (!ratios || !ra || !rb) {
		free(ratios), free(ra), free(rb);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	struct ior_rng rng;
	ior_rng_seed(&rng, o->seed);
	for (size_t r = 0; r < reps; r++) {
		for (size_t i = 0; i < na; i++)
			ra[i] = a[ior_rng_below(&rng, na)];
		for (size_t i = 0; i < nb; i++)
			rb[i] = b[ior_rng_below(&rng, nb)];
		ratios[r] = small_median(rb, nb) / small_median(ra, na);
	}
	qsort(ratios, reps, sizeof(*ratios), ior_double_cmp);
	c->ratio_lo = ior_quantile_sorted(ratios, reps, 0.025);
	c->ratio_hi = ior_quantile_sorted(ratios, reps, 0.975);
	free(ratios), free(ra), free(rb);
	return IOR_OK;
}

static void decide(struct ior_comparison *c, const struct ior_compare_opts *o)
{
	double pct = (c->ratio - 1) * 100, lo = (c->ratio_lo - 1) * 100, hi = (c->ratio_hi - 1) * 100;
	double me = o->min_effect * 100;
	bool better = o->higher_is_better ? c->ratio > 1 : c->ratio < 1;
	if (c->min_p >= o->alpha) {
		c->verdict = IOR_VERDICT_INCONCLUSIVE;
		snprintf(c->reason, sizeof(c->reason),
			 "%zu against %zu samples cannot reach p < %g with Mann-Whitney (smallest possible p = %.3f); "
			 "take more repetitions", c->na, c->nb, o->alpha, c->min_p);
		return;
	}
	bool significant = c->mw.p < o->alpha;
	/* Could the change be as large as the minimum effect, in the direction it went? */
	bool meaningful = c->ratio < 1 ? c->ratio_lo <= 1 - o->min_effect : c->ratio_hi >= 1 + o->min_effect;
	bool within = c->ratio_lo >= 1 - o->min_effect && c->ratio_hi <= 1 + o->min_effect;
	if (significant && meaningful) {
		c->verdict = better ? IOR_VERDICT_IMPROVEMENT : IOR_VERDICT_REGRESSION;
		snprintf(c->reason, sizeof(c->reason), "median %+.1f%% (95%% CI %+.1f%% to %+.1f%%), p = %.3g < %g",
			 pct, lo, hi, c->mw.p, o->alpha);
	} else if (within) {
		c->verdict = IOR_VERDICT_NO_CHANGE;
		snprintf(c->reason, sizeof(c->reason), "%s; the 95%% CI %+.1f%% to %+.1f%% lies within +-%.0f%%",
			 significant ? "significant but small" : "not significant", lo, hi, me);
	} else {
		c->verdict = IOR_VERDICT_INCONCLUSIVE;
		snprintf(c->reason, sizeof(c->reason),
			 "not significant (p = %.3g), yet the 95%% CI %+.1f%% to %+.1f%% cannot rule out a %.0f%% change; "
			 "the noise is too large for these sample sizes", c->mw.p, lo, hi, me);
	}
}

int ior_compare(struct ior_comparison *out, const double *a, size_t na, const double *b, size_t nb,
		const struct ior_compare_opts *opts)
{
	struct ior_compare_opts def;
	if (!opts) {
		ior_compare_opts_default(&def);
		opts = &def;
	}
	memset(out, 0, sizeof(*out));
	if (na == 0 || nb == 0)
		return ior_error_set(IOR_EINVALID, "cannot compare: %s has no samples", na ? "candidate" : "baseline");
	out->na = na;
	out->nb = nb;
	out->median_a = ior_median(a, na);
	out->median_b = ior_median(b, nb);
	if (!(out->median_a > 0) || !(out->median_b > 0))
		return ior_error_set(IOR_EINVALID, "cannot compare: medians must be positive (%g, %g)",
				     out->median_a, out->median_b);
	out->ratio = out->median_b / out->median_a;
	out->hl_shift = ior_hodges_lehmann(a, na, b, nb);
	int rc = ior_mann_whitney(&out->mw, a, na, b, nb);
	if (rc == 0)
		rc = bootstrap_ratio(out, a, na, b, nb, opts);
	if (rc)
		return rc;
	out->min_p = ior_mw_min_p(na, nb);
	decide(out, opts);
	return IOR_OK;
}
