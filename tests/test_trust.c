/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Root and files another user could write (issue 23, cases 4 and 5): included matrices, merged
 * databases and the matrices they store. */
#include "tests/suite.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
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

/* Another user's database holds an interrupted run "made here" (this host, this kernel) whose stored
 * matrix runs a command. Root refuses it as --db; merge takes its runs as data, and resuming the
 * merged run must not run that matrix. */
static void test_merged_run_is_not_resumed(void)
{
	const char *t = ior_test_tmpdir();
	char evil[4096], ours[4096], marker[4096], csv[4096];
	snprintf(evil, sizeof(evil), "%s/evil.db", their_dir());
	snprintf(ours, sizeof(ours), "%s/ours.db", t);
	snprintf(marker, sizeof(marker), "%s/resumed-as-root", t);
	snprintf(csv, sizeof(csv), "%s", ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"));
	char *import[] = { "--db", evil, "import", csv, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(import, out, sizeof(out), err, sizeof(err)), 0);
	struct utsname u;
	char host[256] = "";
	uname(&u);
	gethostname(host, sizeof(host) - 1);
	char matrix[4096], *sql = NULL;
	snprintf(matrix, sizeof(matrix), "[matrix]\nrepetitions = 1\nschedulers = none\ndrop_caches = no\n"
		 "[device scratch]\nloop = 8M\nbacking_dir = %s\n[engine pwn]\ntype = exec\ncommand = touch %s\n", t, marker);
	sqlite3 *h = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(evil, &h), SQLITE_OK);
	sql = sqlite3_mprintf("INSERT OR IGNORE INTO hosts (name) VALUES (%Q);"
			      "INSERT INTO kernels (release) VALUES (%Q);"
			      "INSERT INTO runs (host_id, kernel_id, status, matrix_file, matrix_text, ioregress_version) "
			      "VALUES ((SELECT id FROM hosts WHERE name = %Q), (SELECT max(id) FROM kernels), "
			      "'interrupted', 'evil.ini', %Q, 'x');",
			      host, u.release, host, matrix);
	CU_ASSERT_EQUAL(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_free(sql);
	sqlite3_close(h);
	CU_ASSERT_EQUAL_FATAL(chown(evil, 65534, 65534), 0);

	char *report[] = { "--db", evil, "report", NULL };
	CU_ASSERT_NOT_EQUAL(ior_test_ioregress(report, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "belongs to uid 65534"));
	char *merge[] = { "merge", ours, evil, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(merge, out, sizeof(out), err, sizeof(err)), 0);
	long long id = ior_test_query(ours, "SELECT id FROM runs WHERE status = 'interrupted'");
	CU_ASSERT_TRUE_FATAL(id > 0);
	char idtext[32];
	snprintf(idtext, sizeof(idtext), "%lld", id);
	char *resume[] = { "--db", ours, "--quiet", "run", "--resume", idtext, NULL };
	CU_ASSERT_NOT_EQUAL(ior_test_ioregress(resume, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_FALSE(exists(marker));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "came in by merging"));
	if (!strstr(err, "came in by merging"))
		fprintf(stderr, "\n  stderr: %s", err);
	/* the merged run is still there to report on: data, not a command */
	CU_ASSERT_EQUAL(ior_test_query(ours, "SELECT count(*) FROM runs WHERE merged_from IS NOT NULL AND id = (SELECT max(id) FROM runs)"), 1);
	unlink(marker);
}

int main(void)
{
	ior_test_require_root("the trust rule applies to root");
	static const struct ior_test tests[] = {
		IOR_TEST(test_include_of_another_users_file_refused),
		IOR_TEST(test_include_of_a_world_writable_file_refused),
		IOR_TEST(test_merged_run_is_not_resumed),
		IOR_TEST_END,
	};
	return ior_test_run("trust", tests);
}
