/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel verdicts on VM data, offline: stored boots of vm run in a real SQLite file, each boot's
 * median one observation, paired by boot round, never one boot's repetitions counted as independent
 * evidence. */
#include "tests/suite.h"

#include "db/db.h"
#include "db/metric.h"
#include "engines/engine.h"
#include "judge/boot_verdict.h"
#include "reports/boots_auto.h"
#include "stats/classify.h"
#include "reports/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HOST "box-vm"
#define RA "6.1.0-47-cloud-amd64"
#define RB "6.12.113+deb12-cloud-amd64"
#define RC "6.6.0-1-cloud-amd64"

static char out[65536];

struct fixture {
	struct ior_db *db;
	int64_t host, dev;
	char path[512];
};

static void open_fixture(struct fixture *f, const char *name)
{
	snprintf(f->path, sizeof(f->path), "%s/%s", ior_test_tmpdir(), name);
	unlink(f->path);
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&f->db, f->path)), 0);
	struct ior_db_device d = { .name = "vda", .path = "/dev/vda", .rotational = 0, .size = 512 << 20,
				   .logical_block = 512, .physical_block = 512 };
	CU_ASSERT_EQUAL_FATAL(ior_db_host_get(f->db, HOST, "x86_64", &f->host), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_device_get(f->db, f->host, &d, &f->dev), 0);
}

/* One boot as vm run leaves it merged: the guest's run with one cell of reps repetitions around
 * level (the first `warmup` of them warm-ups at ten times the level), and its vm_boots row with its
 * round. vm_run NULL: a host run, no boot row. Within a boot the values spread +-0.5%. */
static void add_boot(struct fixture *f, const char *release, const char *vm_run, int round, double level, int reps,
		     int warmup)
{
	struct ior_db_kernel k = { .release = release, .version = "#1 SMP Debian", .machine = "x86_64" };
	int64_t kid, run, cell;
	CU_ASSERT_EQUAL_FATAL(ior_db_kernel_get(f->db, &k, &kid), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_run_begin(f->db, f->host, kid, "vm.ini", "[matrix]\n", IOR_RUN_RUNNING, &run), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_cell_get(f->db, run, f->dev, "none", "direct", "hdparm", "direct=yes", &cell), 0);
	for (int r = 1; r <= reps; r++) {
		/* the block layer's counters do not move with the host's speed: 8 reads of 128 KiB each time */
		struct ior_sample s = { .value = level * (r <= warmup ? 10 : 1 + 0.005 * sin(r * 1.7)), .unit = "MiB/s",
					.higher_is_better = true, .bytes = 1 << 20, .ios = 1, .wall_s = 1,
					.warmup = r <= warmup, .round = r, .has_blkstat = true,
					.blk = { .rd_ios = 8, .rd_sectors = 2048 } };
		CU_ASSERT_EQUAL(ior_db_sample_add(f->db, cell, r, &s), 0);
	}
	CU_ASSERT_EQUAL(ior_db_run_finish(f->db, run, IOR_RUN_COMPLETE), 0);
	if (!vm_run)
		return;
	char kernel[160];
	snprintf(kernel, sizeof(kernel), "linux-image-%s", release);
	struct ior_db_vm_boot b = { .host_id = f->host, .run_id = run, .kernel = kernel, .kernel_release = release,
				    .boot_index = round, .outcome = "ok", .guest_status = 0, .accelerator = "tcg",
				    .cpus = 1, .memory_mb = 512, .boot_s = 3, .total_s = 60, .vm_run = vm_run };
	CU_ASSERT_EQUAL(ior_db_vm_boot_add(f->db, &b, NULL), 0);
}

/* The report model's verdict of RB against RA on the headline metric (one cell). */
static struct ior_report *verdict(struct fixture *f, const char *vm_run)
{
	struct ior_report_opts o;
	ior_report_opts_default(&o);
	o.parts = IOR_REPORT_VERDICTS;
	o.baseline = RA, o.candidate = RB, o.vm_run = vm_run;
	o.metrics = IOR_METRIC_BIT(IOR_METRIC_VALUE);
	struct ior_report *r = NULL;
	CU_ASSERT_EQUAL(ior_test_ok(ior_report_build(&r, f->db, &o)), 0);
	CU_ASSERT_PTR_NOT_NULL(r);
	if (r)
		CU_ASSERT_EQUAL(r->nverdicts, 1);
	return r && r->nverdicts == 1 ? r : NULL;
}

/* Two boots a side of 10 repetitions: the boots of RB differ from RA's by -10% in round 1 and -1% in
 * round 2. Taken as 20 observations a side (what the verdict did before) that is a regression with a
 * tiny p; as two boots a side it is two observations, and the verdict is inconclusive, naming why. */
