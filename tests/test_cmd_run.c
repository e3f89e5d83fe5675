/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for `ioregress run` end to end on real scratch loop devices: what it prints about cells
 * that did not run, its exit statuses, scheduler typos, sparse devices. */
#include "common/error.h"
#include "device/loopdev.h"
#include "kernel/info.h"
#include "tests/git_fixture.h"
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

static char output[65536], errors[65536];

static const char *db_path(const char *name)
{
	static char path[4096];
	snprintf(path, sizeof(path), "%s/%s", ior_test_tmpdir(), name);
	return path;
}

/* Runs `ioregress --db DB run [OPTION VALUE] MATRIX` on text written to a file; returns the exit status. */
static int run_matrix_with(const char *db, const char *name, const char *text, const char *option, const char *value)
{
	const char *file = ior_test_write_file(name, text);
	char dbarg[4096], filearg[4096], valuearg[4096];
	snprintf(dbarg, sizeof(dbarg), "%s", db);
	snprintf(filearg, sizeof(filearg), "%s", file);
	snprintf(valuearg, sizeof(valuearg), "%s", value ? value : "");
	char *args[] = { "--db", dbarg, "--quiet", "run", filearg, (char *)option, valuearg, NULL };
	if (!option)
		args[5] = NULL;
	int status = ior_test_ioregress(args, output, sizeof(output), errors, sizeof(errors));
	/* what it prints on either stream is checked together: where a line goes is not the point */
	size_t used = strlen(output);
	snprintf(output + used, sizeof(output) - used, "%s", errors);
	return status;
}

static int run_matrix(const char *db, const char *name, const char *text)
{
	return run_matrix_with(db, name, text, NULL, NULL);
}

static bool says(const char *text)
{
	if (strstr(output, text))
		return true;
	fprintf(stderr, "missing from output: %s\n--- output ---\n%s", text, output);
	return false;
}

static char matrix[4096];

/* A scratch device under the test's directory and the engines given. */
static const char *with_engines(const char *settings, const char *engines)
{
	snprintf(matrix, sizeof(matrix), "[matrix]\nrepetitions = 2\ndrop_caches = no\n%s\n"
		 "[device scratch]\nloop = 32M\ndirect_io = yes\nbacking_dir = %s\n%s",
		 settings, ior_test_tmpdir(), engines);
	return matrix;
}

static const char good[] = "[engine good]\ntype = aio\nrw = randread\ndirect = yes\nsize = 4M\n";
static const char bad[] = "[engine odd]\ntype = aio\nrw = randread\nbs = 3000\ndirect = yes\nsize = 4M\n";

/* The field report's silent failure: bs = 3000 fails every cell; the reason is printed for
 * each, and a run that measured nothing exits 3, not 0. */
static void test_every_cell_failing_prints_reasons_and_exits_3(void)
{
	const char *db = db_path("allfail.db");
	int status = run_matrix(db, "allfail.ini", with_engines("schedulers = none mq-deadline", bad));
	CU_ASSERT_EQUAL(status, 3);
	CU_ASSERT_TRUE(says("failed: scratch none odd: bs: 3000 is not a multiple of the logical block size"));
	CU_ASSERT_TRUE(says("failed: scratch mq-deadline odd: bs: 3000"));
	CU_ASSERT_TRUE(says("measured nothing"));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM samples"), 0);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM cells WHERE status = 'failed' AND reason LIKE 'bs: 3000%'"), 2);
}

/* One good engine and one failing: the good one's samples are kept, the failure printed, exit 1. */
static void test_one_failed_cell_exits_1_and_keeps_the_rest(void)
{
	char engines[512];
	snprintf(engines, sizeof(engines), "%s%s", good, bad);
	const char *db = db_path("onefail.db");
	CU_ASSERT_EQUAL(run_matrix(db, "onefail.ini", with_engines("schedulers = none", engines)), 1);
	CU_ASSERT_TRUE(says("failed: scratch none odd: bs: 3000"));
	CU_ASSERT_TRUE(says("1 failed"));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM sample_view WHERE engine = 'good'"), 2);
}

/* A typo in a scheduler name is a matrix error at its line with a suggestion: nothing runs. A
 * known scheduler this kernel lacks stays a visible unavailable cell and the run succeeds. */
static void test_scheduler_typo_is_an_error_and_a_known_absent_one_is_unavailable(void)
{
	const char *db = db_path("typo.db");
	CU_ASSERT_EQUAL(run_matrix(db, "typo.ini", with_engines("schedulers = none mq-dedline", good)), 1);
	CU_ASSERT_TRUE(says("typo.ini:4: schedulers: 'mq-dedline' is not offered by this kernel and no kernel ever had it"));
	CU_ASSERT_TRUE(says("did you mean 'mq-deadline'?"));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM samples"), 0);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM cells"), 0);

	CU_ASSERT_EQUAL(run_matrix(db, "absent.ini", with_engines("schedulers = none anticipatory", good)), 0);
	CU_ASSERT_TRUE(says("unavailable: scratch anticipatory good: scheduler 'anticipatory' is not offered on this kernel"));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM cells WHERE scheduler = 'anticipatory' AND status = 'unavailable'"), 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM samples"), 2);
}

