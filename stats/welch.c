/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Welch's unequal-variance t-test with its confidence interval (Welch 1947, Satterthwaite 1946). */
#include "stats/welch.h"
#include "stats/tdist.h"

#include "common/error.h"

#include <math.h>
#include <string.h>

static void mean_var(const double *x, size_t n, double *mean, double *var)
{
	double s = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*var = n > 1 ? ss / (double)(n - 1) : NAN;
}

int ior_welch(struct ior_welch *out, const double *a, size_t na, const double *b, size_t nb, double level)
{
	memset(out, 0, sizeof(*out));
	if (na == 0 || nb == 0)
		return ior_error_set(IOR_EINVALID, "welch test needs values on both sides");
	double ma, va, mb, vb;
	mean_var(a, na, &ma, &va);
	mean_var(b, nb, &mb, &vb);
	out->diff = mb - ma;
	double wa = va / (double)na, wb = vb / (double)nb;
	out->se = sqrt(wa + wb);
	out->df = (wa + wb) * (wa + wb) / (wa * wa / (double)(na - 1) + wb * wb / (double)(nb - 1));
	if (na < 2 || nb < 2) {
		out->t = out->p = out->lo = out->hi = NAN;
		return IOR_OK;
	}
	if (out->se == 0) {
		/* every value equal within each side: the sides differ or they do not */
		out->df = (double)(na + nb - 2);
		out->t = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
		out->p = out->diff == 0 ? 1 : 0;
		out->lo = out->hi = out->diff;
		return IOR_OK;
	}
	out->t = out->diff / out->se;
	out->p = ior_t_two_sided_p(out->t, out->df);
	if (level == 0) {
		out->lo = out->hi = NAN;
		return IOR_OK;
	}
	double q = ior_t_quantile(0.5 + level / 2, out->df);
	out->lo = out->diff - q * out->se;
	out->hi = out->diff + q * out->se;
	return IOR_OK;
}
