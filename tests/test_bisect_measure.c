/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for bisect/measure_cmd.c's commands (issue 23, case 8: a hung measure ends with the timeout
 * or a stop request, its whole process group with it), the samples parser (nan, inf, hex,
 * denormals, long lines, bounded output) and the artifact (issue 35: its walk, where it may lie,
 * its store). */
#include "bisect/artifact.h"
#include "bisect/measure.h"
#include "common/error.h"
#include "common/stop.h"
#include "tests/suite.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The measure command leaves a child of sh (a sleep) and writes its pid: both must be ended. */
static char pidfile[4096], command[8192];

static const char *hung_measure(void)
{
	snprintf(pidfile, sizeof(pidfile), "%s/sleep.pid", ior_test_tmpdir());
	unlink(pidfile);
	snprintf(command, sizeof(command), "sleep 20 & echo $! > %s; wait", pidfile);
	return command;
}

static bool child_gone(void)
{
	char *text = NULL;
	for (int i = 0; i < 250 && !(text = ior_test_read_file(pidfile, NULL)); i++)
		usleep(20000);
	if (!text)
		return false;
	pid_t pid = (pid_t)atoi(text);
	free(text);
	for (int i = 0; i < 250; i++) { /* dead: gone, or a zombie until whoever adopted it reaps it */
		char stat[256], *st = NULL;
		snprintf(stat, sizeof(stat), "/proc/%d/stat", (int)pid);
		if (!(st = ior_test_read_file(stat, NULL)))
			return true;
		char *close_paren = strrchr(st, ')');
		bool zombie = close_paren && close_paren[1] == ' ' && (close_paren[2] == 'Z' || close_paren[2] == 'X');
		free(st);
		if (zombie)
			return true;
		usleep(20000);
	}
	return false;
}

static void *send_term(void *arg)
{
	(void)arg;
	usleep(500000);
	kill(getpid(), SIGTERM);
	return NULL;
}

static void test_sigterm_ends_a_hung_measure_and_its_group(void)
{
	struct ior_bisect_commands c = { .measure = hung_measure(), .repo = ior_test_tmpdir() };
	struct ior_bisect_measure *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_bisect_measure_commands(&m, &c), IOR_OK);
	ior_stop_reset();
	ior_stop_install_handlers();
	pthread_t t;
	pthread_create(&t, NULL, send_term, NULL);
	double *x = NULL, t0 = now_s();
	size_t n = 0;
	enum ior_step_outcome o;
	int rc = m->measure(m, "abc", &x, &n, &o);
	double took = now_s() - t0;
	pthread_join(t, NULL);
	CU_ASSERT_EQUAL(rc, IOR_EINTERRUPTED);
	if (rc != IOR_EINTERRUPTED)
		fprintf(stderr, "\n  rc %d outcome %d: %s", rc, (int)o, ior_error_last());
	CU_ASSERT_TRUE(took < 5);
	fprintf(stderr, "\n  SIGTERM at 0.5 s: measure returned after %.2f s\n", took);
	CU_ASSERT_TRUE(child_gone());
	free(x);
	ior_bisect_measure_free(m);
	ior_stop_reset();
}

/* Issue 23 case 8: after a SIGKILL of the process measuring (ioregress itself), what sh started
 * was left running, adopted by init. The group's guard ends it. */
static void test_sigkill_of_ioregress_ends_the_group(void)
{
	struct ior_bisect_commands c = { .measure = hung_measure(), .repo = ior_test_tmpdir() };
	fflush(NULL);
	pid_t p = fork();
	CU_ASSERT_TRUE_FATAL(p >= 0);
	if (p == 0) {
		struct ior_bisect_measure *m = NULL;
		if (ior_bisect_measure_commands(&m, &c) != IOR_OK)
			_exit(1);
		double *x = NULL;
		size_t n = 0;
		enum ior_step_outcome o;
		m->measure(m, "abc", &x, &n, &o);
		_exit(0);
	}
	char *text = NULL;
	for (int i = 0; i < 250 && !(text = ior_test_read_file(pidfile, NULL)); i++)
		usleep(20000);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	free(text);
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
	CU_ASSERT_TRUE(child_gone());
}

