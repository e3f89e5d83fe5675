/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for `ioregress compare --by AXIS A B` and --metric end to end: the seed data, and generated data whose truth is known, imported into fresh databases. */
#include "tests/suite.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char output[65536], errout[8192];

static int ioregress(char *const args[])
{
	return ior_test_ioregress(args, output, sizeof(output), errout, sizeof(errout));
}

static const char *find(const char *text)
{
	const char *p = strstr(output, text);
	if (!p)
		fprintf(stderr, "missing from output: %s\n--- output ---\n%s--- stderr ---\n%s", text, output, errout);
	return p;
}

static const char *seed_db(void)
{
	static char db[4096];
	if (*db)
		return db;
	char kernels[4096], offered[4096];
	snprintf(db, sizeof(db), "%s/seed.db", ior_test_tmpdir());
	snprintf(kernels, sizeof(kernels), "%s", ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"));
	snprintf(offered, sizeof(offered), "%s", ior_test_source_path("tests/data/hdparm-2.6-schedulers.csv"));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", db, "import", kernels, offered, NULL }), 0);
	return db;
}

/* The JSON verdict's number after "key": in output (the first cell's). */
static double json_number(const char *from, const char *key)
{
	char k[64];
	snprintf(k, sizeof(k), "\"%s\":", key);
	const char *p = strstr(from, k);
	return p ? strtod(p + strlen(k), NULL) : -1;
}

/* On 2.6.31 the field report's SATA RAID ran 68.9-69.3 MB/s with noop and 73.0-73.3 with cfq:
 * Welch's test on log values finds that difference (p < alpha / 2) and the interval lies wholly
 * past the minimum effect; SSD's schedulers (131.4-134.1) show none. Three repetitions a side are
 * below the verdict's sample-size floor (Mann-Whitney cannot reach p < 0.01), so both verdicts
 * are inconclusive, as check's are on the same data: the report says the schedulers were not
 * told apart rather than starring one. */
static void test_seed_schedulers(void)
{
	const char *db = seed_db();
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "compare", "--by", "scheduler", "noop", "cfq", "--kernel",
					      "2.6.31", "--device", "SATA RAID", "--format", "json", NULL }), 125);
	const char *v = strstr(output, "\"verdicts\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT_PTR_NOT_NULL(strstr(v, "\"axis\":\"scheduler\""));
	CU_ASSERT(json_number(v, "p_welch") < 0.005);
	CU_ASSERT(json_number(v, "ratio_lo") > 1.03);
	CU_ASSERT(json_number(v, "ratio") > 1.05 && json_number(v, "ratio") < 1.06);
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "compare", "--by", "scheduler", "noop", "cfq", "--kernel",
					      "2.6.31", "--device", "SSD", "--format", "json", NULL }), 125);
	v = strstr(output, "\"verdicts\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT(json_number(v, "p_welch") > 0.005);
	CU_ASSERT(json_number(v, "ratio_lo") < 1 && json_number(v, "ratio_hi") > 1);
	/* the text table: one row per device, the key without the compared axis */
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "compare", "--by", "scheduler", "noop", "cfq", "--kernel",
					      "2.6.31", NULL }), 125);
	CU_ASSERT_PTR_NOT_NULL(find("scheduler: noop (reference) against cfq: alpha 0.01"));
	CU_ASSERT_PTR_NOT_NULL(find("dualcore-8g  2.6.31       SATA RAID    hdparm-t     value         3   3      69.29      73.15    +5.6%"));
	CU_ASSERT_PTR_NOT_NULL(find("2 cell(s) compared: 0 regression(s), 2 inconclusive: skip (exit 125)"));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "report", "--kernel", "2.6.31", NULL }), 0);
	CU_ASSERT_PTR_NOT_NULL(find("SATA RAID: schedulers not told apart: too few repetitions for a verdict"));
	CU_ASSERT_PTR_NULL(strstr(output, "% *\n"));
}

/* check is compare's kernel case: the same table, the same exit status. */
static void test_check_is_the_kernel_case(void)
{
	const char *db = seed_db();
	char check[sizeof(output)];
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "check", "--baseline", "2.6.32", "--candidate",
					      "2.6.33-rc5", NULL }), 125);
	snprintf(check, sizeof(check), "%s", output);
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "compare", "--by", "kernel", "2.6.32", "2.6.33-rc5",
					      NULL }), 125);
	CU_ASSERT_STRING_EQUAL(check, output);
}

