/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for stats/paired.c: the paired t on per-round log ratios, the candidate's position between
 * two ends, and drift cancelling within a round. */
#include "stats/compare.h"
#include "stats/paired.h"
#include "common/rng.h"
#include "tests/suite.h"

#include <math.h>
#include <string.h>

#define NEAR(a, b, tol) CU_ASSERT_DOUBLE_EQUAL((a), (b), (tol))

/* One-sample t on 0.1 0.2 0.3 0.4 0.5 (R: t.test(c(.1,.2,.3,.4,.5))): t = 4.2426, df = 4,
 * p = 0.01324, 95% CI 0.10368 to 0.49632. As log ratios of b over a, the same numbers. */
static void test_ratio_textbook(void)
{
	const double d[] = { 0.1, 0.2, 0.3, 0.4, 0.5 };
	double a[5], b[5];
	for (int i = 0; i < 5; i++) {
		a[i] = 100 * (i + 1);   /* each round at its own level: the test must not care */
		b[i] = a[i] * exp(d[i]);
	}
	struct ior_paired p;
	CU_ASSERT_EQUAL_FATAL(ior_paired_ratio(&p, a, b, 5, 0.95), 0);
	CU_ASSERT_EQUAL(p.n, 5);
	NEAR(p.mean, 0.3, 1e-12);
	NEAR(p.t, 4.2426, 1e-4);
	NEAR(p.df, 4, 0);
	NEAR(p.p, 0.01324, 1e-5);
	NEAR(log(p.ratio_lo), 0.10368, 1e-5);
	NEAR(log(p.ratio_hi), 0.49632, 1e-5);
	NEAR(p.ratio, exp(0.3), 1e-12);
	/* levels: round 1 at 100*e^0.05, round 5 at 500*e^0.25: the machine "moved" by that much */
	NEAR(p.drift, expm1(log(500) + 0.25 - log(100) - 0.05), 1e-9);
}

/* The machine's speed walks by +-20% between rounds, both sides alike; within a round the noise
 * is 1%. b is 6% slower. Welch on the same values, ignoring the rounds, cannot see it; the paired
 * test sees it and calls it a regression (higher is better) or an improvement (lower is better). */
static void test_drift_cancels(void)
{
	struct ior_rng r;
	ior_rng_seed(&r, 21);
	enum { N = 8 };
	double a[N], b[N], speed = 1;
	for (int i = 0; i < N; i++) {
		speed *= 1 + 0.2 * (ior_rng_uniform(&r) * 2 - 1);
		a[i] = 100 * speed * (1 + 0.01 * ior_rng_normal(&r));
		b[i] = 94 * speed * (1 + 0.01 * ior_rng_normal(&r));
	}
	struct ior_paired p;
	CU_ASSERT_EQUAL_FATAL(ior_paired_ratio(&p, a, b, N, 0.95), 0);
	NEAR(p.ratio, 0.94, 0.02);
	CU_ASSERT_TRUE(p.p < 0.001);
	CU_ASSERT_TRUE(p.drift > 0.1);
	struct ior_welch w;
	double la[N], lb[N];
	for (int i = 0; i < N; i++) {
		la[i] = log(a[i]);
		lb[i] = log(b[i]);
	}
	ior_welch(&w, la, N, lb, N, 0.95);
	CU_ASSERT_TRUE(w.p > 0.05);
	ior_paired_decide(&p, 0.01, 0.03, true);
	CU_ASSERT_EQUAL(p.verdict, IOR_VERDICT_REGRESSION);
	CU_ASSERT_PTR_NOT_NULL(strstr(p.reason, "rounds"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.reason, "drift"));
	ior_paired_decide(&p, 0.01, 0.03, false);
	CU_ASSERT_EQUAL(p.verdict, IOR_VERDICT_IMPROVEMENT);
}

