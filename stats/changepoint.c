/* SPDX-License-Identifier: GPL-2.0-or-later */
/* E-divisive change points over kernels: the energy-distance split statistic, a seeded permutation
 * test, and divisive recursion. */
#include "stats/changepoint.h"
#include "stats/compare.h"
#include "stats/stats.h"

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
 *
 * Long segments (IOR_CP_SUMMARY_FROM kernels or more) are searched and tested on
 * one value per kernel, its median, as Otava does per commit: there a permutation of
 * kernels has arrangements enough to reach alpha, the kernels become the unit of
 * exchange (so kernel-to-kernel wobble counts as noise instead of making every
 * kernel of a 25-repetition series "significant"), and the cost no longer grows
 * with the repetitions. Shorter segments, and so the recursion's pieces of a long
 * series, use the raw samples, where a handful of medians has too few arrangements to reach alpha
 * (10 kernels of three levels gave p = 0.09 on medians, < 0.005 on the samples). The
 * sizes (ratio) always come from the raw samples.
 * Cost per permutation: O(N log N) for all splits (within_sums), N = kernels in a
 * long segment, kernels x repetitions in a short one.
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

/* Series of this many kernels or more are searched on one value per kernel (its median). */
#define SUMMARY_FROM IOR_CP_SUMMARY_FROM

/* One segment's observations laid out flat, with kernel boundaries. */
struct seg {
	double *x;        /* observations, kernel by kernel: samples, or one median per kernel */
	size_t n;
	size_t *start;    /* start[k] = first observation of kernel k; start[nk] = n */
	size_t nk;
	/* scratch for the all-splits pass */
	size_t *rank;     /* rank of x[i] among the segment's observations */
	double *w, *v;    /* w[t]: pair distances within x[0..t); v[t]: within x[t..n) */
	double *fsum;     /* Fenwick tree of sums over ranks */
	size_t *fcnt;     /* and of counts */
};

static void fen_clear(struct seg *s)
{
	memset(s->fsum, 0, (s->n + 1) * sizeof(*s->fsum));
	memset(s->fcnt, 0, (s->n + 1) * sizeof(*s->fcnt));
}

static void fen_add(struct seg *s, size_t r, double x)
{
	for (size_t i = r + 1; i <= s->n; i += i & -i) {
		s->fsum[i] += x;
		s->fcnt[i]++;
	}
}

/* Sum and count of the inserted observations ranked below r. */
static void fen_below(const struct seg *s, size_t r, double *sum, size_t *cnt)
{
	*sum = 0;
	*cnt = 0;
	for (size_t i = r; i > 0; i -= i & -i) {
		*sum += s->fsum[i];
		*cnt += s->fcnt[i];
	}
}

/* Sum of |x[i] - x[j]| over the pairs inside each prefix (into w) or each suffix (into v):
 * each new observation's distances to those already in, from the count and sum of the ones
 * below it and above it. O(n log n) for all n splits, where the direct sum is O(n^2) per split. */
static void within_sums(struct seg *s, const double *x, const size_t *rank, bool suffix)
{
	double *out = suffix ? s->v : s->w, total = 0, acc = 0;
	fen_clear(s);
	out[suffix ? s->n : 0] = 0;
	for (size_t step = 0; step < s->n; step++) {
		size_t i = suffix ? s->n - 1 - step : step;
		double below_sum;
		size_t below_cnt;
		fen_below(s, rank[i], &below_sum, &below_cnt);
		size_t above_cnt = step - below_cnt;
		acc += x[i] * (double)below_cnt - below_sum + (total - below_sum) - x[i] * (double)above_cnt;
		total += x[i];
		fen_add(s, rank[i], x[i]);
		out[suffix ? i : i + 1] = acc;
	}
}

/* Q(t) of Matteson & James (alpha = 1) for the split before observation t. */
static double q_at(const struct seg *s, size_t t)
{
	double m = (double)t, k = (double)(s->n - t);
	double wx = s->w[t], wy = s->v[t], between = s->w[s->n] - wx - wy;
	double e = 2 * between / (m * k);
	if (m > 1)
		e -= wx / (m * (m - 1) / 2);
	if (k > 1)
		e -= wy / (k * (k - 1) / 2);
	return m * k / (m + k) * e;
}

/* Best split at a kernel boundary; returns the statistic and the kernel index. */
static double best_split(struct seg *s, const double *x, const size_t *rank, size_t *kernel)
{
	within_sums(s, x, rank, false);
	within_sums(s, x, rank, true);
	double best = -INFINITY;
	for (size_t k = 1; k < s->nk; k++) {
		double q = q_at(s, s->start[k]);
		if (q > best) {
			best = q;
			*kernel = k;
		}
	}
	return best;
}

