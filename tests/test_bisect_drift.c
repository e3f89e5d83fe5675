/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for ioregress bisect on a machine whose speed drifts: the paired judge names the culprit
 * where an unpaired one is fooled, a round the machine moved in is measured again, a range holds
 * the culprit (a suite of its own: each bisection measures both ends beside every commit). */
#include "stats/compare.h"
#include "tests/bisect_repo.h"
#include "tests/suite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define builds_in ior_test_builds_in

/* The plain measure's noise: a 10% drop is 5 times it (bisect's own suite uses the same). */
#define NOISE 0.02

static char out[65536], err[8192];

/* The drifting measure of the tests: 2% noise within a round, a random walk of 1% per call and
 * steps of 5-10% (jumps of up to 20%) now and then, the path fixed by IOR_TEST_SEED. */
static const char *drift_measure(void)
{
	static char m[1200];
	snprintf(m, sizeof(m), "sh %s", ior_test_measure_script_drift(ior_test_tmpdir(), 0.02, 0.01, 0.1));
	return m;
}

/* A bisection started and run, with run's options (opt: NULL, or an option and its value). */
static int bisect_opt(const char *db, const char *repo, const char *good, const char *bad, const char *measure,
		      const char *opt, const char *value)
{
	char *start[] = { "--db", (char *)db, "bisect", "start", "--repo", (char *)repo, "--good", (char *)good, "--bad",
			  (char *)bad, NULL };
	if (ior_test_ioregress(start, out, sizeof(out), err, sizeof(err)) != 0)
		return -1;
	char *run[] = { "--db", (char *)db, "bisect", "run", "--measure", (char *)measure, (char *)opt, (char *)value, NULL };
	return ior_test_ioregress(run, out, sizeof(out), err, sizeof(err));
}

static int bisect_with(const char *db, const char *repo, const char *good, const char *bad, const char *measure)
{
	return bisect_opt(db, repo, good, bad, measure, NULL, NULL);
}

/* n draws of the drifting measure at level 1000, from call `skip` on (calls before it spent). */
static void drift_draws(double *x, size_t n, size_t skip)
{
	char dir[1100], cmd[4096], path[1200];
	snprintf(dir, sizeof(dir), "%s/plain", ior_test_tmpdir());
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/level", dir);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("1000\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/calls", ior_test_tmpdir());
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "%zu\n", skip);
	fclose(f);
	snprintf(path, sizeof(path), "%s/draws", ior_test_tmpdir());
	snprintf(cmd, sizeof(cmd), "cd '%s' && for i in $(seq %zu); do %s; done", dir, n, drift_measure());
	char *argv[] = { "sh", "-c", cmd, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn_to(argv, NULL, path, NULL), 0);
	char *text = ior_test_read_file(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	char *p = text;
	for (size_t i = 0; i < n; i++)
		x[i] = log(strtod(p, &p));
	free(text);
}

/* On the drifting machine one commit measured in two blocks minutes apart looks like two (the
 * unpaired judge's error: a candidate's block against end samples taken earlier), while the
 * paired driver names the culprit at three positions, and any range it gives holds the culprit. */
