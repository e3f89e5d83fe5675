/* SPDX-License-Identifier: GPL-2.0-or-later */
/* E-divisive change points over kernels: the energy-distance split statistic, a seeded permutation test, and divisive recursion. */
#include "reports/changepoint.h"
#include "reports/compare.h"
#include "reports/stats.h"

#include "common/error.h"
#include "kernel/version.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Why E-divisive over the samples, with splits only between kernels: it needs
 * no distribution (outliers and bimodal noise are common in I/O figures), it
 * finds several changes by recursion, and its permutation test gives a
 * p-value without assuming normality. Otava applies it to one value per
 * commit; here each kernel brings several repetitions, so the test uses them
 * all, which lets it work on short series of kernels. Permuting samples
 * across kernels assumes that, without a change, the kernels' samples are
 * exchangeable: run-to-run noise must be the dominant noise (true for
 * repetitions within a boot; a report should show the spreads next to it).
 */
void ior_cp_opts_default(struct ior_cp_opts *o)
{
	o->alpha = 0.05;
	o->permutations = 199;
	o->seed = 0xc4a9e;
	o->max_changes = 8;
}

static int kver_order(const void *a, const void *b)
{
	return ior_kver_cmp(((const struct ior_cp_point *)a)->label, ((const struct ior_cp_point *)b)->label);
}

void ior_cp_sort(struct ior_cp_point *pts, size_t npts)
{
	qsort(pts, npts, sizeof(*pts), kver_order);
}

/* One segment's samples laid out flat, with kernel boundaries. */
struct seg {
	double *x;        /* samples, kernel by kernel */
	size_t n;
	size_t *start;    /* start[k] = first sample of kernel k; start[nk] = n */
	size_t nk;
};

/* Q(t) of Matteson & James (alpha = 1): split after sample t. */
static double q_split(const double *x, size_t n, size_t t)
{
	double between = 0, wx = 0, wy = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			double d = fabs(x[i] - x[j]);
			if (j < t)
				wx += d;
			else if (i >= t)
				wy += d;
			else
				between += d;
		}
	double m = (double)t, k = (double)(n - t);
	double e = 2 * between / (m * k);
	if (m > 1)
		e -= wx / (m * (m - 1) / 2);
	if (k > 1)
		e -= wy / (k * (k - 1) / 2);
	return m * k / (m + k) * e;
}

/* Best split at a kernel boundary; returns the statistic and the kernel index. */
static double best_split(const struct seg *s, const double *x, size_t *kernel)
{
	double best = -INFINITY;
	for (size_t k = 1; k < s->nk; k++) {
		double q = q_split(x, s->n, s->start[k]);
		if (q > best) {
			best = q;
			*kernel = k;
		}
	}
	return best;
}