static void test_two_boots_are_not_twenty_observations(void)
{
	struct fixture f;
	open_fixture(&f, "two-boots.db");
	add_boot(&f, RA, "box/1/t0", 1, 100, 10, 0);
	add_boot(&f, RB, "box/1/t0", 1, 90, 10, 0);
	add_boot(&f, RB, "box/1/t0", 2, 99, 10, 0);
	add_boot(&f, RA, "box/1/t0", 2, 100, 10, 0);
	/* the per-sample test on the same values calls it a regression */
	double a[20], b[20];
	for (int i = 0; i < 20; i++) {
		a[i] = 100 * (1 + 0.005 * sin((i % 10 + 1) * 1.7));
		b[i] = (i < 10 ? 90 : 99) * (1 + 0.005 * sin((i % 10 + 1) * 1.7));
	}
	struct ior_compare_opts co;
	ior_compare_opts_default(&co);
	co.higher_is_better = true;
	struct ior_comparison pooled;
	CU_ASSERT_EQUAL(ior_compare(&pooled, a, 20, b, 20, &co), 0);
	CU_ASSERT_EQUAL(pooled.verdict, IOR_VERDICT_REGRESSION);
	CU_ASSERT(pooled.mw.p < 0.001);
	/* by boots: inconclusive, paired by round, with the noise between boots */
	struct ior_report *r = verdict(&f, NULL);
	if (r) {
		const struct ior_judge_verdict *v = &r->verdicts[0];
		CU_ASSERT(v->by_boot);
		CU_ASSERT(v->boots.paired);
		CU_ASSERT_EQUAL(v->boots.boots_a, 2);
		CU_ASSERT_EQUAL(v->boots.samples_a, 20);
		CU_ASSERT_EQUAL(v->c.na, 2);
		CU_ASSERT_EQUAL(v->c.verdict, IOR_VERDICT_INCONCLUSIVE);
		CU_ASSERT_PTR_NOT_NULL(strstr(v->c.reason, "paired by boot round, 2 boots a side"));
		CU_ASSERT_PTR_NOT_NULL(strstr(v->c.reason, "between boots: not even a doubling or halving can be told at 2 boots a side"));
		printf("\n  %s\n", v->c.reason);
	}
	ior_report_free(r);
	/* the command says the same */
	char *check[] = { "--db", f.path, "check", "--baseline", RA, "--candidate", RB, NULL };
	ior_test_ioregress(check, out, sizeof(out), NULL, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "paired by boot round, 2 boots a side"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "1 cell(s) compared: 0 regression(s), 1 inconclusive"));
	ior_db_free(f.db);
}

/* One boot of RA with two cells, none at 100 and kyber at level, 10 repetitions each (+-0.5%). */
static void add_boot_two_schedulers(struct fixture *f, int round, double level)
{
	struct ior_db_kernel k = { .release = RA, .version = "#1 SMP Debian", .machine = "x86_64" };
	int64_t kid, run, cell[2];
	CU_ASSERT_EQUAL_FATAL(ior_db_kernel_get(f->db, &k, &kid), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_run_begin(f->db, f->host, kid, "vm.ini", "[matrix]\n", IOR_RUN_RUNNING, &run), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_cell_get(f->db, run, f->dev, "none", "direct", "hdparm", "direct=yes", &cell[0]), 0);
	CU_ASSERT_EQUAL_FATAL(ior_db_cell_get(f->db, run, f->dev, "kyber", "direct", "hdparm", "direct=yes", &cell[1]), 0);
	for (int r = 1; r <= 10; r++)
		for (int c = 0; c < 2; c++) {
			struct ior_sample s = { .value = (c ? level : 100) * (1 + 0.005 * sin(r * 1.7)), .unit = "MiB/s",
						.higher_is_better = true, .bytes = 1 << 20, .ios = 1, .wall_s = 1, .round = r };
			CU_ASSERT_EQUAL(ior_db_sample_add(f->db, cell[c], r, &s), 0);
		}
	CU_ASSERT_EQUAL(ior_db_run_finish(f->db, run, IOR_RUN_COMPLETE), 0);
	struct ior_db_vm_boot b = { .host_id = f->host, .run_id = run, .kernel = "linux-image-" RA, .kernel_release = RA,
				    .boot_index = round, .outcome = "ok", .guest_status = 0, .accelerator = "tcg",
				    .cpus = 1, .memory_mb = 512, .boot_s = 3, .total_s = 60, .vm_run = "box/2/t0" };
	CU_ASSERT_EQUAL(ior_db_vm_boot_add(f->db, &b, NULL), 0);
}

