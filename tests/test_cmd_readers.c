/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the commands that only read a database (report, check, schedulers): a --db that does
 * not exist is an error naming it, exit 2 or more, and no file is created. */
#include "tests/suite.h"

#include <stdio.h>
#include <string.h>
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

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_missing_database_is_an_error_and_not_created),
		IOR_TEST_END,
	};
	return ior_test_run("cmd_readers", tests);
}
