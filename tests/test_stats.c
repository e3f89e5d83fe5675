/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for stats/stats.c against published worked examples (sources cited at each test). */
#include "stats/stats.h"
#include "tests/suite.h"

#include <math.h>
#include <string.h>

#define NEAR(a, b, tol) CU_ASSERT_DOUBLE_EQUAL((a), (b), (tol))

/* Wikipedia, "Standard deviation", Basic examples: 2 4 4 4 5 5 7 9 has mean 5
 * and population SD 2, so the sample (n-1) SD is sqrt(32/7) = 2.13809. */
static void test_mean_sd_cov_textbook(void)
{
	const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct ior_stats st;
	CU_ASSERT_EQUAL_FATAL(ior_stats_compute(&st, x, 8), 0);
	CU_ASSERT_EQUAL(st.n, 8);
	NEAR(st.mean, 5.0, 1e-12);
	NEAR(st.sd, sqrt(32.0 / 7.0), 1e-12);
	NEAR(st.sd, 2.13809, 1e-5);
	NEAR(st.cov, 2.13809 / 5.0, 1e-6);
	NEAR(st.median, 4.5, 1e-12);
	NEAR(st.min, 2, 0);
	NEAR(st.max, 9, 0);
}

/* Wikipedia, "Harmonic mean": the harmonic mean of 1, 4 and 4 is 2; and the
 * classic average-speed example: 60 km/h out and 40 km/h back average 48 km/h. */
static void test_harmonic_mean_textbook(void)
{
	const double x[] = { 1, 4, 4 }, v[] = { 60, 40 }, bad[] = { 3, 0 };
	struct ior_stats st;
	ior_stats_compute(&st, x, 3);
	NEAR(st.hmean, 2.0, 1e-12);
	ior_stats_compute(&st, v, 2);
	NEAR(st.hmean, 48.0, 1e-12);
	ior_stats_compute(&st, bad, 2);
	CU_ASSERT_TRUE(isnan(st.hmean));
}

/* Wikipedia, "Median absolute deviation", Example: 1 1 2 2 4 6 9 has median 2
 * and MAD 1 (deviations 1 1 0 0 2 4 7). Scaled by 1.4826 for sigma. */
static void test_mad_textbook(void)
{
	const double x[] = { 1, 1, 2, 2, 4, 6, 9 };
	struct ior_stats st;
	ior_stats_compute(&st, x, 7);
	NEAR(st.median, 2, 1e-12);
	NEAR(st.mad, 1, 1e-12);
	NEAR(st.mad_scaled, 1.4826, 1e-12);
}

/* Hyndman & Fan (1996), type 7, R's default: quantile(1:10) gives
 * 25% = 3.25 and 75% = 7.75 (R documentation of quantile()). */
static void test_quartiles_type7(void)
{
	const double x[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	NEAR(ior_quantile_sorted(x, 10, 0.25), 3.25, 1e-12);
	NEAR(ior_quantile_sorted(x, 10, 0.75), 7.75, 1e-12);
	NEAR(ior_quantile_sorted(x, 10, 0.0), 1, 0);
	NEAR(ior_quantile_sorted(x, 10, 1.0), 10, 0);
	struct ior_stats st;
	ior_stats_compute(&st, x, 10);
	NEAR(st.q1, 3.25, 1e-12);
	NEAR(st.q3, 7.75, 1e-12);
}

/* Iglewicz & Hoaglin (1993), as given in the NIST/SEMATECH e-Handbook of
 * Statistical Methods, 1.3.5.17: M_i = 0.6745 (x_i - median) / MAD, outlier
 * when |M_i| > 3.5. On the MAD example above, 9 has M = 0.6745 * 7 = 4.72
 * (an outlier) and 6 has M = 2.70 (not). Tukey's fences with type-7
 * quartiles (Q1 1.5, Q3 5, IQR 3.5, upper fence 10.25) flag nothing: the two
 * rules differ on purpose, the modified z-score being the more sensitive. */
static void test_outlier_rules(void)
{
	const double x[] = { 1, 1, 2, 2, 4, 6, 9 };
	bool flags[8];
	CU_ASSERT_EQUAL(ior_outliers_modz(flags, x, 7, IOR_MODZ_THRESHOLD), 1);
	CU_ASSERT_TRUE(flags[6]);
	CU_ASSERT_FALSE(flags[5]);
	CU_ASSERT_EQUAL(ior_outliers_tukey(flags, x, 7, IOR_TUKEY_K), 0);
	/* Add a far point: Tukey now flags it (Q3 of 8 values is 6.75 at most). */
	const double y[] = { 1, 1, 2, 2, 4, 6, 9, 40 };
	CU_ASSERT_EQUAL(ior_outliers_tukey(flags, y, 8, IOR_TUKEY_K), 1);
	CU_ASSERT_TRUE(flags[7]);
	/* MAD 0 (most values equal) flags nothing rather than everything. */
	const double z[] = { 5, 5, 5, 5, 9 };
	CU_ASSERT_EQUAL(ior_outliers_modz(NULL, z, 5, IOR_MODZ_THRESHOLD), 0);
}

/* The field report (../shared/FACTS.md): 2.6.32 SSD RAID, all nine samples,
 * (max - min) / min = (102.37 - 61.33) / 61.33 = 66.9%; SATA RAID 3.1%. */
static void test_spread_field_report(void)
{
	const double ssd[] = { 77.18, 61.33, 71.93, 79.72, 102.37, 98.66, 75.83, 92.08, 100.79 };
	const double sata[] = { 75.25, 74.33, 73.52, 73.47, 75.73, 75.64, 75.77, 73.64, 73.47 };
	struct ior_stats st;
	ior_stats_compute(&st, ssd, 9);
	NEAR(st.spread * 100, 66.9, 0.05);
	ior_stats_compute(&st, sata, 9);
	NEAR(st.spread * 100, 3.1, 0.05);
}

static void test_samples_never_altered(void)
{
	double x[] = { 9, 1, 6, 2, 4, 2, 1 };
	double copy[7];
	memcpy(copy, x, sizeof(x));
	struct ior_stats st;
	ior_stats_compute(&st, x, 7);
	ior_outliers_tukey(NULL, x, 7, 1.5);
	ior_outliers_modz(NULL, x, 7, 3.5);
	ior_median(x, 7);
	CU_ASSERT_EQUAL(memcmp(x, copy, sizeof(x)), 0);
}

static void test_single_and_empty(void)
{
	const double one[] = { 42 };
	struct ior_stats st;
	CU_ASSERT_EQUAL(ior_stats_compute(&st, one, 1), 0);
	NEAR(st.median, 42, 0);
	NEAR(st.sd, 0, 0);
	NEAR(st.spread, 0, 0);
	CU_ASSERT_NOT_EQUAL(ior_stats_compute(&st, one, 0), 0);
	CU_ASSERT_TRUE(isnan(ior_median(one, 0)));
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_mean_sd_cov_textbook),
		IOR_TEST(test_harmonic_mean_textbook),
		IOR_TEST(test_mad_textbook),
		IOR_TEST(test_quartiles_type7),
		IOR_TEST(test_outlier_rules),
		IOR_TEST(test_spread_field_report),
		IOR_TEST(test_samples_never_altered),
		IOR_TEST(test_single_and_empty),
		IOR_TEST_END,
	};
	return ior_test_run("stats", tests);
}
