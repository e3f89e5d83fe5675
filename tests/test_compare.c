/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for `ioregress compare --by AXIS A B` and --metric end to end: the seed data, and generated
 * data whose truth is known, imported into fresh databases. */
#include "tests/suite.h"

#include <sqlite3.h>
#include <stdbool.h>
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
 * below the verdict's sample-size floor (Mann-Whitney cannot reach p < 0.01), and the small-sample
 * rule that decides unmistakable data starts at 4 a side (at 3 it passed 1% false positives on
 * two-mode noise, bench/detection.sh N 1 3 small), so both verdicts are inconclusive, as check's are
 * on the same data: the report gives the effects with their intervals and says it cannot decide. */
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
	/* the report gives the effects against the best with their intervals, and says it cannot decide */
	CU_ASSERT_PTR_NOT_NULL(find("SATA RAID: schedulers not told apart: n = 3: not enough to decide; against cfq: noop "
				    "-5.3% (95% CI -5.9% to -5.2%), deadline -0.0%"));
	/* compare says the same with Welch's p, and why 3 a side cannot decide */
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "compare", "--by", "scheduler", "noop", "cfq", "--kernel",
					      "2.6.31", "--device", "SATA RAID", NULL }), 125);
	CU_ASSERT_PTR_NOT_NULL(find("inconclusive: n = 3: not enough to decide: median +5.6% (95% CI +5.5% to +6.3%), "
				    "Welch p = 0.000489"));
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
	CU_ASSERT_PTR_NOT_NULL(find("vda: no change between schedulers: "));
	/* on nvme kyber beats the next (and only other) scheduler: starred, and no words */
	const char *kyber = find("\nnvme    kyber ");
	const char *eol = kyber ? strchr(kyber + 1, '\n') : NULL, *star = kyber ? strstr(kyber + 1, "% *\n") : NULL;
	CU_ASSERT_TRUE(eol && star && star + 3 == eol);
	CU_ASSERT_PTR_NULL(strstr(output, "nvme: no significant"));
	/* every format says it */
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "report", "--kernel", "6.1", "--engine", "randread",
					      "--format", "md", NULL }), 0);
	CU_ASSERT_PTR_NOT_NULL(find("vda: no change between schedulers: "));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", (char *)db, "report", "--kernel", "6.1", "--engine", "randread",
					      "--format", "json", NULL }), 0);
	CU_ASSERT_PTR_NOT_NULL(find("\"schedulers\":\"no change between schedulers: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(output, "\"best_significant\":true"));
}

/* n samples of one cell, each level * factors[i % nf] (a fixed pattern: the noise is known). */
static void put_pattern(FILE *f, const char *device, const char *sched, double level, const double *factors, int nf, int n)
{
	for (int i = 0; i < n; i++)
		fprintf(f, "h,6.1,%s,%s,randread,%d,%.3f,IOPS,\n", device, sched, i + 1, level * factors[i % nf]);
}

/* The device's part of the answer line ("DEVICE, randread: WORDS" up to the next ';' of another
 * device), into buf; false when the answer does not name it. */
static bool answer_of(const char *device, char *buf, size_t len)
{
	const char *a = strstr(output, "answer: one kernel");
	char key[64];
	snprintf(key, sizeof(key), " %s, randread: ", device);
	const char *p = a ? strstr(a, key) : NULL;
	if (!p || p > strchr(a, '\n'))
		return false;
	p += strlen(key);
	/* the next device's part starts at the last "; " before its ", randread: " */
	const char *next = strstr(p, ", randread: "), *eol = strchr(p, '\n'), *end = eol;
	for (const char *q = p; next && next < eol && (q = strstr(q, "; ")) && q < next; q++)
		end = q;
	snprintf(buf, len, "%.*s", (int)(end - p), p);
	return true;
}

/* Issue 37: with one kernel the report's answer said "no significant difference between schedulers"
 * where compare on the same data said inconclusive (95% CI -42% to +194%) and exited 125. The
 * answer now says what compare's verdict says, per device: no change where compare finds none,
 * and where it cannot tell, that the two were not told apart, the noise and the smallest change
 * that could be told. */