/* n samples around level with a deterministic spread of +-0.8%. */
static void put_cell(FILE *f, const char *kernel, const char *device, const char *sched, const char *engine,
		     double level, int n, const char *unit, const char *metric)
{
	for (int i = 0; i < n; i++)
		fprintf(f, "h,%s,%s,%s,%s,%d,%.3f,%s,%s\n", kernel, device, sched, engine, i + 1,
			level * (1 + 0.004 * ((i * 7 + (int)strlen(device) + (int)strlen(sched)) % 5 - 2)), unit, metric);
}

/* Known truth: on 6.1, bfq is 10% slower than none on vda and mq-deadline equal to it, kyber 10%
 * faster than none on nvme; the nested
 * loop engine is half as fast as the plain one; the SSD twice the HDD. On 6.12 the throughput
 * stays and the tail latency doubles. */
static const char *truth_db(void)
{
	static char db[4096];
	if (*db)
		return db;
	char csv[4096];
	snprintf(csv, sizeof(csv), "%s/truth.csv", ior_test_tmpdir());
	snprintf(db, sizeof(db), "%s/truth.db", ior_test_tmpdir());
	FILE *f = fopen(csv, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("host,kernel,device,scheduler,engine,rep,value,unit,metric\n", f);
	put_cell(f, "6.1", "vda", "none", "randread", 1000, 8, "IOPS", "");
	put_cell(f, "6.1", "vda", "mq-deadline", "randread", 1000, 8, "IOPS", "");
	put_cell(f, "6.1", "vda", "bfq", "randread", 900, 8, "IOPS", "");
	put_cell(f, "6.1", "nvme", "none", "randread", 2000, 8, "IOPS", "");
	put_cell(f, "6.1", "nvme", "kyber", "randread", 2200, 8, "IOPS", "");
	put_cell(f, "6.1", "ssd", "none", "seqread", 400, 8, "MiB/s", "");
	put_cell(f, "6.1", "hdd", "none", "seqread", 200, 8, "MiB/s", "");
	put_cell(f, "6.1", "loop", "none", "tmpfs-sync-each", 300, 8, "MiB/s", "");
	put_cell(f, "6.1", "loop", "none", "nested-sync-each", 150, 8, "MiB/s", "");
	put_cell(f, "6.1", "vda", "none", "randread", 80, 8, "us", "lat_p99_us");
	put_cell(f, "6.12", "vda", "none", "randread", 1000, 8, "IOPS", "");
	put_cell(f, "6.12", "vda", "none", "randread", 160, 8, "us", "lat_p99_us");
	fclose(f);
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", db, "import", csv, NULL }), 0);
	return db;
}

static void test_generated_scheduler_engine_device(void)
{
	const char *db = truth_db();
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "compare", "--by", "scheduler", "none", "bfq", NULL }), 1);
	CU_ASSERT_PTR_NOT_NULL(find("h            6.1          vda          randread     value         8   8"));
	CU_ASSERT_PTR_NOT_NULL(find("regression: median -10."));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "compare", "--by", "scheduler", "none", "mq-deadline",
					      "--metric", "value", NULL }), 0);
	CU_ASSERT_PTR_NOT_NULL(find("no change: "));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "compare", "--by", "engine", "tmpfs-sync-each",
					      "nested-sync-each", NULL }), 1);
	CU_ASSERT_PTR_NOT_NULL(find("regression: median -50.0%"));
	/* B better than A is an improvement: exit 0 */
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "compare", "--by", "device", "hdd", "ssd", NULL }), 0);
	CU_ASSERT_PTR_NOT_NULL(find("improvement: median +100.0%"));
	CU_ASSERT_PTR_NOT_NULL(find("1 cell(s) compared: 0 regression(s), 0 inconclusive: good (exit 0)"));
	/* the report stars none's cell over bfq only where the verdict says so */
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "report", "--kernel", "6.1", "--engine", "randread",
					      NULL }), 0);
	CU_ASSERT_PTR_NOT_NULL(find("vda: no significant difference between schedulers\n"));
	/* on nvme kyber beats the next (and only other) scheduler: starred, and no words */
	const char *kyber = find("\nnvme    kyber ");
	const char *eol = kyber ? strchr(kyber + 1, '\n') : NULL, *star = kyber ? strstr(kyber + 1, "% *\n") : NULL;
	CU_ASSERT_TRUE(eol && star && star + 3 == eol);
	CU_ASSERT_PTR_NULL(strstr(output, "nvme: no significant"));
	/* every format says it */
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "report", "--kernel", "6.1", "--engine", "randread",
					      "--format", "md", NULL }), 0);
	CU_ASSERT_PTR_NOT_NULL(find("vda: no significant difference between schedulers.\n"));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "report", "--kernel", "6.1", "--engine", "randread",
					      "--format", "json", NULL }), 0);
	CU_ASSERT_PTR_NOT_NULL(find("\"schedulers\":\"no significant difference between schedulers\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(output, "\"best_significant\":true"));
}

