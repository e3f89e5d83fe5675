/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report, check, schedulers and merge read a WAL database on read-only media (issue 23): a
 * read-only bind mount made by the test holds it. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static char src[4096], mnt[4096], db[4200];

static int run(const char *const *args, char *out, size_t outlen)
{
	static char err[8192];
	int rc = ior_test_ioregress((char *const *)args, out, outlen, err, sizeof(err));
	if (rc != 0 && rc != 125)
		fprintf(stderr, "\n  %s: exit %d: %s", args[2], rc, err);
	return rc;
}

static void test_wal_database_on_readonly_media(void)
{
	snprintf(src, sizeof(src), "%s/src", ior_test_tmpdir());
	snprintf(mnt, sizeof(mnt), "%s/ro", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkdir(src, 0755), 0);
	CU_ASSERT_EQUAL_FATAL(mkdir(mnt, 0755), 0);
	char made[4200], csv[4200];
	snprintf(made, sizeof(made), "%s/r.db", src);
	snprintf(csv, sizeof(csv), "%s", ior_test_write_file("ro.csv", "host,kernel,device,scheduler,engine,rep,value,unit\n"
		"h,6.1,d,none,e,1,5,MB/s\nh,6.1,d,none,e,2,5.2,MB/s\nh,6.1,d,none,e,3,5.1,MB/s\n"
		"h,6.12,d,none,e,1,4,MB/s\nh,6.12,d,none,e,2,4.1,MB/s\nh,6.12,d,none,e,3,4.2,MB/s\n"));
	const char *imp[] = { "--db", made, "import", csv, NULL };
	CU_ASSERT_EQUAL_FATAL(run(imp, NULL, 0), 0);
	size_t len = 0;
	char *head = ior_test_read_file(made, &len);   /* file format bytes 18-19: 2 is WAL */
	CU_ASSERT_TRUE(head && len > 20 && head[18] == 2 && head[19] == 2);
	free(head);
	CU_ASSERT_EQUAL_FATAL(mount(src, mnt, NULL, MS_BIND, NULL), 0);
	if (mount(NULL, mnt, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) != 0) {
		umount2(mnt, MNT_DETACH);
		CU_FAIL_FATAL("cannot remount the bind mount read-only");
	}
	snprintf(db, sizeof(db), "%s/r.db", mnt);
	static char out[65536];
	const char *report[] = { "--db", db, "report", "--format", "csv", NULL };
	CU_ASSERT_EQUAL(run(report, out, sizeof(out)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nh,6.12,d,,none,e,"));
	const char *check[] = { "--db", db, "check", "--baseline", "6.1", "--candidate", "6.12", NULL };
	int rc = run(check, out, sizeof(out));
	CU_ASSERT_TRUE(rc == 0 || rc == 1 || rc == 125);   /* a verdict, whichever: not an open failure */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "baseline 6.1, candidate 6.12"));
	const char *sched[] = { "--db", db, "schedulers", NULL };
	CU_ASSERT_EQUAL(run(sched, out, sizeof(out)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "6.12"));
	char merged[4200];
	snprintf(merged, sizeof(merged), "%s/merged.db", ior_test_tmpdir());
	const char *merge[] = { "--db", merged, "merge", merged, db, NULL };
	CU_ASSERT_EQUAL(run(merge, out, sizeof(out)), 0);
	CU_ASSERT_EQUAL(ior_test_query(merged, "SELECT count(*) FROM samples"), 6);
	CU_ASSERT_EQUAL(umount2(mnt, 0), 0);
	CU_ASSERT_EQUAL(access(made, F_OK), 0);
}

int main(void)
{
	if (geteuid() != 0) {
		fprintf(stderr, "readonly_db: needs root (a read-only bind mount)\n");
		return 77;
	}
	static const struct ior_test tests[] = {
		IOR_TEST(test_wal_database_on_readonly_media),
		IOR_TEST_END,
	};
	int rc = ior_test_run("readonly_db", tests);
	if (mnt[0])
		umount2(mnt, MNT_DETACH);   /* when an assertion ended the test early */
	return rc;
}
