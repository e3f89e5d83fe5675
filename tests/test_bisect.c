/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for ioregress bisect: git's pick on the candidate graph, and the driver end to end on
 * libgit2-built repositories with a noisy measure (culprit, merges, build failures, refusal,
 * SIGKILL and resume, log and replay). */
#include "bisect/graph.h"
#include "tests/bisect_repo.h"
#include "tests/suite.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OUT 65536
/* The test measure's noise: a 10% drop is 5 times it, over the margin the calibration asks of the
 * smallest change findable in 60 paired rounds (1.64 x 1.55 times the noise at 10 rounds, 1.19 x at 60). */
#define NOISE 0.02
static char out[OUT], err[8192];

/* --- the graph ------------------------------------------------------------------ */

static void chain(struct ior_bisect_graph *g, size_t n)
{
	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < n; i++) {
		char id[16];
		size_t p = i - 1;
		snprintf(id, sizeof(id), "c%03zu", i);
		CU_ASSERT_EQUAL_FATAL(ior_bisect_graph_add(g, id, NULL, NULL, NULL, &p, i ? 1 : 0, i == 0), 0);
	}
	CU_ASSERT_EQUAL_FATAL(ior_bisect_graph_finish(g), 0);
}

/* git bisect on a chain of 64 with the last bad: the first pick splits 32/32, and marks narrow it. */
static void test_pick_halves_a_chain_as_git_does(void)
{
	struct ior_bisect_graph g;
	chain(&g, 64);
	enum ior_bisect_mark m[64] = { 0 };
	m[63] = IOR_MARK_BAD;
	struct ior_bisect_left l;
	CU_ASSERT_EQUAL_FATAL(ior_bisect_left(&l, &g, m), 0);
	CU_ASSERT_EQUAL(l.count, 64);
	CU_ASSERT_EQUAL(l.next, 31);   /* reaches 32 of 64 */
	ior_bisect_left_free(&l);
	m[31] = IOR_MARK_GOOD;
	m[47] = IOR_MARK_BAD;
	CU_ASSERT_EQUAL_FATAL(ior_bisect_left(&l, &g, m), 0);
	CU_ASSERT_EQUAL(l.bad, 47);
	CU_ASSERT_EQUAL(l.count, 16);  /* 32..47 */
	CU_ASSERT_EQUAL(l.next, 39);
	ior_bisect_left_free(&l);
	/* 40 skipped and 39 good, 41 bad: the range 40, 41 */
	m[39] = IOR_MARK_GOOD, m[40] = IOR_MARK_SKIP, m[41] = IOR_MARK_BAD;
	CU_ASSERT_EQUAL_FATAL(ior_bisect_left(&l, &g, m), 0);
	CU_ASSERT_EQUAL(l.count, 2);
	CU_ASSERT_TRUE(l.range);
	CU_ASSERT_FALSE(l.done);
	ior_bisect_left_free(&l);
	m[40] = IOR_MARK_GOOD;
	CU_ASSERT_EQUAL_FATAL(ior_bisect_left(&l, &g, m), 0);
	CU_ASSERT_TRUE(l.done);
	CU_ASSERT_EQUAL(l.bad, 41);
	ior_bisect_left_free(&l);
	ior_bisect_graph_free(&g);
}

/* A merge: the candidates of a bad merge are both branches; a good side branch tip removes only its side. */
static void test_candidates_follow_merges(void)
{
	struct ior_bisect_graph g = { 0 };
	/* 0 - 1 - 2 - 5(merge of 2 and 4) - 6;  side: 3 - 4 (3's parent is outside: the good end) */
	size_t p1 = 0, p2 = 1, m5[2] = { 2, 4 }, p4 = 3, p6 = 5;
	CU_ASSERT_EQUAL_FATAL(ior_bisect_graph_add(&g, "n0", NULL, NULL, NULL, NULL, 0, true), 0);
	CU_ASSERT_EQUAL_FATAL(ior_bisect_graph_add(&g, "n1", NULL, NULL, NULL, &p1, 1, false), 0);
	CU_ASSERT_EQUAL_FATAL(ior_bisect_graph_add(&g, "n2", NULL, NULL, NULL, &p2, 1, false), 0);
	CU_ASSERT_EQUAL_FATAL(ior_bisect_graph_add(&g, "n3", NULL, NULL, NULL, NULL, 0, true), 0);
	CU_ASSERT_EQUAL_FATAL(ior_bisect_graph_add(&g, "n4", NULL, NULL, NULL, &p4, 1, false), 0);
	CU_ASSERT_EQUAL_FATAL(ior_bisect_graph_add(&g, "n5", NULL, NULL, NULL, m5, 2, false), 0);
	CU_ASSERT_EQUAL_FATAL(ior_bisect_graph_add(&g, "n6", NULL, NULL, NULL, &p6, 1, false), 0);
	CU_ASSERT_EQUAL_FATAL(ior_bisect_graph_finish(&g), 0);
	CU_ASSERT_TRUE(ior_bisect_is_ancestor(&g, 3, 6));
	CU_ASSERT_FALSE(ior_bisect_is_ancestor(&g, 3, 2));
	enum ior_bisect_mark m[7] = { [6] = IOR_MARK_BAD, [4] = IOR_MARK_GOOD };
	struct ior_bisect_left l;
	CU_ASSERT_EQUAL_FATAL(ior_bisect_left(&l, &g, m), 0);
	CU_ASSERT_EQUAL(l.count, 5);   /* 0 1 2 5 6 */
	CU_ASSERT_TRUE(l.next == 1 || l.next == 2);
	ior_bisect_left_free(&l);
	CU_ASSERT_EQUAL(ior_bisect_graph_find(&g, "n5"), 5);
	CU_ASSERT_EQUAL(ior_bisect_graph_find(&g, "zz"), -1);
	ior_bisect_graph_free(&g);
}