static void test_one_kernel_answer_says_compare_verdict(void)
{
	char csv[4096], db[4096];
	snprintf(csv, sizeof(csv), "%s/answer.csv", ior_test_tmpdir());
	snprintf(db, sizeof(db), "%s/answer.db", ior_test_tmpdir());
	FILE *f = fopen(csv, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("host,kernel,device,scheduler,engine,rep,value,unit,metric\n", f);
	/* noisy: 43% CoV (the quickstart's), medians 10% apart: compare cannot tell */
	static const double wide[] = { 0.45, 1.6, 0.8, 1.3, 0.55, 1.45, 1.0, 0.7 };
	put_pattern(f, "noisy", "none", 1000, wide, 8, 8);
	put_pattern(f, "noisy", "mq-deadline", 1100, wide + 3, 5, 8);
	/* tight: the same level within 0.4%: compare says no change */
	static const double narrow[] = { 0.998, 1.002, 1.0, 0.999, 1.001 };
	put_pattern(f, "tight", "none", 1000, narrow, 5, 8);
	put_pattern(f, "tight", "mq-deadline", 1000, narrow + 2, 3, 8);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(ioregress((char *[]){ "--db", db, "import", csv, NULL }), 0);
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", db, "report", NULL }), 0);
	char report[sizeof(output)];
	snprintf(report, sizeof(report), "%s", output);
	CU_ASSERT_PTR_NULL(strstr(report, "no significant difference"));
	const char *devices[] = { "noisy", "tight" };
	for (size_t d = 0; d < 2; d++) {
		int rc = ioregress((char *[]){ "--db", db, "compare", "--by", "scheduler", "none", "mq-deadline", "--device",
					       (char *)devices[d], NULL });
		bool inconclusive = rc == 125, unchanged = rc == 0 && strstr(output, "no change: ") != NULL;
		snprintf(output, sizeof(output), "%s", report);
		char words[2048];
		CU_ASSERT_FATAL(answer_of(devices[d], words, sizeof(words)));
		printf("\n  %s: compare says %s; the answer: %s", devices[d], inconclusive ? "inconclusive" : "no change", words);
		CU_ASSERT_EQUAL(inconclusive, d == 0);
		CU_ASSERT_EQUAL(unchanged, d == 1);
		if (inconclusive) {
			CU_ASSERT_EQUAL(strncmp(words, "schedulers not told apart: ", 27), 0);
			CU_ASSERT_PTR_NOT_NULL(strstr(words, "% between samples"));       /* the noise */
			CU_ASSERT(strstr(words, "cannot be told") || strstr(words, "can be told"));  /* the smallest change */
		}
		if (unchanged)
			CU_ASSERT_EQUAL(strncmp(words, "no change between schedulers: ", 30), 0);
	}
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

/* A CSV NAME.csv open for writing, its header written, and the database NAME.db it goes into. */
static FILE *new_csv(const char *name, char *csv, char *db)
{
	snprintf(csv, 4096, "%s/%s.csv", ior_test_tmpdir(), name);
	snprintf(db, 4096, "%s/%s.db", ior_test_tmpdir(), name);
	FILE *f = fopen(csv, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("host,kernel,device,scheduler,engine,rep,value,unit,metric\n", f);
	return f;
}

/* Two schedulers of one run on a machine whose speed swings +-15% from round to round, bfq 5%
 * slower in every round: without rounds the verdict is unpaired and cannot see it; with the
 * rounds an interleaved run records, it pairs them and names the regression. Across kernels
 * (separate runs) it says unpaired. */
static void test_pairs_by_round(void)
{
	char csv[4096], db[4096];
	FILE *f = new_csv("rounds", csv, db);
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

/* A counter metric on host samples: 6.1 merges no bio (merge_pct 0 on every repetition), 6.12 merges
 * 3.6-4.3%. The per-sample verdict has no log ratio there; before, `check --metric merge_pct` failed
 * ("medians must be positive"). Now 0 against 0 is no change and 0 against ~4% is decided by ranks. */
static void test_zero_counter_metric(void)
{
	char csv[4096], db[4096];
	FILE *f = new_csv("merges", csv, db);
	for (int i = 0; i < 8; i++) {
		fprintf(f, "h,6.1,vda,none,randread,%d,1000,IOPS,\n", i + 1);
		fprintf(f, "h,6.12,vda,none,randread,%d,1000,IOPS,\n", i + 1);
	}
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(ioregress((char *[]){ "--db", db, "import", csv, NULL }), 0);
	sqlite3 *h;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(db, &h), SQLITE_OK);
	/* 1000 requests of 4 KiB a repetition; 6.12 merges 36 + 1 * rep bios into them */
	CU_ASSERT_EQUAL(sqlite3_exec(h, "UPDATE samples SET rd_ios = 1000, rd_sectors = 8000, rd_merges = 0, "
				     "wr_ios = 0, wr_sectors = 0, wr_merges = 0", NULL, NULL, NULL), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(h, "UPDATE samples SET rd_merges = 36 + rep WHERE cell_id IN (SELECT c.id FROM cells c "
				     "JOIN runs r ON r.id = c.run_id JOIN kernels k ON k.id = r.kernel_id WHERE k.release = '6.12')",
				     NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", db, "check", "--baseline", "6.1", "--candidate", "6.12", "--metric",
					      "merge_pct", NULL }), 0);
	CU_ASSERT_PTR_NOT_NULL(find("Mann-Whitney p = "));
	CU_ASSERT_PTR_NOT_NULL(find("a value of 0 has no ratio: ranks, unpaired; 8 samples against 8"));
	CU_ASSERT_PTR_NOT_NULL(find("1 cell(s) compared: 0 regression(s), 0 inconclusive"));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", db, "check", "--baseline", "6.1", "--candidate", "6.12", "--metric",
					      "req_kib", NULL }), 0);
	CU_ASSERT_PTR_NOT_NULL(find("no change"));
}