/* On any axis, not only the kernel's: two schedulers of one kernel over two boots, kyber 10% slower
 * than none in boot 1 and 1% in boot 2. Pooled, 20 repetitions a side call it a regression; each
 * boot's median is one observation, paired by boot (both cells of a boot are one pair), and two
 * boots a side decide nothing. */
static void test_other_axes_judged_on_boots(void)
{
	struct fixture f;
	open_fixture(&f, "axes.db");
	add_boot_two_schedulers(&f, 1, 90);
	add_boot_two_schedulers(&f, 2, 99);
	char *compare[] = { "--db", f.path, "compare", "--by", "scheduler", "none", "kyber", NULL };
	int status = ior_test_ioregress(compare, out, sizeof(out), NULL, 0);
	CU_ASSERT_EQUAL(status, 125);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "paired by boot round, 2 boots a side"));
	CU_ASSERT_PTR_NULL(strstr(out, "regression(s): 1"));
	printf("\n%s", out);
	ior_db_free(f.db);
}

/* The host's speed moves by up to 60% between rounds; RB is 15% slower than RA within every round.
 * Booted in the same rounds of one vm run, the paired test finds it; the same boots as separate vm
 * runs cannot be paired, and the unpaired test on boot medians says so with the noise it faced. */
static const double drift[] = { 1.0, 1.3, 0.8, 1.2, 0.7, 1.1 };
static const double jitter[] = { 0.01, -0.015, 0.02, 0.0, -0.01, 0.012 };

/* Kernel side (0: RA, 1: RB) of round i: its level that round. */
static double drifting_level(int side, int i)
{
	return (side ? 85 : 100) * drift[i] * (1 + (side ? -jitter[5 - i] : jitter[i]));
}

static void add_drifting(struct fixture *f, const char *run_a, const char *run_b)
{
	for (int i = 0; i < 6; i++)
		for (int j = 0; j < 2; j++) {
			int side = (i + j) % 2;   /* the order rotated each round, as vm run boots them */
			add_boot(f, side ? RB : RA, side ? run_b : run_a, i + 1, drifting_level(side, i), 9, 1);
		}
}

static void test_paired_by_boot_round_under_drift(void)
{
	struct fixture f;
	open_fixture(&f, "drift-paired.db");
	add_drifting(&f, "box/2/t1", "box/2/t1");
	struct ior_report *r = verdict(&f, NULL);
	if (r) {
		const struct ior_judge_verdict *v = &r->verdicts[0];
		CU_ASSERT(v->boots.paired);
		CU_ASSERT_EQUAL(v->c.verdict, IOR_VERDICT_REGRESSION);
		CU_ASSERT(fabs(v->c.ratio - 0.85) < 0.03);
		/* warm-ups are no part of a boot's median: 8 measured repetitions per boot */
		CU_ASSERT_EQUAL(v->boots.samples_a, 6 * 8);
		CU_ASSERT_EQUAL(v->boots.samples_b, 6 * 8);
		CU_ASSERT_PTR_NOT_NULL(strstr(v->c.reason, "paired by boot round, 6 boots a side"));
		printf("\n  %s\n", v->c.reason);
	}
	ior_report_free(r);
	ior_db_free(f.db);
}

static void test_separate_vm_runs_are_unpaired(void)
{
	struct fixture f;
	open_fixture(&f, "drift-unpaired.db");
	add_drifting(&f, "box/3/t2", "box/4/t3");
	struct ior_report *r = verdict(&f, NULL);
	if (r) {
		const struct ior_judge_verdict *v = &r->verdicts[0];
		CU_ASSERT(v->by_boot);
		CU_ASSERT(!v->boots.paired);
		CU_ASSERT_EQUAL(v->c.na, 6);
		CU_ASSERT_EQUAL(v->c.verdict, IOR_VERDICT_INCONCLUSIVE);
		CU_ASSERT_PTR_NOT_NULL(strstr(v->c.reason, "unpaired: boots of separate vm runs; 6 boots against 6"));
		CU_ASSERT_PTR_NOT_NULL(strstr(v->c.reason, "between boots: changes below"));
		/* the drift is the noise it faced: over 15%, so a 15% change cannot be told */
		CU_ASSERT(v->boots.noise > 0.15);
		CU_ASSERT(v->boots.smallest > 0.15);
		printf("\n  %s\n", v->c.reason);
	}
	ior_report_free(r);
	ior_db_free(f.db);
}

