/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report -o FILE in a folder another user can write to (issue 23, case 3): links planted at the
 * names it could use are never followed; and FILE that is no regular file (issue 35, case 3) stays
 * what it is: a device node or a FIFO is written through, a link keeps pointing where it did, a
 * block device is refused. */
#include "tests/suite.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <signal.h>
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

/* A report database of the field data, made once. */
static const char *report_db(void)
{
	static char db[4096];
	if (db[0])
		return db;
	snprintf(db, sizeof(db), "%s/nodes.db", ior_test_tmpdir());
	char a[4096], b[4096];
	snprintf(a, sizeof(a), "%s", ior_test_source_path("tests/data/hdparm-2.6-kernels.csv"));
	snprintf(b, sizeof(b), "%s", ior_test_source_path("tests/data/hdparm-2.6-schedulers.csv"));
	char *import[] = { "--db", db, "import", a, b, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(import, out, sizeof(out), err, sizeof(err)), 0);
	return db;
}

static int report_to(const char *file)
{
	char *report[] = { "--db", (char *)report_db(), "report", "-o", (char *)file, NULL };
	return ior_test_ioregress(report, out, sizeof(out), err, sizeof(err));
}

/* The test's own character device nodes with /dev/null's and /dev/full's numbers (never the
 * machine's): before, each was replaced by a regular file holding the report, as root's
 * `report -o /dev/null` replaced the machine's node. Now null takes the report and stays a node;
 * full says it could not be written and stays a node. */
static void test_device_node_stays_a_node(void)
{
	char null[4096], full[4096], pattern[4096];
	snprintf(null, sizeof(null), "%s/null", ior_test_tmpdir());
	snprintf(full, sizeof(full), "%s/full", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mknod(null, S_IFCHR | 0666, makedev(1, 3)), 0);
	CU_ASSERT_EQUAL_FATAL(mknod(full, S_IFCHR | 0666, makedev(1, 7)), 0);
	CU_ASSERT_EQUAL(report_to(null), 0);
	struct stat st;
	CU_ASSERT_EQUAL_FATAL(lstat(null, &st), 0);
	CU_ASSERT_TRUE(S_ISCHR(st.st_mode));
	CU_ASSERT_EQUAL(st.st_rdev, makedev(1, 3));
	CU_ASSERT_NOT_EQUAL(report_to(full), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "No space left on device"));
	CU_ASSERT_EQUAL_FATAL(lstat(full, &st), 0);
	CU_ASSERT_TRUE(S_ISCHR(st.st_mode));
	snprintf(pattern, sizeof(pattern), "%s/*.??????", ior_test_tmpdir());
	CU_ASSERT_EQUAL(ior_test_count_glob(pattern), 0);
}

/* A FIFO with a reader: the reader gets the report and the FIFO stays one. */
static void test_fifo_is_written_through(void)
{
	char fifo[4096], got[4096];
	snprintf(fifo, sizeof(fifo), "%s/pipe", ior_test_tmpdir());
	snprintf(got, sizeof(got), "%s/pipe.got", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
	report_db();
	pid_t pid = fork();
	if (pid == 0) { /* the reader: everything that comes through, into got */
		alarm(60);
		int in = open(fifo, O_RDONLY), o = open(got, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		char buf[65536];
		ssize_t n;
		while (in >= 0 && o >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
			if (write(o, buf, (size_t)n) != n)
				_exit(1);
		_exit(in >= 0 && o >= 0 ? 0 : 1);
	}
	CU_ASSERT_FATAL(pid > 0);
	int rc = report_to(fifo);
	CU_ASSERT_EQUAL(rc, 0);
	struct stat st;
	CU_ASSERT_EQUAL_FATAL(lstat(fifo, &st), 0);
	CU_ASSERT_TRUE(S_ISFIFO(st.st_mode));
	if (rc || !S_ISFIFO(st.st_mode)) /* the reader never got a writer (before the fix: renamed away) */
		kill(pid, SIGKILL);
	int status = -1;
	waitpid(pid, &status, 0);
	CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	size_t len = 0;
	char *text = ior_test_read_file(got, &len);
	CU_ASSERT_TRUE(text && len > 100);
	free(text);
}

/* A link to a regular file stays a link, and the file it points to holds the new report; a
 * dangling link is refused. Before, the link itself became a regular file. */
static void test_link_stays_a_link(void)
{
	char link[4096], real[4096], dangling[4096], where[4096];
	snprintf(link, sizeof(link), "%s/latest.txt", ior_test_tmpdir());
	snprintf(real, sizeof(real), "%s/real.txt", ior_test_tmpdir());
	snprintf(dangling, sizeof(dangling), "%s/dangling.txt", ior_test_tmpdir());
	ior_test_write_file("real.txt", "old\n");
	CU_ASSERT_EQUAL_FATAL(symlink("real.txt", link), 0);
	CU_ASSERT_EQUAL_FATAL(symlink("nowhere/x.txt", dangling), 0);
	CU_ASSERT_EQUAL(report_to(link), 0);
	struct stat st;
	CU_ASSERT_EQUAL_FATAL(lstat(link, &st), 0);
	CU_ASSERT_TRUE(S_ISLNK(st.st_mode));
	ssize_t n = readlink(link, where, sizeof(where) - 1);
	CU_ASSERT_EQUAL(n, 8);
	size_t len = 0;
	char *text = ior_test_read_file(real, &len);
	CU_ASSERT_TRUE(text && len > 100 && strcmp(text, "old\n") != 0);
	free(text);
	CU_ASSERT_NOT_EQUAL(report_to(dangling), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "a symbolic link to nothing"));
	CU_ASSERT_EQUAL_FATAL(lstat(dangling, &st), 0);
	CU_ASSERT_TRUE(S_ISLNK(st.st_mode));
}

/* A block device node (the test's own, numbered for no device: it is never opened) is refused:
 * a report written over a disk destroys it. Before, it was replaced by a regular file. */
static void test_block_device_is_refused(void)
{
	char node[4096];
	snprintf(node, sizeof(node), "%s/disk", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mknod(node, S_IFBLK | 0600, makedev(7, 1048575)), 0);
	CU_ASSERT_EQUAL(report_to(node), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "it is a block device"));
	struct stat st;
	CU_ASSERT_EQUAL_FATAL(lstat(node, &st), 0);
	CU_ASSERT_TRUE(S_ISBLK(st.st_mode));
}

int main(void)
{
	ior_test_require_root("a second uid");
	static const struct ior_test tests[] = {
		IOR_TEST(test_planted_links_are_not_followed),
		IOR_TEST(test_device_node_stays_a_node),
		IOR_TEST(test_fifo_is_written_through),
		IOR_TEST(test_link_stays_a_link),
		IOR_TEST(test_block_device_is_refused),
		IOR_TEST_END,
	};
	return ior_test_run("report_output", tests);
}
