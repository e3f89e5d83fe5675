/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for stats/classify.c: a candidate against a good and a bad end, rates measured on seeded generated data. */
#include "stats/classify.h"
#include "common/error.h"
#include "common/rng.h"
#include "tests/suite.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define REPS 5
#define TRIALS 2000

static void draw(struct ior_rng *rng, double *x, size_t n, double mean, double cov)
{
	for (size_t i = 0; i < n; i++)
		x[i] = mean * (1 + cov * ior_rng_normal(rng));
}

/* Rates of good and bad calls for a candidate drawn like one end (like_good) over seeded trials. */
static void rates(double cov, bool like_good, bool higher_is_better, double *good, double *bad)
{
	struct ior_rng rng;
	ior_rng_seed(&rng, 0xc1a55ULL + (uint64_t)(cov * 1000) + like_good);
	struct ior_classify_opts o;
	ior_classify_opts_default(&o);
	o.higher_is_better = higher_is_better;
	/* the bad end is 4 x CoV worse: lower throughput, or higher latency */
	double mg = 1000, mb = higher_is_better ? mg * (1 - 4 * cov) : mg * (1 + 4 * cov);
	size_t ng = 0, nb = 0;
	for (int t = 0; t < TRIALS; t++) {
		double g[REPS], b[REPS], c[REPS];
		draw(&rng, g, REPS, mg, cov);
		draw(&rng, b, REPS, mb, cov);
		draw(&rng, c, REPS, like_good ? mg : mb, cov);
		struct ior_classification k;
		CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_classify(&k, g, REPS, b, REPS, c, REPS, &o)), 0);
		ng += k.verdict == IOR_CLASS_GOOD;
		nb += k.verdict == IOR_CLASS_BAD;
	}
	*good = (double)ng / TRIALS;
	*bad = (double)nb / TRIALS;
	printf("\n  CoV %.0f%% %s candidate like %s: good %.1f%%, bad %.1f%%", cov * 100,
	       higher_is_better ? "throughput" : "latency", like_good ? "good" : "bad", *good * 100, *bad * 100);
}

static void test_candidate_like_good_end_is_good(void)
{
	const double covs[] = { 0.01, 0.02, 0.05 };
	for (size_t i = 0; i < 3; i++)
		for (int hib = 0; hib < 2; hib++) {
			double good, bad;
			rates(covs[i], true, hib, &good, &bad);
			CU_ASSERT(good >= 0.90);
			CU_ASSERT(bad <= 0.01);
		}
}

static void test_candidate_like_bad_end_is_bad(void)
{
	const double covs[] = { 0.01, 0.02, 0.05 };
	for (size_t i = 0; i < 3; i++)
		for (int hib = 0; hib < 2; hib++) {
			double good, bad;
			rates(covs[i], false, hib, &good, &bad);
			CU_ASSERT(bad >= 0.90);
			CU_ASSERT(good <= 0.01);
		}
}

static void test_ends_that_do_not_differ_are_refused(void)
{
	const double g[] = { 100, 101, 99, 100.5, 99.5 }, b[] = { 100.2, 99.8, 100.7, 99.1, 100 },
		     c[] = { 100, 100, 101, 99, 100 };
	struct ior_classification k;
	CU_ASSERT_EQUAL_FATAL(ior_classify(&k, g, 5, b, 5, c, 5, NULL), 0);
	CU_ASSERT_EQUAL(k.verdict, IOR_CLASS_NO_GAP);
	CU_ASSERT_PTR_NOT_NULL(strstr(k.reason, "not significantly worse"));
}

static void test_better_than_good_is_good(void)
{
	const double g[] = { 100, 101, 99, 100.5, 99.5 }, b[] = { 80, 81, 79, 80.5, 79.5 },
		     c[] = { 120, 121, 119, 120.5, 119.5 };
	struct ior_classification k;
	CU_ASSERT_EQUAL_FATAL(ior_classify(&k, g, 5, b, 5, c, 5, NULL), 0);
	CU_ASSERT_EQUAL(k.verdict, IOR_CLASS_GOOD);
	CU_ASSERT(k.position > 1.5);
}

static void test_too_few_or_non_positive_samples_are_errors(void)
{
	const double g[] = { 100, 101 }, z[] = { 0, 1 };
	struct ior_classification k;
	CU_ASSERT_EQUAL(ior_classify(&k, g, 1, g, 2, g, 2, NULL), IOR_EINVALID);
	CU_ASSERT_EQUAL(ior_classify(&k, g, 2, g, 2, z, 2, NULL), IOR_EINVALID);
	ior_error_clear();
}

/* The command: three kernels imported, the candidate like each end in turn, exit statuses for git bisect run. */
static void test_check_bad_exit_statuses(void)
{
	char csv[4096] = "host,kernel,device,scheduler,engine,rep,value,unit\n";
	const struct { const char *kernel; double level; } k[] = {
		{ "6.1.0-good", 1000 }, { "6.1.0-bad", 900 }, { "6.1.0-likegood", 1000 }, { "6.1.0-likebad", 900 },
	};
	const double noise[] = { 1.004, 0.997, 1.001, 0.995, 1.003 };
	for (size_t i = 0; i < 4; i++)
		for (int r = 0; r < 5; r++) {
			size_t len = strlen(csv);
			snprintf(csv + len, sizeof(csv) - len, "h,%s,d,none,seq,%d,%.2f,MB/s\n", k[i].kernel, r + 1,
				 k[i].level * noise[(r + i) % 5]);
		}
	const char *path = ior_test_write_file("three.csv", csv);
	char db[512], out[8192], err[1024];
	snprintf(db, sizeof(db), "%s/c.db", ior_test_tmpdir());
	char *imp[] = { "--db", db, "import", (char *)path, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(imp, NULL, 0, err, sizeof(err)), 0);
	char *good[] = { "--db", db, "check", "--baseline", "6.1.0-good", "--bad", "6.1.0-bad", "--candidate",
			 "6.1.0-likegood", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(good, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "like the good end"));
	char *bad[] = { "--db", db, "check", "--baseline", "6.1.0-good", "--bad", "6.1.0-bad", "--candidate",
			"6.1.0-likebad", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(bad, out, sizeof(out), err, sizeof(err)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "like the bad end"));
	/* the ends swapped: a "bad" end better than the good one differs on no cell in the hunted direction */
	char *none[] = { "--db", db, "check", "--baseline", "6.1.0-bad", "--bad", "6.1.0-good", "--candidate",
			 "6.1.0-likebad", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(none, out, sizeof(out), err, sizeof(err)), 128);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "do not differ"));
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_candidate_like_good_end_is_good),
		IOR_TEST(test_candidate_like_bad_end_is_bad),
		IOR_TEST(test_ends_that_do_not_differ_are_refused),
		IOR_TEST(test_better_than_good_is_good),
		IOR_TEST(test_too_few_or_non_positive_samples_are_errors),
		IOR_TEST(test_check_bad_exit_statuses),
		IOR_TEST_END,
	};
	return ior_test_run("classify", tests);
}
