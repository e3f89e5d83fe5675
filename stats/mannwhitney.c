/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Mann-Whitney U (exact null distribution for small untied samples, normal approximation otherwise)
 * and the Hodges-Lehmann shift. */
#include "stats/mannwhitney.h"
#include "stats/stats.h"

#include "common/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Counts of U = 0..m*n under the null: the coefficients of the Gaussian
 * binomial [m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i).
 * Integers below 2^53 for m, n <= 25, so doubles hold them exactly. */
static double *mw_counts(size_t m, size_t n)
{
	size_t deg_max = m * n + n + m + 1;
	double *p = calloc(deg_max + 1, sizeof(*p));
	if (!p)
		return NULL;
	p[0] = 1;
	size_t deg = 0;
	for (size_t i = 1; i <= m; i++) {
		size_t up = n + i;
		for (size_t k = deg + up + 1; k-- > up;)
			p[k] -= p[k - up];
		deg += up;
		for (size_t k = i; k <= deg; k++)
			p[k] += p[k - i];
		deg -= i;
	}
	return p;
}

/* The cumulative counts for the last sizes asked: a report asks the same sizes (every device's
 * 25 against 25) thousands of times, twice per test, and the counts cost O(m^2 n) each time. The
 * sums are of integers below 2^53, so the cached ones are exactly the ones a fresh pass adds. */
static struct {
	size_t m, n;
	double *cum;   /* cum[k] = counts of U <= k, k = 0..m*n */
} mw_cache;

static const double *mw_cumulative(size_t m, size_t n)
{
	if (mw_cache.cum && mw_cache.m == m && mw_cache.n == n)
		return mw_cache.cum;
	double *c = mw_counts(m, n);
	if (!c)
		return NULL;
	for (size_t k = 1; k <= m * n; k++)
		c[k] += c[k - 1];
	free(mw_cache.cum);
	mw_cache.cum = c, mw_cache.m = m, mw_cache.n = n;
	return c;
}

double ior_mw_cdf(size_t m, size_t n, double u)
{
	if (u < 0)
		return 0;
	const double *cum = mw_cumulative(m, n);
	if (!cum)
		return NAN;
	double top = floor(u + 1e-9);
	size_t k = top >= (double)(m * n) ? m * n : (size_t)top;
	return cum[k] / cum[m * n];
}

double ior_mw_min_p(size_t m, size_t n)
{
	/* 2 / C(m+n, m), computed as a product to stay in range. */
	double c = 1;
	for (size_t i = 1; i <= m; i++)
		c = c * (double)(n + i) / (double)i;
	double p = 2.0 / c;
	return p > 1 ? 1 : p;
}

/* Sum over tie groups of t^3 - t, from the pooled sorted sample. */
static double tie_term(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb;
	double *all = malloc(n * sizeof(*all));
	if (!all)
		return NAN;
	memcpy(all, a, na * sizeof(*all));
	memcpy(all + na, b, nb * sizeof(*all));
	qsort(all, n, sizeof(*all), ior_double_cmp);
	double sum = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && all[j] == all[i])
			j++;
		double t = (double)(j - i);
		sum += t * t * t - t;
		i = j;
	}
	free(all);
	return sum;
}

static double normal_p(double u, size_t m, size_t n, double ties)
{
	double N = (double)(m + n), mn = (double)m * (double)n;
	double var = mn / 12.0 * ((N + 1) - ties / (N * (N - 1)));
	if (var <= 0)
		return 1;   /* every value equal: no evidence of a difference */
	double z = (fabs(u - mn / 2) - 0.5) / sqrt(var);
	if (z < 0)
		z = 0;
	double p = erfc(z / M_SQRT2);
	return p > 1 ? 1 : p;
}

int ior_mann_whitney(struct ior_mw *out, const double *a, size_t na, const double *b, size_t nb)
{
	memset(out, 0, sizeof(*out));
	if (na == 0 || nb == 0)
		return ior_error_set(IOR_EINVALID, "mann-whitney needs values on both sides");
	double u = 0;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			u += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
	double ties = tie_term(a, na, b, nb);
	if (isnan(ties))
		return ior_error_set(IOR_ERROR, "out of memory");
	out->u = u;
	out->ties = ties > 0;
	if (!out->ties && na <= IOR_MW_EXACT_MAX && nb <= IOR_MW_EXACT_MAX) {
		double mn = (double)na * (double)nb;
		double lo = ior_mw_cdf(na, nb, u), hi = ior_mw_cdf(na, nb, mn - u);
		double p = 2 * (lo < hi ? lo : hi);
		out->p = p > 1 ? 1 : p;
		out->exact = true;
	} else {
		out->p = normal_p(u, na, nb, ties);
	}
	return IOR_OK;
}

double ior_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na * nb;
	double *d = malloc((n ? n : 1) * sizeof(*d));
	if (!d || n == 0) {
		free(d);
		return NAN;
	}
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			d[i * nb + j] = b[j] - a[i];
	qsort(d, n, sizeof(*d), ior_double_cmp);
	double m = ior_quantile_sorted(d, n, 0.5);
	free(d);
	return m;
}