/* The fill is reported with its time, stored with every sample and in fills; a device given by
 * path over a sparse file gets a warning naming the file. */
static void test_fill_is_reported_and_a_sparse_path_device_warned(void)
{
	const char *db = db_path("fill.db");
	CU_ASSERT_EQUAL(run_matrix(db, "fill.ini", with_engines("schedulers = none", good)), 0);
	CU_ASSERT_TRUE(says("device 'scratch': filled 32.0 MiB with random data in"));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM samples WHERE fill = 'random'"), 2);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM fills WHERE fill = 'random' AND bytes = 33554432 AND seconds > 0"), 1);

	struct ior_loopdev sparse;
	CU_ASSERT_EQUAL_FATAL(ior_loopdev_create(&sparse, ior_test_tmpdir(), 16 << 20, false, IOR_FILL_SPARSE), IOR_OK);
	snprintf(matrix, sizeof(matrix), "[matrix]\nrepetitions = 1\nschedulers = none\ndrop_caches = no\n"
		 "[device theirs]\npath = %s\n%s", sparse.path, good);
	CU_ASSERT_EQUAL(run_matrix(db, "sparse.ini", matrix), 0);
	char want[512];
	snprintf(want, sizeof(want), "warning: device 'theirs': '%s' is a loop device over '%s', which is sparse",
		 sparse.path, sparse.backing);
	CU_ASSERT_TRUE(says(want));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM sample_view WHERE device = 'theirs' AND fill IS NULL"), 1);
	ior_loopdev_destroy(&sparse);
}

/* A fio read job reads: it runs on a device that is not destructive = yes instead of being
 * skipped as a writer; its write job is still refused. */
static void test_fio_read_job_is_not_a_writer(void)
{
	if (access("/usr/bin/fio", X_OK) != 0)
		return; /* ci/setup.sh installs fio; without it the fio engine is a skip */
	const char *db = db_path("fio.db");
	const char *engines = "[engine r]\ntype = fio\nrw = randread\nsize = 4M\ndirect = yes\n"
			      "[engine w]\ntype = fio\nrw = randwrite\nsize = 4M\ndirect = yes\n";
	snprintf(matrix, sizeof(matrix), "[matrix]\nrepetitions = 1\nschedulers = none\ndrop_caches = no\n"
		 "[device scratch]\nloop = 32M\ndirect_io = yes\ndestructive = no\nbacking_dir = %s\n%s",
		 ior_test_tmpdir(), engines);
	CU_ASSERT_EQUAL(run_matrix(db, "fio.ini", matrix), 0);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM sample_view WHERE engine = 'r'"), 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM cells WHERE engine = 'w' AND status = 'skipped'"), 1);
	CU_ASSERT_TRUE(says("skipped: scratch none w: engine 'w' writes"));
}

/* run --kernel-tree on a tree its user owns: the exact commit is stored with the kernel and
 * shown by the report. Requests that cannot be right stop the run with nothing stored. */