static void test_timeout_skips_the_step_and_ends_the_group(void)
{
	struct ior_bisect_commands c = { .measure = hung_measure(), .repo = ior_test_tmpdir(), .timeout_s = 1 };
	struct ior_bisect_measure *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_bisect_measure_commands(&m, &c), IOR_OK);
	double *x = NULL, t0 = now_s();
	size_t n = 0;
	enum ior_step_outcome o = IOR_STEP_OK;
	CU_ASSERT_EQUAL(m->measure(m, "abc", &x, &n, &o), IOR_OK);
	double took = now_s() - t0;
	CU_ASSERT_EQUAL(o, IOR_STEP_MEASURE_FAILED);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_TRUE(took >= 1 && took < 5);
	CU_ASSERT_TRUE(child_gone());
	free(x);
	ior_bisect_measure_free(m);
}

/* What must keep working: a quick measure's samples. */
static void test_measure_reads_samples(void)
{
	struct ior_bisect_commands c = { .measure = "printf '1.5\\n2.5\\n'", .repo = ior_test_tmpdir(), .timeout_s = 5 };
	struct ior_bisect_measure *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_bisect_measure_commands(&m, &c), IOR_OK);
	double *x = NULL;
	size_t n = 0;
	enum ior_step_outcome o;
	CU_ASSERT_EQUAL(m->measure(m, "abc", &x, &n, &o), IOR_OK);
	CU_ASSERT_EQUAL(o, IOR_STEP_OK);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_DOUBLE_EQUAL(x[0], 1.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(x[1], 2.5, 1e-12);
	free(x);
	ior_bisect_measure_free(m);
}

/* The artifact is hashed where the build left it, named relative to the tree or by an absolute path
 * (an absolute one was joined to the tree, and every build then "failed": bench/real-bisect.sh's
 * first run refused its good end). */
static void test_artifact_relative_or_absolute(void)
{
	char abs[4096];
	snprintf(abs, sizeof(abs), "%s/artifact.bin", ior_test_tmpdir());
	const char *names[2] = { "artifact.bin", abs };
	char hash[2][80];
	for (int k = 0; k < 2; k++) {
		struct ior_bisect_commands c = { .build = "echo built > artifact.bin", .measure = "echo 1", .image = names[k],
						 .repo = ior_test_tmpdir(), .timeout_s = 5 };
		struct ior_bisect_measure *m = NULL;
		CU_ASSERT_EQUAL_FATAL(ior_bisect_measure_commands(&m, &c), IOR_OK);
		enum ior_step_outcome o;
		CU_ASSERT_EQUAL(m->build(m, "abc", &o, hash[k], sizeof(hash[k])), IOR_OK);
		CU_ASSERT_EQUAL(o, IOR_STEP_OK);
		CU_ASSERT_NOT_EQUAL(hash[k][0], '\0');
		ior_bisect_measure_free(m);
	}
	CU_ASSERT_STRING_EQUAL(hash[0], hash[1]);
}

/* One measure command's outcome and samples. */
static enum ior_step_outcome measure_once(const char *cmd, double **x, size_t *n, double *took)
{
	struct ior_bisect_commands c = { .measure = cmd, .repo = ior_test_tmpdir(), .timeout_s = 60 };
	struct ior_bisect_measure *m = NULL;
	enum ior_step_outcome o = IOR_STEP_OK;
	CU_ASSERT_EQUAL_FATAL(ior_bisect_measure_commands(&m, &c), IOR_OK);
	double t0 = now_s();
	CU_ASSERT_EQUAL(m->measure(m, "abc", x, n, &o), IOR_OK);
	if (took)
		*took = now_s() - t0;
	ior_bisect_measure_free(m);
	return o;
}

