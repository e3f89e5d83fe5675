/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Root and files another user could write (issue 23, cases 4 and 5): included matrices, merged databases and the matrices they store. */
#include "tests/suite.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char out[65536], err[65536];

static bool exists(const char *p)
{
	struct stat st;
	return lstat(p, &st) == 0;
}

/* A folder of the other user's (uid 65534), under the test's folder. */
static const char *their_dir(void)
{
	static char dir[4096];
	if (!*dir) {
		snprintf(dir, sizeof(dir), "%s/theirs", ior_test_tmpdir());
		CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0755), 0);
		CU_ASSERT_EQUAL_FATAL(chown(dir, 65534, 65534), 0);
	}
	return dir;
}

/* A root-owned matrix whose include names a file the other user wrote (or one anyone may write):
 * its exec engine must not run as root. */
static void expect_include_refused(const char *inc, const char *words)
{
	const char *t = ior_test_tmpdir();
	char marker[4096], text[8192], db[4096], main_ini[4096];
	snprintf(marker, sizeof(marker), "%s/ran-as-root", t);
	snprintf(db, sizeof(db), "%s/include.db", t);
	FILE *f = fopen(inc, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "[matrix]\nrepetitions = 1\nschedulers = none\ndrop_caches = no\n"
		   "[engine pwn]\ntype = exec\ncommand = touch %s\n", marker);
	fclose(f);
	snprintf(text, sizeof(text), "include = %s\n[device scratch]\nloop = 8M\nbacking_dir = %s\n", inc, t);
	snprintf(main_ini, sizeof(main_ini), "%s", ior_test_write_file("main.ini", text));
	char *args[] = { "--db", db, "run", main_ini, NULL };
	int rc = ior_test_ioregress(args, out, sizeof(out), err, sizeof(err));
	CU_ASSERT_NOT_EQUAL(rc, 0);
	CU_ASSERT_FALSE(exists(marker));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "main.ini:1: include"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, words));
	if (!strstr(err, words))
		fprintf(stderr, "\n  stderr: %s", err);
	unlink(marker);
}

static void test_include_of_another_users_file_refused(void)
{
	char inc[4096], script[8192];
	snprintf(inc, sizeof(inc), "%s/inc.ini", their_dir());
	snprintf(script, sizeof(script), "touch %s", inc);
	CU_ASSERT_EQUAL_FATAL(ior_test_as_nobody(script), 0);
	expect_include_refused(inc, "belongs to uid 65534");
}

static void test_include_of_a_world_writable_file_refused(void)
{
	char inc[4096];
	snprintf(inc, sizeof(inc), "%s/open.ini", ior_test_tmpdir());
	FILE *f = fopen(inc, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	chmod(inc, 0666);
	expect_include_refused(inc, "writable by every user");
}

int main(void)
{
	ior_test_require_root("the trust rule applies to root");
	static const struct ior_test tests[] = {
		IOR_TEST(test_include_of_another_users_file_refused),
		IOR_TEST(test_include_of_a_world_writable_file_refused),
		IOR_TEST_END,
	};
	return ior_test_run("trust", tests);
}
