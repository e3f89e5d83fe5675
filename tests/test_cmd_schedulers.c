/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for `ioregress schedulers` end to end: import CSVs into a fresh database, run the binary,
 * read what it prints. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char output[16384];

/* Runs ioregress with args, stdout into output; returns the exit status. */
static int ioregress(char *const args[])
{
	return ior_test_ioregress(args, output, sizeof(output), NULL, 0);
}

static const char *find(const char *text)
{
	const char *p = strstr(output, text);
	if (!p)
		fprintf(stderr, "missing from output: %s\n--- output ---\n%s", text, output);
	return p;
}

static void test_seed_data(void)
{
	char db[4096], kernels[4096], offered[4096];
	snprintf(db, sizeof(db), "%s/seed.db", ior_test_tmpdir());
	snprintf(kernels, sizeof(kernels), "%s", ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"));
	snprintf(offered, sizeof(offered), "%s", ior_test_source_path("tests/data/hdparm-2.6-schedulers.csv"));
	CU_ASSERT_EQUAL_FATAL(ioregress((char *[]){ "--db", db, "import", kernels, offered, NULL }), 0);
	CU_ASSERT_EQUAL_FATAL(ioregress((char *[]){ "--db", db, "schedulers", NULL }), 0);
	const char *a = find("  2.6.30-2    anticipatory cfq deadline noop\n");
	const char *b = find("  2.6.32      anticipatory cfq deadline noop\n");
	const char *c = find("  2.6.33-rc5  cfq deadline noop\n");
	CU_ASSERT(a && b && c && a < b && b < c);
	CU_ASSERT_PTR_NOT_NULL(find("    anticipatory: offered on 2.6.32, absent on 2.6.33-rc5 — removed upstream in 2.6.33\n"));
	CU_ASSERT_PTR_NOT_NULL(find("all hosts\n  common to all kernels: cfq deadline noop\n"
				    "    left out anticipatory: not offered on 2.6.33-rc5 — removed upstream in 2.6.33\n"));
	/* 2.6.31 ran on another host: it is not a "consecutive kernel" of quadcore-8g */
	CU_ASSERT_PTR_NULL(strstr(output, "on 2.6.31,"));

	/* check compares on the schedulers both kernels offered and says what it left out, and
	 * 3 against 3 samples is a skip for git bisect run */
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", db, "check", "--baseline", "2.6.32", "--candidate", "2.6.33-rc5",
					      NULL }), 125);
	CU_ASSERT_PTR_NOT_NULL(find("quadcore-8g: schedulers offered by both kernels: cfq deadline noop\n"
				    "  left out anticipatory: not offered on 2.6.33-rc5 — removed upstream in 2.6.33\n"));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", db, "check", "--baseline", "9.9.9", NULL }), 128);
}

static void test_unexplained_change_and_version_order(void)
{
	const char *samples = ior_test_write_file("samples.csv",
		"host,kernel,device,scheduler,engine,rep,value,unit\n"
		"h,6.1.0-57-amd64,vda,none,seqread,1,100,MB/s\n"
		"h,5.10.0-28-amd64,vda,none,seqread,1,100,MB/s\n"
		"h,6.1.0-47-amd64,vda,none,seqread,1,100,MB/s\n");
	char s[4096];
	snprintf(s, sizeof(s), "%s", samples);
	const char *offered = ior_test_write_file("offered.csv",
		"host,kernel,offered\n"
		"h,6.1.0-57-amd64,bfq kyber mq-deadline none\n"
		"h,5.10.0-28-amd64,bfq kyber mq-deadline none\n"
		"h,6.1.0-47-amd64,mq-deadline none\n");
	char o[4096], db[4096];
	snprintf(o, sizeof(o), "%s", offered);
	snprintf(db, sizeof(db), "%s/deb.db", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(ioregress((char *[]){ "--db", db, "import", s, o, NULL }), 0);
	CU_ASSERT_EQUAL_FATAL(ioregress((char *[]){ "--db", db, "schedulers", "--host", "h", NULL }), 0);
	const char *a = find("  5.10.0-28-amd64  bfq");
	const char *b = find("  6.1.0-47-amd64   mq-deadline none\n");
	const char *c = find("  6.1.0-57-amd64   bfq");
	CU_ASSERT(a && b && c && a < b && b < c);
	CU_ASSERT_PTR_NOT_NULL(find("    bfq: offered on 5.10.0-28-amd64, absent on 6.1.0-47-amd64 — not explained by "
				    "upstream history (config or module packaging change)\n"));
	CU_ASSERT_PTR_NOT_NULL(find("    kyber: absent on 6.1.0-47-amd64, offered on 6.1.0-57-amd64 — not explained"));
	CU_ASSERT_PTR_NOT_NULL(find("  common to its kernels: mq-deadline none\n"));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", db, "schedulers", "--bogus", NULL }), 2);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_seed_data),
		IOR_TEST(test_unexplained_change_and_version_order),
		IOR_TEST_END,
	};
	return ior_test_run("cmd_schedulers", tests);
}