static void test_drift_paired_names_culprit(void)
{
	enum { N = 32, BLOCK = 10 };
	setenv("IOR_TEST_SEED", "4", 1);
	double early[BLOCK], late[BLOCK];
	drift_draws(early, BLOCK, 0);
	drift_draws(late, BLOCK, 120);
	struct ior_welch w;
	ior_welch(&w, early, BLOCK, late, BLOCK, 0.95);
	printf("\n  one commit in two blocks 120 calls apart: %+.1f%%, Welch p = %.2g", expm1(w.diff) * 100, w.p);
	CU_ASSERT(w.p < 0.001);   /* an unpaired judge would call one commit two */
	const size_t culprits[] = { 5, 16, 27 };
	for (size_t t = 0; t < 3; t++) {
		char ids[N][GIT_OID_HEXSZ + 1], seed[16], want[128];
		snprintf(seed, sizeof(seed), "%zu", 40 + t);
		setenv("IOR_TEST_SEED", seed, 1);
		const char *repo = ior_test_path("drift"), *db = ior_test_path("drift.db");
		unlink(db);
		char calls[1200];
		snprintf(calls, sizeof(calls), "%s/calls", ior_test_tmpdir());
		unlink(calls);
		ior_test_linear_repo(repo, N, culprits[t], -1, ids);
		int rc = bisect_with(db, repo, ids[0], ids[N - 1], drift_measure());
		snprintf(want, sizeof(want), "first bad commit: %s", ids[culprits[t]]);
		printf("\n  culprit %2zu under drift: exit %d, %zu builds", culprits[t], rc, builds_in(out));
		if (rc == 3) {
			CU_ASSERT_PTR_NOT_NULL(strstr(out, ids[culprits[t]]));   /* a range holds the culprit */
		} else {
			CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
		}
		CU_ASSERT_EQUAL(rc, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(out, "drift"));
		if (rc != 0 || !strstr(out, want))
			fprintf(stderr, "\n%s\n%s", out, err);
	}
}

/* A candidate's first measurement lands 50% above the good end (the machine jumped within the
 * round): that round is measured again, not judged, and the culprit is still named. */
static void test_far_candidate_remeasured(void)
{
	enum { N = 16, CULPRIT = 9 };
	char ids[N][GIT_OID_HEXSZ + 1], measure[2400], want[128];
	const char *repo = ior_test_path("far"), *db = ior_test_path("far.db");
	unlink(db);
	setenv("IOR_TEST_SEED", "23", 1);
	ior_test_linear_repo(repo, N, CULPRIT, -1, ids);
	snprintf(measure, sizeof(measure),
		 "if [ \"$IOREGRESS_COMMIT\" != %s ] && [ \"$IOREGRESS_COMMIT\" != %s ] && [ ! -e '%s/spiked' ]; then "
		 "touch '%s/spiked'; echo 1500; else sh %s; fi", ids[0], ids[N - 1], ior_test_tmpdir(), ior_test_tmpdir(),
		 ior_test_measure_script(ior_test_tmpdir(), NOISE));
	int rc = bisect_with(db, repo, ids[0], ids[N - 1], measure);
	snprintf(want, sizeof(want), "first bad commit: %s", ids[CULPRIT]);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_samples WHERE value = 1500"), 1);
	CU_ASSERT(ior_test_query(db, "SELECT count(*) FROM bisect_commits WHERE reason LIKE '%measured again%'") >= 1);
	if (rc || !strstr(out, want))
		fprintf(stderr, "\n%s\n%s", out, err);
}

/* The culprit's measure is erratic (+-40%): it cannot be judged, the answer is a range, the range
 * holds the culprit and no commit in it was judged good or bad but the bad one that bounds it. */
static void test_range_holds_culprit(void)
{
	enum { N = 16, CULPRIT = 6 };
	char ids[N][GIT_OID_HEXSZ + 1], measure[2400];
	const char *repo = ior_test_path("erratic"), *db = ior_test_path("erratic.db");
	unlink(db);
	setenv("IOR_TEST_SEED", "29", 1);
	ior_test_linear_repo(repo, N, CULPRIT, -1, ids);
	snprintf(measure, sizeof(measure),
		 "v=$(sh %s); if [ \"$IOREGRESS_COMMIT\" = %s ]; then awk -v v=$v -v s=$(cat '%s/calls') "
		 "'BEGIN { srand(s); printf \"%%.4f\\n\", v * (0.6 + 0.8 * rand()) }'; else echo $v; fi",
		 ior_test_measure_script(ior_test_tmpdir(), NOISE), ids[CULPRIT], ior_test_tmpdir());
	int rc = bisect_with(db, repo, ids[0], ids[N - 1], measure);
	CU_ASSERT_EQUAL(rc, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "could be any of these"));
	const char *list = strstr(out, "could be any of these");
	const char *table = list ? strstr(list, "  commit ") : NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(table);
	char *range = strndup(list, (size_t)(table - list));
	CU_ASSERT_PTR_NOT_NULL(strstr(range, ids[CULPRIT]));
	/* each listed commit: not marked good, and bad only when it bounds the range */
	for (size_t i = 0; i < N; i++) {
		if (!strstr(range, ids[i]))
			continue;
		char q[256];
		snprintf(q, sizeof(q), "SELECT count(*) FROM bisect_commits WHERE commit_id = '%s' AND mark = 'good'", ids[i]);
		CU_ASSERT_EQUAL(ior_test_query(db, q), 0);
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "noise"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "next:"));
	free(range);
	if (rc != 3)
		fprintf(stderr, "\n%s\n%s", out, err);
}

