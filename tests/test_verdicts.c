/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for stats/compare.c: Mann-Whitney, Student t and Welch against published tables,
 * Hodges-Lehmann, the outlier rule, and verdicts on generated data with known shifts. */
#include "stats/adaptive.h"
#include "stats/compare.h"
#include "stats/tdist.h"
#include "common/error.h"
#include "tests/suite.h"

#include <math.h>
#include <string.h>

#define NEAR(a, b, tol) CU_ASSERT_DOUBLE_EQUAL((a), (b), (tol))

/* Mann & Whitney (1947), "On a test of whether one of two random variables is
 * stochastically larger than the other", Ann. Math. Statist. 18(1), Table I:
 * P(U <= u) for n = m = 3, 4, 5, printed to three decimals. */
static void test_mw_cdf_matches_mann_whitney_1947_table(void)
{
	static const double n3[] = { .050, .100, .200, .350, .500 };
	static const double n4[] = { .014, .029, .057, .100, .171, .243, .343, .443, .557 };
	static const double n5[] = { .004, .008, .016, .028, .048, .075, .111, .155, .210, .274, .345, .421, .500 };
	for (int u = 0; u < 5; u++)
		NEAR(ior_mw_cdf(3, 3, u), n3[u], 0.0005);
	for (int u = 0; u < 9; u++)
		NEAR(ior_mw_cdf(4, 4, u), n4[u], 0.0005);
	for (int u = 0; u < 13; u++)
		NEAR(ior_mw_cdf(5, 5, u), n5[u], 0.0005);
	NEAR(ior_mw_cdf(5, 5, 25), 1.0, 1e-12);
}

/* Brute force: every way to split ranks 1..m+n into two groups, counting U. */
static double brute_cdf(int m, int n, int u)
{
	int N = m + n;
	long below = 0, total = 0;
	for (unsigned mask = 0; mask < (1u << N); mask++) {
		if (__builtin_popcount(mask) != m)
			continue;
		int U = 0;
		for (int i = 0; i < N; i++)
			if (mask & (1u << i))
				for (int j = 0; j < i; j++)
					U += !(mask & (1u << j));
		total++;
		below += U <= u;
	}
	return (double)below / (double)total;
}

static void test_mw_cdf_matches_enumeration(void)
{
	const int sizes[][2] = { { 2, 7 }, { 6, 6 }, { 3, 9 }, { 7, 8 } };
	for (size_t k = 0; k < 4; k++)
		for (int u = 0; u <= sizes[k][0] * sizes[k][1]; u += 3)
			NEAR(ior_mw_cdf(sizes[k][0], sizes[k][1], u), brute_cdf(sizes[k][0], sizes[k][1], u), 1e-12);
}

/* Wikipedia, "Mann-Whitney U test", the tortoise and hare example: finishing
 * order T H H H H H T T T T T H gives U_T = 11 and U_H = 25. */
static void test_mw_u_tortoise_and_hare(void)
{
	const char *order = "THHHHHTTTTTH";
	double t[6], h[6];
	size_t nt = 0, nh = 0;
	for (int i = 0; i < 12; i++) {
		double score = 12 - i;  /* higher = finished earlier */
		if (order[i] == 'T')
			t[nt++] = score;
		else
			h[nh++] = score;
	}
	struct ior_mw mw;
	CU_ASSERT_EQUAL_FATAL(ior_mann_whitney(&mw, t, 6, h, 6), 0);
	NEAR(mw.u, 11, 0);
	CU_ASSERT_TRUE(mw.exact);
	NEAR(mw.p, 2 * brute_cdf(6, 6, 11), 1e-12);
	ior_mann_whitney(&mw, h, 6, t, 6);
	NEAR(mw.u, 25, 0);
}

static void test_mw_min_p(void)
{
	NEAR(ior_mw_min_p(3, 3), 0.1, 1e-12);
	NEAR(ior_mw_min_p(4, 4), 2.0 / 70, 1e-12);
	NEAR(ior_mw_min_p(5, 5), 2.0 / 252, 1e-12);
	/* Complete separation reaches it. */
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	struct ior_mw mw;
	ior_mann_whitney(&mw, a, 3, b, 3);
	NEAR(mw.p, 0.1, 1e-12);
}

/* With ties the normal approximation (tie-corrected variance, continuity
 * correction) must agree with the exact permutation p of the tied data. */
static void test_mw_ties_normal_approximation(void)
{
	const double a[] = { 1, 2, 2, 3, 3, 3, 5, 6 }, b[] = { 3, 4, 5, 5, 6, 7, 7, 8 };
	struct ior_mw mw;
	ior_mann_whitney(&mw, a, 8, b, 8);
	CU_ASSERT_TRUE(mw.ties);
	CU_ASSERT_FALSE(mw.exact);
	double all[16];
	memcpy(all, a, sizeof(a));
	memcpy(all + 8, b, sizeof(b));
	double mean = 32, dev = fabs(mw.u - mean);
	long extreme = 0, total = 0;
	for (unsigned mask = 0; mask < (1u << 16); mask++) {
		if (__builtin_popcount(mask) != 8)
			continue;
		double u = 0;
		for (int i = 0; i < 16; i++)
			for (int j = 0; j < 16; j++)
				if ((mask & (1u << i)) && !(mask & (1u << j)))
					u += all[i] > all[j] ? 1 : all[i] == all[j] ? 0.5 : 0;
		total++;
		extreme += fabs(u - mean) >= dev - 1e-9;
	}
	double exact = (double)extreme / (double)total;
	NEAR(mw.p, exact, 0.01);
	CU_ASSERT_TRUE(mw.p < 0.05);
}

