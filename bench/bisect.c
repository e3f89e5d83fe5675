/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bisect benchmark: simulated bisections through noise, ioregress bisect's own driver
 * (bisect/driver.c over a simulated source and measuring step) beside plain git bisect with check,
 * check --bad, mmtests and lkp-tests as the step oracle. */
#include "bisect/driver.h"
#include "common/error.h"
#include "common/rng.h"
#include "stats/classify.h"
#include "stats/compare.h"
#include "stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * What is simulated: a linear history of N commits above a good end (N from 64 to 1024,
 * log-uniform), a culprit uniform among them (the bad end itself included), a throughput that
 * drops by D (5-20%) from the culprit on, gaussian noise of CoV C (2-10%), a fresh draw per
 * measurement. ioregress runs its real driver, state in a real database, with the candidate
 * source and measuring step replaced by this model (no git, no commands); the git bisect rows
 * replay git's halving on the same model with one oracle call per commit: 5 samples of the
 * candidate against 5 of the good end measured once (check, mmtests, lkp), or against 5 of
 * each end (check --bad). A build is a commit measured for the first time, ends included.
 *
 * Measured (IOR_BISECT_OLD=main bench/bisect.sh 200 1 - 1, load ~20 on 2 cores, same seeds): the old
 * driver (ends measured in blocks, candidates judged against them) 56.0% right, 17.5% confidently
 * wrong (34.0% at drift scale 0.75-1), 77% within log2 N + 3 builds; the round driver 58.0% right,
 * 0.0% wrong, 39.0% refused (the 1.5 x margin refuses drops under ~2 x the noise), 97% within the
 * budget; drop/noise >= 2: 96.9% right, 0 wrong. With the margin from the noise estimate's upper bound
 * (1.19 at 60 calibration rounds) and up to 120 rounds of the ends for a gap between 1 x and the margin
 * (same seeds, load ~25): 67.5% right, 0.0% wrong, 27.5% refused, 96% within the budget, 405 samples;
 * drop/noise 1-2: 48.1% right (was 27.8%), 2-4: 98.6% (was 94.2%). What is left refused is below
 * what 60 rounds a commit can find (about 1.7 x the noise; a drop equal to the noise needs --cap ~170).
 */

struct model {
	size_t n, culprit;   /* commits c1..cn; c[culprit..n] are slow */
	double drop, cov;
	struct ior_rng rng;
	/* the machine's drift: log speed = walk + step + cycle, simulated time advancing per
	 * measurement (IOR_SIM_MEASURE_S) and per build (IOR_SIM_BUILD_S) */
	double k;            /* drift scale of the trial, 0..1: 0 is the stationary machine */
	double now;          /* simulated seconds */
	double walk, step, lo, hi;   /* current walk and step level; the speed's range seen */
	struct ior_rng drng;
};
static struct model M;

#define IOR_SIM_MEASURE_S 10.0
#define IOR_SIM_BUILD_S 60.0
#define IOR_SIM_WALK_PER_MIN 0.05    /* sigma of the walk per simulated minute at k = 1 */
#define IOR_SIM_REVERT_S 600.0       /* the walk returns toward 0 with this time constant */
#define IOR_SIM_STEP_EVERY_S 1200.0  /* a step change on average this often at k = 1 */
#define IOR_SIM_CYCLE_S 1800.0       /* the slow cycle's period */
#define IOR_SIM_CYCLE_AMP 0.05       /* and its amplitude at k = 1 */

/* Time passes: the walk moves (Ornstein-Uhlenbeck, so it stays bounded), a step of 10-20% comes at
 * random times (at rate k), the other way from the last one so the machine does not run away. */
static void advance(double dt)
{
	M.now += dt;
	if (M.k == 0)
		return;
	double a = exp(-dt / IOR_SIM_REVERT_S);
	double sd = IOR_SIM_WALK_PER_MIN * M.k * sqrt(IOR_SIM_REVERT_S / 120.0 * (1 - a * a));
	M.walk = M.walk * a + sd * ior_rng_normal(&M.drng);
	if (ior_rng_uniform(&M.drng) < M.k * dt / IOR_SIM_STEP_EVERY_S) {
		double size = 0.10 + 0.10 * ior_rng_uniform(&M.drng);
		M.step = M.step > 0 ? -size / 2 : M.step < 0 ? size / 2 : (ior_rng_uniform(&M.drng) < 0.5 ? -size : size) / 2;
	}
	double sp = M.walk + M.step + IOR_SIM_CYCLE_AMP * M.k * sin(6.283185307 * M.now / IOR_SIM_CYCLE_S);
	M.lo = sp < M.lo ? sp : M.lo;
	M.hi = sp > M.hi ? sp : M.hi;
}

