/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Student's t distribution for the Welch test: two-sided tail probabilities and quantiles, through
 * the regularized incomplete beta function. */
#include "stats/tdist.h"

#include <math.h>

/*
 * The continued fraction of I_x(a, b) (DLMF 8.17.22), evaluated by the
 * modified Lentz method: d_1, d_2, ... alternate between
 *   d_2m   =  m (b - m) x / ((a + 2m - 1)(a + 2m))
 *   d_2m+1 = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)).
 * It converges fast for x < (a + 1) / (a + b + 2); the caller swaps a and b
 * (I_x(a, b) = 1 - I_1-x(b, a)) otherwise.
 */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double f = 1, c = 1, d = 0;
	for (int i = 0; i <= 400; i++) {
		double m = (double)(i / 2), num;
		if (i == 0)
			num = 1;
		else if (i % 2 == 0)
			num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		else
			num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		f *= c * d;
		if (fabs(1 - c * d) < 1e-15)
			break;
	}
	return f - 1;
}

double ior_beta_regularized(double x, double a, double b)
{
	if (!(x > 0))
		return 0;
	if (!(x < 1))
		return 1;
	if (x > (a + 1) / (a + b + 2))
		return 1 - ior_beta_regularized(1 - x, b, a);
	double log_front = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	return exp(log_front) / a * beta_fraction(a, b, x);
}

double ior_t_two_sided_p(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	/* P(|T| >= t) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
	double p = ior_beta_regularized(df / (df + t * t), df / 2, 0.5);
	return p > 1 ? 1 : p;
}

/* Student's t density, for the Newton steps of ior_t_quantile. */
static double t_density(double t, double df)
{
	return exp(lgamma((df + 1) / 2) - lgamma(df / 2) - (df + 1) / 2 * log1p(t * t / df)) / sqrt(df * M_PI);
}

double ior_t_quantile(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	double tail = p < 0.5 ? 2 * p : 2 * (1 - p);
	/* Newton's method on the two-sided tail, which falls monotonically in |t| with slope
	 * -2 density(t), kept inside a bracket that bisection narrows whenever a step would leave
	 * it: a handful of tail evaluations instead of bisection's fifty (every verdict's Welch
	 * interval asks for one, and a report judges each device's schedulers). */
	double lo = 0, hi = 1;
	while (ior_t_two_sided_p(hi, df) > tail && hi < 1e300)
		lo = hi, hi *= 2;
	double t = (lo + hi) / 2;
	for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		double f = ior_t_two_sided_p(t, df) - tail;
		if (f == 0)
			break;
		if (f > 0)
			lo = t;
		else
			hi = t;
		double d = t_density(t, df), next = d > 0 ? t + f / (2 * d) : NAN;
		if (d > 0 && fabs(next - t) <= 1e-14 * t) {
			t = next;
			break;
		}
		t = next > lo && next < hi ? next : (lo + hi) / 2;
	}
	return p < 0.5 ? -t : t;
}