/* Hodges & Lehmann (1963): the shift estimate is the median of the m*n
 * differences. For a = 1 2 3, b = 4 5 6 the nine differences are 1 2 2 3 3 3
 * 4 4 5, median 3. A pure shift is recovered exactly; one wild value does not
 * move it (the mean difference would move by 10). */
static void test_hodges_lehmann(void)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	NEAR(ior_hodges_lehmann(a, 3, b, 3), 3, 1e-12);
	const double x[] = { 10.2, 11.7, 9.4, 10.9, 10.1 };
	double y[5];
	for (int i = 0; i < 5; i++)
		y[i] = x[i] + 2.5;
	NEAR(ior_hodges_lehmann(x, 5, y, 5), 2.5, 1e-12);
	y[4] += 50;
	NEAR(ior_hodges_lehmann(x, 5, y, 5), 2.5, 0.8);
}

/* Student's t, two-sided tail, against the printed table (e.g. Moore & McCabe,
 * Table D; NIST/SEMATECH e-Handbook 1.3.6.7.2): t* with upper tail 0.025 and
 * 0.005, i.e. two-sided 0.05 and 0.01. Degrees of freedom 1 and 2 also have
 * closed forms: p = 1 - 2 atan(t) / pi and p = 1 - t / sqrt(2 + t^2). */
static void test_t_distribution_matches_tables(void)
{
	static const struct { double df, t05, t01; } table[] = {
		{ 1, 12.706, 63.657 }, { 2, 4.303, 9.925 }, { 4, 2.776, 4.604 }, { 5, 2.571, 4.032 },
		{ 10, 2.228, 3.169 }, { 20, 2.086, 2.845 }, { 30, 2.042, 2.750 }, { 100, 1.984, 2.626 },
	};
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		NEAR(ior_t_quantile(0.975, table[i].df), table[i].t05, 0.0006);
		NEAR(ior_t_quantile(0.995, table[i].df), table[i].t01, 0.0006);
		NEAR(ior_t_quantile(0.025, table[i].df), -table[i].t05, 0.0006);
		NEAR(ior_t_two_sided_p(table[i].t05, table[i].df), 0.05, 0.0001);
		NEAR(ior_t_two_sided_p(table[i].t01, table[i].df), 0.01, 0.00005);
	}
	for (double t = 0; t < 30; t += 0.7) {
		NEAR(ior_t_two_sided_p(t, 1), 1 - 2 * atan(t) / M_PI, 1e-12);
		NEAR(ior_t_two_sided_p(-t, 2), 1 - t / sqrt(2 + t * t), 1e-12);
	}
	/* Large df approaches the normal: 1.959964 at 0.975. */
	NEAR(ior_t_quantile(0.975, 1e7), 1.959964, 1e-5);
	NEAR(ior_beta_regularized(0.3, 1, 1), 0.3, 1e-14);    /* I_x(1, 1) = x */
	NEAR(ior_beta_regularized(0.3, 2, 1), 0.09, 1e-14);   /* I_x(a, 1) = x^a */
	CU_ASSERT_TRUE(isnan(ior_t_two_sided_p(1, 0)));
}

/* The t tail at large degrees of freedom (Welch's df of two 25-sample cells reaches thousands when
 * their spreads differ a lot; a pooled boot series more) to 1e-13, against I_{df/(df+t^2)}(df/2, 1/2)
 * evaluated by mpmath 1.3 at 40 digits. The hand-written continued fraction was 3.4e-10 off at
 * df = 1e5, t = 0.01; r-mathlib's pt agrees to 1e-16. */
static void test_t_tail_at_large_df(void)
{
	static const struct {
		double df, t, p;
	} ref[] = {
		{ 1e5, 0.01, 0.99202130731882315629 }, { 1e5, 3, 0.0027004608840647191901 },
		{ 2e4, 1.5, 0.13363018733768499394 },  { 5e4, 0.5, 0.61707727785345844497 },
	};
	for (size_t i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		double p = ior_t_two_sided_p(ref[i].t, ref[i].df);
		if (fabs(p - ref[i].p) > 1e-13 * ref[i].p)
			fprintf(stderr, "\n  df %g t %g: %.17g, reference %.17g", ref[i].df, ref[i].t, p, ref[i].p);
		CU_ASSERT_TRUE(fabs(p - ref[i].p) <= 1e-13 * ref[i].p);
	}
}