static double speed(void)
{
	return exp(M.walk + M.step + IOR_SIM_CYCLE_AMP * M.k * sin(6.283185307 * M.now / IOR_SIM_CYCLE_S));
}

static double level_of(const char *id)
{
	if (!strcmp(id, "base"))
		return 1000;
	size_t i = strtoul(id + 1, NULL, 10);
	return i >= M.culprit ? 1000 * (1 - M.drop) : 1000;
}

static double draw(double level)
{
	advance(IOR_SIM_MEASURE_S);
	return level * speed() * (1 + M.cov * ior_rng_normal(&M.rng));
}

/* --- the simulated source and measuring step ------------------------------------- */

static int sim_load(struct ior_bisect_source *s, const char *const *good, size_t ngood, const char *bad,
		    struct ior_bisect_graph *g, char ***good_ids, char **bad_id)
{
	(void)s, (void)good, (void)ngood, (void)bad;
	for (size_t i = 1; i <= M.n; i++) {
		char id[16];
		size_t p = i - 2;
		snprintf(id, sizeof(id), "c%05zu", i);
		if (ior_bisect_graph_add(g, id, "simulated", "bench", NULL, &p, i > 1, i == 1))
			return IOR_ERROR;
	}
	*good_ids = calloc(1, sizeof(char *));
	(*good_ids)[0] = strdup("base");
	*bad_id = strdup(g->nodes[M.n - 1].id);
	return ior_bisect_graph_finish(g);
}

static int sim_prepare(struct ior_bisect_source *s, const char *id)
{
	(void)s, (void)id;
	return IOR_OK;
}

static int sim_describe(struct ior_bisect_source *s, const char *id, char *buf, size_t len)
{
	(void)s, (void)id;
	snprintf(buf, len, "simulated");
	return IOR_OK;
}

static int sim_build(struct ior_bisect_measure *m, const char *id, enum ior_step_outcome *out, char *image, size_t len)
{
	(void)m, (void)id, (void)len;
	*out = IOR_STEP_OK;
	image[0] = '\0';
	advance(IOR_SIM_BUILD_S);
	return IOR_OK;
}

static int sim_measure(struct ior_bisect_measure *m, const char *id, double **x, size_t *n, enum ior_step_outcome *out)
{
	(void)m;
	double *g = realloc(*x, (*n + 1) * sizeof(*g));
	if (!g)
		return ior_error_set(IOR_ERROR, "out of memory");
	*x = g;
	(*x)[(*n)++] = draw(level_of(id));
	*out = IOR_STEP_OK;
	return IOR_OK;
}

/* --- tallies ------------------------------------------------------------------- */

struct tally {
	const char *name;
	size_t right, wrong, none, refused, within_budget;
	double builds, samples;
	size_t worst_excess;   /* builds beyond log2 N + 3, at most */
};

static void count(struct tally *t, long named, bool refused, size_t builds, size_t samples)
{
	if (refused)
		t->refused++;
	else if (named < 0)
		t->none++;
	else if ((size_t)named == M.culprit)
		t->right++;
	else
		t->wrong++;
	t->builds += (double)builds;
	t->samples += (double)samples;
	double budget = log2((double)M.n) + 3;
	if ((double)builds <= budget)
		t->within_budget++;
	else if ((size_t)ceil((double)builds - budget) > t->worst_excess)
		t->worst_excess = (size_t)ceil((double)builds - budget);
}

static double pct(size_t k, size_t n)
{
	return n ? 100.0 * (double)k / (double)n : 0;
}

static void print(const struct tally *t, size_t n)
{
	printf("%-26s %6.1f%% %6.1f%% %6.1f%% %6.1f%% %8.1f %6.1f%% %5zu %9.1f\n", t->name, pct(t->right, n), pct(t->wrong, n),
	       pct(t->none, n), pct(t->refused, n), t->builds / (double)n, pct(t->within_budget, n), t->worst_excess,
	       t->samples / (double)n);
}

/* --- ioregress bisect ------------------------------------------------------------ */

