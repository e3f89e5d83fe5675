/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for stats/trend.c: Kendall's exact p against published values, warm-up and drift flagged on
 * generated cells, and shuffled copies of the same values not. */
#include "common/rng.h"
#include "db/db.h"
#include "reports/model.h"
#include "reports/render.h"
#include "stats/trend.h"
#include "tests/suite.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEAR(a, b, tol) CU_ASSERT_DOUBLE_EQUAL((a), (b), (tol))

/* Kendall (1948), "Rank Correlation Methods", table of P(S >= s) for n = 10: s = 25 gives
 * 0.014, s = 27 gives 0.0083; two-sided doubles them. Five values in order: 2/5! both ways. */
static void test_kendall_published(void)
{
	double x[10];
	for (int i = 0; i < 10; i++)
		x[i] = i;
	double tau;
	NEAR(ior_kendall_p(x, 5, &tau), 2.0 / 120, 1e-12);
	NEAR(tau, 1.0, 1e-12);
	/* 10 values with 10 inversions: S = 45 - 20 = 25 */
	double y[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	int swaps = 0;
	for (int pass = 0; swaps < 10; pass++)
		for (int i = 0; i + 1 < 10 && swaps < 10; i++)
			if (y[i] < y[i + 1]) {
				double t = y[i];
				y[i] = y[i + 1], y[i + 1] = t;
				swaps++;
				break;
			}
	NEAR(ior_kendall_p(y, 10, &tau), 2 * 0.014, 0.001);
	/* exactly: permutations of 10 with at most 10 inversions (Mahonian numbers, OEIS A008302:
	 * 1, 9, 44, 155, 440, 1068, 2298, 4489, 8095, 13640, 21670) over 10! */
	NEAR(ior_kendall_p(y, 10, &tau), 2 * 51909.0 / 3628800, 1e-12);
	NEAR(tau, 25.0 / 45, 1e-12);
	double z[10] = { 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 };  /* the mirror: the same p, tau -1 */
	NEAR(ior_kendall_p(z, 10, &tau), 2.0 / 3628800, 1e-15);
	NEAR(tau, -1.0, 1e-12);
	CU_ASSERT_TRUE(isnan(ior_kendall_p(x, 2, NULL)));
}

/* The seed-loop tmpfs cell: the first repetition at 356 MiB/s, the rest 1,600-1,800. */
static void test_seed_warmup(void)
{
	const double x[] = { 356, 1712, 1650, 1790, 1604 };
	struct ior_trend t;
	ior_trend_detect(&t, x, 5, NULL);
	CU_ASSERT_EQUAL(t.kind, IOR_TREND_WARMUP);
	CU_ASSERT_EQUAL(t.k, 1);
	CU_ASSERT_TRUE(t.lead_low);
	NEAR(t.factor, 1604.0 / 356, 1e-9);
	char words[256];
	ior_trend_describe(words, sizeof(words), &t);
	CU_ASSERT_PTR_NOT_NULL(strstr(words, "warm-up: repetition 1 (356.00) is 4.5x below the other 4"));
	/* the same values with the slow one last are not a warm-up, and 5 cannot reach the rank test's level */
	const double y[] = { 1712, 1650, 1790, 1604, 356 };
	ior_trend_detect(&t, y, 5, NULL);
	CU_ASSERT_EQUAL(t.kind, IOR_TREND_NONE);
	/* two slow ones first: k = 2 */
	const double w[] = { 300, 410, 1712, 1650, 1790, 1604 };
	ior_trend_detect(&t, w, 6, NULL);
	CU_ASSERT_EQUAL(t.kind, IOR_TREND_WARMUP);
	CU_ASSERT_EQUAL(t.k, 2);
}

static void shuffle(struct ior_rng *rng, double *x, size_t n)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = ior_rng_below(rng, i);
		double t = x[i - 1];
		x[i - 1] = x[j], x[j] = t;
	}
}

/* Generated cells with a known trend, and the same values shuffled (which removes the trend
 * and nothing else): the trend is flagged in most cells, the shuffled copies in at most 1%
 * (up to the sampling error of 4000 trials: 1.0% +- 0.16%).
 * 4000 trials each, seeded, so the rates are measured, not one lucky case. */
