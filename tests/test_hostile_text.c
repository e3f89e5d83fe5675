/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text from outside that would act where it is shown (issue 23): control characters refused at
 * import and neutralised by `schedulers` and the reports, spreadsheet formulas guarded in the CSV report, CR-only
 * CSV refused clearly. */
#include "common/error.h"
#include "db/db.h"
#include "tests/suite.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEADER "host,kernel,device,scheduler,engine,rep,value,unit\n"

static const char *fresh_db(const char *name)
{
	const char *path = ior_test_path(name);
	unlink(path);
	return path;
}

static int import(const char *db, const char *csv, char *err, size_t errlen)
{
	char *args[] = { "--db", (char *)db, "import", (char *)csv, NULL };
	return ior_test_ioregress(args, NULL, 0, err, errlen);
}

/* An escape sequence in a device name, a line break in a quoted host: refused with file:line: column. */
static void test_import_refuses_control_characters(void)
{
	char db[4096], err[4096];
	snprintf(db, sizeof(db), "%s", fresh_db("ctl.db"));
	const char *csv = ior_test_write_file("ctl.csv", HEADER "h,6.1,ok,none,e,1,5,MB/s\n"
							      "h,6.1,d\x1b[31m,none,e,1,5,MB/s\n"
							      "\"two\nlines\",6.1,d,none,e,1,5,MB/s\n");
	CU_ASSERT_NOT_EQUAL(import(db, csv, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "ctl.csv:3: device: control character 0x1b at character 2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "ctl.csv:4: host: control character 0x0a at character 4"));
	if (!strstr(err, "ctl.csv:3: device"))
		fprintf(stderr, "\n  %s", err);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM samples"), 0);
}

/* Past C0: a C1 control (U+009B, a terminal's CSI in one character), a right-to-left override
 * (U+202E) and a line separator (U+2028) are refused as well, each named by its code point;
 * before, the import stored them and `schedulers` and the text report printed them raw. */
static void test_import_refuses_c1_and_bidirectional_controls(void)
{
	char db[4096], err[4096];
	snprintf(db, sizeof(db), "%s", fresh_db("bidi.db"));
	const char *csv = ior_test_write_file("bidi.csv", HEADER "h,6.1,ok,none,e,1,5,MB/s\n"
							       "h,6.1,d\xc2\x9b" "31m,none,e,1,5,MB/s\n"
							       "h\xe2\x80\xae" "1.6,6.1,d,none,e,1,5,MB/s\n"
							       "h,6.1,d,none,e\xe2\x80\xa8x,1,5,MB/s\n");
	CU_ASSERT_NOT_EQUAL(import(db, csv, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "bidi.csv:3: device: U+009B (a control character) at character 2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "bidi.csv:4: host: U+202E (a bidirectional control) at character 2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "bidi.csv:5: engine: U+2028 (a line or paragraph separator) at character 2"));
	if (!strstr(err, "bidi.csv:3: device"))
		fprintf(stderr, "\n  %s", err);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM samples"), 0);
}

/* Names written by something other than this import (an older ioregress, a merge, SQL) still
 * reach `schedulers`: its output carries no control character. */
static void test_schedulers_neutralises_escapes(void)
{
	char db[4096], err[4096], out[8192];
	snprintf(db, sizeof(db), "%s", fresh_db("sched.db"));
	const char *offered = ior_test_write_file("offered.csv", "host,kernel,offered\nh,6.1,none mq-deadline kyber\n");
	const char *csv = ior_test_write_file("sched.csv", HEADER "h,6.1,d,none,e,1,5,MB/s\n");
	char *imp[] = { "--db", db, "import", (char *)offered, (char *)csv, NULL };
	int rc = ior_test_ioregress(imp, NULL, 0, err, sizeof(err));
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	sqlite3 *h = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(db, &h), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(h, "UPDATE hosts SET name = 'h' || char(27) || ']0;owned' || char(7);"
				     "UPDATE kernels SET release = '6.1' || char(27) || '[2J';"
				     "UPDATE scheduler_offers SET scheduler = scheduler || char(27) || '[31m' WHERE scheduler = 'kyber'",
				     NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	char *args[] = { "--db", db, "schedulers", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(args, out, sizeof(out), err, sizeof(err)), 0);
	bool control = false;
	for (const char *p = out; *p; p++)
		control |= (*p < 0x20 && *p != '\n') || *p == 0x7f;
	CU_ASSERT_FALSE(control);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "host h?]0;owned?"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "6.1?[2J"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "kyber?[31m"));
	if (control || !strstr(out, "host h?]0;owned?"))
		fprintf(stderr, "\n  %s", out);
}

/* A database written before names were checked (or by another tool, or by SQL) holds a C1 CSI
 * (U+009B), a right-to-left override (U+202E) and a line separator (U+2028): neither `report`
 * nor `schedulers` prints them as they are (each is one placeholder), valid UTF-8 passes. */
static void test_reports_neutralise_c1_and_bidirectional_controls(void)
{
	char db[4096], err[4096];
	snprintf(db, sizeof(db), "%s", fresh_db("old-bidi.db"));
	const char *offered = ior_test_write_file("bidi-offered.csv", "host,kernel,offered\nh,6.1,none kyber\n");
	const char *csv = ior_test_write_file("old-bidi.csv", HEADER "h,6.1,d,none,e,1,5,MB/s\nh,6.1,d,none,e,2,6,MB/s\n");
	char *imp[] = { "--db", db, "import", (char *)offered, (char *)csv, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(imp, NULL, 0, err, sizeof(err)), 0);
	sqlite3 *h = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(db, &h), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(h, "UPDATE hosts SET name = 'h' || char(155) || '2J';"
				     "UPDATE devices SET name = 'd' || char(8238) || 'xé';"
				     "UPDATE kernels SET release = '6.1' || char(8232) || 'x';"
				     "UPDATE scheduler_offers SET scheduler = scheduler || char(8297) WHERE scheduler = 'kyber'",
				     NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	static const char *const hazards[] = { "\xc2\x9b", "\xe2\x80\xae", "\xe2\x80\xa8", "\xe2\x81\xa9" };
	static char out[65536];
	char *report[] = { "--db", db, "report", NULL };
	char *schedulers[] = { "--db", db, "schedulers", NULL };
	char **commands[] = { report, schedulers };
	for (size_t c = 0; c < 2; c++) {
		CU_ASSERT_EQUAL(ior_test_ioregress(commands[c], out, sizeof(out), err, sizeof(err)), 0);
		bool raw = false;
		for (size_t i = 0; i < sizeof(hazards) / sizeof(*hazards); i++)
			raw |= strstr(out, hazards[i]) != NULL;
		CU_ASSERT_FALSE(raw);
		if (raw)
			fprintf(stderr, "\n  %s printed a hazard as it is:\n%s", commands[c][2], out);
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "host h?2J"));     /* the last output: schedulers */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "6.1?x"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "kyber?"));
	CU_ASSERT_EQUAL(ior_test_ioregress(report, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "d\xef\xbf\xbdx\xc3\xa9"));   /* U+FFFD, and the é kept */
}