/* --- the driver, end to end ----------------------------------------------------- */

#define builds_in ior_test_builds_in

static size_t measurements_in(const char *text)
{
	const char *p = strstr(text, " build(s), ");
	return p ? strtoul(p + 11, NULL, 10) : 0;
}

/* bisect start then run over repo with the test measure; returns run's exit status. */
static int bisect(const char *db, const char *repo, const char *good, const char *bad, const char *build)
{
	char *start[] = { "--db", (char *)db, "bisect", "start", "--repo", (char *)repo, "--good", (char *)good, "--bad",
			  (char *)bad, NULL };
	int rc = ior_test_ioregress(start, out, sizeof(out), err, sizeof(err));
	if (rc != 0) {
		fprintf(stderr, "\n  bisect start: %d %s", rc, err);
		return -1;
	}
	char measure[1200];
	snprintf(measure, sizeof(measure), "sh %s", ior_test_measure_script(ior_test_tmpdir(), NOISE));
	char *run[] = { "--db", (char *)db, "bisect", "run", "--measure", measure, "--build", (char *)(build ? build : "true"),
			NULL };
	return ior_test_ioregress(run, out, sizeof(out), err, sizeof(err));
}

static size_t ceil_log2(size_t n)
{
	size_t k = 0;
	while (((size_t)1 << k) < n)
		k++;
	return k;
}

/* 6 seeded trials, the culprit spread over a 64-commit history: named every time, within ceil(log2 N) + 3 builds. */
static void test_culprit_named_in_every_seeded_trial(void)
{
	enum { N = 64, TRIALS = 6 };
	char ids[N][GIT_OID_HEXSZ + 1];
	size_t worst = 0, total_builds = 0, total_meas = 0, named = 0;
	for (int t = 0; t < TRIALS; t++) {
		size_t culprit = 1 + (size_t)t * (N - 2) / (TRIALS - 1);   /* 1 .. 63: the bad end itself included */
		char seed[16];
		snprintf(seed, sizeof(seed), "%d", 101 + t);
		setenv("IOR_TEST_SEED", seed, 1);
		const char *repo = ior_test_path("linear"), *db = ior_test_path("linear.db");
		unlink(db);
		ior_test_linear_repo(repo, N, culprit, -1, ids);
		int rc = bisect(db, repo, ids[0], ids[N - 1], NULL);
		/* no --artifact with a --build: the warning says what the measure must do instead */
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "the measure must itself run the build kept for $IOREGRESS_COMMIT"));
		char want[128];
		snprintf(want, sizeof(want), "first bad commit: %s", ids[culprit]);
		bool ok = rc == 0 && strstr(out, want);
		named += ok;
		size_t b = builds_in(out), m = measurements_in(out);
		printf("\n  trial %2d culprit %2zu: %s, %zu builds, %zu measurements", t, culprit, ok ? "named" : "MISSED", b, m);
		if (!ok)
			fprintf(stderr, "\n%s\n%s", out, err);
		worst = b > worst ? b : worst;
		total_builds += b, total_meas += m;
	}
	printf("\n  %zu of %d named; builds at most %zu (limit %zu), %.1f builds and %.1f measurements per bisection",
	       named, TRIALS, worst, ceil_log2(N) + 3, (double)total_builds / TRIALS, (double)total_meas / TRIALS);
	CU_ASSERT_EQUAL(named, TRIALS);
	CU_ASSERT(worst <= ceil_log2(N) + 3);
}

