/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for `run --dry-run` and `help engines` / `help engine NAME` through the ioregress binary:
 * what they print, that a dry run creates nothing, and their errors. */
#include "tests/suite.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char out[65536], err[8192];

static int ioregress(char *const args[])
{
	return ior_test_ioregress(args, out, sizeof(out), err, sizeof(err));
}

static bool says(const char *where, const char *text)
{
	if (strstr(where, text))
		return true;
	fprintf(stderr, "\nmissing: %s\n--- stdout ---\n%s--- stderr ---\n%s", text, out, err);
	return false;
}

/* seed-fio.ini's swept rw: four cells, each named after its value, the estimate from the
 * engines' own runtime (4 x 3 x 10 s), and no database made. */
static void test_dry_run_shows_the_expansion_and_creates_nothing(void)
{
	char db[4096], matrix[4096];
	snprintf(db, sizeof(db), "%s/dry.db", ior_test_tmpdir());
	snprintf(matrix, sizeof(matrix), "%s", ior_test_source_path("matrix/examples/seed-fio.ini"));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", db, "run", "--dry-run", matrix, NULL }), 0);
	CU_ASSERT_TRUE(says(out, "job[rw=write]") && says(out, "job[rw=randread]"));
	CU_ASSERT_TRUE(says(out, "4 cells (1 devices, 4 engines after sweeps), 3 repetitions each: about 2 min 0 s"));
	CU_ASSERT_NOT_EQUAL(access(db, F_OK), 0);

	/* --set reaches the sweep before the dry run shows it */
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", db, "run", "--dry-run", "--set", "engine.job.bs=4k 64k", matrix,
					      NULL }), 0);
	CU_ASSERT_TRUE(says(out, "job[bs=4k,rw=read]")); /* a key keeps its place: bs comes from [defaults aio] */
	CU_ASSERT_TRUE(says(out, "8 cells"));

	/* past the limit: the count, and exit 1 */
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", db, "run", "--dry-run", "--set", "matrix.max_cells=3", matrix,
					      NULL }), 1);
	CU_ASSERT_TRUE(says(err, "expands to 4 cells"));
	CU_ASSERT_NOT_EQUAL(access(db, F_OK), 0);
}

/* A scheduler typo is the real run's error in a dry run too (it listed 'mq-dedline' as unavailable
 * and exited 0); a known scheduler this kernel lacks stays an unavailable cell. */
static void test_dry_run_checks_scheduler_names_as_the_run(void)
{
	const char *typo = ior_test_write_file("typo.ini", "[matrix]\nschedulers = none mq-dedline\n\n[device scratch]\n"
						     "loop = 64M\n\n[engine r]\ntype = aio\nsize = 8M\n");
	CU_ASSERT_EQUAL(ioregress((char *[]){ "run", "--dry-run", (char *)typo, NULL }), 1);
	CU_ASSERT_TRUE(says(err, "typo.ini:2: schedulers: 'mq-dedline' is not offered by this kernel and no kernel ever had it"));
	CU_ASSERT_TRUE(says(err, "did you mean 'mq-deadline'?"));
	CU_ASSERT_TRUE(strstr(out, "cells (") == NULL);
	const char *absent = ior_test_write_file("absent.ini", "[matrix]\nschedulers = none anticipatory\n\n"
						       "[device scratch]\nloop = 64M\n\n[engine r]\ntype = aio\nsize = 8M\n");
	CU_ASSERT_EQUAL(ioregress((char *[]){ "run", "--dry-run", (char *)absent, NULL }), 0);
	CU_ASSERT_TRUE(says(out, "anticipatory") && says(out, "(not offered here: unavailable)"));
}

static void test_help_engines_and_an_engines_keys(void)
{
	CU_ASSERT_EQUAL(ioregress((char *[]){ "help", "engines", NULL }), 0);
	CU_ASSERT_TRUE(says(out, "  aio ") && says(out, "  hdparm ") && says(out, "  loop "));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "help", "engine", "aio", NULL }), 0);
	/* iodepth with its type, range and default, as the option rows have them */
	CU_ASSERT_TRUE(says(out, "iodepth          count      1..4096"));
	CU_ASSERT_TRUE(says(out, "rw               choice     read|write|randread|randwrite|randrw"));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "help", "engine", "libaio", NULL }), 2);
	CU_ASSERT_TRUE(says(err, "unknown engine type 'libaio' (did you mean 'aio'?"));
	CU_ASSERT_EQUAL(ioregress((char *[]){ "help", "engnies", NULL }), 2);
	CU_ASSERT_TRUE(says(err, "no help on 'engnies'"));
}

/* The word --dry-run as an option's value or an operand is no dry run: before, main.c saw the word,
 * opened no database and skipped the root check, and the run crashed on the missing database
 * (SIGSEGV in db/stmt.c). Now the value forgotten is a usage error, and a matrix file named
 * --dry-run is run (as root; otherwise refused for want of root) and, missing here, named. */
static void test_dry_run_word_as_a_value_or_operand_is_no_dry_run(void)
{
	char db[4096];
	snprintf(db, sizeof(db), "%s/word.db", ior_test_tmpdir());
	const char *matrix = ior_test_write_file("word.ini", "[matrix]\nrepetitions = 1\n[device d]\nloop = 16M\n[engine e]\ntype = hdparm\n");
	int status = ioregress((char *[]){ "--db", db, "run", "--baseline", "--dry-run", (char *)matrix, NULL });
	CU_ASSERT_EQUAL(status, geteuid() == 0 ? 2 : 1);
	if (geteuid() == 0)
		CU_ASSERT_TRUE(says(err, "option '--baseline' needs a value, and '--dry-run' is an option"));
	status = ioregress((char *[]){ "--db", db, "run", "--", "--dry-run", NULL });
	CU_ASSERT_EQUAL(status, 1);
	CU_ASSERT_TRUE(says(err, geteuid() == 0 ? "cannot open matrix '--dry-run'" : "needs root"));
	/* and the dry run itself, after an option's value, still is one */
	CU_ASSERT_EQUAL(ioregress((char *[]){ "--db", db, "run", "--baseline=6.1", "--dry-run", (char *)matrix, NULL }), 0);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_dry_run_shows_the_expansion_and_creates_nothing),
		IOR_TEST(test_dry_run_checks_scheduler_names_as_the_run),
		IOR_TEST(test_help_engines_and_an_engines_keys),
		IOR_TEST(test_dry_run_word_as_a_value_or_operand_is_no_dry_run),
		IOR_TEST_END,
	};
	return ior_test_run("cmd_dry_run", tests);
}
