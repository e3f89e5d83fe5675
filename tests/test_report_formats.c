/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every report format end to end, through the binary: the seed data and a run's data (cells that
 * failed or were unavailable, scratch fills, latencies), checked against the database; text and
 * JSON agree; JSON meets its schema; JUnit is well-formed; hostile names come out escaped in every
 * format. */
#include "db/db.h"
#include "tests/suite.h"

#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const formats[] = { "text", "md", "html", "json", "junit", "csv" };
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

/* Runs ioregress --db DB ARGS... with stdout into a file; returns the exit status, *out the file's text.
 * Not inlined: gcc 12 at -O3 then takes pointers into the text for pointers to the caller's local
 * that holds its address (-Wdangling-pointer, a false positive that fails the Release build). */
__attribute__((noinline)) static int run(const char *db, char *const args[], char **out)
{
	const char *bin = getenv("IOR_BINARY");
	if (!bin || access(bin, X_OK) != 0)
		ior_test_skip("IOR_BINARY is not set to a built ioregress");
	char *argv[32] = { (char *)bin, "--db", (char *)db };
	int n = 3;
	for (int i = 0; args[i] && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	char path[4096];
	snprintf(path, sizeof(path), "%s/stdout", ior_test_tmpdir());
	int rc = ior_test_spawn_to(argv, NULL, path, NULL);
	if (out)
		*out = ior_test_read_file(path, NULL);
	return rc;
}

__attribute__((noinline)) static char *report(const char *db, const char *format, const char *extra)
{
	char *out = NULL;
	char *args[] = { "report", "--format", (char *)format, (char *)extra, NULL };
	int rc = run(db, args, &out);
	if (rc)
		fprintf(stderr, "report --format %s exited %d\n", format, rc);
	CU_ASSERT_EQUAL(rc, 0);
	return out;
}

static const char *seed_db(void)
{
	static char path[4096];
	if (*path)
		return path;
	snprintf(path, sizeof(path), "%s/seed.db", ior_test_tmpdir());
	char a[4096], b[4096];
	snprintf(a, sizeof(a), "%s", ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"));
	snprintf(b, sizeof(b), "%s", ior_test_source_path("tests/data/hdparm-2.6-schedulers.csv"));
	char *args[] = { "import", a, b, NULL };
	CU_ASSERT_EQUAL_FATAL(run(path, args, NULL), 0);
	return path;
}

/* --- a run's data, stored as `run` stores it ------------------------------------ */

#define HOSTILE_HOST "lab<&\"'>"
#define HOSTILE_DEVICE "disk \xff\xfe|*_`x"   /* invalid UTF-8 and Markdown punctuation */
#define HOSTILE_MODEL "Loop <model> & \"quoted\", with comma"
#define HOSTILE_KERNEL "5.10.0-<rc>&\"'"

static void add_samples(struct ior_db *db, int64_t cell, const double *v, int n, const char *fill)
{
	for (int i = 0; i < n; i++) {
		struct ior_sample s = { .value = v[i], .unit = "IOPS", .higher_is_better = true, .bytes = 4096u * 1000,
					.ios = 1000, .wall_s = 1.0 + i * 0.01, .usr_s = 0.1, .sys_s = 0.2,
					.has_latency = true, .lat_p50_us = 100 + i, .lat_p99_us = 200 + i,
					.lat_p999_us = 300 + i, .lat_mean_us = 110 + i, .has_clat = true,
					.clat_p50_us = 90 + i, .clat_p99_us = 190 + i, .clat_p999_us = 290 + i,
					.clat_mean_us = 100 + i, .fill = fill };
		CU_ASSERT_EQUAL(ior_test_ok(ior_db_sample_add(db, cell, i + 1, &s)), 0);
	}
}

#define COMMIT_SHA "0123456789abcdef0123456789abcdef01234567"
#define COMMIT_SUBJECT "block: fix <the> queue & \"co\" |*_"
static const struct ior_db_commit run_commit = { .sha = COMMIT_SHA, .describe = "v6.12-3-g0123456789ab",
						 .subject = COMMIT_SUBJECT, .author_name = "Jens Axboe",
						 .author_email = "axboe@example.org",
						 .author_date = "2024-02-11T15:04:05+01:00" };

/* Four kernels of one host (the oldest with a hostile name): on the newest, none loses 20%;
 * kyber is unavailable on 6.1.0-57; one engine fails on 6.1.0-47 with its reason. */
static const char *run_db(void)
{
	static char path[4096];
	if (*path)
		return path;
	snprintf(path, sizeof(path), "%s/run.db", ior_test_tmpdir());
	struct ior_db *db;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, path)), 0);
	int64_t host;
	CU_ASSERT_EQUAL_FATAL(ior_db_host_get(db, HOSTILE_HOST, "x86_64", &host), 0);
	const char *kernels[] = { "6.1.0-47-cloud-amd64", "6.1.0-57-cloud-amd64", "6.12.38+deb13-cloud-amd64",
				  HOSTILE_KERNEL };
	for (int k = 0; k < 4; k++) {
		int64_t kid, run, dev, cell;
		struct ior_db_kernel kr = { .release = kernels[k], .machine = "x86_64" };
		CU_ASSERT_EQUAL_FATAL(ior_db_kernel_get(db, &kr, &kid), 0);
		if (k == 2)  /* run --kernel-tree: the commit it was built from */
			CU_ASSERT_EQUAL(ior_test_ok(ior_db_kernel_set_commit(db, kid, &run_commit)), 0);
		CU_ASSERT_EQUAL_FATAL(ior_db_run_begin(db, host, kid, "m.ini", "[matrix]\n", IOR_RUN_RUNNING, &run), 0);
		CU_ASSERT_EQUAL(ior_db_run_set_order(db, run, "interleaved", 0), 0);
		struct ior_db_device d = { .name = HOSTILE_DEVICE, .path = "/dev/loop7", .model = HOSTILE_MODEL,
					   .rotational = 0, .size = 1u << 30, .logical_block = 512, .physical_block = 512 };
		CU_ASSERT_EQUAL_FATAL(ior_db_device_get(db, host, &d, &dev), 0);
		CU_ASSERT_EQUAL(ior_db_fill_add(db, run, dev, "/tmp/ior-scratch.img", "random", 1u << 30, 2.5 + k), 0);
		ior_db_offer_add(db, run, dev, "none", true, "built-in");
		ior_db_offer_add(db, run, dev, "mq-deadline", false, "built-in");
		if (k != 1)
			ior_db_offer_add(db, run, dev, "kyber", false, "loadable");
		const char *scheds[] = { "none", "mq-deadline", "kyber" };
		for (int s = 0; s < 3; s++) {
			CU_ASSERT_EQUAL_FATAL(ior_db_cell_get(db, run, dev, scheds[s], "randread", "aio",
							      "rw=randread bs=4k iodepth=8", &cell), 0);
			if (s == 2 && k == 1) {
				ior_db_cell_set_status(db, cell, IOR_CELL_UNAVAILABLE, "scheduler kyber not offered by 6.1.0-57-cloud-amd64");
				continue;
			}
			double level = 1000.0 * (s + 1) * (s == 0 && k == 2 ? 0.8 : 1.0);  /* k 3: as k 0 */
			double v[6];
			for (int i = 0; i < 6; i++)
				v[i] = level * (1 + 0.004 * ((i * 7 + k * 3 + s) % 5 - 2));
			add_samples(db, cell, v, 6, "random");
		}
		CU_ASSERT_EQUAL_FATAL(ior_db_cell_get(db, run, dev, "none", "seqwrite", "dd", "bs=1M", &cell), 0);
		if (k == 0)
			ior_db_cell_set_status(db, cell, IOR_CELL_FAILED, "dd: write error: No space left <on> device");
		else {
			double v[3] = { 500, 505, 498 };
			add_samples(db, cell, v, 3, "random");
		}
		CU_ASSERT_EQUAL(ior_db_run_finish(db, run, IOR_RUN_COMPLETE), 0);
		/* the kernels' boots of `vm run` (the newest panicked on its second), recorded without their
		 * runs: one boot a side decides nothing (test_boot_verdict), and these samples must */
		struct ior_db_vm_boot boot = { .host_id = host, .run_id = 0, .kernel = kernels[k], .kernel_release = kernels[k],
					       .boot_index = 1, .outcome = "ok", .guest_status = 0, .accelerator = "tcg",
					       .cpus = 2, .memory_mb = 1024, .cache_mode = "none", .qemu_version = "7.2.15",
					       .boot_s = 3.5, .total_s = 20.0 };
		int64_t id;
		CU_ASSERT_EQUAL(ior_test_ok(ior_db_vm_boot_add(db, &boot, &id)), 0);
		if (k == 2) {
			boot.boot_index = 2;
			boot.outcome = "panic";
			boot.reason = "Kernel panic - not syncing: VFS: Unable to mount root fs on <unknown>";
			boot.run_id = 0;
			CU_ASSERT_EQUAL(ior_test_ok(ior_db_vm_boot_add(db, &boot, &id)), 0);
		}
	}
	ior_db_free(db);
	return path;
}