/* A history with merges: the culprit on a side branch, and on the main line, is named. */
static void test_culprit_named_across_merges(void)
{
	for (int side = 0; side < 2; side++) {
		const char *path = ior_test_path("merges"), *db = ior_test_path("merges.db");
		unlink(db);
		git_repository *repo = ior_test_repo_new(path);
		CU_ASSERT_PTR_NOT_NULL_FATAL(repo);
		git_oid a[16], b[10], merge, c[6], culprit_id;
		bool slow = false;
		/* main: a0..a15; side: b0..b9 from a3; merge(a15, b9); then c0..c5 */
		for (int i = 0; i < 16; i++) {
			slow = !side && i >= 12;
			ior_test_commit(repo, slow ? "900\n" : "1000\n", false, i ? &a[i - 1] : NULL, i ? 1 : 0, "main", &a[i]);
			if (!side && i == 12)
				culprit_id = a[i];
		}
		for (int i = 0; i < 10; i++) {
			bool s = side && i >= 6;
			ior_test_commit(repo, s ? "900\n" : "1000\n", false, i ? &b[i - 1] : &a[3], 1, "side", &b[i]);
			if (side && i == 6)
				culprit_id = b[i];
		}
		git_oid parents[2] = { a[15], b[9] };
		ior_test_commit(repo, "900\n", false, parents, 2, "merge side into main", &merge);
		for (int i = 0; i < 6; i++)
			ior_test_commit(repo, "900\n", false, i ? &c[i - 1] : &merge, 1, "after", &c[i]);
		ior_test_repo_finish(repo, &c[5]);
		git_repository_free(repo);
		git_libgit2_shutdown();
		char good[GIT_OID_HEXSZ + 1], bad[GIT_OID_HEXSZ + 1], culprit[GIT_OID_HEXSZ + 1], want[128];
		git_oid_tostr(good, sizeof(good), &a[0]);
		git_oid_tostr(bad, sizeof(bad), &c[5]);
		git_oid_tostr(culprit, sizeof(culprit), &culprit_id);   /* not git_oid_tostr_s: its buffer outlives shutdown */
		snprintf(want, sizeof(want), "first bad commit: %s", culprit);
		setenv("IOR_TEST_SEED", side ? "7" : "8", 1);
		int rc = bisect(db, path, good, bad, NULL);
		printf("\n  culprit on the %s: exit %d, %zu builds", side ? "side branch" : "main line", rc, builds_in(out));
		CU_ASSERT_EQUAL(rc, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
		if (rc || !strstr(out, want))
			fprintf(stderr, "\n%s\n%s", out, err);
	}
}

/* The commit next to the culprit does not build: the two are named as the range, with their evidence. */
static void test_range_when_neighbour_fails_to_build(void)
{
	enum { N = 64, CULPRIT = 40 };
	char ids[N][GIT_OID_HEXSZ + 1];
	const char *repo = ior_test_path("nobuild"), *db = ior_test_path("nobuild.db");
	unlink(db);
	setenv("IOR_TEST_SEED", "31", 1);
	ior_test_linear_repo(repo, N, CULPRIT, CULPRIT - 1, ids);
	int rc = bisect(db, repo, ids[0], ids[N - 1], "test ! -e nobuild");
	CU_ASSERT_EQUAL(rc, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "could be any of these 2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, ids[CULPRIT]));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, ids[CULPRIT - 1]));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "its build failed"));
	if (rc != 3)
		fprintf(stderr, "\n%s\n%s", out, err);
}

/* Both ends alike: refused in words, nothing bisected. */
static void test_refuses_when_ends_do_not_differ(void)
{
	enum { N = 16 };
	char ids[N][GIT_OID_HEXSZ + 1];
	const char *repo = ior_test_path("flat"), *db = ior_test_path("flat.db");
	unlink(db);
	setenv("IOR_TEST_SEED", "5", 1);
	ior_test_linear_repo(repo, N, N, -1, ids);
	int rc = bisect(db, repo, ids[0], ids[N - 1], NULL);
	CU_ASSERT_EQUAL(rc, 4);
	/* either words: the bad end measured no worse, or worse by less than the noise allows to find */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "refused: "));
	CU_ASSERT(strstr(out, "smallest difference that can be found") || strstr(out, "no regression to bisect"));
	if (rc != 4)
		fprintf(stderr, "\n%s\n%s", out, err);
	CU_ASSERT_EQUAL(builds_in(out), 2);   /* the two ends only */
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisects WHERE status = 'refused'"), 1);
	CU_ASSERT_PTR_NULL(strstr(out, "refused: refused:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "noise"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "drift"));
	char *status[] = { "--db", (char *)db, "bisect", "status", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(status, out, sizeof(out), err, sizeof(err)), 0);
	size_t len = strlen(out);
	CU_ASSERT(len > 0 && out[len - 1] == '\n');   /* a refused status ends its line */
}

/* Killed with SIGKILL mid-bisection, run again: it resumes, keeps every stored sample, names the culprit. */
static void test_resumes_after_sigkill(void)
{
	enum { N = 64, CULPRIT = 23 };
	char ids[N][GIT_OID_HEXSZ + 1];
	const char *repo = ior_test_path("killed"), *db = ior_test_path("killed.db");
	unlink(db);
	setenv("IOR_TEST_SEED", "77", 1);
	ior_test_linear_repo(repo, N, CULPRIT, -1, ids);
	char *start[] = { "--db", (char *)db, "bisect", "start", "--repo", (char *)repo, "--good", ids[0], "--bad",
			  ids[N - 1], NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(start, out, sizeof(out), err, sizeof(err)), 0);
	char measure[1200];
	snprintf(measure, sizeof(measure), "sleep 0.02; sh %s", ior_test_measure_script(ior_test_tmpdir(), NOISE));
	const char *bin = getenv("IOR_BINARY");
	pid_t pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1), dup2(null, 2);
		execl(bin, bin, "--db", db, "bisect", "run", "--measure", measure, (char *)NULL);
		_exit(127);
	}
	/* past calibration and a few candidates, then kill it without warning */
	long long n = 0;
	for (int i = 0; i < 3000 && n < 45; i++) {   /* up to 60 s: a loaded machine measures slowly */
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		n = ior_test_query(db, "SELECT count(*) FROM bisect_samples");
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	long long kept = ior_test_query(db, "SELECT count(*) FROM bisect_samples");
	long long marked = ior_test_query(db, "SELECT count(*) FROM bisect_commits WHERE mark IN ('good', 'bad')");
	printf("\n  killed with %lld samples stored and %lld commits marked", kept, marked);
	CU_ASSERT(kept >= 45);
	char *run[] = { "--db", (char *)db, "bisect", "run", NULL };   /* the stored commands */
	int rc = ior_test_ioregress(run, out, sizeof(out), err, sizeof(err));
	char want[128];
	snprintf(want, sizeof(want), "first bad commit: %s", ids[CULPRIT]);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT(ior_test_query(db, "SELECT count(*) FROM bisect_samples") > kept);
	/* the commits marked before the kill were not measured again: no new 'build' of them */
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM (SELECT commit_id FROM bisect_log WHERE event = 'build' "
				       "GROUP BY commit_id HAVING count(*) > 1)"), 0);
	CU_ASSERT(builds_in(out) <= ceil_log2(N) + 4);   /* + the build the kill may have cut short */
	if (rc || !strstr(out, want))
		fprintf(stderr, "\n%s\n%s", out, err);
}