/* Issue 23: nan (stored as NULL, then a NOT NULL failure), inf, hex and denormals were samples. */
static void test_measure_refuses_what_is_no_measurement(void)
{
	static const char *const bad[] = { "nan", "NAN", "-nan", "inf", "-Infinity", "0x1p3", "0x10", "1e-320",
					   "4.9e-324", "1e999", "1e", "12abc", "1,5", "." };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char cmd[128];
		snprintf(cmd, sizeof(cmd), "printf '1.5\\n%s\\n'", bad[i]);
		double *x = NULL;
		size_t n = 0;
		enum ior_step_outcome o = measure_once(cmd, &x, &n, NULL);
		CU_ASSERT_EQUAL(o, IOR_STEP_MEASURE_FAILED);
		CU_ASSERT_EQUAL(n, 0);
		if (o != IOR_STEP_MEASURE_FAILED)
			fprintf(stderr, "\n  '%s' was taken as a sample (%zu samples)", bad[i], n);
		free(x);
	}
	/* the parser itself names the line */
	double *x = NULL;
	size_t n = 0;
	CU_ASSERT_EQUAL(ior_bisect_parse_samples("1\n2\nnan\n", 8, &x, &n), IOR_EINVALID);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "line 3: 'nan' is not a decimal number"));
	CU_ASSERT_EQUAL(ior_bisect_parse_samples("1\0" "2\n", 4, &x, &n), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "NUL byte"));
	const char *good = " -5.25e2 \r\n\n+0.5\n0\n";
	CU_ASSERT_EQUAL(ior_bisect_parse_samples(good, strlen(good), &x, &n), IOR_OK);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_DOUBLE_EQUAL(x[0], -525, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(x[1], 0.5, 1e-12);
	free(x);
}

/* Issue 23: lines were cut at 127 characters (0.000...0001 read as 0). */
static void test_measure_reads_long_lines_whole(void)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "printf '%%150s0.%%0150d1\\n' '' 0");
	double *x = NULL;
	size_t n = 0;
	enum ior_step_outcome o = measure_once(cmd, &x, &n, NULL);
	CU_ASSERT_EQUAL(o, IOR_STEP_OK);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_DOUBLE_EQUAL(x[0] * 1e151, 1.0, 1e-9);
	free(x);
}

/* Issue 23: output was buffered without bound (1 GB from `yes`); past 1 MiB the step fails. */
static void test_measure_output_is_bounded(void)
{
	double *x = NULL, took = 0;
	size_t n = 0;
	enum ior_step_outcome o = measure_once("yes 1 | head -c 3000000", &x, &n, &took);
	CU_ASSERT_EQUAL(o, IOR_STEP_MEASURE_FAILED);
	CU_ASSERT_EQUAL(n, 0);
	free(x);
	x = NULL, n = 0;
	/* and an endless one is ended at the bound, long before its timeout */
	o = measure_once("yes 1", &x, &n, &took);
	CU_ASSERT_EQUAL(o, IOR_STEP_MEASURE_FAILED);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_TRUE(took < 20);
	free(x);
}


/* --- the artifact (issue 35) ------------------------------------------------------------ */