/* Permutations stop as soon as the split cannot be significant any more (Besag & Clifford's
 * sequential test): the decision is the same as after all of them, and a flat series, the
 * common case, costs about alpha x permutations of them instead of all. */
static double permutation_p(struct seg *s, double observed, const struct ior_cp_opts *o, struct ior_rng *rng)
{
	double *perm = malloc(s->n * sizeof(*perm));
	size_t *prank = malloc(s->n * sizeof(*prank));
	if (!perm || !prank) {
		free(perm), free(prank);
		return NAN;
	}
	memcpy(perm, s->x, s->n * sizeof(*perm));
	memcpy(prank, s->rank, s->n * sizeof(*prank));
	size_t at_least = 0, done = 0, dummy;
	double give_up = o->alpha * (double)(o->permutations + 1) - 1;
	for (size_t r = 0; r < o->permutations && (double)at_least < give_up; r++, done++) {
		for (size_t i = s->n - 1; i > 0; i--) {  /* Fisher-Yates */
			size_t j = ior_rng_below(rng, i + 1);
			double t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
			size_t tr = prank[i];
			prank[i] = prank[j];
			prank[j] = tr;
		}
		at_least += best_split(s, perm, prank, &dummy) >= observed - 1e-12;
	}
	free(perm);
	free(prank);
	return (double)(at_least + 1) / (double)(done + 1);
}

static const double *rank_base;

static int rank_order(const void *a, const void *b)
{
	double x = rank_base[*(const size_t *)a], y = rank_base[*(const size_t *)b];
	return (x > y) - (x < y);
}

static int seg_ranks(struct seg *s)
{
	size_t *order = malloc((s->n ? s->n : 1) * sizeof(*order));
	if (!order)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < s->n; i++)
		order[i] = i;
	rank_base = s->x;
	qsort(order, s->n, sizeof(*order), rank_order);
	for (size_t i = 0; i < s->n; i++)
		s->rank[order[i]] = i;
	free(order);
	return IOR_OK;
}

/* summary: one observation per kernel (its median) instead of its samples. */
static int seg_make(struct seg *s, const struct ior_cp_point *pts, size_t lo, size_t hi, bool summary)
{
	s->nk = hi - lo;
	s->n = 0;
	for (size_t k = lo; k < hi; k++)
		s->n += summary ? 1 : pts[k].n;
	size_t n1 = s->n + 1;
	s->x = malloc(n1 * sizeof(*s->x));
	s->start = malloc((s->nk + 1) * sizeof(*s->start));
	s->rank = malloc(n1 * sizeof(*s->rank));
	s->w = malloc(n1 * sizeof(*s->w));
	s->v = malloc(n1 * sizeof(*s->v));
	s->fsum = malloc(n1 * sizeof(*s->fsum));
	s->fcnt = malloc(n1 * sizeof(*s->fcnt));
	if (!s->x || !s->start || !s->rank || !s->w || !s->v || !s->fsum || !s->fcnt)
		return ior_error_set(IOR_ERROR, "out of memory");
	size_t at = 0;
	for (size_t k = lo; k < hi; k++) {
		s->start[k - lo] = at;
		if (summary) {
			s->x[at++] = ior_median(pts[k].values, pts[k].n);
		} else {
			memcpy(s->x + at, pts[k].values, pts[k].n * sizeof(double));
			at += pts[k].n;
		}
	}
	s->start[s->nk] = at;
	return seg_ranks(s);
}

static void seg_free(struct seg *s)
{
	free(s->x);
	free(s->start);
	free(s->rank);
	free(s->w);
	free(s->v);
	free(s->fsum);
	free(s->fcnt);
}

static double median_range(const struct ior_cp_point *pts, size_t lo, size_t hi)
{
	struct seg s = { 0 };
	double m = seg_make(&s, pts, lo, hi, false) ? NAN : ior_median(s.x, s.n);
	seg_free(&s);
	return m;
}

/* Tests the best split of [lo, hi); fills cp and returns 1 when significant. */
static int try_segment(struct ior_changepoint *cp, const struct ior_cp_point *pts, size_t lo, size_t hi,
		       bool summary, const struct ior_cp_opts *o, struct ior_rng *rng)
{
	if (hi - lo < 2)
		return 0;
	struct seg s = { 0 };
	if (seg_make(&s, pts, lo, hi, summary)) {
		seg_free(&s);
		return IOR_ERROR;
	}
	size_t k = 0;
	double q = best_split(&s, s.x, s.rank, &k);
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
			int rc = try_segment(&cp, pts, lo, hi, hi - lo >= SUMMARY_FROM, o, &rng);
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