static double permutation_p(const struct seg *s, double observed, const struct ior_cp_opts *o, struct ior_rng *rng)
{
	double *perm = malloc(s->n * sizeof(*perm));
	if (!perm)
		return NAN;
	memcpy(perm, s->x, s->n * sizeof(*perm));
	size_t at_least = 0, dummy;
	for (size_t r = 0; r < o->permutations; r++) {
		for (size_t i = s->n - 1; i > 0; i--) {  /* Fisher-Yates */
			size_t j = ior_rng_below(rng, i + 1);
			double t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		at_least += best_split(s, perm, &dummy) >= observed - 1e-12;
	}
	free(perm);
	return (double)(at_least + 1) / (double)(o->permutations + 1);
}

static int seg_make(struct seg *s, const struct ior_cp_point *pts, size_t lo, size_t hi)
{
	s->nk = hi - lo;
	s->n = 0;
	for (size_t k = lo; k < hi; k++)
		s->n += pts[k].n;
	s->x = malloc((s->n ? s->n : 1) * sizeof(*s->x));
	s->start = malloc((s->nk + 1) * sizeof(*s->start));
	if (!s->x || !s->start)
		return ior_error_set(IOR_ERROR, "out of memory");
	size_t at = 0;
	for (size_t k = lo; k < hi; k++) {
		s->start[k - lo] = at;
		memcpy(s->x + at, pts[k].values, pts[k].n * sizeof(double));
		at += pts[k].n;
	}
	s->start[s->nk] = at;
	return IOR_OK;
}

static void seg_free(struct seg *s)
{
	free(s->x);
	free(s->start);
}

static double median_range(const struct ior_cp_point *pts, size_t lo, size_t hi)
{
	struct seg s = { 0 };
	double m = seg_make(&s, pts, lo, hi) ? NAN : ior_median(s.x, s.n);
	seg_free(&s);
	return m;
}

/* Tests the best split of [lo, hi); fills cp and returns 1 when significant. */
static int try_segment(struct ior_changepoint *cp, const struct ior_cp_point *pts, size_t lo, size_t hi,
		       const struct ior_cp_opts *o, struct ior_rng *rng)
{
	if (hi - lo < 2)
		return 0;
	struct seg s = { 0 };
	if (seg_make(&s, pts, lo, hi)) {
		seg_free(&s);
		return IOR_ERROR;
	}
	size_t k = 0;
	double q = best_split(&s, s.x, &k);
	double p = permutation_p(&s, q, o, rng);
	seg_free(&s);
	if (isnan(p))
		return ior_error_set(IOR_ERROR, "out of memory");
	cp->index = lo + k;
	cp->q = q;
	cp->p = p;
	return p < o->alpha;
}

static int cp_order(const void *a, const void *b)
{
	size_t x = ((const struct ior_changepoint *)a)->index, y = ((const struct ior_changepoint *)b)->index;
	return (x > y) - (x < y);
}

int ior_changepoints(struct ior_changepoint **out, size_t *n, const struct ior_cp_point *pts, size_t npts,
		     const struct ior_cp_opts *o)
{
	struct ior_cp_opts def;
	if (!o) {
		ior_cp_opts_default(&def);
		o = &def;
	}
	*out = NULL;
	*n = 0;
	for (size_t k = 0; k < npts; k++)
		if (pts[k].n == 0)
			return ior_error_set(IOR_EINVALID, "kernel '%s' has no samples", pts[k].label);
	struct ior_changepoint *cps = calloc(o->max_changes + 1, sizeof(*cps));
	if (!cps)
		return ior_error_set(IOR_ERROR, "out of memory");
	struct ior_rng rng;
	ior_rng_seed(&rng, o->seed);
	/* Divisive recursion, as in E-divisive: each round splits the segment
	 * whose best split is most significant; it stops at the first round
	 * where no segment splits significantly. */
	size_t found = 0;
	while (found < o->max_changes) {
		struct ior_changepoint best = { .p = 2 };
		size_t lo = 0;
		for (size_t c = 0; c <= found; c++) {
			size_t hi = c < found ? cps[c].index : npts;
			struct ior_changepoint cp = { 0 };
			int rc = try_segment(&cp, pts, lo, hi, o, &rng);
			if (rc < 0) {
				free(cps);
				return rc;
			}
			if (rc == 1 && (cp.p < best.p || (cp.p == best.p && cp.q > best.q)))
				best = cp;
			lo = hi;
		}
		if (best.p > 1)
			break;
		cps[found++] = best;
		qsort(cps, found, sizeof(*cps), cp_order);
	}
	/* Sizes against the neighbouring segments once all splits are known. */
	for (size_t c = 0; c < found; c++) {
		size_t lo = c ? cps[c - 1].index : 0, hi = c + 1 < found ? cps[c + 1].index : npts;
		cps[c].ratio = median_range(pts, cps[c].index, hi) / median_range(pts, lo, cps[c].index);
	}
	*out = cps;
	*n = found;
	return IOR_OK;
}