/* --- helpers -------------------------------------------------------------------- */

static bool valid_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int len = *p < 0x80 ? 1 : (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3 : (*p >> 3) == 30 ? 4 : 0;
		if (!len)
			return false;
		for (int i = 1; i < len; i++)
			if ((p[i] & 0xc0) != 0x80)
				return false;
		p += len;
	}
	return true;
}

static const char *tmpfile_with(const char *name, const char *text)
{
	return ior_test_write_file(name, text);
}

static int tool(char *const argv[])
{
	return ior_test_spawn(argv, NULL);
}

/* The figures of the database itself, per (host, kernel, device, scheduler, engine). */
static double sql_double(const char *db, const char *sql)
{
	long long v = ior_test_query(db, sql);
	return (double)v;
}

/* --- seed data -------------------------------------------------------------------- */

static json_object *parse(const char *text)
{
	json_object *j = json_tokener_parse(text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	return j;
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;
	json_object_object_get_ex(o, key, &v);
	return v;
}

/* Every cell of the JSON against the database's own sum and count, and against the text report's row. */
static void test_seed_json_against_database_and_text(void)
{
	const char *db = seed_db();
	char *json = report(db, "json", NULL), *text = report(db, "text", NULL), *md = report(db, "md", NULL);
	json_object *root = parse(json);
	CU_ASSERT_STRING_EQUAL(json_object_get_string(get(root, "schema")), "ioregress-report");
	CU_ASSERT_EQUAL(json_object_get_int(get(root, "version")), 4);
	json_object *groups = get(root, "groups");
	CU_ASSERT_EQUAL_FATAL(json_object_array_length(groups), 4);
	size_t cells = 0;
	for (size_t g = 0; g < json_object_array_length(groups); g++) {
		json_object *grp = json_object_array_get_idx(groups, g);
		const char *host = json_object_get_string(get(grp, "host")), *kernel = json_object_get_string(get(grp, "kernel"));
		json_object *cs = get(grp, "cells");
		for (size_t c = 0; c < json_object_array_length(cs); c++, cells++) {
			json_object *cell = json_object_array_get_idx(cs, c);
			const char *dev = json_object_get_string(get(cell, "device")), *sch = json_object_get_string(get(cell, "scheduler"));
			double total = json_object_get_double(get(cell, "total")), share = json_object_get_double(get(cell, "share"));
			char sql[1024];
			snprintf(sql, sizeof(sql), "SELECT round(sum(value) * 100) FROM sample_view WHERE host = '%s' AND kernel = '%s' "
				 "AND device = '%s' AND scheduler = '%s'", host, kernel, dev, sch);
			CU_ASSERT_DOUBLE_EQUAL(total * 100, sql_double(db, sql), 0.5);
			snprintf(sql, sizeof(sql), "SELECT count(*) FROM sample_view WHERE host = '%s' AND kernel = '%s' "
				 "AND device = '%s' AND scheduler = '%s'", host, kernel, dev, sch);
			CU_ASSERT_EQUAL(json_object_array_length(get(cell, "values")), (size_t)ior_test_query(db, sql));
			char row[128];
			snprintf(row, sizeof(row), " %10.2f %8.3f%%", total, share * 100);
			CU_ASSERT_PTR_NOT_NULL(strstr(text, row));
			snprintf(row, sizeof(row), "| %.2f | %.3f%% |", total, share * 100);
			CU_ASSERT_PTR_NOT_NULL(strstr(md, row));
		}
	}
	CU_ASSERT_EQUAL(cells, (size_t)ior_test_query(db, "SELECT count(DISTINCT cell_id) FROM sample_view"));
	/* each device's spread line: min, max, spread, CoV and n as the text prints them */
	for (size_t g = 0; g < json_object_array_length(groups); g++) {
		json_object *ds = get(json_object_array_get_idx(groups, g), "devices");
		for (size_t d = 0; d < json_object_array_length(ds); d++) {
			json_object *st = get(json_object_array_get_idx(ds, d), "stats");
			char line[160];
			snprintf(line, sizeof(line), " %9.2f %9.2f %7.1f%% %7.1f%% %3d", json_object_get_double(get(st, "min")),
				 json_object_get_double(get(st, "max")), json_object_get_double(get(st, "spread")) * 100,
				 json_object_get_double(get(st, "cov")) * 100, json_object_get_int(get(st, "n")));
			CU_ASSERT_PTR_NOT_NULL(strstr(text, line));
		}
	}
	/* alerts: the same words in text and JSON; the field report's SSD RAID on 2.6.32 first */
	json_object *alerts = get(root, "alerts");
	CU_ASSERT_EQUAL_FATAL(json_object_array_length(alerts), 2);
	CU_ASSERT_STRING_EQUAL(json_object_get_string(get(json_object_array_get_idx(alerts, 0), "kernel")), "2.6.32");
	for (size_t i = 0; i < json_object_array_length(alerts); i++)
		CU_ASSERT_PTR_NOT_NULL(strstr(text, json_object_get_string(get(json_object_array_get_idx(alerts, i), "text"))));
	/* change points: in both, SSD RAID noop at 2.6.32, nothing on SATA RAID */
	json_object *cps = get(root, "change_points");
	bool noop = false;
	for (size_t i = 0; i < json_object_array_length(cps); i++) {
		json_object *s = json_object_array_get_idx(cps, i), *ch = get(s, "changes");
		const char *dev = json_object_get_string(get(s, "device"));
		if (!strcmp(dev, "SATA RAID"))
			CU_ASSERT_EQUAL(json_object_array_length(ch), 0);
		for (size_t c = 0; c < json_object_array_length(ch); c++) {
			json_object *x = json_object_array_get_idx(ch, c);
			char words[256];
			snprintf(words, sizeof(words), "%s %s, %s over %zu kernels", dev, json_object_get_string(get(s, "scheduler")),
				 json_object_get_string(get(s, "metric")), json_object_array_length(get(s, "kernels")));
			CU_ASSERT_PTR_NOT_NULL(strstr(text, words));
			snprintf(words, sizeof(words), "change arrived in %s (after %s): level x%.3f",
				 json_object_get_string(get(x, "kernel")), json_object_get_string(get(x, "after")),
				 json_object_get_double(get(x, "ratio")));
			CU_ASSERT_PTR_NOT_NULL(strstr(text, words));
			noop |= !strcmp(dev, "SSD RAID") && !strcmp(json_object_get_string(get(s, "scheduler")), "noop") &&
				!strcmp(json_object_get_string(get(x, "kernel")), "2.6.32");
		}
	}
	CU_ASSERT_TRUE(noop);
	/* the scheduler change the field tester handled by hand */
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "removed upstream in 2.6.33"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "anticipatory: offered on 2.6.32, absent on 2.6.33-rc5"));
	json_object_put(root);
	free(json), free(text), free(md);
}