/* R's t.test (Welch is its default), the worked example of the Cross
 * Validated answer "Welch's t-test confidence interval" (stats.stackexchange
 * 2017): ts1 = 11 9 10 11 10 12 9 11 12 9, ts2 = 11 13 10 13 12 9 11 12 12 11
 * gives t = -1.8325, df = 17.9, p = 0.08356, 95% CI -2.1469104 to 0.1469104
 * (for ts1 - ts2; ior_welch reports b - a, so the signs flip). */
static void test_welch_matches_r(void)
{
	const double a[] = { 11, 9, 10, 11, 10, 12, 9, 11, 12, 9 }, b[] = { 11, 13, 10, 13, 12, 9, 11, 12, 12, 11 };
	struct ior_welch w;
	CU_ASSERT_EQUAL_FATAL(ior_welch(&w, a, 10, b, 10, 0.95), 0);
	NEAR(w.t, 1.8325, 0.0001);
	NEAR(w.df, 17.9, 0.05);
	NEAR(w.p, 0.08356, 0.00001);
	NEAR(w.lo, -0.1469104, 1e-6);
	NEAR(w.hi, 2.1469104, 1e-6);
	NEAR(w.diff, 1.0, 1e-12);
	/* Welch-Satterthwaite by hand: equal variances (5/3) and sizes 4 and 4 give df = 4 + 4 - 2 = 6 */
	const double c[] = { 1, 2, 3, 4 }, d[] = { 2, 3, 4, 5 };
	ior_welch(&w, c, 4, d, 4, 0.95);
	NEAR(w.df, 6, 1e-12);
	/* fewer than two values on a side: no p-value */
	ior_welch(&w, c, 1, d, 4, 0.95);
	CU_ASSERT_TRUE(isnan(w.p));
	/* no spread at all: equal sides p = 1, different sides p = 0 */
	const double e[] = { 5, 5, 5 }, f[] = { 6, 6, 6 };
	ior_welch(&w, e, 3, e, 3, 0.95);
	NEAR(w.p, 1, 0);
	ior_welch(&w, e, 3, f, 3, 0.95);
	NEAR(w.p, 0, 0);
}

/* The outlier rule of the verdict: a stall far from both sides is left out;
 * a value of a second mode that lies in the other side's body is kept. */
static void test_compare_outliers(void)
{
	const double a[] = { 100.3, 99.6, 55.0, 100.1, 99.8 }, b[] = { 90.2, 89.7, 90.4, 89.9, 90.1 };
	bool f[5];
	CU_ASSERT_EQUAL(ior_compare_outliers(f, a, 5, b, 5, NULL), 1);
	CU_ASSERT_TRUE(f[2]);
	CU_ASSERT_FALSE(f[0] || f[1] || f[3] || f[4]);
	CU_ASSERT_EQUAL(ior_compare_outliers(NULL, b, 5, a, 5, NULL), 0);
	/* two modes, 100 and 96: a's lone 96 is where all of b lies, so it stays */
	const double m1[] = { 100.1, 99.9, 100.0, 100.2, 96.0 }, m2[] = { 96.1, 95.9, 96.0, 96.2, 95.8 };
	CU_ASSERT_EQUAL(ior_compare_outliers(NULL, m1, 5, m2, 5, NULL), 0);
	/* the same lone 96 is left out when b shows no such mode */
	const double m3[] = { 100.1, 99.8, 100.0, 100.3, 99.9 };
	CU_ASSERT_EQUAL(ior_compare_outliers(NULL, m1, 5, m3, 5, NULL), 1);
	/* a minority mode on both sides leaves both sides alike */
	const double m4[] = { 100.1, 99.9, 100.2, 96.1, 95.9 };
	CU_ASSERT_EQUAL(ior_compare_outliers(f, m1, 5, m4, 5, NULL), 1);
	CU_ASSERT_TRUE(f[4]);
	/* two of five would go: over the cap of one in five, so none does, and that is said */
	bool capped = false;
	CU_ASSERT_EQUAL(ior_compare_outliers(f, m4, 5, m1, 5, &capped), 0);
	CU_ASSERT_TRUE(capped);
	CU_ASSERT_FALSE(f[0] || f[1] || f[2] || f[3] || f[4]);
	/* MAD 0: nothing is far */
	const double z[] = { 5, 5, 5, 5, 9 };
	CU_ASSERT_EQUAL(ior_compare_outliers(NULL, z, 5, z, 5, NULL), 0);
}

/* The cap on generated data: whatever plain gaussian noise looks like at n = 5, 10 or 15, at
 * most one sample in five of a side is ever left out; a side with 3 or 4 samples keeps all;
 * and a side where more would go says "noise too large" in the verdict. */
