/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Paired round tests on within-round log contrasts: b against a, and a candidate's position between two ends. */
#include "stats/paired.h"

#include "common/error.h"
#include "stats/stats.h"
#include "stats/tdist.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Mean, sd and a Student-t test of mean = 0 with its interval, over n contrasts. */
struct tstat {
	double mean, sd, t, df, p, half;   /* half: half-width of the interval of the mean */
};

static void t_of(struct tstat *s, const double *d, size_t n, double level)
{
	double sum = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		sum += d[i];
	s->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (d[i] - s->mean) * (d[i] - s->mean);
	if (n < 2) {
		s->sd = 0;
		s->t = s->df = s->p = s->half = NAN;
		return;
	}
	s->sd = sqrt(ss / (double)(n - 1));
	s->df = (double)(n - 1);
	double se = s->sd / sqrt((double)n);
	if (se == 0) {
		/* every round gave the same contrast: the sides differ or they do not */
		s->t = s->mean == 0 ? 0 : copysign(INFINITY, s->mean);
		s->p = s->mean == 0 ? 1 : 0;
		s->half = 0;
		return;
	}
	s->t = s->mean / se;
	s->p = ior_t_two_sided_p(s->t, s->df);
	s->half = ior_t_quantile(0.5 + level / 2, s->df) * se;
}

static bool usable(double x)
{
	return x > 0 && isfinite(x);
}

/* exp(max - min) - 1 of the levels: the machine's movement over the rounds. */
static double drift_of(const double *level, size_t n)
{
	if (n == 0)
		return NAN;
	double lo = level[0], hi = level[0];
	for (size_t i = 1; i < n; i++) {
		lo = level[i] < lo ? level[i] : lo;
		hi = level[i] > hi ? level[i] : hi;
	}
	return expm1(hi - lo);
}

/* From IOR_PAIRED_EXCLUDE_MIN rounds on, leaves out rounds whose contrast is an outlier (modified
 * z-score over 3.5, as ior_compare's rule), at most one in IOR_OUTLIER_CAP_ONE_IN and none when
 * more are flagged: one round hit by a stall would otherwise widen the interval of all of them.
 * Returns the rounds kept (d and lv compacted). */
static size_t drop_outliers(double *d, double *lv, size_t k, size_t *excluded)
{
	*excluded = 0;
	/* below IOR_PAIRED_EXCLUDE_MIN rounds dropping the most extreme of a few normal rounds shrinks the
	 * variance: bench/detection.sh paired measured a false-positive rate of 3.3% at 5 rounds with it,
	 * 1.4% without */
	if (k < IOR_PAIRED_EXCLUDE_MIN)
		return k;
	bool flag[k];
	size_t out = ior_outliers_modz(flag, d, k, IOR_MODZ_THRESHOLD);
	if (!out || out > k / IOR_OUTLIER_CAP_ONE_IN)
		return k;
	size_t kept = 0;
	for (size_t i = 0; i < k; i++)
		if (!flag[i])
			d[kept] = d[i], lv[kept++] = lv[i];
	*excluded = k - kept;
	return kept;
}

int ior_paired_ratio(struct ior_paired *out, const double *a, const double *b, size_t n, double level)
{
	memset(out, 0, sizeof(*out));
	out->verdict = IOR_VERDICT_INCONCLUSIVE;
	double d[n ? n : 1], lv[n ? n : 1];
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!usable(a[i]) || !usable(b[i])) {
			out->skipped++;
			continue;
		}
		d[k] = log(b[i]) - log(a[i]);
		lv[k++] = (log(a[i]) + log(b[i])) / 2;
	}
	if (k == 0)
		return ior_error_set(IOR_EINVALID, "paired test needs a round with positive values on both sides "
				     "(%zu rounds given)", n);
	k = drop_outliers(d, lv, k, &out->excluded);
	struct tstat s;
	t_of(&s, d, k, level);
	out->n = k;   /* the rounds the test used */
	out->mean = s.mean;
	out->sd = s.sd;
	out->ratio = exp(s.mean);
	out->ratio_lo = exp(s.mean - s.half);
	out->ratio_hi = exp(s.mean + s.half);
	out->t = s.t;
	out->df = s.df;
	out->p = s.p;
	out->drift = drift_of(lv, k);
	return IOR_OK;
}

