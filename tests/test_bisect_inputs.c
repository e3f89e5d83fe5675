/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for what `ioregress bisect` takes and where it leaves the tree (issue 35): replay of what
 * is not a log file, --kernels lists, --artifact outside the tree, artifacts that hang, overflow or
 * never change, the artifact store a killed run leaves, and the work tree put back on every exit; and
 * (issue 36) what run --target takes. */
#include "tests/bisect_repo.h"
#include "tests/suite.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char out[65536], err[65536];

/* ioregress args under timeout(1) (124 when it ran past seconds), stdout and stderr into out, err. */
static int ioregress_within(unsigned seconds, char *const args[])
{
	const char *bin = getenv("IOR_BINARY");
	if (!bin || access(bin, X_OK))
		ior_test_skip("IOR_BINARY is not set to a built ioregress");
	char secs[16], opath[4200], epath[4200];
	snprintf(secs, sizeof(secs), "%u", seconds);
	char *argv[64] = { "timeout", "-s", "KILL", secs, (char *)bin };
	for (int i = 0; args[i] && i < 58; i++)
		argv[i + 5] = args[i];
	snprintf(opath, sizeof(opath), "%s/.out", ior_test_tmpdir());
	snprintf(epath, sizeof(epath), "%s/.err", ior_test_tmpdir());
	int rc = ior_test_spawn_to(argv, NULL, opath, epath);
	char *o = ior_test_read_file(opath, NULL), *e = ior_test_read_file(epath, NULL);
	snprintf(out, sizeof(out), "%s", o ? o : "");
	snprintf(err, sizeof(err), "%s", e ? e : "");
	free(o), free(e);
	return rc;
}

/* What the repository's HEAD file says ("ref: refs/heads/master" on the branch, a sha when detached). */
static void head_of(const char *repo, char *buf, size_t len)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/.git/HEAD", repo);
	char *t = ior_test_read_file(path, NULL);
	snprintf(buf, len, "%s", t ? t : "");
	free(t);
	buf[strcspn(buf, "\n")] = '\0';
}

static void assert_on_master(const char *repo, const char *what)
{
	char head[256];
	head_of(repo, head, sizeof(head));
	CU_ASSERT_STRING_EQUAL(head, "ref: refs/heads/master");
	if (strcmp(head, "ref: refs/heads/master"))
		fprintf(stderr, "\n  after %s the tree is left at '%s'", what, head);
}

/* A linear history of 8 commits (a drop from commit 4 on) and a started bisection over it. */
static void started(const char *name, const char *db, char (*ids)[GIT_OID_HEXSZ + 1])
{
	const char *repo = ior_test_path(name);
	unlink(db);
	ior_test_linear_repo(repo, 8, 4, -1, ids);
	char *start[] = { "--db", (char *)db, "bisect", "start", "--repo", (char *)repo, "--good", ids[0], "--bad", ids[7],
			  NULL };
	CU_ASSERT_EQUAL_FATAL(ioregress_within(60, start), 0);
}

/* --- replay ------------------------------------------------------------------------ */

/* Issue 35: `bisect replay` of a FIFO or /dev/zero never returned. Refused at once, as anything that
 * is not a regular file. */
static void test_replay_refuses_what_is_not_a_file(void)
{
	const char *db = ior_test_path("replay.db");
	char fifo[4200];
	snprintf(fifo, sizeof(fifo), "%s/log.fifo", ior_test_tmpdir());
	unlink(fifo);
	CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
	const char *files[] = { fifo, "/dev/zero", ior_test_tmpdir() };
	for (size_t i = 0; i < 3; i++) {
		char *replay[] = { "--db", (char *)db, "bisect", "replay", (char *)files[i], NULL };
		int rc = ioregress_within(20, replay);
		CU_ASSERT_EQUAL(rc, 2);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, files[i]));
		if (rc != 2)
			fprintf(stderr, "\n  replay of '%s': exit %d (124: still reading after 20 s)", files[i], rc);
		else
			CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a regular file"));
	}
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisects"), 0);
	/* a log file still replays */
	const char *log = ior_test_write_file("ok.log", "start --repo /nonexistent --bad b --good a\nmark a good the good end\n");
	char *replay[] = { "--db", (char *)db, "bisect", "replay", (char *)log, NULL };
	CU_ASSERT_EQUAL(ioregress_within(20, replay), 0);
}

/* A log refused halfway (a sample that is not a number on its fourth line) stores nothing: before,
 * the bisection, its mark and its first measurement stayed, and 'bisect run' would continue it. */