/* Equal sides within 0.5% noise over 10 rounds: no change; 2 rounds of a 10% swing: inconclusive. */
static void test_decide_no_change_and_inconclusive(void)
{
	const double a[] = { 100, 80, 120, 90, 110, 100, 95, 105, 85, 115 };
	double b[10];
	for (int i = 0; i < 10; i++)
		b[i] = a[i] * (i % 2 ? 1.005 : 0.995);
	struct ior_paired p;
	CU_ASSERT_EQUAL_FATAL(ior_paired_ratio(&p, a, b, 10, 0.95), 0);
	ior_paired_decide(&p, 0.01, 0.03, true);
	CU_ASSERT_EQUAL(p.verdict, IOR_VERDICT_NO_CHANGE);
	const double c[] = { 100, 100 }, d[] = { 110, 91 };
	CU_ASSERT_EQUAL_FATAL(ior_paired_ratio(&p, c, d, 2, 0.95), 0);
	ior_paired_decide(&p, 0.01, 0.03, true);
	CU_ASSERT_EQUAL(p.verdict, IOR_VERDICT_INCONCLUSIVE);
}

/* One round in ten hit by a stall (b at half speed) is left out as an outlier of the contrast; the
 * other nine keep the 5% regression clear. Three stalls in ten are over the cap: none left out. */
static void test_outlier_round_left_out(void)
{
	double a[10], b[10];
	for (int i = 0; i < 10; i++) {
		a[i] = 100 * (1 + 0.1 * (i % 3));
		b[i] = a[i] * 0.95 * (1 + 0.002 * ((i * 7) % 5 - 2));
	}
	b[4] = a[4] * 0.5;
	struct ior_paired p;
	CU_ASSERT_EQUAL_FATAL(ior_paired_ratio(&p, a, b, 10, 0.95), 0);
	CU_ASSERT_EQUAL(p.excluded, 1);
	CU_ASSERT_EQUAL(p.n, 9);
	NEAR(p.ratio, 0.95, 0.005);
	ior_paired_decide(&p, 0.01, 0.03, true);
	CU_ASSERT_EQUAL(p.verdict, IOR_VERDICT_REGRESSION);
	b[1] = a[1] * 0.5, b[7] = a[7] * 0.5;
	CU_ASSERT_EQUAL_FATAL(ior_paired_ratio(&p, a, b, 10, 0.95), 0);
	CU_ASSERT_EQUAL(p.excluded, 0);
	CU_ASSERT_EQUAL(p.n, 10);
}

/* Rounds with a value <= 0 or NAN are left out and counted; none usable is an error. */
static void test_unusable_rounds(void)
{
	const double a[] = { 100, 0, 100, NAN }, b[] = { 90, 90, 92, 90 };
	struct ior_paired p;
	CU_ASSERT_EQUAL_FATAL(ior_paired_ratio(&p, a, b, 4, 0.95), 0);
	CU_ASSERT_EQUAL(p.n, 2);
	CU_ASSERT_EQUAL(p.skipped, 2);
	CU_ASSERT_NOT_EQUAL(ior_paired_ratio(&p, a + 1, b + 1, 1, 0.95), 0);
	const double one_a[] = { 100 }, one_b[] = { 90 };
	CU_ASSERT_EQUAL_FATAL(ior_paired_ratio(&p, one_a, one_b, 1, 0.95), 0);
	CU_ASSERT_TRUE(isnan(p.p));
	ior_paired_decide(&p, 0.01, 0.03, true);
	CU_ASSERT_EQUAL(p.verdict, IOR_VERDICT_INCONCLUSIVE);
}

/* A candidate at the good end sits at 0, at the bad end at 1, whether the bad end is slower
 * (throughput falls) or larger (time rises); drift between rounds does not move it. */