void ior_paired_decide(struct ior_paired *p, double alpha, double min_effect, bool higher_is_better)
{
	double pct = (p->ratio - 1) * 100, lo = (p->ratio_lo - 1) * 100, hi = (p->ratio_hi - 1) * 100;
	char ev[160];
	snprintf(ev, sizeof(ev), "paired t p = %.3g over %zu rounds (%zu left out as outliers) held to %g, drift between "
		 "rounds %.1f%%", p->p, p->n, p->excluded, alpha, p->drift * 100);
	bool significant = p->p < alpha;   /* NAN is not significant */
	bool meaningful = p->ratio < 1 ? p->ratio_lo <= 1 - min_effect : p->ratio_hi >= 1 + min_effect;
	bool within = p->ratio_lo >= 1 - min_effect && p->ratio_hi <= 1 + min_effect;
	bool better = higher_is_better ? p->ratio > 1 : p->ratio < 1;
	if (p->n < 2) {
		p->verdict = IOR_VERDICT_INCONCLUSIVE;
		snprintf(p->reason, sizeof(p->reason), "%zu round cannot be tested; take more rounds", p->n);
	} else if (significant && meaningful) {
		p->verdict = better ? IOR_VERDICT_IMPROVEMENT : IOR_VERDICT_REGRESSION;
		snprintf(p->reason, sizeof(p->reason), "per-round ratio %+.1f%% (CI %+.1f%% to %+.1f%%), %s", pct, lo, hi,
			 ev);
	} else if (within) {
		p->verdict = IOR_VERDICT_NO_CHANGE;
		snprintf(p->reason, sizeof(p->reason), "%s; the CI %+.1f%% to %+.1f%% lies within +-%.0f%% (%s)",
			 significant ? "significant but small" : "not significant", lo, hi, min_effect * 100, ev);
	} else {
		p->verdict = IOR_VERDICT_INCONCLUSIVE;
		snprintf(p->reason, sizeof(p->reason),
			 "not significant (%s), yet the CI %+.1f%% to %+.1f%% cannot rule out a %.0f%% change; "
			 "take more rounds", ev, lo, hi, min_effect * 100);
	}
}

int ior_paired_position(struct ior_paired_position *out, const double *good, const double *cand,
			const double *bad, size_t n, double level)
{
	memset(out, 0, sizeof(*out));
	double d[n ? n : 1], gap[n ? n : 1], lv[n ? n : 1];
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!usable(good[i]) || !usable(cand[i]) || !usable(bad[i])) {
			out->skipped++;
			continue;
		}
		lv[k] = (log(good[i]) + log(bad[i])) / 2;
		d[k] = log(cand[i]) - lv[k];
		gap[k++] = log(bad[i]) - log(good[i]);
	}
	if (k == 0)
		return ior_error_set(IOR_EINVALID, "position needs a round with positive values at both ends and the "
				     "candidate (%zu rounds given)", n);
	struct tstat g, s;
	t_of(&g, gap, k, level);
	if (g.mean == 0)
		return ior_error_set(IOR_EINVALID, "position needs ends that differ: their per-round gap averages 0");
	t_of(&s, d, k, level);
	out->n = k;
	out->gap = g.mean;
	out->gap_sd = g.sd;
	out->position = 0.5 + s.mean / g.mean;
	double a = 0.5 + (s.mean - s.half) / g.mean, b = 0.5 + (s.mean + s.half) / g.mean;
	out->lo = a < b ? a : b;
	out->hi = a < b ? b : a;
	out->t = s.t;
	out->df = s.df;
	out->p = s.p;
	out->drift = drift_of(lv, k);
	out->sd = s.sd;
	return IOR_OK;
}

double ior_paired_round_position(double good, double cand, double bad, double gap)
{
	if (!usable(good) || !usable(cand) || !usable(bad) || gap == 0 || isnan(gap))
		return NAN;
	double mid = (log(good) + log(bad)) / 2;
	return 0.5 + (log(cand) - mid) / gap;
}

bool ior_paired_round_far(double position)
{
	return position < -IOR_PAIRED_FAR || position > 1 + IOR_PAIRED_FAR;
}