static void test_replay_refused_halfway_stores_nothing(void)
{
	const char *db = ior_test_path("halfway.db");
	unlink(db);
	const char *log = ior_test_write_file("halfway.log", "start --repo /nonexistent --bad b --good a\n"
							     "mark a good the good end\n"
							     "measure a round=1 10.5 10.25\n"
							     "measure b round=1 9.0 nan-ish\n");
	char *replay[] = { "--db", (char *)db, "bisect", "replay", (char *)log, NULL };
	CU_ASSERT_EQUAL(ioregress_within(20, replay), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "halfway.log:4: 'nan-ish' is not a sample"));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisects"), 0);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_samples"), 0);
	/* the same log without its bad line replays whole, measurements and all */
	log = ior_test_write_file("halfway.log", "start --repo /nonexistent --bad b --good a\n"
						 "mark a good the good end\n"
						 "measure a round=1 10.5 10.25\n");
	CU_ASSERT_EQUAL(ioregress_within(20, replay), 0);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisects"), 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_samples"), 2);
}

/* --- --kernels ---------------------------------------------------------------------- */

/* Built kernels for --kernels: DIR/kN/bzImage (a file) and DIR/kN/modules/RELEASE/modules.dep. */
static void fake_kernels(void)
{
	for (int i = 1; i <= 3; i++) {
		char name[64];
		snprintf(name, sizeof(name), "k%d/bzImage", i);
		char dir[4200];
		snprintf(dir, sizeof(dir), "%s/k%d/modules/6.1.0-test", ior_test_tmpdir(), i);
		char *mk[] = { "mkdir", "-p", dir, NULL };
		CU_ASSERT_EQUAL_FATAL(ior_test_spawn(mk, NULL), 0);
		ior_test_write_file(name, "not really a kernel\n");
		snprintf(name, sizeof(name), "k%d/modules/6.1.0-test/modules.dep", i);
		ior_test_write_file(name, "");
	}
}

/* Issue 35: `--kernels P P P` was accepted, paths were not checked (a missing image, a directory),
 * and relative paths were stored relative, so a run from another directory found nothing. */
static void test_kernels_checked_at_start(void)
{
	const char *db = ior_test_path("kernels.db");
	unlink(db);
	fake_kernels();
	char k[3][4200], mod[3][4200];
	for (int i = 0; i < 3; i++) {
		snprintf(k[i], sizeof(k[i]), "%s/k%d/bzImage", ior_test_tmpdir(), i + 1);
		snprintf(mod[i], sizeof(mod[i]), "%s/k%d/bzImage:%s/k%d/modules", ior_test_tmpdir(), i + 1, ior_test_tmpdir(),
			 i + 1);
	}
	char missing[4200], dir[4200];
	snprintf(missing, sizeof(missing), "%s/k9/bzImage", ior_test_tmpdir());
	snprintf(dir, sizeof(dir), "%s/k1", ior_test_tmpdir());
	struct {
		const char *list[3], *says;
	} bad[] = {
		{ { k[0], k[0], k[0] }, "given twice" },
		{ { k[0], k[1], k[0] }, "given twice" },
		{ { k[0], missing, k[2] }, "does not exist" },
		{ { k[0], dir, k[2] }, "does not exist" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *start[] = { "--db", (char *)db, "bisect", "start", "--kernels", (char *)bad[i].list[0],
				  (char *)bad[i].list[1], (char *)bad[i].list[2], NULL };
		int rc = ioregress_within(30, start);
		CU_ASSERT_EQUAL(rc, 2);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].says));
		if (rc != 2 || !strstr(err, bad[i].says))
			fprintf(stderr, "\n  --kernels case %zu: exit %d: %s", i, rc, err);
	}
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisects"), 0);
	/* relative paths, from the scratch directory: stored absolute */
	char cwd[4200];
	CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof(cwd)));
	CU_ASSERT_EQUAL_FATAL(chdir(ior_test_tmpdir()), 0);
	char *start[] = { "--db", (char *)db, "bisect", "start", "--kernels", "k1/bzImage:k1/modules",
			  "./k2/bzImage:k2/modules", "k3/../k3/bzImage", NULL };
	int rc = ioregress_within(30, start);
	CU_ASSERT_EQUAL(chdir(cwd), 0);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc)
		fprintf(stderr, "\n  relative --kernels: exit %d: %s", rc, err);
	char sql[13000];
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM bisects WHERE kernels = '%s %s %s'", mod[0], mod[1], k[2]);
	CU_ASSERT_EQUAL(ior_test_query(db, sql), 1);
}