static void check_rates(int shape, size_t n, double want_power, enum ior_trend_kind want_kind)
{
	struct ior_rng rng;
	ior_rng_seed(&rng, 14 + (uint64_t)shape);
	enum { TRIALS = 4000 };
	size_t flagged = 0, right_kind = 0, shuffled_flagged = 0, shuffled_warmup = 0, restored = 0;
	double x[16];
	for (int i = 0; i < TRIALS; i++) {
		for (size_t r = 0; r < n; r++) {
			x[r] = 100 * (1 + 0.03 * ior_rng_normal(&rng));
			if (ior_rng_uniform(&rng) < 0.1)  /* a stall now and then, as on real devices */
				x[r] *= 0.5 + 0.3 * ior_rng_uniform(&rng);
		}
		if (shape == 0)
			x[0] /= 4;  /* warm-up */
		else
			for (size_t r = 0; r < n; r++)
				x[r] *= 1 + 0.3 * (double)r / (double)(n - 1);  /* drift: 30% faster by the last */
		struct ior_trend t;
		ior_trend_detect(&t, x, n, NULL);
		flagged += t.kind != IOR_TREND_NONE;
		right_kind += t.kind == want_kind;
		/* a shuffle that puts the slow first repetition back first restores the warm-up
		 * (1 in n); those copies are not trend-free and are left out of the rate */
		double first = x[0];
		shuffle(&rng, x, n);
		if (shape == 0 && x[0] == first) {
			restored++;
			continue;
		}
		ior_trend_detect(&t, x, n, NULL);
		shuffled_flagged += t.kind != IOR_TREND_NONE;
		shuffled_warmup += t.kind == IOR_TREND_WARMUP;
	}
	size_t shuffled = TRIALS - restored;
	printf("\n  shape %d n %zu: flagged %.1f%% (as %s %.1f%%), shuffled %.2f%% of %zu (as warm-up %.2f%%)", shape, n,
	       100.0 * flagged / TRIALS, ior_trend_name(want_kind), 100.0 * right_kind / TRIALS,
	       100.0 * shuffled_flagged / shuffled, shuffled, 100.0 * shuffled_warmup / shuffled);
	CU_ASSERT_TRUE((double)right_kind / TRIALS >= want_power);
	/* at most the rank test's alpha, give or take three standard errors of the sampling */
	CU_ASSERT_TRUE((double)shuffled_flagged / shuffled <= 0.01 + 3 * sqrt(0.01 * 0.99 / (double)shuffled));
}

static void test_warmup_flagged_shuffled_not(void)
{
	check_rates(0, 5, 0.95, IOR_TREND_WARMUP);
	check_rates(0, 10, 0.95, IOR_TREND_WARMUP);
}

static void test_drift_flagged_shuffled_not(void)
{
	check_rates(1, 10, 0.60, IOR_TREND_DRIFT);  /* the stalls cost the rank test power: 70% measured */
	check_rates(1, 15, 0.80, IOR_TREND_DRIFT);  /* 88% measured */
}

/* Fewer than 3 values say nothing; equal values are no trend. */
static void test_trend_small_and_flat(void)
{
	const double x[] = { 1, 2 }, flat[] = { 5, 5, 5, 5, 5, 5, 5, 5 };
	struct ior_trend t;
	ior_trend_detect(&t, x, 2, NULL);
	CU_ASSERT_EQUAL(t.kind, IOR_TREND_NONE);
	ior_trend_detect(&t, flat, 8, NULL);
	CU_ASSERT_EQUAL(t.kind, IOR_TREND_NONE);
	NEAR(t.tau, 0, 0);
}

/* A seed-loop-like cell (the measured four within 7%) imported with its slow first repetition marked as warm-up (the CSV's
 * optional warmup column): the sample is stored and listed by the CSV report with its mark,
 * while the tables, alerts and the trend see only the four measured ones; a merge carries the
 * mark. Without the mark the same values alert as warm-up. */
static const char warm_csv[] =
	"host,kernel,device,scheduler,engine,rep,value,unit,warmup\n"
	"h,6.1,loop,none,tmpfs,1,356,MiB/s,1\n"
	"h,6.1,loop,none,tmpfs,2,1712,MiB/s,0\n"
	"h,6.1,loop,none,tmpfs,3,1650,MiB/s,\n"
	"h,6.1,loop,none,tmpfs,4,1690,MiB/s,no\n"
	"h,6.1,loop,none,tmpfs,5,1604,MiB/s,0\n";

