/* Which samples the verdict's t-test leaves out: outliers of their own side that the other side does not explain either. */
#include "reports/compare.h"
#include "reports/stats.h"

#include <math.h>
#include <stdlib.h>

/* Median of |x - median(x)| over both sides, each about its own median. */
static double pooled_mad(const double *a, size_t na, const double *b, size_t nb)
{
	double *d = malloc((na + nb) * sizeof(*d));
	if (!d)
		return NAN;
	double ma = ior_median(a, na), mb = ior_median(b, nb);
	for (size_t i = 0; i < na; i++)
		d[i] = fabs(a[i] - ma);
	for (size_t j = 0; j < nb; j++)
		d[na + j] = fabs(b[j] - mb);
	double mad = ior_median(d, na + nb);
	free(d);
	return mad;
}

static bool far(double x, double centre, double mad)
{
	return ior_modz_exceeds(x, centre, mad, IOR_MODZ_THRESHOLD);
}

/* Far from every value of the other side that is not itself an outlier
 * there: nothing in the other side's body explains it. */
static bool unexplained(double x, const double *other, size_t nother, double their_median, double mad)
{
	for (size_t j = 0; j < nother; j++)
		if (!far(other[j], their_median, mad) && !far(x, other[j], mad))
			return false;
	return true;
}

size_t ior_compare_outliers(bool *flags, const double *x, size_t n, const double *other, size_t nother)
{
	double mad = pooled_mad(x, n, other, nother);
	double own = ior_median(x, n), theirs = ior_median(other, nother);
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		bool out = far(x[i], own, mad) && unexplained(x[i], other, nother, theirs, mad);
		if (flags)
			flags[i] = out;
		count += out;
	}
	return count;
}