static int run_ioregress(struct ior_db *db, const struct ior_bisect_judge_opts *o, long *named, bool *refused,
			 size_t *builds, size_t *samples)
{
	struct ior_bisect_source src = { .kind = "git", .load = sim_load, .prepare = sim_prepare, .describe = sim_describe };
	struct ior_bisect_measure m = { .build = sim_build, .measure = sim_measure };
	struct ior_bisect_info b = { .source = "git", .good = "base", .bad = "tip", .higher_is_better = true };
	int64_t id;
	if (ior_bisect_create(db, &b, &id))
		return IOR_ERROR;
	struct ior_bisect_driver d = { .db = db, .src = &src, .m = &m, .o = *o };
	struct ior_bisect_result res;
	if (ior_bisect_drive(&d, &res))
		return IOR_ERROR;
	*refused = res.end == IOR_BISECT_REFUSED;
	*named = res.end == IOR_BISECT_FOUND ? (long)strtoul(res.culprit + 1, NULL, 10) : -1;
	*builds = res.counts.builds;
	*samples = res.counts.samples;
	return IOR_OK;
}

/* --- plain git bisect with a step oracle ----------------------------------------- */

enum oracle { CHECK, CHECK_BAD, MMTESTS, LKP, NORACLE };
enum { REPS = 5 };

static double t975(size_t df)
{
	static const double t[] = { 0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228 };
	return df <= 10 ? t[df] : 1.96;
}

/* The mmtests and lkp-tests rules as bench/detect.c states them. */
static bool mmtests_drop(const double *a, const double *b)
{
	struct ior_stats sa, sb;
	ior_stats_compute(&sa, a, REPS);
	ior_stats_compute(&sb, b, REPS);
	double hw = t975(REPS - 1) * (sa.sd + sb.sd) / sqrt((double)REPS);
	return sb.mean - sa.mean < -hw;
}

static bool lkp_drop(const double *a, const double *b)
{
	struct ior_stats sa, sb;
	ior_stats_compute(&sa, a, REPS);
	ior_stats_compute(&sb, b, REPS);
	return sb.mean / sa.mean - 1 <= -0.01 && sb.max < sa.min;
}

/* 0 good, 1 bad, 125 skip: what the oracle tells git bisect run. */
static int oracle_says(enum oracle o, const double *good, const double *bad, const double *c)
{
	switch (o) {
	case CHECK: {
		struct ior_comparison k;
		if (ior_compare(&k, good, REPS, c, REPS, NULL))
			return 125;
		return k.verdict == IOR_VERDICT_REGRESSION ? 1 : k.verdict == IOR_VERDICT_INCONCLUSIVE ? 125 : 0;
	}
	case CHECK_BAD: {
		struct ior_classification k;
		if (ior_classify(&k, good, REPS, bad, REPS, c, REPS, NULL))
			return 125;
		return k.verdict == IOR_CLASS_GOOD ? 0 : k.verdict == IOR_CLASS_BAD ? 1 : 125;
	}
	case MMTESTS: return mmtests_drop(good, c);
	case LKP: return lkp_drop(good, c);
	default: return 125;
	}
}

/* git bisect over c1..cn: halving, skipped commits avoided (git then tries a neighbour), a range
 * when only skipped ones are left. Returns the named commit or -1. */
static long run_git(enum oracle o, size_t *builds, size_t *samples)
{
	double good[REPS], bad[REPS], c[REPS];
	for (int i = 0; i < REPS; i++)
		good[i] = draw(level_of("base"));
	*builds = 1, *samples = REPS;
	if (o == CHECK_BAD) {
		for (int i = 0; i < REPS; i++)
			bad[i] = draw(1000 * (1 - M.drop));
		(*builds)++, *samples += REPS;
	}
	unsigned char *skip = calloc(M.n + 1, 1);
	size_t lo = 0, hi = M.n;   /* lo good (0: the good end), hi bad */
	long named = -1;
	for (;;) {
		if (hi - lo == 1) {
			named = (long)hi;
			break;
		}
		/* the untested commit nearest the middle that is not skipped */
		size_t mid = (lo + hi) / 2, pick = 0;
		for (size_t dist = 0; dist < hi - lo && !pick; dist++) {
			if (mid + dist < hi && mid + dist > lo && !skip[mid + dist])
				pick = mid + dist;
			else if (mid >= dist && mid - dist > lo && mid - dist < hi && !skip[mid - dist])
				pick = mid - dist;
		}
		if (!pick)
			break;   /* only skipped commits between: a range */
		for (int i = 0; i < REPS; i++) {
			char id[16];
			snprintf(id, sizeof(id), "c%05zu", pick);
			c[i] = draw(level_of(id));
		}
		(*builds)++, *samples += REPS;
		advance(IOR_SIM_BUILD_S);
		int v = oracle_says(o, good, bad, c);
		if (v == 0)
			lo = pick;
		else if (v == 1)
			hi = pick;
		else
			skip[pick] = 1;
	}
	free(skip);
	return named;
}