/* The data lines after the header, and the sum of their 15th column (value); false when a line
 * has fewer columns. A function of its own, not a loop in the test: gcc 12 at -O3 takes a
 * pointer into the report, walked beside CUnit's fatal asserts, for a dangling one. */
static bool csv_rows(const char *csv, size_t *rows, double *sum)
{
	*rows = 0;
	*sum = 0;
	for (const char *line = strchr(csv, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
		(*rows)++;
		const char *p = line + 1;
		for (int c = 0; c < 14 && p; c++)
			p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
		if (!p)
			return false;
		*sum += atof(p);
	}
	return true;
}

static void test_seed_csv_is_the_sample_view(void)
{
	const char *db = seed_db();
	char *csv = report(db, "csv", NULL);
	size_t rows = 0;
	double sum = 0;
	CU_ASSERT_TRUE(csv_rows(csv, &rows, &sum));
	CU_ASSERT_EQUAL(rows, (size_t)ior_test_query(db, "SELECT count(*) FROM sample_view"));
	CU_ASSERT_DOUBLE_EQUAL(sum * 100, sql_double(db, "SELECT round(sum(value) * 100) FROM sample_view"), 0.5);
	CU_ASSERT_EQUAL(strncmp(csv, "host,kernel,device,", 19), 0);
	free(csv);
}

static void test_json_meets_its_schema(void)
{
	const char *dbs[] = { seed_db(), run_db() };
	for (int d = 0; d < 2; d++) {
		char *json = report(dbs[d], "json", d ? "--baseline=6.1.0-47-cloud-amd64" : NULL);
		const char *doc = tmpfile_with(d ? "run.json" : "seed.json", json);
		char schema[4096];
		snprintf(schema, sizeof(schema), "%s", ior_test_source_path("reports/report.schema.json"));
		char *argv[] = { "/usr/bin/python3", "-c",
				 "import json, sys, jsonschema\n"
				 "jsonschema.Draft7Validator(json.load(open(sys.argv[2]))).validate(json.load(open(sys.argv[1])))",
				 (char *)doc, schema, NULL };
		if (access("/usr/bin/python3", X_OK))
			ior_test_skip("no /usr/bin/python3 with jsonschema (ci/setup.sh installs python3-jsonschema)");
		CU_ASSERT_EQUAL(tool(argv), 0);
		free(json);
	}
}

static int xpath_count(const char *file, const char *xpath)
{
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "xmllint --xpath '%s' '%s' 2>/dev/null", xpath, file);
	FILE *p = popen(cmd, "r");
	int n = -1;
	if (p && fscanf(p, "%d", &n) != 1)
		n = -1;
	if (p)
		pclose(p);
	return n;
}