/* Throughput equal, p99 doubled: a regression of lat_p99_us (lower is better), and of nothing else. */
static void test_p99_doubling(void)
{
	const char *db = truth_db();
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "check", "--baseline", "6.1", "--candidate", "6.12",
					      NULL }), 1);
	CU_ASSERT_PTR_NOT_NULL(find("vda          none         randread     value         8   8"));
	CU_ASSERT_PTR_NOT_NULL(find("vda          none         randread     lat_p99_us    8   8      80.00     160.00  +100.0%"));
	CU_ASSERT_PTR_NOT_NULL(find("2 cell(s) compared: 1 regression(s), 0 inconclusive: bad (exit 1)"));
	/* the headline alone sees nothing */
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "check", "--baseline", "6.1", "--candidate", "6.12",
					      "--metric", "value", NULL }), 0);
	/* a metric no cell records is said */
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "compare", "--by", "kernel", "6.1", "6.12", "--metric",
					      "value,usr_s", NULL }), 0);
	CU_ASSERT_PTR_NOT_NULL(find("usr_s: recorded by none of the compared cells\n"));
	/* the report's verdicts name their metric in every format */
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "report", "--baseline", "6.1", "--format", "md", NULL }), 0);
	CU_ASSERT_PTR_NOT_NULL(find("| lat\\_p99\\_us | 8 / 8 |"));
}

/* A run whose matrix declares comparisons: the report answers them first, in words. The truth
 * database's run is made to look like one a matrix made (imports declare nothing). */
static void test_declared_comparisons_answered_first(void)
{
	const char *db = truth_db();
	sqlite3 *h = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(db, &h), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(h, "UPDATE runs SET status = 'complete', matrix_file = 'loop.ini', matrix_text = "
				     "'[matrix]\ncompare = engine: tmpfs-sync-each nested-sync-each, scheduler: none mq-deadline\n"
				     "[device loop]\nloop = 16M\n[engine tmpfs-sync-each]\ntype = dd\n"
				     "[engine nested-sync-each]\ntype = dd\n' WHERE id = (SELECT min(id) FROM runs)",
				     NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "report", "--kernel", "6.1", NULL }), 0);
	const char *q = find("declared comparisons:\nengine: tmpfs-sync-each (reference) against nested-sync-each "
			     "(loop.ini:2): nested-sync-each is worse than tmpfs-sync-each on 1 of 1 comparison(s)\n");
	CU_ASSERT_PTR_NOT_NULL(find("scheduler: none (reference) against mq-deadline (loop.ini:2): no measurable difference"));
	const char *tables = find("h, kernel 6.1,");
	CU_ASSERT(q && tables && q < tables);
	/* and in the other formats, first */
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "report", "--kernel", "6.1", "--format", "md", NULL }), 0);
	q = find("## Declared comparisons\n\n- **engine: tmpfs-sync-each (reference) against nested-sync-each** (loop.ini:2): "
		 "nested-sync-each is worse than tmpfs-sync-each on 1 of 1 comparison(s)\n");
	tables = find("| device | scheduler |");
	CU_ASSERT(q && tables && q < tables);
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "report", "--kernel", "6.1", "--format", "json", NULL }), 0);
	CU_ASSERT_PTR_NOT_NULL(find("\"axis\":\"engine\",\"reference\":\"tmpfs-sync-each\",\"candidate\":\"nested-sync-each\","
				    "\"source\":\"loop.ini:2\",\"answer\":\"nested-sync-each is worse"));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "report", "--kernel", "6.1", "--format", "html", NULL }), 0);
	CU_ASSERT_PTR_NOT_NULL(find("<h2 id=\"answers\">Declared comparisons</h2>"));
}

static void test_bad_input(void)
{
	const char *db = truth_db();
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "check", "--baseline", "6.1", "--metric", "lat_p99", NULL }), 128);
	CU_ASSERT_PTR_NOT_NULL(strstr(errout, "--metric: 'lat_p99' is not a metric (did you mean 'lat_p99_us'?)"));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "compare", "--by", "shceduler", "none", "bfq", NULL }), 128);
	CU_ASSERT_PTR_NOT_NULL(strstr(errout, "--by: 'shceduler' is not an axis (did you mean 'scheduler'?)"));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "compare", "--by", "scheduler", "none", "bfq",
					      "--scheduler", "none", NULL }), 128);
	CU_ASSERT_PTR_NOT_NULL(strstr(errout, "--scheduler: the scheduler is what --by scheduler compares"));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "compare", "--by", "scheduler", "none", NULL }), 128);
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "compare", "--by", "scheduler", "none", "noop", NULL }), 128);
	CU_ASSERT_PTR_NOT_NULL(strstr(errout, "no samples for candidate scheduler 'noop'"));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "report", "--metric", "wal_s", NULL }), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(errout, "did you mean 'wall_s'?"));
}

