/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-cell descriptive statistics: location, dispersion and the two outlier rules the reports use. */
#include "stats/stats.h"

#include "common/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int ior_double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Insertion sort below this many values: a report sorts tens of thousands of 3 to 100-value
 * cells, where qsort's call per comparison costs more than the sort. */
#define SMALL_SORT 48

static void insertion_sort(double *s, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double v = s[i];
		size_t j = i;
		for (; j > 0 && s[j - 1] > v; j--)
			s[j] = s[j - 1];
		s[j] = v;
	}
}

/* Quicksort (median-of-three pivot, Hoare's partition) down to SMALL_SORT, then insertion sort:
 * qsort's call per comparison was most of sorting a device's hundred values, thousands of times
 * per report. The smaller side recurses, so the depth stays below log2 n. The order of values is
 * qsort's: only equal values (indistinguishable) may land differently. */
void ior_sort_doubles(double *s, size_t n)
{
	while (n > SMALL_SORT) {
		double a = s[0], b = s[n / 2], c = s[n - 1];
		double pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
		size_t i = 0, j = n - 1;
		for (;;) {
			while (s[i] < pivot)
				i++;
			while (s[j] > pivot)
				j--;
			if (i >= j)
				break;
			double t = s[i];
			s[i++] = s[j];
			s[j--] = t;
		}
		/* s[0..j] <= pivot <= s[j+1..n) */
		size_t left = j + 1;
		if (left < n - left) {
			ior_sort_doubles(s, left);
			s += left, n -= left;
		} else {
			ior_sort_doubles(s + left, n - left);
			n = left;
		}
	}
	insertion_sort(s, n);
}

static double *sorted_copy(const double *x, size_t n)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));
	if (!s)
		return NULL;
	memcpy(s, x, n * sizeof(*s));
	ior_sort_doubles(s, n);
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

/* The k-th smallest of v[0..n) (v is reordered): Hoare's quickselect with a median-of-three
 * pivot, O(n) on average where a sort is O(n log n); the alerts take a median over every
 * other kernel for each of tens of thousands of cells. */
static double select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		double a = v[lo], b = v[mid], c = v[hi];
		double pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
		size_t i = lo, j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				double t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return v[k];
	}
	return v[k];
}

double ior_median(const double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double stack[256];
	double *v = n <= 256 ? stack : malloc(n * sizeof(*v));
	if (!v)
		return NAN;
	memcpy(v, x, n * sizeof(*v));
	double m = select_kth(v, n, n / 2);
	if (n % 2 == 0) {  /* the largest of the lower half, which select left below n/2 */
		double below = v[0];
		for (size_t i = 1; i < n / 2; i++)
			below = v[i] > below ? v[i] : below;
		m = (below + m) / 2;
	}
	if (v != stack)
		free(v);
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
	ior_sort_doubles(d, n);
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

/* The k-th smallest of |s[i] - median| over sorted s, without a second sort: the deviations fall
 * from the left end towards the median and rise from it to the right end, two sorted runs that a
 * merge walks from the median outwards. */
static double kth_deviation(const double *s, size_t n, double median, size_t k)
{
	size_t right = 0;  /* s[right..n) lie at or above the median, s[0..right) below */
	while (right < n && s[right] < median)
		right++;
	size_t l = right, r = right;  /* next candidates: s[l - 1] on the left, s[r] on the right */
	double d = 0;
	for (size_t taken = 0; taken <= k; taken++) {
		double dl = l > 0 ? fabs(s[l - 1] - median) : INFINITY, dr = r < n ? fabs(s[r] - median) : INFINITY;
		if (dl <= dr)
			d = dl, l--;
		else
			d = dr, r++;
	}
	return d;
}

/* The median of |x - median| from sorted values: what mad_of computes by sorting the deviations. */
static double mad_sorted(const double *s, size_t n, double median)
{
	double h = (double)(n - 1) * 0.5;
	size_t lo = (size_t)floor(h);
	double vlo = kth_deviation(s, n, median, lo);
	if (lo >= n - 1)
		return vlo;
	return vlo + (h - (double)lo) * (kth_deviation(s, n, median, lo + 1) - vlo);
}

/* One sort per call (on the stack up to 256 values, as a report's cells are): min, max, quartiles,
 * median and MAD all come from it. */
int ior_stats_compute(struct ior_stats *out, const double *x, size_t n)
{
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return ior_error_set(IOR_EINVALID, "cannot compute statistics of no samples");
	double stack[256];
	double *s = n <= 256 ? stack : malloc(n * sizeof(*s));
	if (!s)
		return ior_error_set(IOR_ERROR, "out of memory");
	memcpy(s, x, n * sizeof(*s));
	ior_sort_doubles(s, n);
	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->median = median_sorted(s, n);
	out->q1 = ior_quantile_sorted(s, n, 0.25);
	out->q3 = ior_quantile_sorted(s, n, 0.75);
	moments(out, x, n);
	out->mad = mad_sorted(s, n, out->median);
	if (s != stack)
		free(s);
	out->mad_scaled = IOR_MAD_SCALE * out->mad;
	out->spread = out->min > 0 ? (out->max - out->min) / out->min : NAN;
	/* the two rules of ior_outliers_tukey and ior_outliers_modz, from the figures above
	 * rather than from two more sorts each */
	double iqr = out->q3 - out->q1, lo = out->q1 - IOR_TUKEY_K * iqr, hi = out->q3 + IOR_TUKEY_K * iqr;
	for (size_t i = 0; i < n; i++) {
		out->tukey_outliers += x[i] < lo || x[i] > hi;
		out->modz_outliers += ior_modz_exceeds(x[i], out->median, out->mad, IOR_MODZ_THRESHOLD);
	}
	return IOR_OK;
}