/* One test case per compared cell; a regression fails, inconclusive is skipped; the counts in
 * the suite's attributes; cells that did not run are errors or skipped, with their reason. */
static void test_junit_structure(void)
{
	const char *db = run_db();
	char *xml = report(db, "junit", "--baseline=6.1.0-57-cloud-amd64");
	const char *file = tmpfile_with("run.xml", xml);
	char *lint[] = { "xmllint", "--noout", (char *)file, NULL };
	CU_ASSERT_EQUAL_FATAL(tool(lint), 0);
	/* the headline's cases: none, mq-deadline, dd; the tail latency (lat_p99_us) has its own cases */
#define HEADLINE "/testsuites/testsuite[1]/testcase[properties/property[@name=\"metric\" and @value=\"value\"]]"
	CU_ASSERT_EQUAL(xpath_count(file, "count(" HEADLINE ")"), 3);
	CU_ASSERT_EQUAL(xpath_count(file, "count(" HEADLINE "/failure)"), 1);
	CU_ASSERT_EQUAL(xpath_count(file, "count(/testsuites/testsuite[1]/testcase[@name=\"none\"]/failure[@type=\"regression\"])"), 1);
	CU_ASSERT_EQUAL(xpath_count(file, "count(" HEADLINE "/properties/property[@name=\"median_candidate\"])"), 3);
	CU_ASSERT_EQUAL(xpath_count(file, "count(/testsuites/testsuite[1]/testcase[properties/property[@name=\"metric\" and @value=\"lat_p99_us\"]])"), 3);
#undef HEADLINE
	CU_ASSERT_EQUAL(xpath_count(file, "count(//testsuite[@name=\"ioregress cells not run\"]/testcase/error)"), 1);
	CU_ASSERT_EQUAL(xpath_count(file, "count(//testsuite[@name=\"ioregress cells not run\"]/testcase/skipped)"), 1);
	CU_ASSERT_EQUAL(xpath_count(file, "count(//testsuite[@name=\"ioregress vm boots\"]/testcase)"), 5);
	CU_ASSERT_EQUAL(xpath_count(file, "count(//testsuite[@name=\"ioregress vm boots\"]/testcase/error[@type=\"panic\"])"), 1);
	/* the seed data's 3 against 3 comparisons are all inconclusive: skipped */
	char *seed = report(seed_db(), "junit", "--baseline=2.6.30-2");
	const char *sfile = tmpfile_with("seed.xml", seed);
	CU_ASSERT_EQUAL(xpath_count(sfile, "count(/testsuites/testsuite[1]/testcase/skipped)"), 6);
	/* spread alerts inform: failures only with --fail-on alert */
	CU_ASSERT_EQUAL(xpath_count(sfile, "count(//testsuite[@name=\"ioregress variance alerts\"]/testcase/failure)"), 0);
	CU_ASSERT_EQUAL(xpath_count(sfile, "count(//testsuite[@name=\"ioregress variance alerts\"]/testcase/system-out)"), 2);
	CU_ASSERT_EQUAL(xpath_count(sfile, "number(//testsuite[@name=\"ioregress variance alerts\"]/@failures)"), 0);
	char *failing = NULL;
	char *fail_args[] = { "report", "--format", "junit", "--baseline=2.6.30-2", "--fail-on", "alert", NULL };
	CU_ASSERT_EQUAL(run(seed_db(), fail_args, &failing), 3);
	const char *ffile = tmpfile_with("seed-fail.xml", failing);
	CU_ASSERT_EQUAL(xpath_count(ffile, "count(//testsuite[@name=\"ioregress variance alerts\"]/testcase/failure)"), 2);
	CU_ASSERT_EQUAL(xpath_count(ffile, "number(//testsuite[@name=\"ioregress variance alerts\"]/@failures)"), 2);
	free(xml), free(seed), free(failing);
}

