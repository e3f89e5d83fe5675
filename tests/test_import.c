/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the CSV imports of db/: the field report's seed data, CSV syntax, idempotence, and bad
 * files reported line by line with nothing stored. */
#include "common/error.h"
#include "db/db.h"
#include "tests/suite.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEADER "host,kernel,device,scheduler,engine,rep,value,unit\n"

static struct ior_db *open_fresh(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", ior_test_tmpdir(), name);
	unlink(path);
	struct ior_db *db = NULL;
	if (ior_db_open(&db, path) != 0) {
		fprintf(stderr, "%s\n", ior_error_last());
		return NULL;
	}
	return db;
}

static const char *seed_samples(void)
{
	static char path[512];
	snprintf(path, sizeof(path), "%s", ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"));
	return path;
}

static const char *seed_offered(void)
{
	static char path[512];
	snprintf(path, sizeof(path), "%s", ior_test_source_path("tests/data/hdparm-2.6-schedulers.csv"));
	return path;
}

/* The seed data imported into a new database. */
static struct ior_db *seeded(const char *name)
{
	struct ior_db *db = open_fresh(name);
	size_t n = 0;
	if (!db || ior_db_import_samples_csv(db, seed_samples(), &n) || ior_db_import_offered_csv(db, seed_offered(), &n)) {
		fprintf(stderr, "seed import: %s\n", ior_error_last());
		ior_db_free(db);
		return NULL;
	}
	return db;
}

static long long query_int(struct ior_db *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	long long v = -1;
	if (sqlite3_prepare_v2(ior_db_handle(db), sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Everything a failed import could have touched, as one string to compare before and after. */
static char *fingerprint(struct ior_db *db)
{
	char *text = NULL;
	sqlite3_stmt *st = NULL;
	const char *sql =
		"SELECT (SELECT count(*) FROM hosts) || '/' || (SELECT count(*) FROM kernels) || '/' || "
		"(SELECT count(*) FROM runs) || '/' || (SELECT count(*) FROM devices) || '/' || "
		"(SELECT count(*) FROM cells) || '/' || (SELECT count(*) FROM samples) || '/' || "
		"(SELECT count(*) FROM scheduler_offers) || '/' || (SELECT total(value) FROM samples) || '/' || "
		"(SELECT total(ifnull(lat_p50_us, 0) + ifnull(lat_p99_us, 0) + ifnull(sys_s, 0)) FROM samples) || '/' || "
		"ifnull((SELECT group_concat(scheduler) FROM scheduler_offers), '')";
	if (sqlite3_prepare_v2(ior_db_handle(db), sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		text = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return text;
}

static double total(struct ior_db *db, const char *kernel, const char *device, const char *scheduler)
{
	struct ior_db_filter f = { .kernel = kernel, .device = device, .scheduler = scheduler };
	struct ior_db_row *rows = NULL;
	size_t n = 0;
	double sum = 0;
	CU_ASSERT_EQUAL(ior_db_samples(db, &f, &rows, &n), 0);
	CU_ASSERT_EQUAL(n, 3);
	for (size_t i = 0; i < n; i++)
		sum += rows[i].value;
	ior_db_rows_free(rows, n);
	return sum;
}

static void test_seed_data_imports_72_samples_on_4_kernels(void)
{
	struct ior_db *db = open_fresh("seed.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	size_t n = 0;
	CU_ASSERT_EQUAL_FATAL(ior_db_import_samples_csv(db, seed_samples(), &n), 0);
	CU_ASSERT_EQUAL(n, 72);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM samples"), 72);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM runs WHERE status = 'imported'"), 4);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM samples WHERE higher_is_better = 1 AND unit = 'MB/s'"), 72);

	char **hosts = NULL, **kernels = NULL;
	CU_ASSERT_EQUAL(ior_db_host_kernels(db, &hosts, &kernels, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	CU_ASSERT_STRING_EQUAL(hosts[0], "dualcore-8g");
	CU_ASSERT_STRING_EQUAL(kernels[0], "2.6.31");
	CU_ASSERT_STRING_EQUAL(hosts[1], "quadcore-8g");
	CU_ASSERT_STRING_EQUAL(kernels[1], "2.6.30-2");
	CU_ASSERT_STRING_EQUAL(kernels[2], "2.6.32");
	CU_ASSERT_STRING_EQUAL(kernels[3], "2.6.33-rc5");
	ior_db_host_kernels_free(hosts, kernels, n);

	/* The field report's totals for 2.6.30-2, SSD RAID (FACTS.md). */
	CU_ASSERT_DOUBLE_EQUAL(total(db, "2.6.30-2", "SSD RAID", "noop"), 327.76, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(total(db, "2.6.30-2", "SSD RAID", "cfq"), 323.39, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(total(db, "2.6.30-2", "SSD RAID", "deadline"), 325.37, 1e-9);

	struct ior_db_filter f = { .host = "quadcore-8g", .kernel = "2.6.30-2", .device = "SSD RAID", .scheduler = "noop" };
	struct ior_db_row *rows = NULL;
	CU_ASSERT_EQUAL(ior_db_samples(db, &f, &rows, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_EQUAL(rows[0].rep, 1);
	CU_ASSERT_DOUBLE_EQUAL(rows[0].value, 115.51, 1e-12);
	CU_ASSERT_STRING_EQUAL(rows[0].engine, "hdparm-t");
	CU_ASSERT_STRING_EQUAL(rows[0].unit, "MB/s");
	CU_ASSERT_STRING_EQUAL(rows[0].run_status, "imported");
	CU_ASSERT(rows[0].higher_is_better);
	CU_ASSERT(!rows[0].has_latency);
	CU_ASSERT_DOUBLE_EQUAL(rows[2].value, 104.52, 1e-12);
	ior_db_rows_free(rows, n);

	/* sample_view answers the field report's spread question in plain SQL (FACTS.md: 66.9% and 3.1%). */
	CU_ASSERT_EQUAL(query_int(db, "SELECT round(1000.0 * (max(value) - min(value)) / min(value)) FROM sample_view "
				  "WHERE kernel = '2.6.32' AND device = 'SSD RAID'"), 669);
	CU_ASSERT_EQUAL(query_int(db, "SELECT round(1000.0 * (max(value) - min(value)) / min(value)) FROM sample_view "
				  "WHERE kernel = '2.6.32' AND device = 'SATA RAID'"), 31);
	ior_db_free(db);
}

static void test_seed_offered_schedulers_per_kernel(void)
{
	struct ior_db *db = open_fresh("offered.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	size_t n = 0;
	CU_ASSERT_EQUAL_FATAL(ior_db_import_offered_csv(db, seed_offered(), &n), 0);
	CU_ASSERT_EQUAL(n, 4);
	static const struct {
		const char *host, *kernel, *offered;
	} want[] = {
		{ "quadcore-8g", "2.6.30-2", "anticipatory cfq deadline noop" },
		{ "dualcore-8g", "2.6.31", "anticipatory cfq deadline noop" },
		{ "quadcore-8g", "2.6.32", "anticipatory cfq deadline noop" },
		{ "quadcore-8g", "2.6.33-rc5", "cfq deadline noop" },   /* anticipatory removed in 2.6.33 */
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char *offered = NULL;
		CU_ASSERT_EQUAL(ior_db_offered(db, want[i].host, want[i].kernel, &offered), 0);
		CU_ASSERT_PTR_NOT_NULL(offered);
		if (offered)
			CU_ASSERT_STRING_EQUAL(offered, want[i].offered);
		free(offered);
	}
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM scheduler_offers WHERE device_id IS NULL"), 15);
	/* The samples of the same (host, kernel) go into the same imported run. */
	CU_ASSERT_EQUAL(ior_db_import_samples_csv(db, seed_samples(), &n), 0);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM runs"), 4);
	ior_db_free(db);
}

static void test_reimport_is_idempotent(void)
{
	struct ior_db *db = seeded("again.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	char *before = fingerprint(db);
	size_t n = 99;
	CU_ASSERT_EQUAL(ior_db_import_samples_csv(db, seed_samples(), &n), 0);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(ior_db_import_offered_csv(db, seed_offered(), &n), 0);
	CU_ASSERT_EQUAL(n, 0);
	char *after = fingerprint(db);
	CU_ASSERT_STRING_EQUAL(before, after);
	free(before);
	free(after);
	/* A file that adds a rep to stored data adds just that. */
	const char *more = ior_test_write_file("more.csv", HEADER
		"quadcore-8g,2.6.30-2,SSD RAID,noop,hdparm-t,1,115.51,MB/s\n"
		"quadcore-8g,2.6.30-2,SSD RAID,noop,hdparm-t,4,110.00,MB/s\n");
	CU_ASSERT_EQUAL(ior_db_import_samples_csv(db, more, &n), 0);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM samples"), 73);
	ior_db_free(db);
}

/* The import must fail with IOR_EINVALID, list every expected problem (in
 * order), and leave the database exactly as it was. */
static void expect_bad(struct ior_db *db, bool samples, const char *name, const char *text, const char *const *problems)
{
	const char *path = ior_test_write_file(name, text);
	char *before = fingerprint(db);
	size_t n = 1234;
	int rc = samples ? ior_db_import_samples_csv(db, path, &n) : ior_db_import_offered_csv(db, path, &n);
	CU_ASSERT_EQUAL(rc, IOR_EINVALID);
	CU_ASSERT_EQUAL(n, 0);
	const char *msg = ior_error_last();
	const char *full = ior_db_import_problems(db);
	CU_ASSERT_PTR_NOT_NULL(strstr(msg, "nothing stored"));
	const char *at = full;
	for (const char *const *p = problems; *p; p++) {
		char want[1024];
		snprintf(want, sizeof(want), "%s:%s", path, *p);
		const char *hit = strstr(at, want);
		CU_ASSERT_PTR_NOT_NULL(hit);
		CU_ASSERT_PTR_NOT_NULL(strstr(msg, want));
		if (!hit) {
			fprintf(stderr, "\nmissing '%s' in:\n%s\n", want, full);
			break;
		}
		at = hit + strlen(want);
	}
	char *after = fingerprint(db);
	CU_ASSERT_STRING_EQUAL(before, after);
	free(before);
	free(after);
}

#define BAD(name, text, ...) expect_bad(db, true, name, text, (const char *const[]){ __VA_ARGS__, NULL })
#define BAD_OFFERED(name, text, ...) expect_bad(db, false, name, text, (const char *const[]){ __VA_ARGS__, NULL })
#define GOOD_ROW "h,k,d,noop,hdparm-t,1,100.5,MB/s\n"

static void test_bad_rows_each_named_by_line_and_column(void)
{
	struct ior_db *db = seeded("bad.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	BAD("count.csv", HEADER GOOD_ROW "h,k,d,noop,hdparm-t,2,100.5\n", "3: row: 7 fields, expected 8");
	BAD("empty-key.csv", HEADER ",k,d,noop,hdparm-t,1,1,MB/s\n" GOOD_ROW, "2: host: empty");
	BAD("empty-engine.csv", HEADER GOOD_ROW "h,k,d,noop,,2,1,MB/s\n", "3: engine: empty");
	BAD("text-value.csv", HEADER GOOD_ROW GOOD_ROW "h,k,d,cfq,hdparm-t,1,fast,MB/s\n",
	    "3: rep: duplicate of line 2", "4: value: 'fast' is not a number");
	BAD("negative.csv", HEADER "h,k,d,cfq,hdparm-t,1,-3.5,MB/s\n", "2: value: '-3.5' is negative");
	BAD("nan.csv", HEADER "h,k,d,cfq,hdparm-t,1,nan,MB/s\n" "h,k,d,cfq,hdparm-t,2,inf,MB/s\n"
	    "h,k,d,cfq,hdparm-t,3,1e999,MB/s\n",
	    "2: value: 'nan' is not a number", "3: value: 'inf' is not a number", "4: value: '1e999' is out of range");
	BAD("rep.csv", HEADER "h,k,d,cfq,hdparm-t,0,1,MB/s\n" "h,k,d,cfq,hdparm-t,1.5,1,MB/s\n"
	    "h,k,d,cfq,hdparm-t,-2,1,MB/s\n" "h,k,d,cfq,hdparm-t,x,1,MB/s\n",
	    "2: rep: '0' is not a positive integer", "3: rep: '1.5' is not a positive integer",
	    "4: rep: '-2' is not a positive integer", "5: rep: 'x' is not a positive integer");
	BAD("dup.csv", HEADER GOOD_ROW "h,k,d,cfq,hdparm-t,1,1,MB/s\n" GOOD_ROW GOOD_ROW,
	    "4: rep: duplicate of line 2", "5: rep: duplicate of line 2");
	BAD("header.csv", "host,kernel,dev,scheduler,engine,rep,value,unit\n" GOOD_ROW,
	    "1: header: unknown column 'dev'", "1: header: missing column 'device'");
	BAD("header-twice.csv", "host,kernel,device,scheduler,engine,rep,value,unit,host\n" GOOD_ROW,
	    "1: header: column 'host' appears twice");
	BAD("unit.csv", HEADER "h,k,d,cfq,hdparm-t,1,1,furlongs\n", "2: unit: unknown unit 'furlongs'");
	BAD("empty.csv", "", "1: header: empty file");
	BAD("quote.csv", HEADER GOOD_ROW "\"h,k,d,cfq,hdparm-t,1,1,MB/s\n", "3: host: unterminated quoted field");
	BAD("stray-quote.csv", HEADER "h,k,d\"x,cfq,hdparm-t,1,1,MB/s\n" GOOD_ROW "h,k,d,cfq,hdparm-t,1,1,MB/s,9\n",
	    "2: device: quote inside an unquoted field", "4: row: 9 fields, expected 8");
	BAD("after-quote.csv", HEADER "h,k,\"d\"x,cfq,hdparm-t,1,1,MB/s\n", "2: device: text after closing quote");
	/* A quoted field spanning lines: later problems still carry their own line. */
	BAD("multiline.csv", HEADER "h,k,\"two\nlines\",cfq,hdparm-t,1,1,MB/s\n" "h,k,d,cfq,hdparm-t,1,oops,MB/s\n",
	    "4: value: 'oops' is not a number");
	/* Contradicting a stored sample is a problem; the good rows beside it are not stored either. */
	BAD("contradict.csv", HEADER "quadcore-8g,2.6.30-2,SSD RAID,noop,hdparm-t,4,99,MB/s\n"
	    "quadcore-8g,2.6.30-2,SSD RAID,noop,hdparm-t,1,115.5,MB/s\n",
	    "3: value: 115.5 MB/s contradicts the stored 115.51 MB/s");
	BAD("crlf-bad.csv", "host,kernel,device,scheduler,engine,rep,value,unit\r\nh,k,d,cfq,hdparm-t,1,1,MB/s\r\n"
	    "h,k,d,cfq,hdparm-t,2,,MB/s\r\n", "3: value: empty");
	ior_db_free(db);
}

/* The optional metric column: several metrics per repetition, a metric row filling in the sample
 * its headline row made (whichever comes first in the file), idempotent, and every bad one named. */
static void test_metric_column(void)
{
	struct ior_db *db = open_fresh("metric.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	const char *path = ior_test_write_file("metric.csv", "host,kernel,device,scheduler,engine,rep,value,unit,metric\n"
		"h,k,d,none,randread,1,51.5,us,lat_p99_us\n"
		"h,k,d,none,randread,1,1000,IOPS,\n"
		"h,k,d,none,randread,1,0.25,s,sys_s\n"
		"h,k,d,none,randread,2,1010,IOPS,value\n"
		"h,k,d,none,randread,2,49.5,us,lat_p99_us\n");
	size_t n = 0;
	CU_ASSERT_EQUAL(ior_test_ok(ior_db_import_samples_csv(db, path, &n)), 0);
	CU_ASSERT_EQUAL(n, 5);
	char dbp[4096];
	snprintf(dbp, sizeof(dbp), "%s/metric.db", ior_test_tmpdir());
	CU_ASSERT_EQUAL(ior_test_query(dbp, "SELECT count(*) FROM samples"), 2);
	CU_ASSERT_EQUAL(ior_test_query(dbp, "SELECT round(10 * lat_p99_us) FROM sample_view WHERE rep = 1"), 515);
	CU_ASSERT_EQUAL(ior_test_query(dbp, "SELECT round(100 * sys_s) FROM sample_view WHERE rep = 1"), 25);
	CU_ASSERT_EQUAL(ior_test_query(dbp, "SELECT count(*) FROM samples WHERE sys_s IS NULL"), 1);
	CU_ASSERT_EQUAL(ior_test_ok(ior_db_import_samples_csv(db, path, &n)), 0);
	CU_ASSERT_EQUAL(n, 0);  /* the same file again stores nothing */
#define MHEADER "host,kernel,device,scheduler,engine,rep,value,unit,metric\n"
	BAD("metric-bad.csv", MHEADER "h,k,d,none,randread,3,1,IOPS,\n"
	    "h,k,d,none,randread,3,5,us,lat_p99\n" "h,k,d,none,randread,3,5,ms,lat_p99_us\n"
	    "h,k,d,none,randread,3,5,s/GiB,cpu_s_per_gib\n" "h,k,d,none,randread,3,5,us,lat_p50_us\n"
	    "h,k,d,none,randread,3,6,us,lat_p50_us\n",
	    "3: metric: 'lat_p99' is not a metric (did you mean 'lat_p99_us'?)", "4: unit: 'lat_p99_us' is in us, not 'ms'",
	    "5: metric: 'cpu_s_per_gib' is derived from other columns and cannot be imported",
	    "7: rep: duplicate of line 6 (same host, kernel, device, scheduler, engine, rep and metric)");
	BAD("metric-alone.csv", MHEADER "h,k,d,none,randread,9,5,us,lat_p99_us\n",
	    "2: metric: lat_p99_us of rep 9 has no headline row");
	BAD("metric-contradict.csv", MHEADER "h,k,d,none,randread,1,52,us,lat_p99_us\n",
	    "2: value: lat_p99_us 52 contradicts the stored 51.5");
#undef MHEADER
	ior_db_free(db);
}

static void test_every_bad_line_reported_up_to_the_cap(void)
{
	struct ior_db *db = seeded("cap.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fputs(HEADER, f);
	for (int i = 0; i < 30; i++)   /* bad rows on lines 2, 4, ..., 60; good ones between */
		fprintf(f, "h,k,d,cfq,hdparm-t,%d,bad%d,MB/s\nh,k,d,cfq,hdparm-t,%d,1,MB/s\n", 100 + i, i, 200 + i);
	fclose(f);
	char *before = fingerprint(db);
	const char *path = ior_test_write_file("thirty.csv", text);
	CU_ASSERT_EQUAL(ior_db_import_samples_csv(db, path, NULL), IOR_EINVALID);
	const char *full = ior_db_import_problems(db);
	CU_ASSERT_PTR_NOT_NULL(strstr(full, "30 problems, nothing stored"));
	char want[600];
	snprintf(want, sizeof(want), "%s:40: value: 'bad19' is not a number", path);
	CU_ASSERT_PTR_NOT_NULL(strstr(full, want));   /* the 20th */
	snprintf(want, sizeof(want), "%s:42:", path);
	CU_ASSERT_PTR_NULL(strstr(full, want));       /* the 21st is only counted */
	CU_ASSERT_PTR_NOT_NULL(strstr(full, "... and 10 more"));
	/* The short form fits the error buffer and still ends with the count left out. */
	CU_ASSERT(strlen(ior_error_last()) < 1024);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "more"));
	char *after = fingerprint(db);
	CU_ASSERT_STRING_EQUAL(before, after);
	free(before);
	free(after);
	free(text);
	ior_db_free(db);
}

static void test_bad_offered_rows(void)
{
	struct ior_db *db = seeded("bad-offered.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	BAD_OFFERED("o-header.csv", "host,kernel,schedulers\nh,k,noop\n",
		    "1: header: unknown column 'schedulers'", "1: header: missing column 'offered'");
	BAD_OFFERED("o-rows.csv", "host,kernel,offered\nh,k,noop cfq\nh,k,noop\n,k2,noop\nh,k3,\nh,k4,no/op\nh,k5,cfq noop cfq\nh,k6,\"  \"\n",
		    "3: kernel: duplicate of line 2", "4: host: empty", "5: offered: empty",
		    "6: offered: 'no/op' is not a scheduler name", "7: offered: 'cfq' listed twice", "8: offered: no scheduler names");
	BAD_OFFERED("o-contradict.csv", "host,kernel,offered\nh,new,noop\nquadcore-8g,2.6.33-rc5,noop deadline cfq anticipatory\n",
		    "3: offered: 'anticipatory cfq deadline noop' contradicts the stored 'cfq deadline noop'");
	ior_db_free(db);
}

static void test_csv_syntax_quotes_crlf_bom_and_no_final_newline(void)
{
	struct ior_db *db = open_fresh("syntax.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	const char *path = ior_test_write_file("syntax.csv",
		"\xEF\xBB\xBFhost,kernel,device,scheduler,engine,rep,value,unit\r\n"
		"h1,5.10,\"SSD, \"\"fast\"\"\",noop,hdparm-t,1,12.5,MB/s\r\n"
		"\r\n"
		"  h1 , 5.10 ,\"multi, line\",noop,fio,1,3.25e2,ms\r\n"
		"h1,5.10,plain,\"none\",dd,2,0.5,s");
	size_t n = 0;
	CU_ASSERT_EQUAL(ior_db_import_samples_csv(db, path, &n), 0);
	if (n != 3)
		fprintf(stderr, "%s\n", ior_error_last());
	CU_ASSERT_EQUAL(n, 3);
	struct ior_db_filter f = { .device = "SSD, \"fast\"" };
	struct ior_db_row *rows = NULL;
	CU_ASSERT_EQUAL(ior_db_samples(db, &f, &rows, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(rows[0].host, "h1");
	CU_ASSERT_DOUBLE_EQUAL(rows[0].value, 12.5, 1e-12);
	ior_db_rows_free(rows, n);
	/* a line break inside a quoted name is refused since issue 23 (test_hostile_text) */
	f = (struct ior_db_filter){ .device = "multi, line" };
	CU_ASSERT_EQUAL(ior_db_samples(db, &f, &rows, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(rows[0].kernel, "5.10");   /* spaces around unquoted fields dropped */
	CU_ASSERT_DOUBLE_EQUAL(rows[0].value, 325.0, 1e-12);
	CU_ASSERT(!rows[0].higher_is_better);              /* a time: lower is better */
	ior_db_rows_free(rows, n);
	f = (struct ior_db_filter){ .engine = "dd" };
	CU_ASSERT_EQUAL(ior_db_samples(db, &f, &rows, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(rows[0].rep, 2);
	CU_ASSERT_STRING_EQUAL(rows[0].scheduler, "none");
	CU_ASSERT_STRING_EQUAL(rows[0].unit, "s");
	ior_db_rows_free(rows, n);
	ior_db_free(db);
}

static void test_missing_file_and_open_transaction_refused(void)
{
	struct ior_db *db = open_fresh("missing.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	CU_ASSERT_EQUAL(ior_db_import_samples_csv(db, "/nonexistent/x.csv", NULL), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "'/nonexistent/x.csv'"));
	CU_ASSERT_EQUAL(ior_db_begin(db), 0);
	CU_ASSERT_EQUAL(ior_db_import_samples_csv(db, seed_samples(), NULL), IOR_ERROR);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "transaction"));
	CU_ASSERT_EQUAL(ior_db_rollback(db), 0);
	CU_ASSERT_EQUAL(query_int(db, "SELECT count(*) FROM samples"), 0);
	ior_db_free(db);
}

/* A FIFO (no writer ever comes) and /dev/zero (never ends) are refused at once, by name and kind;
 * before, the import waited in open() for a writer, or read zeros up to the size limit. */
static void test_fifo_and_device_refused_at_once(void)
{
	struct ior_db *db = open_fresh("fifo.db");
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	char fifo[4096];
	snprintf(fifo, sizeof(fifo), "%s/samples.csv", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
	alarm(20); /* the old code never returned from the FIFO: end the test program instead */
	CU_ASSERT_EQUAL(ior_db_import_samples_csv(db, fifo, NULL), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "samples.csv': a FIFO, not a regular file"));
	CU_ASSERT_EQUAL(ior_db_import_offered_csv(db, "/dev/zero", NULL), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "'/dev/zero': a character device, not a regular file"));
	alarm(0);
	ior_db_free(db);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_seed_data_imports_72_samples_on_4_kernels),
		IOR_TEST(test_seed_offered_schedulers_per_kernel),
		IOR_TEST(test_reimport_is_idempotent),
		IOR_TEST(test_bad_rows_each_named_by_line_and_column),
		IOR_TEST(test_every_bad_line_reported_up_to_the_cap),
		IOR_TEST(test_bad_offered_rows),
		IOR_TEST(test_metric_column),
		IOR_TEST(test_csv_syntax_quotes_crlf_bom_and_no_final_newline),
		IOR_TEST(test_missing_file_and_open_transaction_refused),
		IOR_TEST(test_fifo_and_device_refused_at_once),
		IOR_TEST_END,
	};
	return ior_test_run("import", tests);
}