/* status while it runs, log to a file, reset, replay: the replayed bisection answers without measuring. */
static void test_status_log_replay_and_reset(void)
{
	enum { N = 32, CULPRIT = 9 };
	char ids[N][GIT_OID_HEXSZ + 1];
	const char *repo = ior_test_path("replay"), *db = ior_test_path("replay.db"), *log = ior_test_path("bisect.log");
	unlink(db);
	setenv("IOR_TEST_SEED", "13", 1);
	ior_test_linear_repo(repo, N, CULPRIT, -1, ids);
	CU_ASSERT_EQUAL_FATAL(bisect(db, repo, ids[0], ids[N - 1], NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "work tree back at"));   /* run leaves the tree as it found it */
	char *status[] = { "--db", (char *)db, "bisect", "status", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(status, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, ": found"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, ids[CULPRIT]));
	char *logcmd[] = { "--db", (char *)db, "bisect", "log", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(logcmd, out, sizeof(out), err, sizeof(err)), 0);
	/* every line carries the time it was logged; a measure line its round */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "Z measure "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, " round="));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "Z mark "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n@20"));
	FILE *f = fopen(log, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(out, f);
	fclose(f);
	char *reset[] = { "--db", (char *)db, "bisect", "reset", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(reset, out, sizeof(out), err, sizeof(err)), 0);
	git_libgit2_init();
	git_repository *r = NULL;
	CU_ASSERT_EQUAL_FATAL(git_repository_open(&r, repo), 0);
	CU_ASSERT_FALSE(git_repository_head_detached(r));   /* back on master */
	git_repository_free(r);
	git_libgit2_shutdown();
	long long calls = ior_test_query(db, "SELECT count(DISTINCT measurement) FROM bisect_samples");
	char *replay[] = { "--db", (char *)db, "bisect", "replay", (char *)log, NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(replay, out, sizeof(out), err, sizeof(err)), 0);
	char *run[] = { "--db", (char *)db, "bisect", "run", "--measure", "false", NULL };   /* nothing left to measure */
	int rc = ior_test_ioregress(run, out, sizeof(out), err, sizeof(err));
	char want[128];
	snprintf(want, sizeof(want), "first bad commit: %s", ids[CULPRIT]);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(DISTINCT measurement) FROM bisect_samples WHERE bisect_id = 2"),
			calls);
	if (rc || !strstr(out, want))
		fprintf(stderr, "\n%s\n%s", out, err);
}