/* Issue 36: `bisect run --target` measures packaged kernels on a machine over SSH. Its options are
 * checked before anything is measured (a target of another kind, --measure beside it, a target's
 * option without one), and a built image is skipped with why: the machine installs packages. Nothing
 * here reaches a machine (the images are refused before any connection). */
static void test_target_options_checked(void)
{
	const char *db = ior_test_path("target.db");
	unlink(db);
	fake_kernels();
	char k[3][4200], matrix[4200];
	for (int i = 0; i < 3; i++)
		snprintf(k[i], sizeof(k[i]), "%s/k%d/bzImage:%s/k%d/modules", ior_test_tmpdir(), i + 1, ior_test_tmpdir(), i + 1);
	snprintf(matrix, sizeof(matrix), "%s", ior_test_source_path("tests/data/vm-bisect.ini"));
	char *start[] = { "--db", (char *)db, "bisect", "start", "--kernels", k[0], k[1], k[2], NULL };
	CU_ASSERT_EQUAL_FATAL(ioregress_within(30, start), 0);
	struct {
		const char *args[4], *says;
	} bad[] = {
		{ { "--target", "local" }, "this machine across reboots is for vm run" },
		{ { "--target", "lab.example" }, "a host is written ssh://HOST" },
		{ { "--keep-kernels" }, "--keep-kernels is for a real machine" },
		{ { "--shutdown", "force" }, "--shutdown is for a real machine" },
		{ { "--boot-timeout", "5" }, "--boot-timeout is for a real machine" },
		{ { "--target", "ssh://127.0.0.1:1", "--measure", "true" }, "--measure, --build" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *run[16] = { "--db", (char *)db, "bisect", "run", "--matrix", matrix };
		size_t n = 6;
		for (size_t j = 0; j < 4 && bad[i].args[j]; j++)
			run[n++] = (char *)bad[i].args[j];
		int rc = ioregress_within(30, run);
		CU_ASSERT_EQUAL(rc, 2);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].says));
		if (rc != 2 || !strstr(err, bad[i].says))
			fprintf(stderr, "\n  --target case %zu: exit %d: %s", i, rc, err);
	}
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_log WHERE event = 'measure'"), 0);
	/* a built image on a machine: the end does not "build" there, with the reason, and nothing was
	 * booted, installed or planned */
	char *run[] = { "--db", (char *)db, "bisect", "run", "--matrix", matrix, "--target", "ssh://127.0.0.1:1",
			"--ssh-option", "ConnectTimeout=2", "--retries", "0", NULL };
	int rc = ioregress_within(60, run);
	CU_ASSERT_EQUAL(rc, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "does not build"));
	CU_ASSERT(ior_test_query(db, "SELECT count(*) FROM bisect_log WHERE detail LIKE '%a real machine boots Debian "
				     "packages, not a built image%'") >= 1);
	if (rc != 1)
		fprintf(stderr, "\n  --target with built images: exit %d: %s%s", rc, out, err);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM vm_boots"), 0);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM target_plans"), 0);
}

/* --- --artifact and the work tree ---------------------------------------------------------- */

/* Issue 35: an --artifact outside the work tree was taken (each commit's copy would be written back
 * there). Refused before anything is built, and the tree is where it was. */
static void test_artifact_outside_the_tree_refused(void)
{
	char ids[8][GIT_OID_HEXSZ + 1];
	const char *db = ior_test_path("outside.db");
	started("outside", db, ids);
	const char *victim = ior_test_write_file("victim", "not the bisection's\n");
	char *run[] = { "--db", (char *)db, "bisect", "run", "--build", "echo built > tool", "--measure", "echo 1",
			"--artifact", (char *)victim, NULL };
	int rc = ioregress_within(60, run);
	CU_ASSERT_NOT_EQUAL(rc, 0);
	CU_ASSERT_NOT_EQUAL(rc, 124);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "outside the work tree"));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_log WHERE event = 'build'"), 0);
	char *text = ior_test_read_file(victim, NULL);
	CU_ASSERT_STRING_EQUAL(text ? text : "", "not the bisection's\n");
	free(text);
	assert_on_master(ior_test_path("outside"), "a refused --artifact");
}

/* Issue 35: a bisection stopped by an end that cannot be measured left the tree detached at the
 * candidate, while README and man page said run puts it back. It is put back on every exit. */
