/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ioregress binary under valgrind: no leak and no invalid access in import, report, check,
 * schedulers, probe and run. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char db[512], binary[512];

/* Runs `valgrind ... ioregress ARGS`; returns the tool's exit status. valgrind's own error
 * code (99) means a leak or an invalid access; anything else is the command's status. */
static int under_valgrind(char *const args[], const char *input)
{
	char *argv[32] = { "valgrind", "-q", "--leak-check=full", "--show-leak-kinds=definite,indirect,possible",
			   "--errors-for-leak-kinds=definite,indirect,possible", "--error-exitcode=99",
			   "--track-fds=no", binary, "--db", db };
	int n = 10;
	for (int i = 0; args[i] && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return ior_test_spawn(argv, input);
}

static void test_import_is_clean(void)
{
	char data[600], offered[600];
	snprintf(data, sizeof(data), "%s", ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"));
	snprintf(offered, sizeof(offered), "%s", ior_test_source_path("tests/data/hdparm-2.6-schedulers.csv"));
	char *args[] = { "import", data, offered, NULL };
	CU_ASSERT_EQUAL(under_valgrind(args, NULL), 0);
	/* a rejected file walks the error paths */
	const char *bad = ior_test_write_file("bad.csv", "host,kernel,device,scheduler,engine,rep,value,unit\nh,k,d,s,e,x,1,MB/s\n");
	char path[600];
	snprintf(path, sizeof(path), "%s", bad);
	char *bad_args[] = { "import", path, NULL };
	CU_ASSERT_EQUAL(under_valgrind(bad_args, NULL), 1);
}

static void test_report_is_clean(void)
{
	char *text[] = { "report", NULL };
	CU_ASSERT_EQUAL(under_valgrind(text, NULL), 0);
	char *json[] = { "report", "--format", "json", NULL };
	CU_ASSERT_EQUAL(under_valgrind(json, NULL), 0);
}

static void test_check_is_clean(void)
{
	char *args[] = { "check", "--baseline", "2.6.30-2", "--candidate", "2.6.32", NULL };
	int status = under_valgrind(args, NULL);
	CU_ASSERT_TRUE(status == 0 || status == 1 || status == 125);
	char *missing[] = { "check", "--baseline", "9.9.9", "--candidate", "2.6.32", NULL };
	CU_ASSERT_EQUAL(under_valgrind(missing, NULL), 128);
}

static void test_schedulers_and_probe_are_clean(void)
{
	char *sched[] = { "schedulers", NULL };
	CU_ASSERT_EQUAL(under_valgrind(sched, NULL), 0);
	char *probe[] = { "probe", "--json", NULL };
	CU_ASSERT_EQUAL(under_valgrind(probe, NULL), 0);
}

static void test_run_is_clean(void)
{
	if (geteuid() != 0) {
		ior_test_not_run("a run under valgrind needs root");
		return;
	}
	char text[1024];
	snprintf(text, sizeof(text),
		 "[matrix]\nrepetitions = 2\nschedulers = none bfq anticipatory\n"
		 "[device scratch]\nloop = 32M\nbacking_dir = %s\n"
		 "[engine quick]\ntype = hdparm\nduration = 0.1s\nsettle = 0s\n", ior_test_tmpdir());
	char matrix[600];
	snprintf(matrix, sizeof(matrix), "%s", ior_test_write_file("small.ini", text));
	char *args[] = { "run", "--quiet", matrix, NULL };
	CU_ASSERT_EQUAL(under_valgrind(args, NULL), 0);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_import_is_clean),
		IOR_TEST(test_report_is_clean),
		IOR_TEST(test_check_is_clean),
		IOR_TEST(test_schedulers_and_probe_are_clean),
		IOR_TEST(test_run_is_clean),
		IOR_TEST_END,
	};
	char *version[] = { "valgrind", "--version", NULL };
	if (ior_test_spawn(version, NULL) != 0)
		ior_test_skip("valgrind is not installed");
	const char *b = getenv("IOR_BINARY");
	if (!b || access(b, X_OK) != 0)
		ior_test_skip("IOR_BINARY does not name the ioregress binary");
	snprintf(binary, sizeof(binary), "%s", b);
	snprintf(db, sizeof(db), "%s/valgrind.db", ior_test_tmpdir());
	return ior_test_run("valgrind", tests);
}