/* Two schedulers of one run on a machine whose speed swings +-15% from round to round, bfq 5%
 * slower in every round: without rounds the verdict is unpaired and cannot see it; with the
 * rounds an interleaved run records, it pairs them and names the regression. Across kernels
 * (separate runs) it says unpaired. */
static void test_pairs_by_round(void)
{
	char csv[4096], db[4096];
	snprintf(csv, sizeof(csv), "%s/rounds.csv", ior_test_tmpdir());
	snprintf(db, sizeof(db), "%s/rounds.db", ior_test_tmpdir());
	FILE *f = fopen(csv, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("host,kernel,device,scheduler,engine,rep,value,unit,metric\n", f);
	static const double speed[] = { 1.00, 1.15, 0.86, 1.08, 0.90, 1.13, 0.88, 1.02 };
	for (int i = 0; i < 8; i++) {
		double wobble = 1 + 0.004 * ((i * 3) % 5 - 2);
		fprintf(f, "h,6.1,vda,none,randread,%d,%.3f,IOPS,\n", i + 1, 1000 * speed[i] * wobble);
		fprintf(f, "h,6.1,vda,bfq,randread,%d,%.3f,IOPS,\n", i + 1, 950 * speed[i] / wobble);
		fprintf(f, "h,6.12,vda,none,randread,%d,%.3f,IOPS,\n", i + 1, 1000 * speed[7 - i]);
	}
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(ioregress((char *[]){ "--db", db, "import", csv, NULL }), 0);
	CU_ASSERT_NOT_EQUAL(ioregress((char *[]){ "--db", db, "compare", "--by", "scheduler", "none", "bfq", NULL }), 1);
	CU_ASSERT_PTR_NOT_NULL(find("unpaired: no rounds recorded"));
	CU_ASSERT_PTR_NULL(strstr(output, "regression: "));
	/* the rounds an interleaved run stores: repetition k of every cell of the device is round k */
	sqlite3 *h;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(db, &h), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(h, "UPDATE samples SET round = rep", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", db, "compare", "--by", "scheduler", "none", "bfq", NULL }), 1);
	CU_ASSERT_PTR_NOT_NULL(find("regression: per-round ratio -4."));
	CU_ASSERT_PTR_NOT_NULL(find("paired by round (8 rounds of one run)"));
	ioregress((char *[]){ "--db", db, "compare", "--by", "kernel", "6.1", "6.12", NULL });
	CU_ASSERT_PTR_NOT_NULL(find("unpaired: separate runs"));
}

/* check --bad on ends that do not differ, labelled by commits rather than releases: the error
 * says so and nothing else (no "kernel release ... does not start with a version number"). */
static void test_check_bad_error_alone(void)
{
	char csv[4096], db[4096];
	snprintf(csv, sizeof(csv), "%s/labels.csv", ior_test_tmpdir());
	snprintf(db, sizeof(db), "%s/labels.db", ior_test_tmpdir());
	FILE *f = fopen(csv, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("host,kernel,device,scheduler,engine,rep,value,unit\n", f);
	for (int k = 0; k < 3; k++)
		for (int i = 1; i <= 5; i++)
			fprintf(f, "h,%s,vda,none,e,%d,%d,IOPS\n", (const char *[]){ "abc", "def", "ghi" }[k], i, 100 + i);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(ioregress((char *[]){ "--db", db, "import", csv, NULL }), 0);
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", db, "check", "--baseline", "abc", "--bad", "ghi", "--candidate",
					      "def", NULL }), 128);
	CU_ASSERT_PTR_NOT_NULL(strstr(errout, "do not differ on any cell: nothing to bisect\n"));
	CU_ASSERT_PTR_NULL(strstr(errout, "does not start with a version number"));
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_seed_schedulers),
		IOR_TEST(test_check_is_the_kernel_case),
		IOR_TEST(test_generated_scheduler_engine_device),
		IOR_TEST(test_p99_doubling),
		IOR_TEST(test_declared_comparisons_answered_first),
		IOR_TEST(test_bad_input),
		IOR_TEST(test_pairs_by_round),
		IOR_TEST(test_check_bad_error_alone),
		IOR_TEST_END,
	};
	return ior_test_run("compare", tests);
}