/* bisect start, then bisect run with the noisy measure (run after in_dir, a shell prefix), build and
 * --artifact; run's exit status. */
static int bisect_artifact(const char *db, const char *repo, const char *good, const char *bad, const char *in_dir,
			   const char *build, const char *artifact)
{
	char *start[] = { "--db", (char *)db, "bisect", "start", "--repo", (char *)repo, "--good", (char *)good, "--bad",
			  (char *)bad, NULL };
	if (ior_test_ioregress(start, out, sizeof(out), err, sizeof(err)))
		return -1;
	char measure[1200];
	snprintf(measure, sizeof(measure), "%ssh %s", in_dir, ior_test_measure_script(ior_test_tmpdir(), NOISE));
	char *run[] = { "--db", (char *)db, "bisect", "run", "--measure", measure, "--build", (char *)build,
			"--artifact", (char *)artifact, NULL };
	return ior_test_ioregress(run, out, sizeof(out), err, sizeof(err));
}

/* --artifact: commits whose build output is identical to a judged one (or to an end) take its
 * verdict unmeasured, and the evidence says so; --image is the same for a kernel. */
static void test_identical_image_reuses_the_verdict(void)
{
	enum { N = 64, CULPRIT = 50 };
	char ids[N][GIT_OID_HEXSZ + 1];
	const char *repo = ior_test_path("image"), *db = ior_test_path("image.db");
	unlink(db);
	setenv("IOR_TEST_SEED", "19", 1);
	ior_test_linear_repo(repo, N, CULPRIT, -1, ids);
	int rc = bisect_artifact(db, repo, ids[0], ids[N - 1], "", "mkdir -p out && cp level out/tool", "out");
	char want[128];
	snprintf(want, sizeof(want), "first bad commit: %s", ids[CULPRIT]);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "build artifact is identical to"));
	/* every commit builds what one of the ends builds: none but the ends is ever measured */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "so it takes that end's verdict"));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(DISTINCT commit_id) FROM bisect_samples"), 2);
	CU_ASSERT(ior_test_query(db, "SELECT count(*) FROM bisect_commits WHERE mark IN ('good', 'bad') AND commit_id "
				     "NOT IN (SELECT commit_id FROM bisect_samples)") >= 1);
	CU_ASSERT_PTR_NULL(strstr(err, "no --artifact named"));
}


/* A session killed while libgit2 wrote the index leaves .git/index.lock; the next session's checkout
 * failed with "index is locked" (test_resumes_after_sigkill hit it once). A lock nobody holds open is
 * removed at the first checkout and said; one a live process holds open is left, and the run stops. */
static void test_stale_index_lock_is_removed(void)
{
	enum { N = 16, CULPRIT = 9 };
	char ids[N][GIT_OID_HEXSZ + 1], lock[1200];
	const char *repo = ior_test_path("index-lock"), *db = ior_test_path("index-lock.db");
	snprintf(lock, sizeof(lock), "%s/.git/index.lock", repo);
	/* held open by a live process: left alone, and the checkout fails */
	unlink(db);
	ior_test_linear_repo(repo, N, CULPRIT, -1, ids);
	FILE *f = fopen(lock, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	char hold[1400];
	snprintf(hold, sizeof(hold), "exec 3<'%s'; sleep 60", lock);
	pid_t holder = ior_test_start((char *[]){ "/bin/sh", "-c", hold, NULL });
	CU_ASSERT_FATAL(holder > 0);
	struct timespec ts = { 0, 200 * 1000 * 1000 };
	nanosleep(&ts, NULL);   /* sh has opened it */
	CU_ASSERT_NOT_EQUAL(bisect(db, repo, ids[0], ids[N - 1], NULL), 0);
	CU_ASSERT_EQUAL(access(lock, F_OK), 0);
	kill(holder, SIGKILL);
	waitpid(holder, NULL, 0);
	/* left by nobody: removed, said, and the bisection runs (a fresh history: the refused checkout
	 * above left files of another commit in the tree) */
	repo = ior_test_path("index-lock-stale");
	snprintf(lock, sizeof(lock), "%s/.git/index.lock", repo);
	unlink(db);
	ior_test_linear_repo(repo, N, CULPRIT, -1, ids);
	f = fopen(lock, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	CU_ASSERT_EQUAL(bisect(db, repo, ids[0], ids[N - 1], NULL), 0);
	CU_ASSERT_NOT_EQUAL(access(lock, F_OK), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "left by a session that was killed while it wrote the index"));
	char want[128];
	snprintf(want, sizeof(want), "first bad commit: %s", ids[CULPRIT]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
}

/* Every good commit builds the good end's artifact, every slow one a unique artifact: the culprit's
 * parent is the good end's build, so its confirmation rounds let the good end stand in for it (three
 * sides, not four), and the answer's row for the parent says it was not measured, with n 0. Before,
 * confirmation measured the parent anyway and its row read "not measured" beside n = 50. */
static void test_parent_with_the_good_ends_build_is_not_measured(void)
{
	enum { N = 32, CULPRIT = 20 };
	char ids[N][GIT_OID_HEXSZ + 1];
	const char *repo = ior_test_path("parent-image"), *db = ior_test_path("parent-image.db");
	unlink(db);
	setenv("IOR_TEST_SEED", "23", 1);
	ior_test_linear_repo(repo, N, CULPRIT, -1, ids);
	int rc = bisect_artifact(db, repo, ids[0], ids[N - 1], "",
				 "mkdir -p out && cp level out/tool && if grep -q 900 level; then git rev-parse HEAD >> out/tool; fi",
				 "out");
	char want[128], sql[256];
	snprintf(want, sizeof(want), "first bad commit: %s", ids[CULPRIT]);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "it built the good end's artifact"));
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM bisect_samples WHERE commit_id = '%s'", ids[CULPRIT - 1]);
	CU_ASSERT_EQUAL(ior_test_query(db, sql), 0);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM bisect_samples WHERE commit_id = '%s'", ids[CULPRIT]);
	CU_ASSERT(ior_test_query(db, sql) > 0);
	CU_ASSERT_PTR_NULL(strstr(out, "not measured while searching"));
	if (rc || !strstr(out, want))
		fprintf(stderr, "\n%s\n%s", out, err);
}