static void test_outlier_cap_on_generated_data(void)
{
	struct ior_rng rng;
	ior_rng_seed(&rng, 20261201);
	size_t sizes[] = { 3, 4, 5, 10, 15 };
	size_t most[5] = { 0 }, capped_seen = 0;
	for (int trial = 0; trial < 4000; trial++) {
		for (size_t k = 0; k < 5; k++) {
			size_t n = sizes[k];
			double a[15], b[15];
			for (size_t i = 0; i < n; i++) { /* 5% CoV around 100 */
				a[i] = 100 + 5 * ior_rng_normal(&rng);
				b[i] = 100 + 5 * ior_rng_normal(&rng);
			}
			bool capped = false;
			size_t out = ior_compare_outliers(NULL, a, n, b, n, &capped);
			if (out > most[k])
				most[k] = out;
			capped_seen += capped;
			CU_ASSERT_TRUE(out <= n / 5);
			CU_ASSERT_TRUE(!capped || out == 0);
		}
	}
	CU_ASSERT_EQUAL(most[0], 0);
	CU_ASSERT_EQUAL(most[1], 0);
	CU_ASSERT_TRUE(capped_seen > 0); /* the cap is reached by this noise, so it is what held the counts */

	/* a side whose every value is far from its median but two: the verdict names the noise */
	const double base[] = { 100, 100.2, 99.9, 100.1, 99.8 }, cand[] = { 100, 60, 140, 100.1, 55 };
	struct ior_comparison c;
	CU_ASSERT_EQUAL_FATAL(ior_compare(&c, base, 5, cand, 5, NULL), IOR_OK);
	CU_ASSERT_TRUE(c.capped_b);
	CU_ASSERT_EQUAL(c.excluded_b, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "noise too large"));
}

/* With a body of ten or more values, the other side explains only values
 * within its range (give or take a standard deviation): a stall just under a
 * regressed candidate's lowest value goes, where a body of nine keeps it. */
static void test_compare_outliers_large_body(void)
{
	double a[15], b[15];
	for (int i = 0; i < 14; i++)
		a[i] = 99 + 2.0 * i / 13;       /* 99 .. 101 */
	a[14] = 87.5;                           /* a stall: 1.5 under b's lowest value */
	for (int j = 0; j < 15; j++)
		b[j] = 89 + 2.0 * j / 14;       /* 89 .. 91 */
	bool f[15];
	CU_ASSERT_EQUAL(ior_compare_outliers(f, a, 15, b, 15, NULL), 1);
	CU_ASSERT_TRUE(f[14]);
	CU_ASSERT_EQUAL(ior_compare_outliers(NULL, b, 15, a, 15, NULL), 0);
	/* nine values in b's body: within 3.5 of one of them, the stall stays */
	CU_ASSERT_EQUAL(ior_compare_outliers(NULL, a, 15, b, 9, NULL), 0);
	/* two modes on both sides, 100 and 96: each side's minority lies inside
	 * the other side's range, so nothing is left out */
	double m1[15], m2[15];
	for (int i = 0; i < 15; i++) {
		m1[i] = (i < 10 ? 100 : 96) + 0.05 * (i % 5);
		m2[i] = (i < 8 ? 96 : 100) + 0.05 * (i % 5);
	}
	CU_ASSERT_EQUAL(ior_compare_outliers(NULL, m1, 15, m2, 15, NULL), 0);
	CU_ASSERT_EQUAL(ior_compare_outliers(NULL, m2, 15, m1, 15, NULL), 0);
}

/* #14: a baseline stall among a regressed candidate's values (inside the candidate's range, so
 * the range rule keeps it) is left out when the candidate lies wholly below the baseline's median
 * and both sides have 15 values; with 14 a side, or when one candidate value reaches the
 * baseline's median, it stays. */
static void test_compare_outliers_separated_sides(void)
{
	double a[15], b[15];
	for (int i = 0; i < 14; i++)
		a[i] = 95 + 10.0 * i / 13;      /* 95 .. 105, median 100 */
	a[14] = 82;                             /* a stall, inside b's range */
	for (int j = 0; j < 15; j++)
		b[j] = 76 + 14.0 * j / 14;      /* 76 .. 90: wholly below 100 */
	bool f[15];
	CU_ASSERT_EQUAL(ior_compare_outliers(f, a, 15, b, 15, NULL), 1);
	CU_ASSERT_TRUE(f[14]);
	CU_ASSERT_EQUAL(ior_compare_outliers(NULL, b, 15, a, 15, NULL), 0);
	double a14[14];
	for (int i = 0; i < 13; i++)
		a14[i] = a[i];
	a14[13] = 82;
	CU_ASSERT_EQUAL(ior_compare_outliers(NULL, a14, 14, b, 14, NULL), 0);
	b[14] = 101;                            /* one candidate value past the baseline's median */
	CU_ASSERT_EQUAL(ior_compare_outliers(NULL, a, 15, b, 15, NULL), 0);
}

static void noisy(double *out, size_t n, struct ior_rng *r, double mean, double cov, double stall_rate)
{
	for (size_t i = 0; i < n; i++) {
		out[i] = mean * (1 + cov * ior_rng_normal(r));
		if (ior_rng_uniform(r) < stall_rate)
			out[i] *= 0.5 + 0.3 * ior_rng_uniform(r);
	}
}

