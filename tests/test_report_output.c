/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report -o FILE in a folder another user can write to (issue 23, case 3): links planted at the
 * names it could use are never followed. */
#include "tests/suite.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char out[65536], err[65536];

/* The other user (uid 65534, in a child of this test) links the names the old code used,
 * FILE.tmp.PID, for the next 400 pids after its own to root's secret: the report is the next
 * process this test starts. */
static void plant_links(const char *target, const char *victim)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(2);
		for (long p = getpid() + 1; p < getpid() + 400; p++) {
			char name[4096];
			snprintf(name, sizeof(name), "%s.tmp.%ld", target, p);
			if (symlink(victim, name))
				_exit(1);
		}
		_exit(0);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	CU_ASSERT_EQUAL_FATAL(status, 0);
}

static void test_planted_links_are_not_followed(void)
{
	const char *t = ior_test_tmpdir();
	char victim[4096], dir[4096], target[4096], db[4096], a[4096], b[4096];
	snprintf(victim, sizeof(victim), "%s/secret", t);
	snprintf(dir, sizeof(dir), "%s/shared", t);
	snprintf(target, sizeof(target), "%s/report.txt", dir);
	snprintf(db, sizeof(db), "%s/r.db", t);
	int fd = open(victim, O_WRONLY | O_CREAT | O_EXCL, 0600);
	CU_ASSERT_FATAL(fd >= 0 && write(fd, "secret\n", 7) == 7);
	close(fd);
	snprintf(a, sizeof(a), "%s", ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"));
	snprintf(b, sizeof(b), "%s", ior_test_source_path("tests/data/hdparm-2.6-schedulers.csv"));
	char *import[] = { "--db", db, "import", a, b, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(import, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0755), 0);
	CU_ASSERT_EQUAL_FATAL(chown(dir, 65534, 65534), 0);

	chmod(t, 0755); /* the other user reaches the shared folder; the secret stays 0600 */
	plant_links(target, victim);
	char *report[] = { "--db", db, "report", "-o", target, NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(report, out, sizeof(out), err, sizeof(err)), 0);

	char *secret = ior_test_read_file(victim, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(secret);
	CU_ASSERT_STRING_EQUAL(secret, "secret\n");
	free(secret);
	struct stat st;
	CU_ASSERT_EQUAL_FATAL(lstat(target, &st), 0);
	CU_ASSERT_TRUE(S_ISREG(st.st_mode));
	CU_ASSERT_EQUAL(st.st_uid, 0u);
	CU_ASSERT_TRUE(st.st_size > 100);
	/* no temporary file is left behind beside the report */
	char pattern[4096];
	snprintf(pattern, sizeof(pattern), "%s/report.txt.??????", dir);
	CU_ASSERT_EQUAL(ior_test_count_glob(pattern), 0);
}

int main(void)
{
	ior_test_require_root("a second uid");
	static const struct ior_test tests[] = {
		IOR_TEST(test_planted_links_are_not_followed),
		IOR_TEST_END,
	};
	return ior_test_run("report_output", tests);
}