/* One boot a side: no verdict, and the answer says the noise between boots cannot be measured. */
static void test_one_boot_a_side(void)
{
	struct ior_boot_obs a = { .vm_run = "x", .round = 1, .median = 100, .n = 10 };
	struct ior_boot_obs b = { .vm_run = "x", .round = 1, .median = 50, .n = 10 };
	struct ior_compare_opts o;
	ior_compare_opts_default(&o);
	o.higher_is_better = true;
	struct ior_comparison c;
	struct ior_boot_evidence ev;
	CU_ASSERT_EQUAL(ior_boot_compare(&c, &ev, &a, 1, &b, 1, &o), 0);
	CU_ASSERT_EQUAL(c.verdict, IOR_VERDICT_INCONCLUSIVE);
	CU_ASSERT(!ev.paired);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "1 boot a side: the noise between boots cannot be measured"));
}

/* A counter metric can be 0 on every boot (merge_pct where nothing merges): no ratio exists, yet
 * zero on both sides is no change, and 0 against about 4% on 8 boots each is a difference (ranks).
 * Before, the paired test refused the rounds and check --metric merge_pct failed on every cell. */
static void test_zero_boot_medians(void)
{
	struct ior_boot_obs a[8], b[8], z[8];
	for (int i = 0; i < 8; i++) {
		a[i] = (struct ior_boot_obs){ .vm_run = "x", .round = i + 1, .median = 0, .n = 3 };
		z[i] = a[i];
		b[i] = (struct ior_boot_obs){ .vm_run = "x", .round = i + 1, .median = 4 + 0.1 * i, .n = 3 };
	}
	struct ior_compare_opts o;
	ior_compare_opts_default(&o);
	o.higher_is_better = true;
	struct ior_comparison c;
	struct ior_boot_evidence ev;
	CU_ASSERT_EQUAL(ior_test_ok(ior_boot_compare(&c, &ev, a, 8, z, 8, &o)), 0);
	CU_ASSERT_EQUAL(c.verdict, IOR_VERDICT_NO_CHANGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "0 on every boot of both (8 boots against 8"));
	CU_ASSERT_EQUAL(ior_test_ok(ior_boot_compare(&c, &ev, a, 8, b, 8, &o)), 0);
	CU_ASSERT_EQUAL(c.verdict, IOR_VERDICT_IMPROVEMENT);
	CU_ASSERT(c.mw.p < 0.001);
	CU_ASSERT_EQUAL(ior_test_ok(ior_boot_compare(&c, &ev, a, 2, b, 2, &o)), 0);
	CU_ASSERT_EQUAL(c.verdict, IOR_VERDICT_INCONCLUSIVE);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "the smallest p 2 against 2 boots can give is 0.333"));
	/* issue 22: an inconclusive answer on ranks states the noise between boots too */
	CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "noise between boots: their medians spread by "));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.reason, "no change can be told at 2 boots a side (6 and 6 samples); boot more"));
	CU_ASSERT(ev.ranks && !ev.ranks_can_tell);
}

/* Runs of the host (no vm_boots row) are judged on their samples as before. */
static void test_host_runs_keep_the_sample_verdict(void)
{
	struct fixture f;
	open_fixture(&f, "host.db");
	add_boot(&f, RA, NULL, 0, 100, 10, 0);
	add_boot(&f, RB, NULL, 0, 80, 10, 0);
	struct ior_report *r = verdict(&f, NULL);
	if (r) {
		CU_ASSERT(!r->verdicts[0].by_boot);
		CU_ASSERT_EQUAL(r->verdicts[0].c.na, 10);
		CU_ASSERT_EQUAL(r->verdicts[0].c.verdict, IOR_VERDICT_REGRESSION);
		CU_ASSERT_PTR_NULL(strstr(r->verdicts[0].c.reason, "boot"));
	}
	ior_report_free(r);
	ior_db_free(f.db);
}

/* --boots auto's question reads one vm run's boots only: the paired run is decided, a later vm run
 * of one kernel alone has nothing to compare yet. */
static void test_boots_auto_progress(void)
{
	struct fixture f;
	open_fixture(&f, "auto.db");
	add_drifting(&f, "box/5/t4", "box/5/t4");
	add_boot(&f, RA, "box/6/t5", 1, 100, 9, 1);
	const char *rel[] = { RA, RB };
	struct ior_boots_progress p;
	CU_ASSERT_EQUAL(ior_test_ok(ior_boots_progress(&p, f.db, HOST, "box/5/t4", rel, 2, IOR_METRIC_VALUE)), 0);
	CU_ASSERT_EQUAL(p.cells, 1);
	CU_ASSERT_EQUAL(p.decided, 1);
	CU_ASSERT_PTR_NULL(p.undecided);
	ior_boots_progress_free(&p);
	CU_ASSERT_EQUAL(ior_test_ok(ior_boots_progress(&p, f.db, HOST, "box/6/t5", rel, 2, IOR_METRIC_VALUE)), 0);
	CU_ASSERT_EQUAL(p.decided, 0);
	CU_ASSERT_PTR_NOT_NULL(p.undecided);
	ior_boots_progress_free(&p);
	ior_db_free(f.db);
}