/* Issue 5's motivating case: one stall among the baseline's five samples
 * used to hide a 10% regression (Mann-Whitney needs complete separation).
 * The verdict must still call it, say that one sample was left out, and
 * leave the samples themselves untouched. Since the one-in-five cap (#11), a
 * trial where a second baseline value also looks far is judged on all five
 * (3 of these 50 trials): such a miss is inconclusive, never "no change". */
static void test_one_stall_in_baseline_does_not_hide_a_regression(void)
{
	struct ior_rng r;
	ior_rng_seed(&r, 11);
	int found = 0;
	for (int trial = 0; trial < 50; trial++) {
		double a[5], b[5], copy[5];
		noisy(a, 5, &r, 100, 0.02, 0);
		noisy(b, 5, &r, 90, 0.02, 0);
		a[trial % 5] *= 0.5 + 0.3 * ior_rng_uniform(&r);   /* the stall */
		memcpy(copy, a, sizeof(a));
		struct ior_comparison c;
		CU_ASSERT_EQUAL_FATAL(ior_compare(&c, a, 5, b, 5, NULL), 0);
		CU_ASSERT_EQUAL(memcmp(a, copy, sizeof(a)), 0);
		CU_ASSERT_TRUE(c.mw.p > 0.01);   /* the rank test alone would have missed it */
		found += c.verdict == IOR_VERDICT_REGRESSION;
		CU_ASSERT_NOT_EQUAL(c.verdict, IOR_VERDICT_NO_CHANGE);
		if (trial == 0) {
			CU_ASSERT_EQUAL(c.excluded_a, 1);
			CU_ASSERT_EQUAL(c.excluded_b, 0);
			CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "1 of 5 baseline and 0 of 5 candidate samples left out"));
			CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "Mann-Whitney p ="));
		}
	}
	if (found < 45)
		fprintf(stderr, "found %d of 50\n", found);
	CU_ASSERT_TRUE(found >= 45);
}

/* And the other way: no shift, outliers on either side (one in ten samples
 * stalled), must not be called a regression or an improvement beyond the
 * 1% the level allows; nor may a single stall in the candidate alone. */
static void test_no_shift_with_outliers_is_not_a_regression(void)
{
	struct ior_rng r;
	ior_rng_seed(&r, 12);
	int claims = 0, stall_claims = 0;
	for (int trial = 0; trial < 400; trial++) {
		double a[10], b[10];
		size_t n = trial % 2 ? 5 : 10;
		noisy(a, n, &r, 100, 0.02, 0.1);
		noisy(b, n, &r, 100, 0.02, 0.1);
		struct ior_comparison c;
		CU_ASSERT_EQUAL_FATAL(ior_compare(&c, a, n, b, n, NULL), 0);
		claims += c.verdict == IOR_VERDICT_REGRESSION || c.verdict == IOR_VERDICT_IMPROVEMENT;
		noisy(a, 5, &r, 100, 0.02, 0);
		noisy(b, 5, &r, 100, 0.02, 0);
		b[trial % 5] *= 0.6;
		ior_compare(&c, a, 5, b, 5, NULL);
		stall_claims += c.verdict == IOR_VERDICT_REGRESSION;
		if (trial == 0)
			CU_ASSERT_EQUAL(c.excluded_b, 1);
	}
	CU_ASSERT_TRUE(claims <= 8);         /* 2% of 400, twice the level, for the binomial noise */
	CU_ASSERT_TRUE(stall_claims <= 8);
}

static void gen(double *out, size_t n, struct ior_rng *r, double mean, double cov)
{
	for (size_t i = 0; i < n; i++)
		out[i] = mean * (1 + cov * ior_rng_normal(r));
}

static enum ior_verdict verdict_for(double shift, double cov, size_t n, bool higher, uint64_t seed)
{
	struct ior_rng r;
	ior_rng_seed(&r, seed);
	double a[32], b[32];
	gen(a, n, &r, 100, cov);
	gen(b, n, &r, 100 * (1 + shift), cov);
	struct ior_compare_opts o;
	ior_compare_opts_default(&o);
	o.higher_is_better = higher;
	struct ior_comparison c;
	CU_ASSERT_EQUAL(ior_compare(&c, a, n, b, n, &o), 0);
	return c.verdict;
}

/* Known shifts and noise: a 20% throughput drop at 2% noise is a regression,
 * the same drop in a latency is an improvement, no shift gives no regression. */
static void test_verdicts_known_shifts(void)
{
	int reg = 0, imp = 0, fp = 0, nochange = 0;
	for (uint64_t s = 1; s <= 50; s++) {
		reg += verdict_for(-0.20, 0.02, 8, true, s) == IOR_VERDICT_REGRESSION;
		imp += verdict_for(-0.20, 0.02, 8, false, s) == IOR_VERDICT_IMPROVEMENT;
		enum ior_verdict v = verdict_for(0, 0.005, 10, true, 100 + s);
		fp += v == IOR_VERDICT_REGRESSION || v == IOR_VERDICT_IMPROVEMENT;
		nochange += v == IOR_VERDICT_NO_CHANGE;
	}
	CU_ASSERT_EQUAL(reg, 50);
	CU_ASSERT_EQUAL(imp, 50);
	CU_ASSERT_TRUE(fp <= 1);
	CU_ASSERT_TRUE(nochange >= 45);  /* 0.5% noise, 10 samples: the CI stays inside +-3% */
}