static void test_tree_back_when_an_end_cannot_be_measured(void)
{
	char ids[8][GIT_OID_HEXSZ + 1];
	const char *db = ior_test_path("unmeasured.db");
	started("unmeasured", db, ids);
	char *run[] = { "--db", (char *)db, "bisect", "run", "--build", "true", "--measure", "false", NULL };
	int rc = ioregress_within(120, run);
	CU_ASSERT_EQUAL(rc, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "cannot be measured"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "work tree back at"));
	assert_on_master(ior_test_path("unmeasured"), "an end that cannot be measured");
}

/* Issue 35: SIGTERM during run left the tree detached at the candidate. */
static void test_tree_back_after_sigterm(void)
{
	char ids[8][GIT_OID_HEXSZ + 1];
	const char *db = ior_test_path("term.db"), *repo = ior_test_path("term");
	started("term", db, ids);
	const char *bin = getenv("IOR_BINARY");
	char opath[4200];
	snprintf(opath, sizeof(opath), "%s/term.out", ior_test_tmpdir());
	fflush(NULL);
	pid_t pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		int o = open(opath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(o, 1), dup2(o, 2);
		execl(bin, bin, "--db", db, "bisect", "run", "--build", "true", "--measure", "sleep 60", (char *)NULL);
		_exit(127);
	}
	/* until it has checked a commit out (HEAD detached) and started measuring it */
	char head[256] = "";
	for (int i = 0; i < 1500; i++) {
		head_of(repo, head, sizeof(head));
		if (strncmp(head, "ref:", 4) &&
		    ior_test_query(db, "SELECT count(*) FROM bisect_log WHERE event = 'build'") >= 2)
			break;
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	CU_ASSERT_NOT_EQUAL(strncmp(head, "ref:", 4), 0);
	struct timespec ts = { 0, 300 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	kill(pid, SIGTERM);
	int status = 0;
	waitpid(pid, &status, 0);
	CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGTERM);
	assert_on_master(repo, "SIGTERM");
	char *text = ior_test_read_file(opath, NULL);
	CU_ASSERT(text && strstr(text, "work tree back at"));
	free(text);
}

/* Issue 35 BROKEN 7: a build output 600 directories deep overflowed the stack of the artifact walk
 * (a crash, the tree left at the candidate, and the next checkout failed). It is hashed; the run goes
 * on to the measure (here one that fails: exit 1, the tree put back), and runs again. */
static void test_deep_artifact_hashed_and_tree_back(void)
{
	char ids[8][GIT_OID_HEXSZ + 1];
	const char *db = ior_test_path("deep.db"), *repo = ior_test_path("deep");
	started("deep", db, ids);
	const char *build = "rm -rf out && mkdir out && p=out && i=0 && while [ $i -lt 600 ]; do p=$p/d; i=$((i + 1)); "
			    "done && mkdir -p $p && cp level $p/tool";
	for (int k = 0; k < 2; k++) {
		char *run[] = { "--db", (char *)db, "bisect", "run", "--build", (char *)build, "--measure", "false",
				"--artifact", "out", NULL };
		int rc = ioregress_within(180, run);
		CU_ASSERT_EQUAL(rc, 1);
		CU_ASSERT_PTR_NOT_NULL(strstr(out, "cannot be measured"));
		if (rc != 1 || !strstr(out, "cannot be measured"))
			fprintf(stderr, "\n  run %d with a 600-deep artifact: exit %d\n%s\n%s", k + 1, rc, out, err);
		assert_on_master(repo, "a 600-deep artifact");
	}
	/* both ends built and hashed, with different hashes (their levels differ) */
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(DISTINCT image) FROM bisect_commits WHERE image IS NOT NULL AND "
				       "image <> ''"), 2);
}

/* Issue 35 BROKEN 7: a FIFO as the artifact hung the hash in open(2), outside --timeout, and the
 * signal that ended it was recorded as "the good end does not build". Refused at once as not a
 * regular file: the end does not build, with that reason, and the tree is put back. */
static void test_fifo_artifact_is_refused_not_waited_on(void)
{
	char ids[8][GIT_OID_HEXSZ + 1];
	const char *db = ior_test_path("fifo.db"), *repo = ior_test_path("fifo");
	started("fifo", db, ids);
	char *run[] = { "--db", (char *)db, "bisect", "run", "--build", "rm -f out && mkfifo out", "--measure", "echo 1",
			"--artifact", "out", "--timeout", "5", NULL };
	int rc = ioregress_within(60, run);
	CU_ASSERT_EQUAL(rc, 1);
	if (rc != 1)
		fprintf(stderr, "\n  a FIFO artifact: exit %d (124: hung)", rc);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "does not build"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "not a regular file or a directory"));
	assert_on_master(repo, "a FIFO artifact");
}

