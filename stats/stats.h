/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-cell descriptive statistics and outlier rules, always recomputed from the raw samples (which
 * are never altered). */
#ifndef IOR_STATS_STATS_H
#define IOR_STATS_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* Constants of the robust rules, named so reports can print them. */
#define IOR_MAD_SCALE 1.4826        /* MAD * this estimates sigma for normal data (1/Phi^-1(3/4)) */
#define IOR_TUKEY_K 1.5             /* Tukey's inner fences: Q1 - 1.5 IQR, Q3 + 1.5 IQR */
#define IOR_MODZ_CONSTANT 0.6745    /* Iglewicz-Hoaglin: M = 0.6745 (x - median) / MAD */
#define IOR_MODZ_THRESHOLD 3.5      /* Iglewicz-Hoaglin's recommended cut-off for |M| */

struct ior_stats {
	size_t n;
	double min, max;
	double median;
	double mean;
	double hmean;        /* harmonic mean, the right mean of rates; NAN when a value is <= 0 */
	double sd;           /* sample standard deviation (n - 1); 0 when n < 2 */
	double cov;          /* sd / mean; NAN when mean is 0 */
	double mad;          /* median absolute deviation from the median, raw */
	double mad_scaled;   /* IOR_MAD_SCALE * mad */
	double spread;       /* (max - min) / min, the field report's measure; NAN when min <= 0 */
	double q1, q3;       /* quartiles, Hyndman-Fan type 7 (R's and NumPy's default) */
	size_t tukey_outliers;
	size_t modz_outliers;
};

/* Fills out from n values (n >= 1); x is not modified. */
int ior_stats_compute(struct ior_stats *out, const double *x, size_t n);

/* Median of n values (copied, x untouched); NAN when n is 0. */
double ior_median(const double *x, size_t n);

/* Quantile p in [0,1] of sorted values, Hyndman & Fan (1996) type 7:
 * h = (n-1)p, linear interpolation between the order statistics around h. */
double ior_quantile_sorted(const double *sorted, size_t n, double p);

/* Outlier flags (flags may be NULL); return how many were flagged.
 * Tukey: outside [Q1 - k IQR, Q3 + k IQR] with type-7 quartiles.
 * Modified z-score: |0.6745 (x - median) / MAD| > threshold; none when MAD is 0. */
size_t ior_outliers_tukey(bool *flags, const double *x, size_t n, double k);
size_t ior_outliers_modz(bool *flags, const double *x, size_t n, double threshold);
/* |M| of x about centre with this MAD over threshold; never with MAD 0 (over half the values
 * equal makes M undefined: flag nothing rather than everything). */
bool ior_modz_exceeds(double x, double centre, double mad, double threshold);

/* qsort comparator for doubles, shared by the reports. */
int ior_double_cmp(const void *a, const void *b);
/* Sorts x ascending in place: insertion sort for small arrays (resamples are sorted thousands of
 * times), qsort beyond. */
void ior_sort_doubles(double *x, size_t n);

#endif