/* `git hash-object` of text (--stdin), or of the file at path when text is NULL. */
static void git_hash(const char *text, const char *path, char hex[41])
{
	char in[4096], outp[4096];
	snprintf(in, sizeof(in), "%s/hash-in", ior_test_tmpdir());
	snprintf(outp, sizeof(outp), "%s/hash-out", ior_test_tmpdir());
	if (text)
		ior_test_write_file("hash-in", text);
	char *argv[] = { "git", "hash-object", text ? "--stdin" : (char *)path, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn_to(argv, text ? in : NULL, outp, NULL), 0);
	char *got = ior_test_read_file(outp, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	snprintf(hex, 41, "%.40s", got);
	free(got);
}

/* ior_bisect_artifact_hash in a child with a deadline, so a crash (the stack overflow) or a hang (a
 * FIFO opened) is a failed assertion and not the end of the suite. *rc gets its return, hash its
 * text; false when the child crashed or ran past 30 s (said on stderr). */
static bool hash_in_child(const char *path, int *rc, char hash[64])
{
	int fds[2];
	CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
	fflush(NULL);
	pid_t p = fork();
	CU_ASSERT_FATAL(p >= 0);
	if (p == 0) {
		close(fds[0]);
		alarm(30);
		char h[64] = "";
		int r = ior_bisect_artifact_hash(path, h, sizeof(h));
		char msg[256];
		int n = snprintf(msg, sizeof(msg), "%d %s", r, h[0] ? h : "-");
		if (write(fds[1], msg, (size_t)n) != n)
			_exit(2);
		_exit(0);
	}
	close(fds[1]);
	char msg[256] = "";
	ssize_t n = read(fds[0], msg, sizeof(msg) - 1);
	close(fds[0]);
	int status = 0;
	waitpid(p, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) || n <= 0) {
		fprintf(stderr, "\n  hashing '%s' %s %d", path, WIFSIGNALED(status) ? "was killed by signal" : "ended with",
			WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		return false;
	}
	msg[n] = '\0';
	char h[64] = "";
	if (sscanf(msg, "%d %63s", rc, h) != 2)
		return false;
	snprintf(hash, 64, "%s", strcmp(h, "-") ? h : "");
	return true;
}

/* Issue 35 BROKEN 7: a build output 600 directories deep overflowed the stack (about 24 KB of
 * buffers a level in a recursive walk). It hashes now, to the git hash of its listing. */
static void test_artifact_600_directories_deep(void)
{
	char root[4096], path[8192];
	snprintf(root, sizeof(root), "%s/deep", ior_test_tmpdir());
	char *rm[] = { "rm", "-rf", root, NULL };
	ior_test_spawn(rm, NULL);
	CU_ASSERT_EQUAL_FATAL(mkdir(root, 0755), 0);
	snprintf(path, sizeof(path), "%s", root);
	char name[8192] = "";
	for (int i = 0; i < 600; i++) {
		strcat(path, "/d");
		strcat(name, i ? "/d" : "d");
		CU_ASSERT_EQUAL_FATAL(mkdir(path, 0755), 0);
	}
	strcat(path, "/tool");
	strcat(name, "/tool");
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("built\n", f);
	fclose(f);
	char file_hash[41], want[41], listing[8400];
	git_hash(NULL, path, file_hash);
	snprintf(listing, sizeof(listing), "file %s %s\n", name, file_hash);
	git_hash(listing, NULL, want);
	int rc = -1;
	char got[64] = "";
	CU_ASSERT_TRUE_FATAL(hash_in_child(root, &rc, got));
	CU_ASSERT_EQUAL(rc, IOR_OK);
	CU_ASSERT_STRING_EQUAL(got, want);
	ior_test_spawn(rm, NULL);
}

/* Issue 35 BROKEN 7: a FIFO in the artifact hung the hash in open(2), outside --timeout. Special
 * files are listed by name and type and never opened; a symlink is hashed by its text, never
 * followed (to /dev/zero, or out of the tree); an artifact that is itself a FIFO or a device is
 * refused at once. */
static void test_artifact_special_files_listed_not_opened(void)
{
	char root[4096], p[4200];
	snprintf(root, sizeof(root), "%s/special", ior_test_tmpdir());
	char *rm[] = { "rm", "-rf", root, NULL };
	ior_test_spawn(rm, NULL);
	CU_ASSERT_EQUAL_FATAL(mkdir(root, 0755), 0);
	snprintf(p, sizeof(p), "%s/pipe", root);
	CU_ASSERT_EQUAL_FATAL(mkfifo(p, 0644), 0);
	snprintf(p, sizeof(p), "%s/zero", root);
	CU_ASSERT_EQUAL_FATAL(symlink("/dev/zero", p), 0);
	snprintf(p, sizeof(p), "%s/tool", root);
	FILE *f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("built\n", f);
	fclose(f);
	char tool[41], zero[41], want[41], listing[512];
	git_hash(NULL, p, tool);
	git_hash("/dev/zero", NULL, zero);   /* a link's hash is its target's text's */
	bool root_user = geteuid() == 0;
	if (root_user) {   /* a character device (/dev/null's numbers) made in the scratch dir */
		snprintf(p, sizeof(p), "%s/null", root);
		CU_ASSERT_EQUAL_FATAL(mknod(p, S_IFCHR | 0666, makedev(1, 3)), 0);
	}
	snprintf(listing, sizeof(listing), "%sfifo pipe -\nfile tool %s\nlink zero %s\n", root_user ? "chardev null -\n" : "",
		 tool, zero);
	git_hash(listing, NULL, want);
	int rc = -1;
	char got[64] = "";
	CU_ASSERT_TRUE(hash_in_child(root, &rc, got));
	CU_ASSERT_EQUAL(rc, IOR_OK);
	CU_ASSERT_STRING_EQUAL(got, want);
	/* the artifact itself a FIFO, a device, or a link to one */
	snprintf(p, sizeof(p), "%s/pipe", root);
	const char *not_files[] = { p, "/dev/zero", "/dev/null" };
	for (size_t i = 0; i < 3; i++) {
		rc = -1;
		CU_ASSERT_TRUE(hash_in_child(not_files[i], &rc, got));
		CU_ASSERT_EQUAL(rc, IOR_EINVALID);
	}
	ior_test_spawn(rm, NULL);
}

/* A symlink in the artifact pointing out of the tree is hashed by its text: what it points to may
 * change without changing the hash, and nothing outside is read. */
static void test_artifact_symlink_out_is_not_followed(void)
{
	char root[4096], out[4096], p[4200];
	snprintf(root, sizeof(root), "%s/links", ior_test_tmpdir());
	snprintf(out, sizeof(out), "%s/outside", ior_test_tmpdir());
	char *rm[] = { "rm", "-rf", root, out, NULL };
	ior_test_spawn(rm, NULL);
	CU_ASSERT_EQUAL_FATAL(mkdir(root, 0755), 0);
	CU_ASSERT_EQUAL_FATAL(mkdir(out, 0755), 0);
	ior_test_write_file("outside/a", "one\n");
	snprintf(p, sizeof(p), "%s/out", root);
	CU_ASSERT_EQUAL_FATAL(symlink(out, p), 0);
	char h1[64], h2[64];
	CU_ASSERT_EQUAL(ior_bisect_artifact_hash(root, h1, sizeof(h1)), IOR_OK);
	ior_test_write_file("outside/a", "two\n");
	ior_test_write_file("outside/b", "more\n");
	CU_ASSERT_EQUAL(ior_bisect_artifact_hash(root, h2, sizeof(h2)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(h1, h2);
	ior_test_spawn(rm, NULL);
}

/* Issue 35: an --artifact outside the work tree was taken, and each commit's copy was put back
 * there (a file that is not the bisection's overwritten). Refused when the step is made (an
 * absolute path elsewhere, '..' out of the tree), and when the build leaves a symlink pointing out. */
static void test_artifact_outside_the_tree_is_refused(void)
{
	char tree[4096], inside[4200];
	snprintf(tree, sizeof(tree), "%s/tree", ior_test_tmpdir());
	mkdir(tree, 0755);
	snprintf(inside, sizeof(inside), "%s/out/tool", tree);
	const char *refused[] = { "/etc/passwd", "../outside-tool", "out/../../outside-tool", "/tmp" };
	for (size_t i = 0; i < 4; i++) {
		struct ior_bisect_commands c = { .build = "true", .measure = "echo 1", .image = refused[i], .repo = tree };
		struct ior_bisect_measure *m = NULL;
		int rc = ior_bisect_measure_commands(&m, &c);
		CU_ASSERT_EQUAL(rc, IOR_EREFUSED);
		CU_ASSERT_PTR_NULL(m);
		CU_ASSERT(strstr(ior_error_last(), "outside the work tree") || strstr(ior_error_last(), "climbs out"));
		if (rc != IOR_EREFUSED)
			fprintf(stderr, "\n  --artifact %s was taken", refused[i]);
		ior_bisect_measure_free(m);
	}
	/* inside, relative or absolute: taken */
	const char *taken[] = { "out/tool", inside };
	for (size_t i = 0; i < 2; i++) {
		struct ior_bisect_commands c = { .build = "true", .measure = "echo 1", .image = taken[i], .repo = tree };
		struct ior_bisect_measure *m = NULL;
		CU_ASSERT_EQUAL(ior_bisect_measure_commands(&m, &c), IOR_OK);
		ior_bisect_measure_free(m);
	}
	/* a build that leaves the artifact as a symlink out of the tree: refused, not hashed or copied */
	struct ior_bisect_commands c = { .build = "rm -rf out && ln -s /etc out", .measure = "echo 1", .image = "out",
					 .repo = tree, .timeout_s = 10 };
	struct ior_bisect_measure *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_bisect_measure_commands(&m, &c), IOR_OK);
	enum ior_step_outcome o;
	char hash[64];
	CU_ASSERT_EQUAL(m->build(m, "abc", &o, hash, sizeof(hash)), IOR_EREFUSED);
	ior_bisect_measure_free(m);
}

/* The store directories under dir (ioregress-artifacts.*), as a count. */
static int stores_in(const char *dir)
{
	char pattern[4200];
	snprintf(pattern, sizeof(pattern), "%s/ioregress-artifacts.*", dir);
	return ior_test_count_glob(pattern);
}

/* Issue 35: the store of file artifacts' copies was made under /tmp whatever TMPDIR said, and stayed
 * after a SIGKILL (neither recover nor the next run removed it). It is under $TMPDIR, its owner
 * holds its lock, and a store whose owner is gone is removed; a live one, another user's, or a
 * symlink of the store's name is left alone. */
static void test_artifact_store_under_tmpdir_and_cleaned_after_kill(void)
{
	char tmp[4096], tree[4096];
	snprintf(tmp, sizeof(tmp), "%s/tmpdir", ior_test_tmpdir());
	snprintf(tree, sizeof(tree), "%s/store-tree", ior_test_tmpdir());
	char *rm[] = { "rm", "-rf", tmp, NULL };
	ior_test_spawn(rm, NULL);
	CU_ASSERT_EQUAL_FATAL(mkdir(tmp, 0700), 0);
	mkdir(tree, 0755);
	char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
	setenv("TMPDIR", tmp, 1);
	struct ior_bisect_commands c = { .build = "echo built > tool", .measure = "echo 1", .image = "tool", .repo = tree,
					 .timeout_s = 10 };
	/* a run killed with SIGKILL after its first build */
	fflush(NULL);
	pid_t p = fork();
	CU_ASSERT_FATAL(p >= 0);
	if (p == 0) {
		struct ior_bisect_measure *m = NULL;
		enum ior_step_outcome o;
		char hash[64];
		if (ior_bisect_measure_commands(&m, &c) || m->build(m, "abc", &o, hash, sizeof(hash)) || o != IOR_STEP_OK)
			_exit(1);
		raise(SIGKILL);
		_exit(2);
	}
	int status;
	waitpid(p, &status, 0);
	CU_ASSERT_TRUE(WIFSIGNALED(status));
	CU_ASSERT_EQUAL(stores_in(tmp), 1);
	/* a live one of ours */
	struct ior_bisect_measure *live = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_bisect_measure_commands(&live, &c), IOR_OK);
	enum ior_step_outcome o;
	char hash[64];
	CU_ASSERT_EQUAL(live->build(live, "def", &o, hash, sizeof(hash)), IOR_OK);
	CU_ASSERT_EQUAL(stores_in(tmp), 2);
	/* another user's, left by a killed run of theirs (root only: chown) */
	char theirs[4200];
	snprintf(theirs, sizeof(theirs), "%s/ioregress-artifacts.theirs", tmp);
	bool other = geteuid() == 0 && mkdir(theirs, 0700) == 0 && chown(theirs, 65534, 65534) == 0;
	size_t removed = 99;
	CU_ASSERT_EQUAL(ior_bisect_artifact_stores_clean(&removed), IOR_OK);
	CU_ASSERT_EQUAL(removed, 1);
	CU_ASSERT_EQUAL(stores_in(tmp), other ? 2 : 1);
	if (other)
		CU_ASSERT_EQUAL(access(theirs, F_OK), 0);
	/* nothing of ours under /tmp itself came from this test's stores */
	ior_bisect_measure_free(live);
	CU_ASSERT_EQUAL(stores_in(tmp), other ? 1 : 0);
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
		IOR_TEST(test_measure_reads_samples),
		IOR_TEST(test_artifact_relative_or_absolute),
		IOR_TEST(test_sigterm_ends_a_hung_measure_and_its_group),
		IOR_TEST(test_sigkill_of_ioregress_ends_the_group),
		IOR_TEST(test_timeout_skips_the_step_and_ends_the_group),
		IOR_TEST(test_measure_refuses_what_is_no_measurement),
		IOR_TEST(test_measure_reads_long_lines_whole),
		IOR_TEST(test_measure_output_is_bounded),
		IOR_TEST(test_artifact_600_directories_deep),
		IOR_TEST(test_artifact_special_files_listed_not_opened),
		IOR_TEST(test_artifact_symlink_out_is_not_followed),
		IOR_TEST(test_artifact_outside_the_tree_is_refused),
		IOR_TEST(test_artifact_store_under_tmpdir_and_cleaned_after_kill),
		IOR_TEST_END,
	};
	return ior_test_run("bisect_measure", tests);
}