/* Issue 35: an artifact the build never changes (here a file made before the bisection) was taken,
 * and every step then measured the last build. Both ends' artifacts identical is said loudly, logged,
 * and no commit takes a verdict from it. */
static void test_identical_ends_artifact_is_said(void)
{
	char ids[8][GIT_OID_HEXSZ + 1];
	const char *db = ior_test_path("same.db"), *repo = ior_test_path("same");
	started("same", db, ids);
	char stale[4200];
	snprintf(stale, sizeof(stale), "%s/stale.bin", repo);
	FILE *f = fopen(stale, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("made once, never rebuilt\n", f);
	fclose(f);
	char *run[] = { "--db", (char *)db, "bisect", "run", "--build", "cp level tool", "--measure", "false", "--artifact",
			"stale.bin", NULL };
	int rc = ioregress_within(120, run);
	CU_ASSERT_EQUAL(rc, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "warning: the good and the bad end built the same artifact"));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_log WHERE event = 'warning'"), 1);
	assert_on_master(repo, "identical ends' artifacts");
}

/* --- the artifact store --------------------------------------------------------------- */

/* Issue 35: the store a SIGKILLed run left under /tmp stayed (neither recover nor the next run
 * removed it). One of ours whose lock is free is removed by the next run and by recover; a locked
 * one is left. */
static void test_stale_store_removed_by_next_run_and_recover(void)
{
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s/tmp-stores", ior_test_tmpdir());
	char *rm[] = { "rm", "-rf", tmp, NULL };
	ior_test_spawn(rm, NULL);
	CU_ASSERT_EQUAL_FATAL(mkdir(tmp, 0700), 0);
	char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
	setenv("TMPDIR", tmp, 1);
	/* a killed run's store: its lock file there, held by nobody; and a live one, held by us */
	char path[4400];
	const char *names[] = { "ioregress-artifacts.dead01", "ioregress-artifacts.live01" };
	int held = -1;
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", tmp, names[i]);
		CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
		snprintf(path, sizeof(path), "%s/%s/owner.lock", tmp, names[i]);
		int fd = open(path, O_RDWR | O_CREAT, 0600);
		CU_ASSERT_FATAL(fd >= 0);
		if (i == 1) {
			CU_ASSERT_EQUAL(flock(fd, LOCK_EX), 0);
			held = fd;
		} else {
			close(fd);
		}
		snprintf(path, sizeof(path), "%s/%s/0123abcd", tmp, names[i]);
		close(open(path, O_WRONLY | O_CREAT, 0600));
	}
	char ids[8][GIT_OID_HEXSZ + 1];
	const char *db = ior_test_path("stores.db");
	started("stores", db, ids);
	char *run[] = { "--db", (char *)db, "bisect", "run", "--build", "true", "--measure", "false", NULL };
	ioregress_within(120, run);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "removed 1 artifact store(s) left by a run that was killed"));
	snprintf(path, sizeof(path), "%s/%s", tmp, names[0]);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/%s", tmp, names[1]);
	CU_ASSERT_EQUAL(access(path, F_OK), 0);
	/* recover (root) removes it once its owner is gone */
	close(held);
	if (geteuid() == 0) {
		char *recover[] = { "--db", (char *)ior_test_path("recover.db"), "recover", NULL };
		CU_ASSERT_EQUAL(ioregress_within(60, recover), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(out, "removed 1 bisect artifact store(s)"));
		CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	} else {
		ior_test_not_run("recover needs root");
	}
	if (old)
		setenv("TMPDIR", old, 1);
	else
		unsetenv("TMPDIR");
	free(old);
	ior_test_spawn(rm, NULL);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_replay_refuses_what_is_not_a_file),
		IOR_TEST(test_replay_refused_halfway_stores_nothing),
		IOR_TEST(test_kernels_checked_at_start),
		IOR_TEST(test_target_options_checked),
		IOR_TEST(test_artifact_outside_the_tree_refused),
		IOR_TEST(test_tree_back_when_an_end_cannot_be_measured),
		IOR_TEST(test_tree_back_after_sigterm),
		IOR_TEST(test_deep_artifact_hashed_and_tree_back),
		IOR_TEST(test_fifo_artifact_is_refused_not_waited_on),
		IOR_TEST(test_identical_ends_artifact_is_said),
		IOR_TEST(test_stale_store_removed_by_next_run_and_recover),
		IOR_TEST_END,
	};
	return ior_test_run("bisect_inputs", tests);
}