/* The build output stays in the tree when another commit is checked out (git leaves untracked files
 * alone), so measuring the ends and a candidate in rounds measured whatever the last build left:
 * with `--build 'make' --measure './tool' --artifact tool` as the README shows, every measurement
 * was of the same build and the ends "did not differ". Before each measurement the commit's own
 * artifact is put back: a file from a kept copy, a directory by building again. */
static void test_measures_each_commits_own_artifact(void)
{
	enum { N = 16, CULPRIT = 9 };
	static const char *const artifact[2] = { "out/level", "out" };
	for (int k = 0; k < 2; k++) {
		char ids[N][GIT_OID_HEXSZ + 1];
		const char *repo = ior_test_path(k ? "own-dir" : "own-file"), *db = ior_test_path(k ? "own-dir.db" : "own-file.db");
		unlink(db);
		setenv("IOR_TEST_SEED", "23", 1);
		ior_test_linear_repo(repo, N, CULPRIT, -1, ids);
		/* the measure reads the build's copy of the level (out/level), never the tracked file */
		int rc = bisect_artifact(db, repo, ids[0], ids[N - 1], "cd out && ", "mkdir -p out && cp level out/level",
					 artifact[k]);
		char want[128];
		snprintf(want, sizeof(want), "first bad commit: %s", ids[CULPRIT]);
		CU_ASSERT_EQUAL(rc, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
		if (rc || !strstr(out, want))
			fprintf(stderr, "\n--artifact %s:\n%s\n%s", artifact[k], out, err);
	}
}


/* Issue 35: an --artifact the build never changes (a file left in the tree before the bisection)
 * hashed alike at every commit, so nothing was put back before a measurement and every round measured
 * the last build: a 10% drop was refused as "not worse" (a -50% history too). Both ends' artifacts
 * identical is said, and each commit is built again before it is measured: the culprit is found. */
static void test_identical_ends_artifact_measures_each_build(void)
{
	enum { N = 16, CULPRIT = 9 };
	char ids[N][GIT_OID_HEXSZ + 1], stale[1200];
	const char *repo = ior_test_path("stale-artifact"), *db = ior_test_path("stale-artifact.db");
	unlink(db);
	setenv("IOR_TEST_SEED", "29", 1);
	ior_test_linear_repo(repo, N, CULPRIT, -1, ids);
	snprintf(stale, sizeof(stale), "%s/stale.bin", repo);
	FILE *f = fopen(stale, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("made once, never rebuilt\n", f);
	fclose(f);
	int rc = bisect_artifact(db, repo, ids[0], ids[N - 1], "cd out && ", "mkdir -p out && cp level out/level",
				 "stale.bin");
	char want[128];
	snprintf(want, sizeof(want), "first bad commit: %s", ids[CULPRIT]);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "warning: the good and the bad end built the same artifact"));
	CU_ASSERT_PTR_NULL(strstr(out, "build artifact is identical to"));
	if (rc || !strstr(out, want))
		fprintf(stderr, "\n%s\n%s", out, err);
}

/* An end whose boot keeps failing after the calibration (3 fresh rounds in a row), while a candidate is
 * judged against it, stops the bisection (exit 1, as an end that does not build; during a confirmation it was 2): which end,
 * that it does not boot and the boot's reason, on stdout, in status and in the log, with every row
 * already stored kept; run again once it boots, the bisection goes on to its culprit. */