/* --boots auto --metric req_kib: two rounds whose timings differ by 10% and 1% (undecided by value)
 * while the request counters are the same on every boot: decided (no change) by req_kib. */
static void test_boots_auto_on_counters(void)
{
	struct fixture f;
	open_fixture(&f, "auto-counters.db");
	add_boot(&f, RA, "box/10/t9", 1, 100, 5, 0);
	add_boot(&f, RB, "box/10/t9", 1, 90, 5, 0);
	add_boot(&f, RB, "box/10/t9", 2, 99, 5, 0);
	add_boot(&f, RA, "box/10/t9", 2, 100, 5, 0);
	const char *rel[] = { RA, RB };
	struct ior_boots_progress p;
	CU_ASSERT_EQUAL(ior_test_ok(ior_boots_progress(&p, f.db, HOST, "box/10/t9", rel, 2, IOR_METRIC_VALUE)), 0);
	CU_ASSERT_EQUAL(p.cells, 1);
	CU_ASSERT_EQUAL(p.decided, 0);
	ior_boots_progress_free(&p);
	CU_ASSERT_EQUAL(ior_test_ok(ior_boots_progress(&p, f.db, HOST, "box/10/t9", rel, 2, IOR_METRIC_REQ_KIB)), 0);
	CU_ASSERT_EQUAL(p.cells, 1);
	CU_ASSERT_EQUAL(p.decided, 1);
	CU_ASSERT_PTR_NULL(p.undecided);
	ior_boots_progress_free(&p);
	/* a metric the cells never recorded (no latency from hdparm) counts no cell */
	CU_ASSERT_EQUAL(ior_test_ok(ior_boots_progress(&p, f.db, HOST, "box/10/t9", rel, 2, IOR_METRIC_LAT_P99)), 0);
	CU_ASSERT_EQUAL(p.cells, 0);
	ior_boots_progress_free(&p);
	ior_db_free(f.db);
}

/* `check --baseline RA --candidate RC --bad RB` on f's database: its exit status, its output in out. */
static int check_ends(struct fixture *f)
{
	char *check[] = { "--db", f->path, "check", "--baseline", RA, "--candidate", RC, "--bad", RB, NULL };
	memset(out, 0, sizeof(out));
	int status = ior_test_ioregress(check, out, sizeof(out), NULL, 0);
	printf("\n%s", out);
	return status;
}

/* check --bad on VM data: good RA, bad RB and candidate RC, 2 boots of 10 repetitions each, booted in
 * the same 2 rounds. RB is 50% below RA in both rounds; RC is 10% below RB in round 1 and 15% above
 * it in round 2. Its 20 repetitions taken as samples are like RB's and far below RA's (a bad
 * commit, exit 1); as two boots a kernel, "worse than good" rests on two rounds that disagree (one
 * degree of freedom: one-sided p 0.06), so check cannot tell (125) and says why. */
static void test_check_ends_on_boot_medians(void)
{
	struct fixture f;
	open_fixture(&f, "check-ends.db");
	static const double level[3][2] = { { 100, 100 }, { 50, 50.5 }, { 45, 58 } };
	static const char *const rel[3] = { RA, RB, RC };
	for (int round = 1; round <= 2; round++)
		for (int j = 0; j < 3; j++) {
			int k = (j + round) % 3;   /* the order rotated each round */
			add_boot(&f, rel[k], "box/7/t6", round, level[k][round - 1], 10, 0);
		}
	CU_ASSERT_EQUAL(check_ends(&f), 125);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "paired by boot round, 2 boots a kernel"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "the noise is too large for these sample sizes to tell the ends apart here"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "0 like the bad end, 1 cannot tell"));
	/* the same 20 values a kernel as independent samples: ior_classify calls the candidate bad */
	double v[3][20];
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < 20; i++)
			v[k][i] = level[k][i / 10] * (1 + 0.005 * sin((i % 10 + 1) * 1.7));
	struct ior_classification c;
	CU_ASSERT_EQUAL(ior_classify(&c, v[0], 20, v[1], 20, v[2], 20, NULL), 0);
	CU_ASSERT_EQUAL(c.verdict, IOR_CLASS_BAD);
	ior_db_free(f.db);
}

/* Three kernels in 6 rounds under +-30% drift between rounds: the candidate sits at the bad end
 * (15% below good) within every round. Paired by round, check calls it bad. */