/* A run's data: the regression, the unavailable scheduler and the failed cell with their reasons, in every format. */
static void test_run_data_in_every_format(void)
{
	const char *db = run_db();
	for (size_t f = 0; f < NFORMATS; f++) {
		char *out = report(db, formats[f], "--baseline=6.1.0-57-cloud-amd64");
		CU_ASSERT_TRUE(valid_utf8(out));
		bool markup = strcmp(formats[f], "text") && strcmp(formats[f], "csv");
		if (markup)  /* text and CSV carry the name as it is; every markup escapes it */
			CU_ASSERT_PTR_NULL(strstr(out, "lab<&"));
		CU_ASSERT_PTR_NULL(strstr(out, "\xff"));              /* invalid bytes replaced */
		if (strcmp(formats[f], "csv")) {
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "No space left"));    /* the failed cell's reason */
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "kyber"));
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "regression"));
		}
		if (!strcmp(formats[f], "text"))
			CU_ASSERT_PTR_NOT_NULL(strstr(out, HOSTILE_HOST));
		if (!strcmp(formats[f], "csv"))  /* RFC 4180: quoted, the quote doubled */
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n\"lab<&\"\"'>\","));
		if (!strcmp(formats[f], "md"))
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "disk \xef\xbf\xbd\xef\xbf\xbd\\|\\*\\_\\`x"));
		if (strcmp(formats[f], "csv")) {  /* the VM boots, the panic with its reason */
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "panic"));
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "Unable to mount root fs"));
		}
		if (!strcmp(formats[f], "text")) {
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nVM boots (vm run)\n"));
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "1 of 5 boots were not ok"));
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "unavailable: kyber"));
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "failed: dd: write error: No space left <on> device"));
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "random"));     /* the fill */
		}
		if (!strcmp(formats[f], "html") || !strcmp(formats[f], "junit")) {
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "lab&lt;&amp;&quot;&#39;&gt;"));
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "5.10.0-&lt;rc&gt;&amp;&quot;&#39;"));
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "No space left &lt;on&gt; device"));
		}
		if (!strcmp(formats[f], "md"))
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "lab&lt;&amp;\"'&gt;"));
		if (!strcmp(formats[f], "json")) {
			json_object *j = parse(out);
			CU_ASSERT_STRING_EQUAL(json_object_get_string(get(json_object_array_get_idx(get(j, "kernels"), 0), "host")),
					       HOSTILE_HOST);
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "disk \xef\xbf\xbd\xef\xbf\xbd|*_`x"));  /* U+FFFD for each bad byte */
			json_object *nr = get(j, "not_run");
			CU_ASSERT_EQUAL(json_object_array_length(nr), 2);
			json_object *k = get(j, "kernels");
			CU_ASSERT_STRING_EQUAL(json_object_get_string(json_object_array_get_idx(
				get(json_object_array_get_idx(k, 2), "unavailable"), 0)), "kyber");
			CU_ASSERT_EQUAL(json_object_get_int(get(get(get(j, "verdicts"), "summary"), "regressions")), 1);
			json_object *boots = get(j, "vm_boots");
			CU_ASSERT_EQUAL(json_object_array_length(boots), 5);
			CU_ASSERT_STRING_EQUAL(json_object_get_string(get(json_object_array_get_idx(boots, 3), "outcome")), "panic");
			json_object *fills = get(j, "fills");
			CU_ASSERT_EQUAL(json_object_array_length(fills), 4);
			/* kernels in version order: the hostile 5.10 first, its name intact */
			CU_ASSERT_STRING_EQUAL(json_object_get_string(get(json_object_array_get_idx(k, 0), "kernel")), HOSTILE_KERNEL);
			json_object_put(j);
		}
		if (!strcmp(formats[f], "csv")) {
			/* 3 kernels x (3 + 3 + 6 or 0 ...) samples, the quoted model and device */
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"Loop <model> & \"\"quoted\"\", with comma\""));
			size_t rows = 0;
			double sum = 0;
			CU_ASSERT_TRUE(csv_rows(out, &rows, &sum));
			CU_ASSERT_EQUAL(rows, (size_t)ior_test_query(db, "SELECT count(*) FROM samples"));
			CU_ASSERT_PTR_NOT_NULL(strstr(out, ",interleaved,ok,1,"));
		}
		free(out);
	}
}

/* The commit 6.12.38 was built from, in every format that describes kernels; the others have none. */
static void test_commit_in_every_format(void)
{
	const char *db = run_db();
	const char *shown[] = { "text", "md", "html", "json" };
	for (size_t f = 0; f < sizeof(shown) / sizeof(shown[0]); f++) {
		char *out = report(db, shown[f], NULL);
		CU_ASSERT_PTR_NOT_NULL(strstr(out, COMMIT_SHA));
		CU_ASSERT_PTR_NOT_NULL(strstr(out, "v6.12-3-g0123456789ab"));
		CU_ASSERT_PTR_NOT_NULL(strstr(out, "Jens Axboe"));
		CU_ASSERT_PTR_NOT_NULL(strstr(out, "2024-02-11T15:04:05+01:00"));
		if (!strcmp(shown[f], "text")) {
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "kernels built from git commits:\n"));
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "6.12.38+deb13-cloud-amd64: commit " COMMIT_SHA " (v6.12-3-g0123456789ab): "
						      COMMIT_SUBJECT "\n  author Jens Axboe <axboe@example.org>, 2024-02-11T15:04:05+01:00\n"));
		}
		if (!strcmp(shown[f], "md"))
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "block: fix &lt;the&gt; queue &amp; \"co\" \\|\\*\\_"));
		if (!strcmp(shown[f], "html")) {
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "block: fix &lt;the&gt; queue &amp; &quot;co&quot; |*_"));
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "Jens Axboe &lt;axboe@example.org&gt;"));
		}
		if (!strcmp(shown[f], "json")) {
			json_object *j = parse(out), *k = get(j, "kernels");
			size_t with = 0;
			for (size_t i = 0; i < json_object_array_length(k); i++) {
				json_object *x = json_object_array_get_idx(k, i), *c = get(x, "commit");
				CU_ASSERT_TRUE(json_object_object_get_ex(x, "commit", NULL));  /* present, null or not */
				if (!c)
					continue;
				with++;
				CU_ASSERT_STRING_EQUAL(json_object_get_string(get(x, "kernel")), "6.12.38+deb13-cloud-amd64");
				CU_ASSERT_STRING_EQUAL(json_object_get_string(get(c, "sha")), COMMIT_SHA);
				CU_ASSERT_STRING_EQUAL(json_object_get_string(get(c, "subject")), COMMIT_SUBJECT);
				CU_ASSERT_STRING_EQUAL(json_object_get_string(get(c, "author_email")), "axboe@example.org");
				CU_ASSERT_EQUAL(json_object_get_int(get(c, "other_commits")), 0);
			}
			CU_ASSERT_EQUAL(with, 1);
			json_object_put(j);
		}
		free(out);
	}
	/* a report of another kernel leaves the section out */
	char *other = report(db, "text", "--kernel=6.1.0-47-cloud-amd64");
	CU_ASSERT_PTR_NULL(strstr(other, "kernels built from git commits"));
	free(other);
}