static void test_end_that_does_not_boot_stops_with_its_reason(void)
{
	enum { N = 8, CULPRIT = 4 };
	char ids[N][GIT_OID_HEXSZ + 1];
	const char *repo = ior_test_path("noboot"), *db = ior_test_path("noboot.db");
	unlink(db);
	setenv("IOR_TEST_SEED", "17", 1);
	ior_test_linear_repo(repo, N, CULPRIT, -1, ids);
	char *start[] = { "--db", (char *)db, "bisect", "start", "--repo", (char *)repo, "--good", ids[0], "--bad",
			  ids[N - 1], NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(start, out, sizeof(out), err, sizeof(err)), 0);
	char measure[1200], boot[1024], want[1400];
	snprintf(measure, sizeof(measure), "sh %s", ior_test_measure_script(ior_test_tmpdir(), NOISE));
	/* the bad end boots 12 times (the calibration's 10 rounds and more), then no more */
	snprintf(boot, sizeof(boot), "if [ \"$IOREGRESS_COMMIT\" = %s ]; then c=$(cat %s/boots 2>/dev/null || echo 0); "
		 "echo $((c + 1)) > %s/boots; test $c -lt 12; fi", ids[N - 1], ior_test_tmpdir(), ior_test_tmpdir());
	char *run[] = { "--db", (char *)db, "bisect", "run", "--measure", measure, "--build", "true", "--boot", boot, NULL };
	int rc = ior_test_ioregress(run, out, sizeof(out), err, sizeof(err));
	printf("\n  exit %d\n%s%s", rc, out, err);
	CU_ASSERT_EQUAL(rc, 1);
	snprintf(want, sizeof(want), "stopped: the bad end %s does not boot\n  boot failed: '%s' ended with status 1", ids[N - 1],
		 boot);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "next: start again with an earlier bad end that builds and boots"));
	snprintf(want, sizeof(want), "error: the bisection cannot go on: the bad end '%s' does not boot", ids[N - 1]);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	/* stored: the builds, the failed boot, the stop; status shows it, the log keeps it */
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_log WHERE event = 'calibrated'"), 1);
	CU_ASSERT(ior_test_query(db, "SELECT count(*) FROM bisect_log WHERE event = 'build'") >= 3);
	CU_ASSERT(ior_test_query(db, "SELECT count(DISTINCT round) FROM bisect_samples WHERE commit_id = (SELECT bad FROM "
				     "bisects)") >= 10);
	/* an end that measured before is tried again in fresh rounds: the third failure in a row stops it */
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_log WHERE event = 'boot-failed' AND detail LIKE "
				       "'boot failed: %'"), 3);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_log WHERE event = 'end-failed'"), 2);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_log WHERE event = 'stopped' AND detail LIKE "
				       "'the bad end % does not boot: boot failed: %'"), 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisects WHERE status = 'running' AND result LIKE "
				       "'stopped: the bad end %'"), 1);
	char *status[] = { "--db", (char *)db, "bisect", "status", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(status, out, sizeof(out), err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "stopped: the bad end %s does not boot", ids[N - 1]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	char *logcmd[] = { "--db", (char *)db, "bisect", "log", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(logcmd, out, sizeof(out), err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "Z stopped: the bad end %s does not boot: boot failed: ", ids[N - 1]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	snprintf(want, sizeof(want), "Z boot-failed %s boot failed: ", ids[N - 1]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	/* it boots now: the same bisection goes on, the stop stays in the log, not in its status */
	char *again[] = { "--db", (char *)db, "bisect", "run", "--boot", "true", NULL };
	rc = ior_test_ioregress(again, out, sizeof(out), err, sizeof(err));
	snprintf(want, sizeof(want), "first bad commit: %s", ids[CULPRIT]);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	if (rc || !strstr(out, want))
		fprintf(stderr, "\n%s\n%s", out, err);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisects WHERE status = 'found' AND result NOT LIKE "
				       "'stopped:%'"), 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_log WHERE event = 'stopped'"), 1);
}

/* Packaged kernels, checked before anything boots: a matrix typo in bisect run is found on the host
 * with its file and line, spends no boot and records nothing; a kernel that cannot be fetched stops
 * the bisection with its own message. Every line names each kernel in full. The kernels are files in
 * the scratch directory that are no kernels (start checks the paths exist), and the good end's image
 * is removed before run, so nothing here can boot. */
static void test_packaged_kernels_checked_before_any_boot(void)
{
	static const char *const names[3] = { "linux-image-6.1.0-47-cloud-amd64",
					      "linux-image-6.12.107+deb12-cloud-amd64-unsigned",
					      "linux-image-6.12.113+deb12-cloud-amd64-unsigned" };
	static char k[3][1024], good_image[1024];
	for (int i = 0; i < 3; i++) {
		char dir[1100], file[1200];
		snprintf(dir, sizeof(dir), "%s/%s/lib/modules/6.1.0-test", ior_test_tmpdir(), names[i]);
		char *mk[] = { "mkdir", "-p", dir, NULL };
		CU_ASSERT_EQUAL_FATAL(ior_test_spawn(mk, NULL), 0);
		snprintf(file, sizeof(file), "%s/modules.dep", dir);
		FILE *f = fopen(file, "w");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		fclose(f);
		snprintf(file, sizeof(file), "%s/%s/bzImage", ior_test_tmpdir(), names[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(file, "w"));
		fputs("no kernel\n", f);
		fclose(f);
		snprintf(k[i], sizeof(k[i]), "%s:%s/%s/lib/modules", file, ior_test_tmpdir(), names[i]);
		if (!i)
			snprintf(good_image, sizeof(good_image), "%s", file);
	}
	const char *db = ior_test_path("pkg-typo.db");
	unlink(db);
	char *start[] = { "--db", (char *)db, "bisect", "start", "--kernels", (char *)k[0], (char *)k[1], (char *)k[2], NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(start, out, sizeof(out), err, sizeof(err)), 0);
	char want[1024];
	snprintf(want, sizeof(want), "1 kernels between good %s and bad %s\n", k[0], k[2]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	char *status[] = { "--db", (char *)db, "bisect", "status", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(status, out, sizeof(out), err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "  good %s\n  bad  %s\n", k[0], k[2]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	snprintf(want, sizeof(want), "2 candidate(s) left, next %s", k[1]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	/* the typo: found on the host, nothing stored but the start */
	const char *typo = ior_test_write_file("typo.ini", "[matrix]\nrepetitions = 1\n[device vda]\npath = /dev/vda\n"
							   "[engine direct]\ntype = hdparm\ndirectt = yes\n");
	char *run[] = { "--db", (char *)db, "bisect", "run", "--matrix", (char *)typo, NULL };
	int rc = ior_test_ioregress(run, out, sizeof(out), err, sizeof(err));
	printf("\n  typo: exit %d\n%s%s", rc, out, err);
	CU_ASSERT_EQUAL(rc, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "typo.ini:7: directt"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "(no boot was started)"));
	CU_ASSERT_PTR_NULL(strstr(out, "building"));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM vm_boots"), 0);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_log WHERE event <> 'start'"), 0);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisects WHERE matrix IS NULL"), 1);
	/* a good matrix: the good end cannot be fetched (its image gone since start), and says why */
	CU_ASSERT_EQUAL(unlink(good_image), 0);
	char matrix[1024];
	snprintf(matrix, sizeof(matrix), "%s", ior_test_source_path("tests/data/vm-bisect.ini"));
	run[5] = matrix;
	rc = ior_test_ioregress(run, out, sizeof(out), err, sizeof(err));
	printf("\n  no such kernel: exit %d\n%s%s", rc, out, err);
	CU_ASSERT_EQUAL(rc, 1);
	snprintf(want, sizeof(want), "building %s, elapsed ", k[0]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	snprintf(want, sizeof(want), "stopped: the good end %s does not build\n  its build failed: kernel image "
		 "'%s' does not exist", k[0], good_image);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM vm_boots"), 0);
	char *logcmd[] = { "--db", (char *)db, "bisect", "log", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(logcmd, out, sizeof(out), err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "start --kernels %s %s %s\n", k[0], k[1], k[2]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	snprintf(want, sizeof(want), "Z build %s failed\n", k[0]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	snprintf(want, sizeof(want), "Z build-error %s: kernel image '%s'", k[0], good_image);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_EQUAL(ior_test_ioregress(status, out, sizeof(out), err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "stopped: the good end %s does not build", k[0]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
}


int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_pick_halves_a_chain_as_git_does),
		IOR_TEST(test_candidates_follow_merges),
		IOR_TEST(test_culprit_named_in_every_seeded_trial),
		IOR_TEST(test_culprit_named_across_merges),
		IOR_TEST(test_range_when_neighbour_fails_to_build),
		IOR_TEST(test_refuses_when_ends_do_not_differ),
		IOR_TEST(test_resumes_after_sigkill),
		IOR_TEST(test_stale_index_lock_is_removed),
		IOR_TEST(test_status_log_replay_and_reset),
		IOR_TEST(test_identical_image_reuses_the_verdict),
		IOR_TEST(test_parent_with_the_good_ends_build_is_not_measured),
		IOR_TEST(test_measures_each_commits_own_artifact),
		IOR_TEST(test_identical_ends_artifact_measures_each_build),
		IOR_TEST(test_end_that_does_not_boot_stops_with_its_reason),
		IOR_TEST(test_packaged_kernels_checked_before_any_boot),
		IOR_TEST_END,
	};
	return ior_test_run("bisect", tests);
}