static void test_check_ends_paired_under_drift(void)
{
	struct fixture f;
	open_fixture(&f, "check-drift.db");
	static const char *const rel[3] = { RA, RB, RC };
	static const double at[3] = { 100, 85, 85.5 };
	for (int i = 0; i < 6; i++)
		for (int j = 0; j < 3; j++) {
			int k = (i + j) % 3;
			add_boot(&f, rel[k], "box/8/t7", i + 1, at[k] * drift[i] * (1 + jitter[(i + k) % 6]), 9, 1);
		}
	CU_ASSERT_EQUAL(check_ends(&f), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "like the bad end: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "paired by boot round, 6 boots a kernel"));
	ior_db_free(f.db);
}

/* One boot a kernel, 10 repetitions each, the candidate at the bad end: per sample that is bad, but
 * one boot cannot measure the noise between boots, so check cannot tell and says what is missing. */
static void test_check_ends_one_boot_a_kernel(void)
{
	struct fixture f;
	open_fixture(&f, "check-one.db");
	add_boot(&f, RA, "box/9/t8", 1, 100, 10, 0);
	add_boot(&f, RB, "box/9/t8", 1, 80, 10, 0);
	add_boot(&f, RC, "box/9/t8", 1, 80, 10, 0);
	CU_ASSERT_EQUAL(check_ends(&f), 125);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "1, 1 and 1 boots of good, bad and candidate: the noise between boots "
					   "cannot be measured"));
	ior_db_free(f.db);
}


/* --- the report's answer (issue 22 §3 and §6) ------------------------------------------------ */

/* Debian's kernels: by name 6.1.0-10 sorts before 6.1.0-9, by version after it. */
#define K9 "6.1.0-9-cloud-amd64"
#define K10 "6.1.0-10-cloud-amd64"

/* The line of out that starts with prefix (up to its newline) into buf; "" when there is none. */
static const char *line_of(char *buf, size_t len, const char *text, const char *prefix)
{
	buf[0] = '\0';
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, prefix, strlen(prefix))) {
			size_t n = strcspn(p, "\n");
			snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), p);
			break;
		}
	return buf;
}

/* The heat map's squares that are coloured (neither the grey of "not shown to differ" nor white). */
static size_t coloured_squares(const char *html)
{
	size_t n = 0;
	for (const char *svg = html; (svg = strstr(svg, "<svg class=\"heatmap\"")); svg++) {
		const char *end = strstr(svg, "</svg>");
		for (const char *p = svg; (p = strstr(p, "<path fill=\"")) && p < end; p++)
			n += strncmp(p + 12, "#e4e4e4", 7) && strncmp(p + 12, "#ffffff", 7);
	}
	return n;
}

/* Three kernels booted in the same 4 rounds of one vm run: 6.1.0-10 as fast as 6.1.0-9, 6.12 20%
 * slower. Without --baseline the answer judges each kernel against the one before it in version
 * order; with it, every other kernel against the baseline; each line counts the verdicts (boot
 * medians paired by round) and names the worst regression with its interval. */