/* OWASP's CSV injection advice: a field starting =, +, - or @ is shown as text, quoted with a
 * leading '; a negative number stays a number. */
static void test_csv_report_guards_formulas(void)
{
	char db[4096], err[4096];
	snprintf(db, sizeof(db), "%s", fresh_db("formula.db"));
	const char *csv = ior_test_write_file("formula.csv", HEADER "\"=HYPERLINK(\"\"http://x\"\")\",6.1,d,none,e,1,5,MB/s\n"
								 "@SUM(A1),6.1,d,none,e,1,5,MB/s\n"
								 "+cmd,6.1,d,none,-e+1,1,5,MB/s\n"
								 "h,6.1,d,none,-5.3,1,2.5,MB/s\n");
	CU_ASSERT_EQUAL_FATAL(import(db, csv, err, sizeof(err)), 0);
	static char out[65536];
	char *args[] = { "--db", db, "report", "--format", "csv", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(args, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n\"'=HYPERLINK(\"\"http://x\"\")\",6.1,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n\"'@SUM(A1)\",6.1,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n\"'+cmd\",6.1,d,,none,\"'-e+1\","));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nh,6.1,d,,none,-5.3,"));
	bool bare = false;   /* no row starts with a formula character */
	for (const char *p = strchr(out, '\n'); p && p[1]; p = strchr(p + 1, '\n'))
		bare |= strchr("=+-@", p[1]) != NULL;
	CU_ASSERT_FALSE(bare);
	if (!strstr(out, "'@SUM"))
		fprintf(stderr, "\n%s", out);
}

/* A classic Mac file (CR alone ends a line) read as one long header; now a clear refusal. */
static void test_cr_only_csv_refused_clearly(void)
{
	char db[4096], err[4096];
	snprintf(db, sizeof(db), "%s", fresh_db("cr.db"));
	const char *csv = ior_test_write_file("cr.csv", "host,kernel,device,scheduler,engine,rep,value,unit\r"
							"h,6.1,d,none,e,1,5,MB/s\r");
	CU_ASSERT_NOT_EQUAL(import(db, csv, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "cr.csv:1: header: carriage return inside an unquoted field"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not CR alone"));
	CU_ASSERT_PTR_NULL(strstr(err, "unknown column"));
	if (!strstr(err, "not CR alone"))
		fprintf(stderr, "\n  %s", err);
	/* CRLF is still a line end */
	csv = ior_test_write_file("crlf.csv", "host,kernel,device,scheduler,engine,rep,value,unit\r\nh,6.1,d,none,e,1,5,MB/s\r\n");
	CU_ASSERT_EQUAL(import(db, csv, err, sizeof(err)), 0);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_import_refuses_control_characters),
		IOR_TEST(test_import_refuses_c1_and_bidirectional_controls),
		IOR_TEST(test_schedulers_neutralises_escapes),
		IOR_TEST(test_reports_neutralise_c1_and_bidirectional_controls),
		IOR_TEST(test_csv_report_guards_formulas),
		IOR_TEST(test_cr_only_csv_refused_clearly),
		IOR_TEST_END,
	};
	return ior_test_run("hostile_text", tests);
}
