/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Student's t distribution for the Welch test, and the regularized incomplete beta function:
 * R's standalone mathematics library (Debian's r-mathlib), not our own continued fraction. */
#include "stats/tdist.h"

#define MATHLIB_STANDALONE
#include <Rmath.h>

#include <math.h>

double ior_beta_regularized(double x, double a, double b)
{
	if (!(x > 0))
		return 0;
	if (!(x < 1))
		return 1;
	return pbeta(x, a, b, 1, 0);
}

double ior_t_two_sided_p(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	/* both tails from the lower one of -|t|: no cancellation in 1 - P for a large t */
	double p = 2 * pt(-fabs(t), df, 1, 0);
	return p > 1 ? 1 : p;
}

double ior_t_quantile(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0; /* exactly, where qt gives 3e-16 at df 0.5 */
	return qt(p, df, 1, 0);
}