static void test_answer_judges_each_kernel_pair(void)
{
	struct fixture f;
	open_fixture(&f, "answer-pairs.db");
	for (int i = 0; i < 4; i++) {
		double d = drift[i];
		add_boot(&f, K9, "box/5/t4", i + 1, 100 * d * (1 + jitter[i] / 2), 6, 0);
		add_boot(&f, K10, "box/5/t4", i + 1, 100 * d * (1 + jitter[i + 1] / 2), 6, 0);
		add_boot(&f, RB, "box/5/t4", i + 1, 80 * d * (1 + jitter[i + 2] / 2), 6, 0);
	}
	char line[2048];
	char *report[] = { "--db", f.path, "report", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(report, out, sizeof(out), NULL, 0), 0);
	static const char each[] = "answer: 3 kernels, each against the one before it in version order (2 pair(s))";
	CU_ASSERT_EQUAL(strncmp(out, each, strlen(each)), 0);
	line_of(line, sizeof(line), out, K10 " against " K9 ": ");
	CU_ASSERT_PTR_NOT_NULL(strstr(line, ": 1 cell(s) compared: 0 regressed, 0 improved, 1 same, 0 not told"));
	CU_ASSERT_PTR_NULL(strstr(line, "worst regression"));
	line_of(line, sizeof(line), out, RB " against " K10 ": ");
	CU_ASSERT_PTR_NOT_NULL(strstr(line, ": 1 cell(s) compared: 1 regressed, 0 improved, 0 same, 0 not told; worst "
					    "regression: direct, vda none, value: -19.7% (95% CI -2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "% (95% CI -"));
	CU_ASSERT_PTR_NULL(strstr(out, RB " against " K9 ": "));   /* neighbours only */
	printf("\n%.*s", (int)(strstr(out, "\n\n") ? strstr(out, "\n\n") - out : 0), out);
	/* the model holds them (every renderer prints them from there): the verdicts on boots */
	struct ior_report_opts o;
	ior_report_opts_default(&o);
	struct ior_report *r = NULL;
	CU_ASSERT_EQUAL(ior_test_ok(ior_report_build(&r, f.db, &o)), 0);
	if (r) {
		CU_ASSERT_EQUAL(r->npairs, 2);
		CU_ASSERT(r->npairs == 2 && r->pairs[1].has_worst && r->pairs[1].worst.by_boot && r->pairs[1].worst.boots.paired);
	}
	ior_report_free(r);
	/* --baseline: every other kernel against it, in the same words */
	char *against[] = { "--db", f.path, "report", "--baseline", K10, NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(against, out, sizeof(out), NULL, 0), 0);
	static const char every[] = "answer: 3 kernels, every other against baseline " K10 " (2 pair(s))";
	CU_ASSERT_EQUAL(strncmp(out, every, strlen(every)), 0);
	line_of(line, sizeof(line), out, K9 " against " K10 ": ");
	CU_ASSERT_PTR_NOT_NULL(strstr(line, ": 1 cell(s) compared: 0 regressed, 0 improved, 1 same, 0 not told"));
	line_of(line, sizeof(line), out, RB " against " K10 ": ");
	CU_ASSERT_PTR_NOT_NULL(strstr(line, ": 1 cell(s) compared: 1 regressed, 0 improved, 0 same, 0 not told; worst "
					    "regression: direct, vda none, value: -19.7% (95% CI -2"));
	/* md and html open with the same lines */
	char *md[] = { "--db", f.path, "report", "--format", "md", "--baseline", K10, NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(md, out, sizeof(out), NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "## Answer\n\n- answer: 3 kernels, every other against baseline " K10));
	/* the heat map colours the one kernel whose boots' verdict against the one before it is a change */
	char *html[] = { "--db", f.path, "report", "--format", "html", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(html, out, sizeof(out), NULL, 0), 0);
	CU_ASSERT_EQUAL(coloured_squares(out), 1);
	ior_db_free(f.db);
}

/* 3 boots a side, 5% apart under 10% noise between boots: not told, and the answer says why in the
 * boots' words: the noise, the boots and samples per side, the smallest change that could be told. */
static void test_answer_says_why_not_told(void)
{
	struct fixture f;
	open_fixture(&f, "answer-untold.db");
	static const double a[] = { 1.0, 1.12, 0.9 }, b[] = { 1.1, 0.88, 1.05 };
	for (int i = 0; i < 3; i++) {
		add_boot(&f, RA, "box/6/t5", i + 1, 100 * a[i], 10, 0);
		add_boot(&f, RB, "box/6/t5", i + 1, 95 * b[i], 10, 0);
	}
	char line[2048];
	char *report[] = { "--db", f.path, "report", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(report, out, sizeof(out), NULL, 0), 0);
	line_of(line, sizeof(line), out, RB " against " RA ": ");
	printf("\n  %s\n", line);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, ": 1 cell(s) compared: 0 regressed, 0 improved, 0 same, 1 not told; not told: "
					    "direct, vda none, value: noise "));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "% between boots: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "be told"));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "3 boots a side (30 and 30 samples)"));
	ior_db_free(f.db);
}

/* Change points of the report's one series (its headline cell). */
static size_t change_points(struct fixture *f)
{
	struct ior_report_opts o;
	ior_report_opts_default(&o);
	o.parts = IOR_REPORT_CHANGES;
	struct ior_report *r = NULL;
	size_t n = SIZE_MAX;
	CU_ASSERT_EQUAL(ior_test_ok(ior_report_build(&r, f->db, &o)), 0);
	if (r && r->nchanges == 1)
		n = r->changes[0].ncp;
	ior_report_free(r);
	return n;
}

/* One boot of the newest kernel ran 12% slow, the other as fast as every boot of the older kernels.
 * Its ten repetitions pooled look like a change (they do on host runs, where a run's repetitions are
 * the evidence); as boots, one slow boot in two is no change: no change point, and no colour on the
 * heat map. */
static void test_one_slow_boot_is_no_change_point(void)
{
	struct fixture f;
	open_fixture(&f, "answer-cp-host.db");
	static const char *const rel[3] = { RA, RC, RB };
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 3; k++)
			add_boot(&f, rel[k], NULL, 0, (k == 2 && i == 0 ? 88 : 100) * (1 + jitter[k * 2 + i] / 4), 10, 0);
	CU_ASSERT_EQUAL(change_points(&f), 1);   /* pooled, as a host's runs are: a change arrived in RB */
	ior_db_free(f.db);
	open_fixture(&f, "answer-cp-boots.db");
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 3; k++)
			add_boot(&f, rel[k], "box/7/t6", i + 1, (k == 2 && i == 0 ? 88 : 100) * (1 + jitter[k * 2 + i] / 4), 10, 0);
	CU_ASSERT_EQUAL(change_points(&f), 0);
	char *html[] = { "--db", f.path, "report", "--format", "html", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(html, out, sizeof(out), NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "<svg class=\"heatmap\""));
	CU_ASSERT_EQUAL(coloured_squares(out), 0);
	ior_db_free(f.db);
}


