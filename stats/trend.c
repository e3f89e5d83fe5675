/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Warm-up (first-k) and drift (Kendall's exact rank test) across a cell's repetitions; see trend.h
 * for the rules and their measured rates. */
#include "stats/trend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ior_trend_opts_default(struct ior_trend_opts *o)
{
	o->alpha = IOR_TREND_ALPHA;
	o->warmup_ratio = IOR_TREND_WARMUP_RATIO;
}

const char *ior_trend_name(enum ior_trend_kind k)
{
	return k == IOR_TREND_WARMUP ? "warm-up" : k == IOR_TREND_DRIFT ? "drift" : "none";
}

/* P(I <= k) for I the inversions of a uniform random permutation of n (n <= IOR_TREND_EXACT_MAX):
 * P_n(i) = (1/n) sum_{j=0}^{n-1} P_{n-1}(i - j), kept as probabilities so nothing overflows.
 * Each n's cumulative table is built once (a report judges thousands of cells of one size). */
enum { MAXI = IOR_TREND_EXACT_MAX * (IOR_TREND_EXACT_MAX - 1) / 2 + 1 };
static double cum[IOR_TREND_EXACT_MAX + 1][MAXI];
static bool built[IOR_TREND_EXACT_MAX + 1];

static void build_cdf(size_t n)
{
	static double p[MAXI], q[MAXI];
	size_t top = 0;  /* p[0..top] holds P_m, from m = 1 */
	p[0] = 1;
	for (size_t m = 2; m <= n; m++) {
		size_t ntop = top + m - 1;
		double run = 0;  /* sliding sum of p over [i - (m-1), i] */
		for (size_t i = 0; i <= ntop; i++) {
			if (i <= top)
				run += p[i];
			if (i >= m && i - m <= top)
				run -= p[i - m];
			q[i] = run / (double)m;
		}
		memcpy(p, q, (ntop + 1) * sizeof(*p));
		top = ntop;
	}
	double c = 0;
	for (size_t i = 0; i <= top; i++)
		cum[n][i] = c += p[i];
	built[n] = true;
}

static double inversions_cdf(size_t n, long k)
{
	if (k < 0)
		return 0;
	if (!built[n])
		build_cdf(n);
	size_t top = n * (n - 1) / 2;
	double c = cum[n][(size_t)k < top ? (size_t)k : top];
	return c > 1 ? 1 : c;
}

double ior_kendall_p(const double *x, size_t n, double *tau)
{
	if (n < 3) {
		if (tau)
			*tau = NAN;
		return NAN;
	}
	long s = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			s += (x[j] > x[i]) - (x[j] < x[i]);
	long pairs = (long)(n * (n - 1) / 2);
	if (tau)
		*tau = (double)s / (double)pairs;
	long as = s < 0 ? -s : s;
	double p;
	if (n <= IOR_TREND_EXACT_MAX) {
		p = 2 * inversions_cdf(n, (pairs - as) / 2);
	} else {
		double sd = sqrt((double)n * (double)(n - 1) * (double)(2 * n + 5) / 18.0);
		double z = ((double)as - 1) / sd;  /* continuity correction: S moves in steps of 2 */
		p = z <= 0 ? 1 : erfc(z / sqrt(2.0));
	}
	return p > 1 ? 1 : p;
}

/* The smallest k whose first k values all sit past the rest by the ratio; false when none does.
 * The ranges of every lead and every rest come from one pass each way (the lead's grows as k does,
 * the rest's from the end), where ranging both anew for each k cost O(n^2) for each of a report's
 * cells. */
static bool warmup(struct ior_trend *t, const double *x, size_t n, double ratio)
{
	double stack_lo[128], stack_hi[128];
	double *rest_lo = n <= 128 ? stack_lo : malloc(n * sizeof(*rest_lo));
	double *rest_hi = n <= 128 ? stack_hi : malloc(n * sizeof(*rest_hi));
	bool found = false;
	if (!rest_lo || !rest_hi)
		goto out;
	rest_lo[n - 1] = rest_hi[n - 1] = x[n - 1];  /* range of x[i..n) */
	for (size_t i = n - 1; i-- > 0;) {
		rest_lo[i] = fmin(rest_lo[i + 1], x[i]);
		rest_hi[i] = fmax(rest_hi[i + 1], x[i]);
	}
	double llo = x[0], lhi = x[0];
	for (size_t k = 1; k + 2 <= n && k < n - k; k++) {
		if (k > 1) {
			llo = fmin(llo, x[k - 1]);
			lhi = fmax(lhi, x[k - 1]);
		}
		double rlo = rest_lo[k], rhi = rest_hi[k];
		if (llo <= 0 || rlo <= 0)
			break;  /* ratios of rates and times only */
		bool low = lhi * ratio <= rlo, high = llo >= ratio * rhi;
		if (!low && !high)
			continue;
		t->kind = IOR_TREND_WARMUP;
		t->k = k;
		t->lead_lo = llo, t->lead_hi = lhi, t->rest_lo = rlo, t->rest_hi = rhi;
		t->lead_low = low;
		t->factor = low ? rlo / lhi : llo / rhi;
		found = true;
		break;
	}
out:
	if (rest_lo != stack_lo)
		free(rest_lo);
	if (rest_hi != stack_hi)
		free(rest_hi);
	return found;
}

void ior_trend_detect(struct ior_trend *out, const double *x, size_t n, const struct ior_trend_opts *o)
{
	struct ior_trend_opts def;
	if (!o) {
		ior_trend_opts_default(&def);
		o = &def;
	}
	memset(out, 0, sizeof(*out));
	out->n = n;
	out->p = ior_kendall_p(x, n, &out->tau);
	if (n < 3)
		return;
	if (warmup(out, x, n, o->warmup_ratio))
		return;
	if (out->p < o->alpha)
		out->kind = IOR_TREND_DRIFT;
}

void ior_trend_describe(char *buf, size_t len, const struct ior_trend *t)
{
	if (t->kind == IOR_TREND_WARMUP) {
		char lead[96];
		if (t->k == 1)
			snprintf(lead, sizeof(lead), "repetition 1 (%.2f) is", t->lead_lo);
		else
			snprintf(lead, sizeof(lead), "repetitions 1-%zu (%.2f to %.2f) are", t->k, t->lead_lo, t->lead_hi);
		snprintf(buf, len, "warm-up: %s %.1fx %s the other %zu (%.2f to %.2f)", lead, t->factor,
			 t->lead_low ? "below" : "above", t->n - t->k, t->rest_lo, t->rest_hi);
	} else if (t->kind == IOR_TREND_DRIFT) {
		snprintf(buf, len, "drift: values %s with the repetition number over %zu repetitions (Kendall tau %+.2f, p = %.2g)",
			 t->tau > 0 ? "rise" : "fall", t->n, t->tau, t->p);
	} else {
		snprintf(buf, len, "no trend across %zu repetitions", t->n);
	}
}