static void test_three_against_three_is_inconclusive_in_words(void)
{
	const double a[] = { 100, 101, 99 }, b[] = { 50, 51, 49 };
	struct ior_comparison c;
	CU_ASSERT_EQUAL_FATAL(ior_compare(&c, a, 3, b, 3, NULL), 0);
	CU_ASSERT_EQUAL(c.verdict, IOR_VERDICT_INCONCLUSIVE);
	NEAR(c.mw.p, 0.1, 1e-12);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "3 against 3 samples cannot reach p < 0.01"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "0.100"));
	NEAR(c.ratio, 0.5, 1e-12);
	/* even unmistakable data: the small-sample rule starts at 4 a side (two-mode noise at 3), and the
	 * words give the effect and its interval */
	CU_ASSERT_TRUE(c.separated);
	CU_ASSERT_TRUE(ior_compare_small_decides(&c, 0.01, 0.03));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "n = 3: not enough to decide: median -50.0% (95% CI "));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "no rule holds 1% false positives on two-mode noise"));
}

/* decide_schedulers: a device's schedulers stop together once the best beats the next, or every
 * one is within the minimum effect of the best; not before the minimum, never past the cap. */
static void test_adaptive_schedulers(void)
{
	struct ior_adaptive a;
	ior_adaptive_default(&a);
	a.max_reps = 10;
	struct ior_rng r;
	ior_rng_seed(&r, 11);
	double v[3][10];
	const char *names[] = { "none", "mq-deadline", "bfq" };
	const double *cells[] = { v[0], v[1], v[2] };
	char why[256];
	/* kyber-like: one scheduler 20% faster at 1% noise: named best at the first look */
	gen(v[0], 10, &r, 100, 0.01), gen(v[1], 10, &r, 120, 0.01), gen(v[2], 10, &r, 100, 0.01);
	CU_ASSERT_EQUAL(ior_adaptive_schedulers(&a, cells, 3, 4, names, why, sizeof(why)), IOR_ADAPT_CONTINUE);
	size_t n = 5;
	while (ior_adaptive_schedulers(&a, cells, 3, n, names, why, sizeof(why)) == IOR_ADAPT_CONTINUE)
		n++;
	CU_ASSERT(n <= 8);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "decided, mq-deadline is best"));
	/* equal schedulers at 0.3% noise: within noise */
	gen(v[0], 10, &r, 100, 0.003), gen(v[1], 10, &r, 100, 0.003), gen(v[2], 10, &r, 100, 0.003);
	n = 5;
	while (ior_adaptive_schedulers(&a, cells, 3, n, names, why, sizeof(why)) == IOR_ADAPT_CONTINUE)
		n++;
	CU_ASSERT(n < 10);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "within noise"));
	/* 2% apart under 10% noise: neither, so the cap */
	gen(v[0], 10, &r, 100, 0.10), gen(v[1], 10, &r, 102, 0.10), gen(v[2], 10, &r, 100, 0.10);
	n = 5;
	enum ior_adapt last;
	while ((last = ior_adaptive_schedulers(&a, cells, 3, n, names, why, sizeof(why))) == IOR_ADAPT_CONTINUE)
		n++;
	CU_ASSERT_EQUAL(last, IOR_ADAPT_STOP_CAP);
	CU_ASSERT_EQUAL(n, 10);
	/* latency: lower is better, so the lowest is best */
	a.cmp.higher_is_better = false;
	gen(v[0], 10, &r, 100, 0.01), gen(v[1], 10, &r, 80, 0.01), gen(v[2], 10, &r, 100, 0.01);
	n = 5;
	while (ior_adaptive_schedulers(&a, cells, 3, n, names, why, sizeof(why)) == IOR_ADAPT_CONTINUE)
		n++;
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "mq-deadline is best"));
}

/* Four a side under the rank test's floor (smallest p 0.029): decided only when the sides separate,
 * Welch's p on logs is below 0.001 and the whole interval is past the minimum effect. */