/* The verdicts of text (check's table) and JSON are the same figures. */
static void test_verdicts_agree(void)
{
	const char *db = run_db();
	char *json = report(db, "json", "--baseline=6.1.0-57-cloud-amd64"), *text = report(db, "text", "--baseline=6.1.0-57-cloud-amd64");
	json_object *root = parse(json), *cells = get(get(root, "verdicts"), "cells");
	size_t headline = 0;
	for (size_t i = 0; i < json_object_array_length(cells); i++)
		headline += !strcmp(json_object_get_string(get(json_object_array_get_idx(cells, i), "metric")), "value");
	CU_ASSERT_EQUAL(headline, 3);  /* and lat_p99_us where the engine records it */
	for (size_t i = 0; i < json_object_array_length(cells); i++) {
		json_object *c = json_object_array_get_idx(cells, i);
		char row[256];
		snprintf(row, sizeof(row), " %3d %3d %10.2f %10.2f %+7.1f%%", json_object_get_int(get(c, "n_baseline")),
			 json_object_get_int(get(c, "n_candidate")), json_object_get_double(get(c, "median_baseline")),
			 json_object_get_double(get(c, "median_candidate")), (json_object_get_double(get(c, "ratio")) - 1) * 100);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, row));
		snprintf(row, sizeof(row), "%s: %s", json_object_get_string(get(c, "verdict")), json_object_get_string(get(c, "reason")));
		CU_ASSERT_PTR_NOT_NULL(strstr(text, row));
	}
	json_object_put(root);
	free(json), free(text);
}

/* Issue 22: text, md and html open with the kernel answer (what was compared, the verdict counts,
 * the worst regression with its interval, what could not be told and why); alerts follow it. */
