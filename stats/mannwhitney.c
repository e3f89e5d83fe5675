/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Mann-Whitney U (exact null distribution for small untied samples, normal approximation otherwise)
 * and the Hodges-Lehmann shift. */
#include "stats/mannwhitney.h"
#include "stats/stats.h"

#include "common/error.h"

#define MATHLIB_STANDALONE
#include <Rmath.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

double ior_mw_cdf(size_t m, size_t n, double u)
{
	if (u < 0)
		return 0;
	/* R's exact distribution of the Wilcoxon rank sum (r-mathlib): it keeps the counts of the last
	 * sizes asked, as a report asks every device's 25 against 25 thousands of times; like that cache,
	 * it is not for concurrent callers */
	return pwilcox(floor(u + 1e-9), (double)m, (double)n, 1, 0);
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