/* One run of kernel on host h, 4 repetitions at scale * (1 + 0.5% steps), imported into its own
 * database NAME.db (an import keeps one run per kernel, so runs of other days come by merge). */
static void one_run(const char *name, const char *kernel, double scale, char *db)
{
	char csv[4096];
	snprintf(csv, sizeof(csv), "%s/%s.csv", ior_test_tmpdir(), name);
	snprintf(db, 4096, "%s/%s.db", ior_test_tmpdir(), name);
	FILE *f = fopen(csv, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("host,kernel,device,scheduler,engine,rep,value,unit\n", f);
	for (int i = 0; i < 4; i++)
		fprintf(f, "h,%s,vda,none,randread,%d,%.3f,IOPS\n", kernel, i + 1, scale * (1 + 0.005 * (i - 1.5)));
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(ioregress((char *[]){ "--db", db, "import", csv, NULL }), 0);
}

/* Kernels measured in separate runs (each run imported on its own day, then merged): each run sits at
 * its own level (the machine of that day, +-5%), the repetitions within a run agree to 0.5%. 6.12 is 8%
 * below 6.1, inside the spread between runs; 6.13 is 30% below. Pooling the 16 repetitions a side as if
 * independent takes the within-run spread for the noise and calls the 8% a regression (Welch p < 1e-6);
 * one observation per run (its median) makes the variation between runs the noise: 6.12 cannot be told
 * apart at 4 runs a side, 6.13 still can. With one run of a side the verdict says the variation between
 * runs is not in it. */
static void test_between_runs_noise(void)
{
	static const double level[4] = { 1.00, 1.06, 0.95, 1.02 }, other[4] = { 1.03, 0.97, 1.00, 0.99 };
	static const struct {
		const char *kernel;
		double scale;
		const double *run;
	} kernels[] = { { "6.1", 1000, level }, { "6.12", 920, other }, { "6.13", 700, other } };
	char db[4096], in[14][4096], name[64];
	char *args[20] = { "merge", db };
	size_t k = 0;
	snprintf(db, sizeof(db), "%s/runs.db", ior_test_tmpdir());
	for (int x = 0; x < 3; x++)
		for (int r = 0; r < 4; r++, k++) {
			snprintf(name, sizeof(name), "run-%s-%d", kernels[x].kernel, r);
			one_run(name, kernels[x].kernel, kernels[x].scale * kernels[x].run[r], in[k]);
			args[2 + k] = in[k];
		}
	one_run("run-6.14", "6.14", 1000, in[k]);
	args[2 + k] = in[k];
	args[3 + k] = NULL;
	CU_ASSERT_EQUAL_FATAL(ioregress(args), 0);
	CU_ASSERT_NOT_EQUAL(ioregress((char *[]){ "--db", db, "check", "--baseline", "6.1", "--candidate", "6.12", NULL }), 1);
	CU_ASSERT_PTR_NOT_NULL(find("unpaired: separate runs: judged on each run's median (4 against 4 runs), so the "
				    "variation between runs is part of the noise"));
	CU_ASSERT_PTR_NULL(strstr(output, "regression: "));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", db, "check", "--baseline", "6.1", "--candidate", "6.13", NULL }), 1);
	CU_ASSERT_PTR_NOT_NULL(find("regression: "));
	CU_ASSERT_PTR_NOT_NULL(find("(4 against 4 runs)"));
	/* one run of 6.14: nothing to estimate its runs' spread from, and the verdict says so */
	ioregress((char *[]){ "--db", db, "check", "--baseline", "6.1", "--candidate", "6.14", NULL });
	CU_ASSERT_PTR_NOT_NULL(find("unpaired: separate runs: 4 run(s) against 1, so the variation between runs is not "
				    "part of the noise"));
}

/* check --bad on ends that do not differ, labelled by commits rather than releases: the error
 * says so and nothing else (no "kernel release ... does not start with a version number"). */
static void test_check_bad_error_alone(void)
{
	char csv[4096], db[4096];
	FILE *f = new_csv("labels", csv, db);
	for (int k = 0; k < 3; k++)
		for (int i = 1; i <= 5; i++)
			fprintf(f, "h,%s,vda,none,e,%d,%d,IOPS,\n", (const char *[]){ "abc", "def", "ghi" }[k], i, 100 + i);
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
		IOR_TEST(test_one_kernel_answer_says_compare_verdict),
		IOR_TEST(test_p99_doubling),
		IOR_TEST(test_declared_comparisons_answered_first),
		IOR_TEST(test_bad_input),
		IOR_TEST(test_pairs_by_round),
		IOR_TEST(test_zero_counter_metric),
		IOR_TEST(test_between_runs_noise),
		IOR_TEST(test_check_bad_error_alone),
		IOR_TEST_END,
	};
	return ior_test_run("compare", tests);
}