/* The drifting measure with this much noise within a round (the same drift as drift_measure's). */
static const char *noisy_measure(double cov)
{
	static char m[1200];
	snprintf(m, sizeof(m), "sh %s", ior_test_measure_script_drift(ior_test_tmpdir(), cov, 0.01, 0.1));
	return m;
}

/* The rounds per commit a plan line states ("up to N rounds per commit"), 0 when there is none. */
static size_t planned_rounds(const char *text)
{
	const char *p = strstr(text, "plan: ");
	p = p ? strstr(p, "up to ") : NULL;
	return p ? strtoul(p + 6, NULL, 10) : 0;
}

/* A case's own linear history of 12 commits (the culprit as given) and a fresh database, the seed set
 * and the measures' call counter reset; calls gets the counter's path. */
enum { CASE_N = 12 };
static void fresh_case(const char *name, const char *seed, size_t culprit, char (*ids)[GIT_OID_HEXSZ + 1],
		       const char **repo, const char **db, char *calls, size_t len)
{
	char dbname[64];
	snprintf(dbname, sizeof(dbname), "%s.db", name);
	*repo = ior_test_path(name), *db = ior_test_path(dbname);
	snprintf(calls, len, "%s/calls", ior_test_tmpdir());
	setenv("IOR_TEST_SEED", seed, 1);
	ior_test_linear_repo(*repo, CASE_N, culprit, -1, ids);
	unlink(*db), unlink(calls);
}

/* A 10% drop at 7% noise on the drifting machine needs more than the default 60 rounds per commit:
 * with a budget that allows it the plan takes them and names the culprit; with a budget that does
 * not, the bisection is refused with the time an answer would need. */
static void test_budget_buys_rounds(void)
{
	enum { N = CASE_N, CULPRIT = 7 };
	char ids[N][GIT_OID_HEXSZ + 1], want[128], calls[1200];
	const char *repo, *db;
	fresh_case("budget", "61", CULPRIT, ids, &repo, &db, calls, sizeof(calls));
	int rc = bisect_opt(db, repo, ids[0], ids[N - 1], noisy_measure(0.07), "--budget", "2h");
	snprintf(want, sizeof(want), "first bad commit: %s", ids[CULPRIT]);
	size_t rounds = planned_rounds(out);
	printf("\n  7%% noise, budget 2h: exit %d, up to %zu rounds per commit", rc, rounds);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "plan: about "));
	CU_ASSERT(rounds > 60);
	if (getenv("SHOWOUT") || rc || !strstr(out, want) || rounds <= 60)
		fprintf(stderr, "\n%s\n%s", out, err);
	/* the same history and noise under a budget of two seconds: refused, with the time it needs */
	unlink(db), unlink(calls);
	rc = bisect_opt(db, repo, ids[0], ids[N - 1], noisy_measure(0.07), "--budget", "2s");
	printf("\n  7%% noise, budget 2s: exit %d", rc);
	CU_ASSERT_EQUAL(rc, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "refused: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "to an answer"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "--budget "));
	CU_ASSERT_PTR_NULL(strstr(out, "first bad commit"));
	if (getenv("SHOWOUT") || rc != 4 || !strstr(out, "--budget "))
		fprintf(stderr, "\n%s\n%s", out, err);
}

/* The calibration falls in a quiet minute (0.5% noise for its first 20 measurements on the drifting
 * machine) and the machine is busier from then on (4%): the commits judged later are not skipped as
 * unstable against the quiet ends, and the culprit is named. */
