/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the commands that only read a database (report, check, schedulers): a --db that does
 * not exist is an error naming it, exit 2 or more, and no file is created. */
#include "tests/suite.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_missing_database_is_an_error_and_not_created(void)
{
	char db[4096], out[8192], err[8192];
	snprintf(db, sizeof(db), "%s/TYPO.db", ior_test_tmpdir());
	const char *verbs[][3] = { { "report", NULL, NULL }, { "schedulers", NULL, NULL },
				   { "check", "--baseline", "6.1.0" } };
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		char *args[] = { "--db", db, (char *)verbs[i][0], (char *)verbs[i][1], (char *)verbs[i][2], NULL };
		int status = ior_test_ioregress(args, out, sizeof(out), err, sizeof(err));
		CU_ASSERT_TRUE(status >= 2);
		/* check's errors stay >= 128 so git bisect run aborts rather than marking a commit bad */
		if (strcmp(verbs[i][0], "check") == 0)
			CU_ASSERT_TRUE(status >= 128);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "TYPO.db' does not exist"));
		CU_ASSERT_NOT_EQUAL(access(db, F_OK), 0);
		char wal[4200];
		snprintf(wal, sizeof(wal), "%s-wal", db);
		CU_ASSERT_NOT_EQUAL(access(wal, F_OK), 0);
	}
}

/* `import` of a FIFO or /dev/zero says why at once (run under timeout(1): before, it never
 * returned from the FIFO), and so does a --db that is a FIFO. */
static void test_import_refuses_what_is_not_a_regular_file(void)
{
	char db[4096], fifo[4096], err[4096];
	snprintf(db, sizeof(db), "%s/imp.db", ior_test_tmpdir());
	snprintf(fifo, sizeof(fifo), "%s/in.csv", ior_test_tmpdir());
	snprintf(err, sizeof(err), "%s/imp.err", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
	const char *bin = getenv("IOR_BINARY");
	char *a[] = { "timeout", "20", (char *)bin, "--db", db, "import", fifo, "/dev/zero", NULL };
	CU_ASSERT_EQUAL(ior_test_spawn_to(a, NULL, NULL, err), 1);
	char *text = ior_test_read_file(err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "in.csv': a FIFO, not a regular file"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "'/dev/zero': a character device, not a regular file"));
	free(text);
	char *b[] = { "timeout", "20", (char *)bin, "--db", fifo, "report", NULL };
	CU_ASSERT_EQUAL(ior_test_spawn_to(b, NULL, NULL, err), 1);
	text = ior_test_read_file(err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "in.csv': a FIFO, not a regular file"));
	free(text);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_missing_database_is_an_error_and_not_created),
		IOR_TEST(test_import_refuses_what_is_not_a_regular_file),
		IOR_TEST_END,
	};
	return ior_test_run("cmd_readers", tests);
}