static void test_position(void)
{
	enum { N = 6 };
	const double speed[N] = { 1, 1.2, 0.8, 1.15, 0.85, 1 };
	const double wobble[N] = { 1.002, 0.998, 1.001, 0.999, 1.003, 0.997 };
	double good[N], bad[N], at_good[N], at_bad[N], third[N], tgood[N], tbad[N], tcand[N];
	for (int i = 0; i < N; i++) {
		good[i] = 100 * speed[i];
		bad[i] = 90 * speed[i];
		at_good[i] = good[i] * wobble[i];
		at_bad[i] = bad[i] * wobble[i];
		third[i] = 100 * pow(0.9, 1.0 / 3) * speed[i] * wobble[i];
		tgood[i] = 10 / speed[i];   /* a time: the bad end is larger */
		tbad[i] = 11 / speed[i];
		tcand[i] = tbad[i] * wobble[i];
	}
	struct ior_paired_position q;
	CU_ASSERT_EQUAL_FATAL(ior_paired_position(&q, good, at_good, bad, N, 0.95), 0);
	NEAR(q.position, 0, 0.02);
	CU_ASSERT_TRUE(q.hi < 0.5);
	CU_ASSERT_TRUE(q.p < 0.001);
	NEAR(q.gap, log(0.9), 1e-12);
	NEAR(q.gap_sd, 0, 1e-12);
	NEAR(q.drift, 1.2 / 0.8 - 1, 1e-9);
	CU_ASSERT_EQUAL_FATAL(ior_paired_position(&q, good, at_bad, bad, N, 0.95), 0);
	NEAR(q.position, 1, 0.02);
	CU_ASSERT_TRUE(q.lo > 0.5);
	CU_ASSERT_EQUAL_FATAL(ior_paired_position(&q, good, third, bad, N, 0.95), 0);
	NEAR(q.position, 1.0 / 3, 0.02);
	CU_ASSERT_TRUE(q.lo < 1.0 / 3 && q.hi > 1.0 / 3);
	CU_ASSERT_EQUAL_FATAL(ior_paired_position(&q, tgood, tcand, tbad, N, 0.95), 0);
	NEAR(q.position, 1, 0.02);
	CU_ASSERT_TRUE(q.gap > 0);
	/* ends that do not differ cannot place anything */
	CU_ASSERT_NOT_EQUAL(ior_paired_position(&q, good, at_good, good, N, 0.95), 0);
}

/* One round's position on the known gap, and "far": beyond half the gap past either end. */
static void test_round_position_far(void)
{
	double gap = log(0.9);
	NEAR(ior_paired_round_position(100, 100, 90, gap), 0.5 + (log(100) - (log(100) + log(90)) / 2) / gap, 1e-12);
	NEAR(ior_paired_round_position(100, 90, 90, gap), 1, 1e-12);
	double fast = ior_paired_round_position(100, 112, 90, gap);   /* 12% above good: -1.08 */
	CU_ASSERT_TRUE(fast < -0.5);
	CU_ASSERT_TRUE(ior_paired_round_far(fast));
	CU_ASSERT_FALSE(ior_paired_round_far(ior_paired_round_position(100, 103, 90, gap)));
	CU_ASSERT_TRUE(ior_paired_round_far(ior_paired_round_position(100, 80, 90, gap)));
	CU_ASSERT_FALSE(ior_paired_round_far(ior_paired_round_position(100, 87, 90, gap)));
	CU_ASSERT_TRUE(isnan(ior_paired_round_position(100, 0, 90, gap)));
	CU_ASSERT_TRUE(isnan(ior_paired_round_position(100, 95, 90, 0)));
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_ratio_textbook),
		IOR_TEST(test_drift_cancels),
		IOR_TEST(test_decide_no_change_and_inconclusive),
		IOR_TEST(test_outlier_round_left_out),
		IOR_TEST(test_unusable_rounds),
		IOR_TEST(test_position),
		IOR_TEST(test_round_position_far),
		IOR_TEST_END,
	};
	return ior_test_run("paired", tests);
}
