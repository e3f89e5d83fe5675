/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-cell descriptive statistics: location, dispersion and the two outlier rules the reports use. */
#include "reports/stats.h"

#include "common/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int ior_double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double *sorted_copy(const double *x, size_t n)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));
	if (!s)
		return NULL;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), ior_double_cmp);
	return s;
}

double ior_quantile_sorted(const double *sorted, size_t n, double p)
{
	if (n == 0)
		return NAN;
	double h = (double)(n - 1) * p;
	size_t lo = (size_t)floor(h);
	if (lo >= n - 1)
		return sorted[n - 1];
	return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

static double median_sorted(const double *s, size_t n)
{
	return ior_quantile_sorted(s, n, 0.5);
}

double ior_median(const double *x, size_t n)
{
	double *s = sorted_copy(x, n);
	if (!s)
		return NAN;
	double m = median_sorted(s, n);
	free(s);
	return m;
}

/* MAD needs the median of |x - median|: a second sorted buffer. */
static double mad_of(const double *x, size_t n, double median)
{
	double *d = malloc((n ? n : 1) * sizeof(*d));
	if (!d)
		return NAN;
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(x[i] - median);
	qsort(d, n, sizeof(*d), ior_double_cmp);
	double m = median_sorted(d, n);
	free(d);
	return m;
}

size_t ior_outliers_tukey(bool *flags, const double *x, size_t n, double k)
{
	double *s = sorted_copy(x, n);
	if (!s || n == 0) {
		free(s);
		return 0;
	}
	double q1 = ior_quantile_sorted(s, n, 0.25), q3 = ior_quantile_sorted(s, n, 0.75);
	free(s);
	double lo = q1 - k * (q3 - q1), hi = q3 + k * (q3 - q1);
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		bool out = x[i] < lo || x[i] > hi;
		if (flags)
			flags[i] = out;
		count += out;
	}
	return count;
}

bool ior_modz_exceeds(double x, double centre, double mad, double threshold)
{
	return mad > 0 && fabs(IOR_MODZ_CONSTANT * (x - centre) / mad) > threshold;
}

size_t ior_outliers_modz(bool *flags, const double *x, size_t n, double threshold)
{
	double med = ior_median(x, n);
	double mad = mad_of(x, n, med);
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		bool out = ior_modz_exceeds(x[i], med, mad, threshold);
		if (flags)
			flags[i] = out;
		count += out;
	}
	return count;
}

static void moments(struct ior_stats *st, const double *x, size_t n)
{
	double sum = 0, inv = 0;
	bool positive = true;
	for (size_t i = 0; i < n; i++) {
		sum += x[i];
		if (x[i] <= 0)
			positive = false;
		else
			inv += 1.0 / x[i];
	}
	st->mean = sum / (double)n;
	st->hmean = positive ? (double)n / inv : NAN;
	double ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - st->mean) * (x[i] - st->mean);
	st->sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	st->cov = st->mean != 0 ? st->sd / fabs(st->mean) : NAN;
}

int ior_stats_compute(struct ior_stats *out, const double *x, size_t n)
{
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return ior_error_set(IOR_EINVALID, "cannot compute statistics of no samples");
	double *s = sorted_copy(x, n);
	if (!s)
		return ior_error_set(IOR_ERROR, "out of memory");
	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->median = median_sorted(s, n);
	out->q1 = ior_quantile_sorted(s, n, 0.25);
	out->q3 = ior_quantile_sorted(s, n, 0.75);
	free(s);
	moments(out, x, n);
	out->mad = mad_of(x, n, out->median);
	out->mad_scaled = IOR_MAD_SCALE * out->mad;
	out->spread = out->min > 0 ? (out->max - out->min) / out->min : NAN;
	out->tukey_outliers = ior_outliers_tukey(NULL, x, n, IOR_TUKEY_K);
	out->modz_outliers = ior_outliers_modz(NULL, x, n, IOR_MODZ_THRESHOLD);
	return IOR_OK;
}