static void test_reports_open_with_the_answer(void)
{
	const char *db = run_db();
	static const char *const fmts[] = { "text", "md", "html" };
	for (size_t f = 0; f < 3; f++) {
		char *out = report(db, fmts[f], "--baseline=6.1.0-57-cloud-amd64");
		/* every other kernel against the baseline, each with its counts */
		const char *answer = strstr(out, "answer: 4 kernels, every other against baseline 6.1.0-57-cloud-amd64 (3 pair(s))");
		CU_ASSERT_PTR_NOT_NULL(answer);
		CU_ASSERT_PTR_NOT_NULL(strstr(out, "6.1.0-47-cloud-amd64 against 6.1.0-57-cloud-amd64: "));
		const char *newest = strstr(out, "6.12.38+deb13-cloud-amd64 against 6.1.0-57-cloud-amd64: ");
		CU_ASSERT_PTR_NOT_NULL(newest);
		CU_ASSERT_PTR_NOT_NULL(newest ? strstr(newest, " 1 regressed, ") : NULL);
		const char *worst = newest ? strstr(newest, "worst regression: ") : NULL;
		CU_ASSERT_PTR_NOT_NULL(worst);
		CU_ASSERT_PTR_NOT_NULL(worst ? strstr(worst, "(95% CI ") : NULL);
		/* before every table, alert and verdict list */
		if (!strcmp(fmts[f], "html")) {  /* the page's head names the sections: the order of the sections */
			CU_ASSERT(strstr(out, "id=\"answer\"") < strstr(out, "id=\"alerts\""));
			CU_ASSERT(strstr(out, "id=\"answer\"") < strstr(out, "id=\"verdicts\""));
		} else {
			const char *first = strstr(out, "alert");
			const char *verdicts = strstr(out, "erdicts");
			CU_ASSERT(answer && (!first || answer < first));
			CU_ASSERT(answer && (!verdicts || answer < verdicts));
		}
		free(out);
	}
	/* the JSON carries the same pairs (kernel_pairs), each with the text answer's line */
	char *json = report(db, "json", "--baseline=6.1.0-57-cloud-amd64"), *text = report(db, "text", "--baseline=6.1.0-57-cloud-amd64");
	json_object *root = parse(json), *pairs = get(get(root, "kernel_pairs"), "pairs");
	CU_ASSERT_EQUAL(json_object_get_int(get(get(root, "kernel_pairs"), "total")), 3);
	CU_ASSERT_EQUAL(json_object_array_length(pairs), 3);
	size_t regressed = 0;
	for (size_t i = 0; i < json_object_array_length(pairs); i++) {
		json_object *p = json_object_array_get_idx(pairs, i);
		CU_ASSERT_STRING_EQUAL(json_object_get_string(get(p, "reference")), "6.1.0-57-cloud-amd64");
		CU_ASSERT_PTR_NOT_NULL(strstr(text, json_object_get_string(get(p, "answer"))));
		regressed += json_object_get_int(get(p, "regressions")) == 1 && get(p, "worst_regression");
	}
	CU_ASSERT_EQUAL(regressed, 1);
	json_object_put(root);
	free(json), free(text);
	/* the seed's 3 against 3: what could not be told, and why: the noise, the samples a side, and that
	 * no change can be told at that size; check says it in the same words */
	static const char why[] = "not told: the least told, hdparm-t, SATA RAID cfq, value: noise 1.7% between samples: no "
				  "change can be told at 3 samples a side";
	char *seed = report(seed_db(), "text", "--baseline=2.6.30-2");
	CU_ASSERT_EQUAL(strncmp(seed, "answer: 4 kernels, every other against baseline 2.6.30-2 (2 pair(s))", 68), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(seed, "\n2.6.32 against 2.6.30-2: 6 cell(s) compared: 0 regressed, 0 improved, 0 same, "
					    "6 not told; "));
	CU_ASSERT_PTR_NOT_NULL(strstr(seed, why));
	free(seed);
	char *check = NULL;
	char *args[] = { "check", "--baseline", "2.6.30-2", "--candidate", "2.6.32", NULL };
	run(seed_db(), args, &check);
	CU_ASSERT_PTR_NOT_NULL(strstr(check, strstr(why, "noise 1.7%")));
	free(check);
	/* without --baseline: each kernel of the host against the one before it, in version order */
	seed = report(seed_db(), "text", "--host=quadcore-8g");
	CU_ASSERT_EQUAL(strncmp(seed, "answer: 3 kernels, each against the one before it in version order (2 pair(s))", 78), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(seed, "\n2.6.32 against 2.6.30-2: 6 cell(s) compared: 0 regressed, 0 improved, 0 same, 6 "
					    "not told; not told: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(seed, "\n2.6.33-rc5 against 2.6.32: 6 cell(s) compared: "));
	CU_ASSERT_PTR_NULL(strstr(seed, "2.6.33-rc5 against 2.6.30-2"));
	free(seed);
	/* and on the run's kernels: the regression of 6.12.38 against the kernel before it, with its interval */
	char *run = report(run_db(), "text", NULL);
	const char *pair = strstr(run, "\n6.12.38+deb13-cloud-amd64 against 6.1.0-57-cloud-amd64: ");
	CU_ASSERT_PTR_NOT_NULL(pair);
	CU_ASSERT_PTR_NOT_NULL(pair ? strstr(pair, "1 regressed, 0 improved, ") : NULL);
	CU_ASSERT_PTR_NOT_NULL(pair ? strstr(pair, "; worst regression: randread, ") : NULL);
	free(run);
	char *one = report(seed_db(), "text", "--kernel=2.6.31");
	CU_ASSERT_EQUAL(strncmp(one, "answer: one kernel (2.6.31)", 27), 0);
	free(one);
}

/* The fills of the heat maps' squares: "#rrggbb" of every square, one entry per square. */
static void heat_fills(const char *html, size_t *grey, size_t *white, size_t *coloured)
{
	*grey = *white = *coloured = 0;
	for (const char *svg = html; (svg = strstr(svg, "<svg class=\"heatmap\"")); svg++) {
		const char *end = strstr(svg, "</svg>");
		for (const char *p = svg; (p = strstr(p, "<path fill=\"")) && p < end; p++) {
			size_t *to = !strncmp(p + 12, "#e4e4e4", 7) ? grey : !strncmp(p + 12, "#ffffff", 7) ? white : coloured;
			const char *close = strstr(p, "\"/>");
			for (const char *m = strchr(p, 'M'); m && m < close; m = strchr(m + 1, 'M'))
				(*to)++;
		}
	}
}

/* Issues 22 and 24: the heat map colours a square only where a verdict (or change point) says the
 * difference is real; one kernel shows its schedulers against each other; no label is cut. */
static void test_heat_map_colours_only_real_differences(void)
{
	size_t grey, white, coloured;
	/* the run's regression (none, 6.1.0-57 against 6.12.38) is coloured; the cells no verdict
	 * separates are grey */
	char *page = report(run_db(), "html", "--baseline=6.1.0-57-cloud-amd64");
	heat_fills(page, &grey, &white, &coloured);
	CU_ASSERT(coloured >= 1);
	CU_ASSERT(grey >= 3);
	/* the charts grow to hold the kernel labels, rotated under the axis: 240 would cut them */
	const char *vb = strstr(strstr(page, "<svg class=\"chart "), "viewBox=\"0 0 ");
	double w = 0, h = 0;
	CU_ASSERT_EQUAL_FATAL(sscanf(vb, "viewBox=\"0 0 %lf %lf", &w, &h), 2);
	CU_ASSERT(h >= 198 + strlen("6.12.38+deb13-cloud-amd64") * 6.5 * 0.5);
	free(page);
	/* one kernel: devices by schedulers against the device's best; 3 a side decide nothing, so
	 * only the best (white, the reference) is not grey */
	page = report(seed_db(), "html", "--kernel=2.6.31");
	CU_ASSERT_PTR_NOT_NULL(strstr(page, "<svg class=\"heatmap\" id=\"heat-one-"));
	CU_ASSERT_PTR_NOT_NULL(strstr(page, "class=\"hl\" transform=\"rotate(-60 238.0 66)\">noop</text>"));
	heat_fills(page, &grey, &white, &coloured);
	CU_ASSERT_EQUAL(coloured, 0);
	CU_ASSERT_EQUAL(white, 2);  /* SSD's and SATA RAID's best */
	CU_ASSERT_EQUAL(grey, 4);
	free(page);
}

/* --fail-on and --alerts: a non-zero status for CI, the worst first. */
static void test_fail_on_and_alerts(void)
{
	const char *db = run_db();
	char *out;
	char *reg[] = { "report", "--format", "junit", "--baseline", "6.1.0-57-cloud-amd64", "--fail-on", "regression", NULL };
	CU_ASSERT_EQUAL(run(db, reg, &out), 3);
	free(out);
	char *none[] = { "report", "--baseline", "6.1.0-47-cloud-amd64", "--candidate", "6.1.0-57-cloud-amd64", "--fail-on",
			 "regression", NULL };
	CU_ASSERT_EQUAL(run(db, none, &out), 0);
	free(out);
	char *alerts[] = { "report", "--alerts", "--baseline", "6.1.0-57-cloud-amd64", NULL };
	CU_ASSERT_EQUAL(run(db, alerts, &out), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "1 regression(s)"));
	CU_ASSERT_PTR_NULL(strstr(out, "ratio "));  /* no tables */
	free(out);
	char *typo[] = { "report", "--format", "htm", NULL };
	CU_ASSERT_EQUAL(run(db, typo, &out), 2);
	free(out);
	char *fail[] = { "report", "--fail-on", "sometimes", NULL };
	CU_ASSERT_EQUAL(run(db, fail, &out), 2);
	free(out);
}

/* check reads the same model: its rows are the report's verdicts, and it shows what did not run. */
static void test_check_shows_what_did_not_run(void)
{
	const char *db = run_db();
	char *out;
	char *args[] = { "check", "--baseline", "6.1.0-47-cloud-amd64", "--candidate", "6.1.0-57-cloud-amd64", NULL };
	int rc = run(db, args, &out);
	CU_ASSERT_TRUE(rc == 0 || rc == 125);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "not compared: lab<&\"'>, 6.1.0-47-cloud-amd64"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "failed: dd: write error"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "unavailable: scheduler kyber not offered by 6.1.0-57-cloud-amd64"));
	free(out);
	char *text = report(db, "text", "--since=2000-01-01");
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "randread"));
	free(text);
	text = report(db, "text", "--since=2999-01-01");
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "no samples match"));
	free(text);
}