static void test_quiet_calibration(void)
{
	enum { N = CASE_N, CULPRIT = 4 };
	char ids[N][GIT_OID_HEXSZ + 1], measure[2600], want[128], calls[1200];
	const char *repo, *db;
	fresh_case("quiet", "37", CULPRIT, ids, &repo, &db, calls, sizeof(calls));
	snprintf(measure, sizeof(measure),
		 "v=$(sh %s); c=$(cat '%s/calls'); if [ $c -le 20 ]; then echo $v; else awk -v v=$v -v c=$c "
		 "'BEGIN { srand(c * 7919 + 3); u1 = rand(); u2 = rand(); if (u1 < 1e-12) u1 = 1e-12;"
		 " printf \"%%.4f\\n\", v * (1 + 0.04 * sqrt(-2 * log(u1)) * cos(6.283185307 * u2)) }'; fi",
		 ior_test_measure_script_drift(ior_test_tmpdir(), 0.005, 0.002, 0), ior_test_tmpdir());
	int rc = bisect_with(db, repo, ids[0], ids[N - 1], measure);
	snprintf(want, sizeof(want), "first bad commit: %s", ids[CULPRIT]);
	long long unstable = ior_test_query(db, "SELECT count(*) FROM bisect_commits WHERE reason LIKE 'unstable%'");
	printf("\n  quiet calibration, busier after: exit %d, %lld commit(s) skipped as unstable", rc, unstable);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_EQUAL(unstable, 0);
	if (getenv("SHOWOUT") || rc || !strstr(out, want) || unstable)
		fprintf(stderr, "\n%s\n%s", out, err);
}

/* The bad end's measurement fails once after it has measured well: the round is measured again, the
 * failure is logged, and the bisection goes on to the culprit instead of stopping with exit 1. */
static void test_end_failure_retried(void)
{
	enum { N = CASE_N, CULPRIT = 8 };
	char ids[N][GIT_OID_HEXSZ + 1], measure[2600], want[128], calls[1200];
	const char *repo, *db;
	fresh_case("endfail", "43", CULPRIT, ids, &repo, &db, calls, sizeof(calls));
	char failed[1200];
	snprintf(failed, sizeof(failed), "%s/end-failed", ior_test_tmpdir());
	unlink(failed);
	snprintf(measure, sizeof(measure),
		 "if [ \"$IOREGRESS_COMMIT\" = %s ] && [ \"$(cat '%s' 2>/dev/null || echo 0)\" -gt 40 ] && [ ! -e '%s' ]; "
		 "then touch '%s'; exit 1; fi; %s", ids[N - 1], calls, failed, failed, drift_measure());
	int rc = bisect_with(db, repo, ids[0], ids[N - 1], measure);
	snprintf(want, sizeof(want), "first bad commit: %s", ids[CULPRIT]);
	printf("\n  the bad end fails once: exit %d", rc);
	CU_ASSERT_EQUAL(access(failed, F_OK), 0);   /* the failure happened */
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_log WHERE event = 'end-failed'"), 1);
	/* the answer's small print: the branch named whole (it was cut to 12 characters, "refs/heads/ma"), and
	 * the log's samples as the measure printed them (%.4f), not as %.17g spells the double */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "work tree back at refs/heads/master,"));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_log WHERE event = 'measure' AND (detail LIKE "
				       "'%00000000%' OR detail LIKE '%99999999%')"), 0);
	if (getenv("SHOWOUT") || rc || !strstr(out, want))
		fprintf(stderr, "\n%s\n%s", out, err);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_drift_paired_names_culprit),
		IOR_TEST(test_far_candidate_remeasured),
		IOR_TEST(test_range_holds_culprit),
		IOR_TEST(test_budget_buys_rounds),
		IOR_TEST(test_quiet_calibration),
		IOR_TEST(test_end_failure_retried),
		IOR_TEST_END,
	};
	return ior_test_run("bisect_drift", tests);
}