/* Eight kernels, 6.1.0-5 to 6.1.0-12 (by name 6.1.0-10 would come first), measured on the host; the
 * ninth ran 20% slower, the tenth as before. Seven pairs are more than the first screen holds: the
 * answer sums them up and shows the pair with the regression, and the kernel pairs section has all. */
static void test_answer_sums_up_many_pairs(void)
{
	struct fixture f;
	open_fixture(&f, "answer-many.db");
	char rel[8][64];
	for (int k = 0; k < 8; k++) {
		snprintf(rel[k], sizeof(rel[k]), "6.1.0-%d-cloud-amd64", k + 5);
		add_boot(&f, rel[k], NULL, 0, (k == 4 ? 80 : 100) * (1 + jitter[k % 6] / 10), 10, 0);
	}
	char *report[] = { "--db", f.path, "report", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(report, out, sizeof(out), NULL, 0), 0);
	static const char sum[] = "answer: 8 kernels, each against the one before it in version order: 7 pairs, 1 with a "
				  "regression, 1 with an improvement, 0 with cells not told apart; every pair is listed under "
				  "kernel pairs below; the pairs with a regression:\n6.1.0-9-cloud-amd64 against "
				  "6.1.0-8-cloud-amd64: 1 cell(s) compared: 1 regressed, ";
	CU_ASSERT_EQUAL(strncmp(out, sum, strlen(sum)), 0);
	const char *first = strstr(out, "\n\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(first ? first : out, "worst regression: direct, vda none, value: -2"));
	size_t lines = 0;
	for (const char *p = out; first && p < first; p = strchr(p, '\n') + 1)
		lines++;
	/* and the change points by name (issue 37): the level fell at 6.1.0-9 and came back at 6.1.0-10 */
	const char *cps = strstr(out, "\nchange points: ");
	CU_ASSERT(cps && cps < first);
	CU_ASSERT_PTR_NOT_NULL(cps ? strstr(cps, "at 6.1.0-9-cloud-amd64 (after 6.1.0-8-cloud-amd64)") : NULL);
	CU_ASSERT_EQUAL(lines, 3);
	const char *all = strstr(out, "\nkernel pairs: each kernel against the one before it:\n");
	CU_ASSERT_PTR_NOT_NULL(all);
	size_t listed = 0;
	for (const char *p = all; p && (p = strstr(p + 1, " against 6.1.0-"));)
		listed++;
	CU_ASSERT_EQUAL(listed, 7);
	CU_ASSERT_PTR_NOT_NULL(all ? strstr(all, "\n6.1.0-10-cloud-amd64 against 6.1.0-9-cloud-amd64: 1 cell(s) compared: 0 "
						 "regressed, 1 improved, ") : NULL);
	ior_db_free(f.db);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_two_boots_are_not_twenty_observations),
		IOR_TEST(test_paired_by_boot_round_under_drift),
		IOR_TEST(test_separate_vm_runs_are_unpaired),
		IOR_TEST(test_one_boot_a_side),
		IOR_TEST(test_zero_boot_medians),
		IOR_TEST(test_host_runs_keep_the_sample_verdict),
		IOR_TEST(test_boots_auto_progress),
		IOR_TEST(test_boots_auto_on_counters),
		IOR_TEST(test_check_ends_on_boot_medians),
		IOR_TEST(test_check_ends_paired_under_drift),
		IOR_TEST(test_check_ends_one_boot_a_kernel),
		IOR_TEST(test_answer_judges_each_kernel_pair),
		IOR_TEST(test_answer_says_why_not_told),
		IOR_TEST(test_answer_sums_up_many_pairs),
		IOR_TEST(test_one_slow_boot_is_no_change_point),
		IOR_TEST(test_other_axes_judged_on_boots),
		IOR_TEST_END,
	};
	return ior_test_run("boot_verdict", tests);
}