static void test_four_against_four_small_sample_rule(void)
{
	const double a[] = { 100, 101, 99, 100.5 }, b[] = { 90, 91, 89.5, 90.5 };
	struct ior_comparison c;
	CU_ASSERT_EQUAL_FATAL(ior_compare(&c, a, 4, b, 4, NULL), 0);
	CU_ASSERT(c.min_p >= 0.01);
	CU_ASSERT_EQUAL(c.verdict, IOR_VERDICT_REGRESSION);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "decided at 4 against 4 by the small-sample rule"));
	CU_ASSERT_EQUAL_FATAL(ior_compare(&c, b, 4, a, 4, NULL), 0);
	CU_ASSERT_EQUAL(c.verdict, IOR_VERDICT_IMPROVEMENT);
	/* latency: lower is better, so the same drop is an improvement */
	struct ior_compare_opts o;
	ior_compare_opts_default(&o);
	o.higher_is_better = false;
	CU_ASSERT_EQUAL_FATAL(ior_compare(&c, a, 4, b, 4, &o), 0);
	CU_ASSERT_EQUAL(c.verdict, IOR_VERDICT_IMPROVEMENT);
	/* one value across the gap: the sides overlap, Welch's p alone does not decide */
	const double o1[] = { 90, 91, 89.5, 99.5 };
	CU_ASSERT_EQUAL_FATAL(ior_compare(&c, a, 4, o1, 4, NULL), 0);
	CU_ASSERT_FALSE(c.separated);
	CU_ASSERT_EQUAL(c.verdict, IOR_VERDICT_INCONCLUSIVE);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "n = 4: not enough to decide"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "the sides overlap"));
	/* separated, but a 2% change: inside the minimum effect */
	const double small[] = { 98, 98.9, 97, 98.4 };
	CU_ASSERT_EQUAL_FATAL(ior_compare(&c, a, 4, small, 4, NULL), 0);
	CU_ASSERT_TRUE(c.separated);
	CU_ASSERT_EQUAL(c.verdict, IOR_VERDICT_INCONCLUSIVE);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "n = 4: not enough to decide"));
	/* separated and large, but noisy: Welch's p is not below 0.001 */
	const double wide[] = { 80, 88, 72, 85 }, wa[] = { 100, 108, 93, 112 };
	CU_ASSERT_EQUAL_FATAL(ior_compare(&c, wa, 4, wide, 4, NULL), 0);
	CU_ASSERT_TRUE(c.separated);
	CU_ASSERT(c.welch.p >= 0.001);
	CU_ASSERT_EQUAL(c.verdict, IOR_VERDICT_INCONCLUSIVE);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "Welch's p is not below the small-sample level"));
}

static void test_bootstrap_is_seeded(void)
{
	const double a[] = { 100, 97, 103, 99, 101, 104 }, b[] = { 92, 95, 90, 94, 97, 93 };
	struct ior_compare_opts o;
	ior_compare_opts_default(&o);
	struct ior_comparison c1, c2, c3;
	ior_compare(&c1, a, 6, b, 6, &o);
	ior_compare(&c2, a, 6, b, 6, &o);
	o.seed = 7;
	ior_compare(&c3, a, 6, b, 6, &o);
	CU_ASSERT_EQUAL(c1.ratio_lo, c2.ratio_lo);
	CU_ASSERT_EQUAL(c1.ratio_hi, c2.ratio_hi);
	CU_ASSERT_TRUE(c1.ratio_lo <= c1.ratio && c1.ratio <= c1.ratio_hi);
	CU_ASSERT_TRUE(c3.ratio_lo <= c3.ratio && c3.ratio <= c3.ratio_hi);
	CU_ASSERT_EQUAL(c1.verdict, IOR_VERDICT_REGRESSION);
	NEAR(c1.hl_shift, -6.5, 1.5);
}

static void test_compare_rejects_empty(void)
{
	const double a[] = { 1, 2 };
	struct ior_comparison c;
	CU_ASSERT_EQUAL(ior_compare(&c, a, 2, a, 0, NULL), IOR_EINVALID);
	CU_ASSERT_EQUAL(ior_compare(&c, a, 0, a, 2, NULL), IOR_EINVALID);
}

/* A counter metric is 0 where nothing happens (merge_pct where no bio merges): no log ratio exists,
 * so the per-sample verdict goes to ranks instead of failing the command, as the boot path does.
 * Before, ior_compare refused every such cell ("medians must be positive") and compare --metric
 * merge_pct failed. */
static void test_compare_zeros_judged_by_ranks(void)
{
	double z[8] = { 0 }, b[8], mixed[8];
	for (int i = 0; i < 8; i++)
		b[i] = 4 + 0.1 * i, mixed[i] = i % 4 ? 100 + i : 0;
	struct ior_compare_opts o;
	ior_compare_opts_default(&o);
	o.higher_is_better = true;
	struct ior_comparison c;
	CU_ASSERT_EQUAL(ior_compare(&c, z, 8, z, 8, &o), 0);
	CU_ASSERT_EQUAL(c.verdict, IOR_VERDICT_NO_CHANGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "0 on every sample of both (8 samples against 8)"));
	CU_ASSERT_EQUAL(ior_compare(&c, z, 8, b, 8, &o), 0);
	CU_ASSERT_EQUAL(c.verdict, IOR_VERDICT_IMPROVEMENT);
	CU_ASSERT(c.mw.p < 0.001);
	CU_ASSERT(isnan(c.ratio_lo) && isnan(c.ratio_hi));
	o.higher_is_better = false;
	CU_ASSERT_EQUAL(ior_compare(&c, z, 8, b, 8, &o), 0);
	CU_ASSERT_EQUAL(c.verdict, IOR_VERDICT_REGRESSION);
	/* a 0 among positive values on both sides, the same distribution: no difference is claimed */
	CU_ASSERT_EQUAL(ior_compare(&c, mixed, 8, mixed, 8, &o), 0);
	CU_ASSERT_EQUAL(c.verdict, IOR_VERDICT_INCONCLUSIVE);
	NEAR(c.ratio, 1, 1e-12);
	/* too few samples for ranks to reach alpha: said, with the floor */
	CU_ASSERT_EQUAL(ior_compare(&c, z, 2, b, 2, &o), 0);
	CU_ASSERT_EQUAL(c.verdict, IOR_VERDICT_INCONCLUSIVE);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "the smallest p 2 against 2 samples can give is 0.333"));
}