static struct ior_report *report_of(struct ior_db *db, unsigned parts)
{
	struct ior_report_opts o;
	ior_report_opts_default(&o);
	o.parts = parts;
	struct ior_report *r = NULL;
	CU_ASSERT_EQUAL(ior_test_ok(ior_report_build(&r, db, &o)), 0);
	return r;
}

static size_t warm_alerts(const struct ior_report *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nalerts; i++)
		n += r->alerts[i].trend.kind == IOR_TREND_WARMUP;
	return n;
}

static void test_marked_warmup_stored_and_left_out(void)
{
	char path[512], other[512];
	snprintf(path, sizeof(path), "%s/warm.db", ior_test_tmpdir());
	snprintf(other, sizeof(other), "%s/merged.db", ior_test_tmpdir());
	const char *csv = ior_test_write_file("warm.csv", warm_csv);
	struct ior_db *db = NULL;
	size_t imported = 0;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), 0);
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_import_samples_csv(db, csv, &imported)), 0);
	CU_ASSERT_EQUAL(imported, 5);
	struct ior_report *r = report_of(db, IOR_REPORT_ALL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->stored.nsamples, 5);
	CU_ASSERT_EQUAL(r->stored.cells[0].nwarmup, 1);
	CU_ASSERT_EQUAL_FATAL(r->rt->ngroups, 1);
	CU_ASSERT_EQUAL(r->rt->groups[0].cells[0].n, 4);
	CU_ASSERT_DOUBLE_EQUAL(r->rt->groups[0].cells[0].st.min, 1604, 1e-9);
	CU_ASSERT_EQUAL(warm_alerts(r), 0);
	CU_ASSERT_EQUAL(r->nalerts, 0);
	ior_report_free(r);
	/* the CSV report lists all five, the first marked */
	r = report_of(db, IOR_REPORT_DETAIL);
	const struct ior_renderer *x = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_renderer_find(&x, "csv"), 0);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	CU_ASSERT_EQUAL(ior_render(x, out, r), 0);
	fclose(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ",measured_at,warmup\n"));
	size_t marked = 0, rows = 0;
	for (char *line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
		rows++;
		char *end = strchr(line + 1, '\n');
		marked += end && end[-1] == '1' && end[-2] == ',';
	}
	CU_ASSERT_EQUAL(rows, 5);
	CU_ASSERT_EQUAL(marked, 1);
	free(text);
	ior_report_free(r);
	/* a merge carries the mark */
	struct ior_db *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&m, other), 0);
	struct ior_db_merge_stats stats;
	CU_ASSERT_EQUAL(ior_test_ok(ior_db_merge(m, path, &stats)), 0);
	sqlite3_stmt *st = NULL;
	CU_ASSERT_EQUAL(sqlite3_prepare_v2(ior_db_handle(m), "SELECT rep FROM samples WHERE warmup = 1", -1, &st, NULL),
			SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_step(st), SQLITE_ROW);
	CU_ASSERT_EQUAL(sqlite3_column_int(st, 0), 1);
	CU_ASSERT_EQUAL(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	ior_db_free(m);
	/* unmarked, the same values are a warm-up alert */
	CU_ASSERT_EQUAL(sqlite3_exec(ior_db_handle(db), "UPDATE samples SET warmup = 0", NULL, NULL, NULL), SQLITE_OK);
	r = report_of(db, IOR_REPORT_ALL);
	CU_ASSERT_EQUAL(r->rt->groups[0].cells[0].n, 5);
	CU_ASSERT_EQUAL(warm_alerts(r), 1);
	ior_report_free(r);
	ior_db_free(db);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_kendall_published),
		IOR_TEST(test_seed_warmup),
		IOR_TEST(test_warmup_flagged_shuffled_not),
		IOR_TEST(test_drift_flagged_shuffled_not),
		IOR_TEST(test_trend_small_and_flat),
		IOR_TEST(test_marked_warmup_stored_and_left_out),
		IOR_TEST_END,
	};
	return ior_test_run("trend", tests);
}