static void test_kernel_tree_commit_is_stored_with_the_kernel(void)
{
	struct ior_test_repo repo;
	ior_test_repo_build(&repo, "linux");
	char *remote_argv[] = { "git", "-C", repo.path, "remote", "add", "origin",
				"https://git.kernel.org/pub/scm/linux/kernel/git/axboe/linux-block.git", NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn(remote_argv, NULL), 0);
	char *chown_argv[] = { "chown", "-R", "65534:65534", repo.path, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn(chown_argv, NULL), 0);
	const char *db = db_path("commit.db");
	const char *m = with_engines("schedulers = none", good);
	int status = run_matrix_with(db, "commit.ini", m, "--kernel-tree", repo.path);
	CU_ASSERT_EQUAL_FATAL(status, 0);
	char want[1024];
	snprintf(want, sizeof(want), "kernel built from commit %s (%s): %s; %s <%s>, %s\n", repo.sha[2], repo.describe[2],
		 ior_test_repo_subject[2], ior_test_repo_author[2], ior_test_repo_email[2], ior_test_repo_date[2]);
	CU_ASSERT_TRUE(says(want));
	char sql[2048];
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM runs r JOIN kernels k ON k.id = r.kernel_id "
		 "JOIN commits c ON c.id = k.commit_id WHERE c.sha = '%s' AND c.describe = '%s' AND c.subject = '%s' "
		 "AND c.author_name = '%s' AND c.author_email = '%s' AND c.author_date = '%s'", repo.sha[2],
		 repo.describe[2], ior_test_repo_subject[2], ior_test_repo_author[2], ior_test_repo_email[2],
		 ior_test_repo_date[2]);
	CU_ASSERT_EQUAL(ior_test_query(db, sql), 1);
	/* where it came from (the tree's branch and remote) and, from the kernel's config, its compiler */
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM commits WHERE branch <> '' AND repository_url = "
				       "'https://git.kernel.org/pub/scm/linux/kernel/git/axboe/linux-block.git'"), 1);
	struct ior_kernel_info ki;
	CU_ASSERT_EQUAL_FATAL(ior_kernel_info_read(&ki), 0);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM runs r JOIN kernels k ON k.id = r.kernel_id WHERE %s",
		 ki.compiler[0] ? "k.compiler = '" : "k.compiler IS NULL");
	if (ki.compiler[0]) /* CONFIG_CC_VERSION_TEXT holds no quote on any compiler in use */
		snprintf(sql + strlen(sql), sizeof(sql) - strlen(sql), "%s'", ki.compiler);
	CU_ASSERT_EQUAL(ior_test_query(db, sql), 1);
	printf("\n  compiler: '%s'", ki.compiler);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM samples"), 2);
	char dbarg[4096];
	snprintf(dbarg, sizeof(dbarg), "%s", db);
	char *report_args[] = { "--db", dbarg, "report", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(report_args, output, sizeof(output), errors, sizeof(errors)), 0);
	snprintf(want, sizeof(want), ": commit %s (%s): %s\n", repo.sha[2], repo.describe[2], ior_test_repo_subject[2]);
	CU_ASSERT_PTR_NOT_NULL(strstr(output, want));

	/* each refusal: exit 1 (2 for both options), its words, and not one row more */
	long long runs = ior_test_query(db, "SELECT count(*) FROM runs");
	struct utsname u;
	CU_ASSERT_EQUAL_FATAL(uname(&u), 0);
	if (!strstr(u.release, "-g")) {
		CU_ASSERT_EQUAL(run_matrix_with(db, "commit.ini", m, "--repo", repo.path), 1);
		CU_ASSERT_TRUE(says("has no -gSHA suffix"));
	}
	char plain[4200];
	snprintf(plain, sizeof(plain), "%s/plain", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkdir(plain, 0755), 0);
	CU_ASSERT_EQUAL(run_matrix_with(db, "commit.ini", m, "--kernel-tree", plain), 1);
	snprintf(want, sizeof(want), "not a git repository: '%s'", plain);
	CU_ASSERT_TRUE(says(want));
	/* another tree for the same kernel: it is recorded as built from the first */
	struct ior_test_repo other;
	ior_test_repo_build(&other, "other");
	char sha[41];
	ior_test_repo_commit(&other, "another build\n", sha);
	CU_ASSERT_EQUAL(run_matrix_with(db, "commit.ini", m, "--kernel-tree", other.path), 1);
	CU_ASSERT_TRUE(says("is recorded as built from commit"));
	CU_ASSERT_TRUE(says(sha));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM runs"), runs);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM samples"), 2);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM commits"), 1);
}

/* A space where =VALUE was meant: `run --baseline m.ini` and `run --allow-destructive /abs/m.ini`
 * took the matrix as the option's value and ran the built-in default matrix without a word (under
 * timeout(1) here, so the old code is ended rather than run for minutes). Now each is a usage
 * error naming the word, and nothing is run. */
static void test_matrix_taken_as_an_options_value_is_an_error(void)
{
	const char *file = ior_test_write_file("taken.ini", "[matrix]\nrepetitions = 1\n");
	const char *bin = getenv("IOR_BINARY");
	char *db = (char *)db_path("taken.db"), errfile[4096];
	snprintf(errfile, sizeof(errfile), "%s/taken.err", ior_test_tmpdir());
	char *a[] = { "timeout", "30", (char *)bin, "--db", db, "--quiet", "run", "--baseline", (char *)file, NULL };
	CU_ASSERT_EQUAL(ior_test_spawn_to(a, NULL, NULL, errfile), 2);
	char *text = ior_test_read_file(errfile, NULL);
	CU_ASSERT_TRUE(text && strstr(text, "'--baseline' took '") && strstr(text, "no matrix is left"));
	free(text);
	char *b[] = { "timeout", "30", (char *)bin, "--db", db, "--quiet", "run", "--allow-destructive", (char *)file, NULL };
	CU_ASSERT_EQUAL(ior_test_spawn_to(b, NULL, NULL, errfile), 2);
	text = ior_test_read_file(errfile, NULL);
	CU_ASSERT_TRUE(text && strstr(text, "'--allow-destructive' takes a device, and '") && strstr(text, "is a regular file"));
	free(text);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM runs"), 0);
}

int main(void)
{
	ior_test_require_root("creates loop devices and switches schedulers through the ioregress binary");
	static const struct ior_test tests[] = {
		IOR_TEST(test_every_cell_failing_prints_reasons_and_exits_3),
		IOR_TEST(test_one_failed_cell_exits_1_and_keeps_the_rest),
		IOR_TEST(test_scheduler_typo_is_an_error_and_a_known_absent_one_is_unavailable),
		IOR_TEST(test_fill_is_reported_and_a_sparse_path_device_warned),
		IOR_TEST(test_fio_read_job_is_not_a_writer),
		IOR_TEST(test_kernel_tree_commit_is_stored_with_the_kernel),
		IOR_TEST(test_matrix_taken_as_an_options_value_is_an_error),
		IOR_TEST_END,
	};
	return ior_test_run("cmd_run", tests);
}