/* The adaptive rule: stable stops without a baseline, a clear shift stops
 * early as decided, and nothing ever runs past the cap. */
static void test_adaptive_rule(void)
{
	struct ior_adaptive a;
	ior_adaptive_default(&a);
	struct ior_rng r;
	ior_rng_seed(&r, 5);
	double base[15], x[15];
	gen(base, 15, &r, 100, 0.01);
	CU_ASSERT_EQUAL(ior_adaptive_next(&a, base, 4, NULL, 0, NULL, 0), IOR_ADAPT_CONTINUE);
	CU_ASSERT_EQUAL(ior_adaptive_next(&a, base, 5, NULL, 0, NULL, 0), IOR_ADAPT_STOP_STABLE);
	gen(x, 15, &r, 100, 0.20);   /* noisy: no stable stop before the cap */
	size_t n = 2;
	while (ior_adaptive_next(&a, x, n, NULL, 0, NULL, 0) == IOR_ADAPT_CONTINUE)
		n++;
	CU_ASSERT_TRUE(n <= 15);
	CU_ASSERT_EQUAL(ior_adaptive_next(&a, x, 15, NULL, 0, NULL, 0), IOR_ADAPT_STOP_CAP);
	CU_ASSERT_EQUAL(ior_adaptive_next(&a, x, 40, NULL, 0, NULL, 0), IOR_ADAPT_STOP_CAP);
	/* a 30% drop at 1% noise is decided at the first look */
	gen(x, 15, &r, 70, 0.01);
	char why[128];
	CU_ASSERT_EQUAL(ior_adaptive_next(&a, x, 5, base, 15, why, sizeof(why)), IOR_ADAPT_STOP_DECIDED);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "regression"));
	/* against a baseline of only 5 the rank test's floor at the interim level
	 * holds every look until 5 against 14 (smallest p 2 / C(19, 5) < 0.0002) */
	CU_ASSERT_EQUAL(ior_adaptive_next(&a, x, 13, base, 5, NULL, 0), IOR_ADAPT_CONTINUE);
	CU_ASSERT_EQUAL(ior_adaptive_next(&a, x, 14, base, 5, why, sizeof(why)), IOR_ADAPT_STOP_DECIDED);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "regression"));
	/* the same drop under 10% noise needs more looks than the first */
	gen(x, 15, &r, 90, 0.10);
	CU_ASSERT_EQUAL(ior_adaptive_next(&a, x, 5, base, 15, NULL, 0), IOR_ADAPT_CONTINUE);
	/* Haybittle-Peto: strict before the cap, the verdict's own level at it */
	NEAR(ior_adaptive_look_alpha(&a, 5), 0.0002, 1e-12);
	NEAR(ior_adaptive_look_alpha(&a, 14), 0.0002, 1e-12);
	NEAR(ior_adaptive_look_alpha(&a, 15), 0.01, 1e-12);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_mw_cdf_matches_mann_whitney_1947_table),
		IOR_TEST(test_mw_cdf_matches_enumeration),
		IOR_TEST(test_mw_u_tortoise_and_hare),
		IOR_TEST(test_mw_min_p),
		IOR_TEST(test_four_against_four_small_sample_rule),
		IOR_TEST(test_adaptive_schedulers),
		IOR_TEST(test_mw_ties_normal_approximation),
		IOR_TEST(test_hodges_lehmann),
		IOR_TEST(test_t_distribution_matches_tables),
		IOR_TEST(test_t_tail_at_large_df),
		IOR_TEST(test_welch_matches_r),
		IOR_TEST(test_compare_outliers),
		IOR_TEST(test_outlier_cap_on_generated_data),
		IOR_TEST(test_compare_outliers_large_body),
		IOR_TEST(test_compare_outliers_separated_sides),
		IOR_TEST(test_one_stall_in_baseline_does_not_hide_a_regression),
		IOR_TEST(test_no_shift_with_outliers_is_not_a_regression),
		IOR_TEST(test_verdicts_known_shifts),
		IOR_TEST(test_three_against_three_is_inconclusive_in_words),
		IOR_TEST(test_bootstrap_is_seeded),
		IOR_TEST(test_compare_rejects_empty),
		IOR_TEST(test_compare_zeros_judged_by_ranks),
		IOR_TEST(test_adaptive_rule),
		IOR_TEST_END,
	};
	return ior_test_run("verdicts", tests);
}
