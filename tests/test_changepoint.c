/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for stats/changepoint.c: E-divisive over generated kernel series with known shifts and known noise. */
#include "stats/changepoint.h"
#include "stats/compare.h"
#include "tests/suite.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define NEAR(a, b, tol) CU_ASSERT_DOUBLE_EQUAL((a), (b), (tol))

enum { KERNELS = 10, REPS = 5 };

static double values[KERNELS][REPS];
static struct ior_cp_point pts[KERNELS];
static char labels[KERNELS][32];

/* Kernels 6.0 .. 6.9 with level[k] and Gaussian noise of the given CoV. */
static void make_series(const double *level, double cov, uint64_t seed)
{
	struct ior_rng r;
	ior_rng_seed(&r, seed);
	for (int k = 0; k < KERNELS; k++) {
		snprintf(labels[k], sizeof(labels[k]), "6.%d.0", k);
		for (int i = 0; i < REPS; i++)
			values[k][i] = level[k] * (1 + cov * ior_rng_normal(&r));
		pts[k] = (struct ior_cp_point){ labels[k], values[k], REPS };
	}
}

static void test_single_shift_found_where_it_arrived(void)
{
	double level[KERNELS];
	for (int k = 0; k < KERNELS; k++)
		level[k] = k < 6 ? 100 : 85;   /* -15% arrives in 6.6.0 */
	for (uint64_t seed = 1; seed <= 5; seed++) {
		make_series(level, 0.03, seed);
		struct ior_changepoint *cp;
		size_t n;
		CU_ASSERT_EQUAL_FATAL(ior_changepoints(&cp, &n, pts, KERNELS, NULL), 0);
		CU_ASSERT_EQUAL(n, 1);
		if (n >= 1) {
			CU_ASSERT_EQUAL(cp[0].index, 6);
			NEAR(cp[0].ratio, 0.85, 0.03);
			CU_ASSERT_TRUE(cp[0].p < 0.05);
		}
		free(cp);
	}
}

static void test_two_shifts(void)
{
	double level[KERNELS];
	for (int k = 0; k < KERNELS; k++)
		level[k] = k < 3 ? 100 : k < 7 ? 120 : 90;
	make_series(level, 0.02, 42);
	struct ior_changepoint *cp;
	size_t n;
	CU_ASSERT_EQUAL_FATAL(ior_changepoints(&cp, &n, pts, KERNELS, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_EQUAL(cp[0].index, 3);
	CU_ASSERT_EQUAL(cp[1].index, 7);
	NEAR(cp[0].ratio, 1.20, 0.03);
	NEAR(cp[1].ratio, 0.75, 0.03);
	free(cp);
}

/* No shift: at alpha 0.05 a false change point may appear in about one series in twenty. */
static void test_no_shift_rarely_splits(void)
{
	double level[KERNELS];
	for (int k = 0; k < KERNELS; k++)
		level[k] = 100;
	int false_series = 0;
	for (uint64_t seed = 100; seed < 140; seed++) {
		make_series(level, 0.05, seed);
		struct ior_changepoint *cp;
		size_t n;
		CU_ASSERT_EQUAL_FATAL(ior_changepoints(&cp, &n, pts, KERNELS, NULL), 0);
		false_series += n > 0;
		free(cp);
	}
	CU_ASSERT_TRUE(false_series <= 5);
}

static void test_seeded_and_sorted(void)
{
	double level[KERNELS];
	for (int k = 0; k < KERNELS; k++)
		level[k] = k < 4 ? 100 : 110;
	make_series(level, 0.03, 9);
	struct ior_changepoint *a, *b;
	size_t na, nb;
	ior_changepoints(&a, &na, pts, KERNELS, NULL);
	/* shuffle the kernels, sort back by version: same answer */
	struct ior_cp_point tmp = pts[0];
	pts[0] = pts[7];
	pts[7] = tmp;
	ior_cp_sort(pts, KERNELS);
	CU_ASSERT_STRING_EQUAL(pts[0].label, "6.0.0");
	ior_changepoints(&b, &nb, pts, KERNELS, NULL);
	CU_ASSERT_EQUAL_FATAL(na, nb);
	for (size_t i = 0; i < na; i++) {
		CU_ASSERT_EQUAL(a[i].index, b[i].index);
		CU_ASSERT_EQUAL(a[i].p, b[i].p);
	}
	CU_ASSERT_TRUE(na >= 1 && a[0].index == 4);
	free(a);
	free(b);
}

/* A long series (200 kernels x 25 repetitions, as bench/report_scale.sh has): searched on
 * kernel medians, a 15% drop is found where it arrived, and a kernel-to-kernel wobble of 1%
 * (which makes every kernel "different" to a test on the raw samples) is not a change. */
enum { LONG = 200, LREPS = 25 };
static double lvalues[LONG][LREPS];
static struct ior_cp_point lpts[LONG];
static char llabels[LONG][32];

static void make_long(double shift_at, uint64_t seed)
{
	struct ior_rng r;
	ior_rng_seed(&r, seed);
	for (int k = 0; k < LONG; k++) {
		snprintf(llabels[k], sizeof(llabels[k]), "6.1.%d", k);
		double level = 100 * (k >= shift_at ? 0.85 : 1.0) * (1 + 0.01 * ior_rng_normal(&r));
		for (int i = 0; i < LREPS; i++)
			lvalues[k][i] = level * (1 + 0.02 * ior_rng_normal(&r));
		lpts[k] = (struct ior_cp_point){ llabels[k], lvalues[k], LREPS };
	}
}

static void test_long_series_on_kernel_medians(void)
{
	make_long(120, 7);
	struct ior_changepoint *cp;
	size_t n;
	CU_ASSERT_EQUAL_FATAL(ior_changepoints(&cp, &n, lpts, LONG, NULL), 0);
	bool found = false;
	for (size_t i = 0; i < n; i++)
		if (cp[i].index == 120) {
			found = true;
			NEAR(cp[i].ratio, 0.85, 0.02);
		}
	CU_ASSERT_TRUE(found);
	CU_ASSERT_TRUE(n <= 2);
	free(cp);
	int false_series = 0;
	for (uint64_t seed = 1; seed <= 10; seed++) {
		make_long(LONG + 1, seed);
		CU_ASSERT_EQUAL_FATAL(ior_changepoints(&cp, &n, lpts, LONG, NULL), 0);
		false_series += n > 0;
		free(cp);
	}
	CU_ASSERT_TRUE(false_series <= 3);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_single_shift_found_where_it_arrived),
		IOR_TEST(test_two_shifts),
		IOR_TEST(test_no_shift_rarely_splits),
		IOR_TEST(test_seeded_and_sorted),
		IOR_TEST(test_long_series_on_kernel_medians),
		IOR_TEST_END,
	};
	return ior_test_run("changepoint", tests);
}