/* A filter naming nothing stored is an error naming what is stored, not "no samples match" and
 * exit 0 (#37: report --kernel 2.6.3 on a database of 2.6.33 did that). */
static void test_filter_naming_nothing(void)
{
	const char *db = run_db();
	char out[4096], err[4096];
	char *kernel[] = { "--db", (char *)db, "report", "--kernel", "6.1.0-47", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(kernel, out, sizeof(out), err, sizeof(err)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no kernel '6.1.0-47'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "did you mean '6.1.0-47-cloud-amd64'?"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "6.1.0-57-cloud-amd64"));
	CU_ASSERT_PTR_NULL(strstr(out, "no samples match"));
	char *engine[] = { "--db", (char *)db, "report", "--format", "json", "--engine", "randreed", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(engine, out, sizeof(out), err, sizeof(err)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "did you mean 'randread'?"));
	CU_ASSERT_STRING_EQUAL(out, "");
	char *csv[] = { "--db", (char *)db, "report", "--format", "csv", "--device", "nvme0", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(csv, out, sizeof(out), err, sizeof(err)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no device 'nvme0'"));
	/* values that exist but match nothing together stay an empty answer */
	char *text = report(db, "text", "--since=2999-01-01");
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "no samples match"));
	free(text);
}

/* What a tester has instead of our CSV is named, and nothing is stored: fio's JSON (nine header
 * problems before, "unknown column '{'") and report's own CSV (it failed on 'device_model'), whose
 * way into another database is merge (#37). */
static void test_import_names_fio_json_and_report_csv(void)
{
	char out[4096], err[4096], db[4096];
	snprintf(db, sizeof(db), "%s/import-kinds.db", ior_test_tmpdir());
	char *fio[] = { "--db", db, "import", (char *)ior_test_source_path("tests/fuzz/corpus/fio_json/fio-3.33-read.json"),
			NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(fio, out, sizeof(out), err, sizeof(err)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "is fio's JSON output (fio-3.33), not a CSV"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "type = fio"));
	CU_ASSERT_PTR_NULL(strstr(err, "unknown column"));
	char *csv = report(seed_db(), "csv", NULL);
	const char *path = ior_test_write_file("report.csv", csv);
	free(csv);
	char *again[] = { "--db", db, "import", (char *)path, NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(again, out, sizeof(out), err, sizeof(err)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "is the output of 'report --format csv'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "ioregress merge OUT.db IN.db..."));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM samples"), 0);
}

/* -o writes the file whole, or leaves nothing. */
static void test_output_file(void)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/report.html", ior_test_tmpdir());
	char *args[] = { "report", "--format", "html", "-o", path, NULL };
	CU_ASSERT_EQUAL(run(seed_db(), args, NULL), 0);
	FILE *f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	char head[64] = "";
	CU_ASSERT_PTR_NOT_NULL(fgets(head, sizeof(head), f));
	CU_ASSERT_EQUAL(strncmp(head, "<!DOCTYPE html>", 15), 0);
	fclose(f);
	char bad[4096];
	snprintf(bad, sizeof(bad), "%s/no-such-dir/report.html", ior_test_tmpdir());
	char *args2[] = { "report", "-o", bad, NULL };
	CU_ASSERT_EQUAL(run(seed_db(), args2, NULL), 1);
}

/* Chart axes tick at round numbers (issue 37 §4): the seed's charts had min-max quarters such as
 * 117.41 and 102.30. Each chart's ticks are evenly spaced by 1, 2, 2.5 or 5 times a power of ten,
 * and each tick is a multiple of that step. */
static void test_chart_ticks_are_round(void)
{
	char *page = report(seed_db(), "html", NULL);
	size_t charts = 0;
	for (const char *svg = strstr(page, "<svg class=\"chart "); svg; svg = strstr(svg + 1, "<svg class=\"chart ")) {
		const char *end = strstr(svg, "</svg>");
		double v[16];
		size_t n = 0;
		for (const char *t = strstr(svg, "class=\"yl\">"); t && t < end && n < 16; t = strstr(t + 1, "class=\"yl\">"))
			v[n++] = strtod(t + strlen("class=\"yl\">"), NULL);
		CU_ASSERT(n >= 3 && n <= 9);
		if (n < 2)
			continue;
		double step = v[1] - v[0], mag = pow(10, floor(log10(step))), m = step / mag;
		bool round_step = fabs(m - 1) < 1e-6 || fabs(m - 2) < 1e-6 || fabs(m - 2.5) < 1e-6 || fabs(m - 5) < 1e-6;
		CU_ASSERT(round_step);
		for (size_t i = 0; i < n; i++) {
			CU_ASSERT_DOUBLE_EQUAL(v[i], v[0] + step * (double)i, step * 1e-6);
			CU_ASSERT_DOUBLE_EQUAL(v[i] / step, round(v[i] / step), 1e-6);
		}
		if (!round_step)
			fprintf(stderr, "\n  ticks %g, %g, ... (step %g)", v[0], v[1], step);
		charts++;
	}
	CU_ASSERT(charts >= 2);
	free(page);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_seed_json_against_database_and_text),
		IOR_TEST(test_seed_csv_is_the_sample_view),
		IOR_TEST(test_json_meets_its_schema),
		IOR_TEST(test_junit_structure),
		IOR_TEST(test_reports_open_with_the_answer),
		IOR_TEST(test_heat_map_colours_only_real_differences),
		IOR_TEST(test_chart_ticks_are_round),
		IOR_TEST(test_run_data_in_every_format),
		IOR_TEST(test_commit_in_every_format),
		IOR_TEST(test_verdicts_agree),
		IOR_TEST(test_fail_on_and_alerts),
		IOR_TEST(test_check_shows_what_did_not_run),
		IOR_TEST(test_filter_naming_nothing),
		IOR_TEST(test_import_names_fio_json_and_report_csv),
		IOR_TEST(test_output_file),
		IOR_TEST_END,
	};
	return ior_test_run("report_formats", tests);
}