int main(int argc, char **argv)
{
	size_t trials = argc > 1 ? strtoul(argv[1], NULL, 10) : 200;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
	struct ior_bisect_judge_opts o;
	ior_bisect_judge_opts_default(&o);
	if (argc > 3 && strcmp(argv[3], "-"))
		o.cap = o.calibrate_cap = strtoul(argv[3], NULL, 10);
	double kmax = argc > 4 ? strtod(argv[4], NULL) : 0;   /* drift scale: 0 stationary, 1 the most */
	const char *test = getenv("IOR_BISECT_TEST");   /* "sprt": the sequential test per commit, "looks": looks every 5 rounds */
	if (test)
		o.sequential = !strcmp(test, "sprt");
	char path[512] = "/tmp/ior-bench-bisect-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	unlink(path);
	bool keep = getenv("IOR_BENCH_DB") != NULL;   /* keep the database there, to read the bisections */
	if (keep)
		snprintf(path, sizeof(path), "%s", getenv("IOR_BENCH_DB"));
	struct ior_db *db = NULL;
	if (ior_db_open(&db, path)) {
		fprintf(stderr, "error: %s\n", ior_error_last());
		return 1;
	}
	struct tally ior = { .name = "ioregress bisect" };
	struct tally git[NORACLE] = { { .name = "git bisect + check" }, { .name = "git bisect + check --bad" },
				      { .name = "git bisect + mmtests" }, { .name = "git bisect + lkp-tests" } };
	/* ioregress by how far apart the ends are, in noise units: drop / CoV */
	static const double edges[] = { 0, 1, 2, 4, 1e9 };
	struct tally by_gap[4] = { { .name = "  drop/noise < 1" }, { .name = "  drop/noise 1-2" },
				   { .name = "  drop/noise 2-4" }, { .name = "  drop/noise >= 4" } };
	size_t in_gap[4] = { 0 };
	/* and by the trial's drift scale (the machine's property; the drift seen during a bisection also
	 * grows with how long it ran, so a refusal in minutes sees little of it) */
	struct tally by_drift[4] = { { .name = "  drift scale 0-0.25" }, { .name = "  drift scale 0.25-0.5" },
				     { .name = "  drift scale 0.5-0.75" }, { .name = "  drift scale 0.75-1" } };
	struct tally upto20 = { .name = "  seen drift <= 20%" };
	size_t in_drift[4] = { 0 }, n20 = 0;
	double seen[4] = { 0 };
	struct ior_rng setup;
	ior_rng_seed(&setup, seed);
	for (size_t t = 0; t < trials; t++) {
		M.n = (size_t)llround(pow(2, 6 + 4 * ior_rng_uniform(&setup)));
		M.culprit = 1 + ior_rng_below(&setup, M.n);
		M.drop = 0.05 + 0.15 * ior_rng_uniform(&setup);
		M.cov = 0.02 + 0.08 * ior_rng_uniform(&setup);
		M.k = kmax * ior_rng_uniform(&setup);
		ior_rng_seed(&M.rng, seed * 1000003 + t);
		ior_rng_seed(&M.drng, seed * 7000003 + t);
		M.now = M.walk = M.step = M.lo = M.hi = 0;
		long named;
		bool refused;
		size_t builds, samples;
		if (run_ioregress(db, &o, &named, &refused, &builds, &samples)) {
			fprintf(stderr, "error: %s\n", ior_error_last());
			return 1;
		}
		count(&ior, named, refused, builds, samples);
		if (getenv("IOR_BENCH_VERBOSE") && !refused && named != (long)M.culprit)
			fprintf(stderr, "trial %zu: N %zu culprit %zu named %ld, drop %.1f%% noise %.1f%%, bisection %zu\n", t,
				M.n, M.culprit, named, M.drop * 100, M.cov * 100, t + 1);
		size_t k = 0;
		while (M.drop / M.cov >= edges[k + 1])
			k++;
		count(&by_gap[k], named, refused, builds, samples);
		in_gap[k]++;
		double drift = expm1(M.hi - M.lo);
		size_t dk = kmax > 0 ? (size_t)(4 * M.k / kmax) : 0;
		dk = dk > 3 ? 3 : dk;
		count(&by_drift[dk], named, refused, builds, samples);
		in_drift[dk]++;
		seen[dk] += drift;
		if (drift <= 0.20) {
			count(&upto20, named, refused, builds, samples);
			n20++;
		}
		if (getenv("IOR_BENCH_VERBOSE") && !refused && named != (long)M.culprit)
			fprintf(stderr, "  drift %.1f%% (k %.2f)\n", drift * 100, M.k);
		for (int g = 0; g < NORACLE; g++) {
			ior_rng_seed(&M.drng, seed * 7000003 + t);   /* each method meets the same machine */
			M.now = M.walk = M.step = M.lo = M.hi = 0;
			long gn = run_git((enum oracle)g, &builds, &samples);
			count(&git[g], gn, false, builds, samples);
		}
	}
	printf("%zu simulated bisections (seed %llu): N 64-1024 commits, drop 5-20%%, noise (CoV) 2-10%%, gaussian; "
	       "drift scale 0-%g (walk %.0f%%/min, steps 10-20%% every %.0f min, cycle %.0f%% over %.0f min at 1; "
	       "%.0f s a measurement, %.0f s a build)\n", trials, (unsigned long long)seed, kmax,
	       IOR_SIM_WALK_PER_MIN * 100, IOR_SIM_STEP_EVERY_S / 60, IOR_SIM_CYCLE_AMP * 100, IOR_SIM_CYCLE_S / 60,
	       IOR_SIM_MEASURE_S, IOR_SIM_BUILD_S);
	if (o.sequential)
		printf("ioregress: alpha %g, ends %zu-%zu samples, a commit: a sequential ratio test from %zu rounds, looked at "
		       "every round up to %zu, confirmation %zu\n\n", o.alpha, o.calibrate, o.calibrate_cap, o.first, o.cap,
		       o.confirm);
	else
		printf("ioregress: alpha %g, ends %zu-%zu samples, a commit %zu + %zu per look up to %zu, confirmation %zu\n\n",
		       o.alpha, o.calibrate, o.calibrate_cap, o.first, o.step, o.cap, o.confirm);
	printf("%-26s %7s %7s %7s %7s %8s %7s %5s %9s\n", "method", "right", "wrong", "none", "refused", "builds",
	       "<=budget", "worst", "samples");
	print(&ior, trials);
	for (int g = 0; g < NORACLE; g++)
		print(&git[g], trials);
	printf("\nioregress bisect by drop / noise (bisections in each: %zu %zu %zu %zu):\n", in_gap[0], in_gap[1],
	       in_gap[2], in_gap[3]);
	for (int k = 0; k < 4; k++)
		if (in_gap[k])
			print(&by_gap[k], in_gap[k]);
	printf("\nioregress bisect by drift scale (of at most %g; bisections in each: %zu %zu %zu %zu; mean drift seen "
	       "during them: %.0f%% %.0f%% %.0f%% %.0f%%):\n", kmax, in_drift[0], in_drift[1], in_drift[2], in_drift[3],
	       in_drift[0] ? 100 * seen[0] / (double)in_drift[0] : 0, in_drift[1] ? 100 * seen[1] / (double)in_drift[1] : 0,
	       in_drift[2] ? 100 * seen[2] / (double)in_drift[2] : 0, in_drift[3] ? 100 * seen[3] / (double)in_drift[3] : 0);
	for (int k = 0; k < 4; k++)
		if (in_drift[k])
			print(&by_drift[k], in_drift[k]);
	if (n20)
		print(&upto20, n20);
	printf("\nright: the culprit named; wrong: another commit named as the culprit (confidently wrong); none: a range "
	       "or no answer; refused: ioregress declined at calibration. builds: commits measured for the first time, "
	       "ends included; <=budget: share within log2 N + 3; worst: the most builds over it.\n");
	ior_db_free(db);
	if (keep)
		return 0;
	unlink(path);
	char wal[64];
	snprintf(wal, sizeof(wal), "%s-wal", path);
	unlink(wal);
	snprintf(wal, sizeof(wal), "%s-shm", path);
	unlink(wal);
	return 0;
}
