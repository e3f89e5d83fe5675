/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CUnit runner and small fixtures shared by all test programs (see suite.h). */
#include "tests/suite.h"
#include "common/error.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <sqlite3.h>
#include <ftw.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The cases that said they did not run, and why: listed after the suite. */
enum { NOT_RUN_MAX = 64 };
static struct {
	char name[96], reason[320];
} not_run[NOT_RUN_MAX];
static size_t nnot_run, nnot_run_lost;

void ior_test_not_run(const char *fmt, ...)
{
	CU_pTest t = CU_get_current_test();
	if (nnot_run == NOT_RUN_MAX) {
		nnot_run_lost++;
		return;
	}
	snprintf(not_run[nnot_run].name, sizeof(not_run[nnot_run].name), "%s", t && t->pName ? t->pName : "?");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(not_run[nnot_run].reason, sizeof(not_run[nnot_run].reason), fmt, ap);
	va_end(ap);
	fprintf(stderr, "(not run: %s) ", not_run[nnot_run].reason);
	nnot_run++;
}

static void print_not_run(const char *suite, unsigned run)
{
	size_t n = nnot_run + nnot_run_lost;
	if (!n)
		return;
	printf("%s: %zu of %u case(s) did not run:\n", suite, n, run);
	for (size_t i = 0; i < nnot_run; i++)
		printf("  %s: %s\n", not_run[i].name, not_run[i].reason);
	if (nnot_run_lost)
		printf("  and %zu more\n", nnot_run_lost);
}

int ior_test_run(const char *suite, const struct ior_test *tests)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	CU_pSuite s = CU_add_suite(suite, NULL, NULL);
	/* IOR_TEST_ONLY=NAME runs that case alone: a suite of many minutes is checked one case at a time
	 * while a change is made (a name no case has runs nothing, which fails below) */
	const char *only = getenv("IOR_TEST_ONLY");
	for (const struct ior_test *t = tests; s && t->name; t++)
		if (!only || !*only || !strcmp(only, t->name))
			CU_add_test(s, t->name, t->fn);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	unsigned run = CU_get_number_of_tests_run();
	CU_cleanup_registry();
	if (run == 0) {
		fprintf(stderr, "%s: no test ran\n", suite);
		return 1;
	}
	print_not_run(suite, run);
	if (!failed && nnot_run + nnot_run_lost >= run)
		return 77;  /* nothing was checked here: ctest says "not run", not "passed" */
	return failed ? 1 : 0;
}

void ior_test_skip(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("skipped: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	fflush(stdout);
	exit(77);
}

void ior_test_require_root(const char *why)
{
	if (geteuid() != 0)
		ior_test_skip("needs root (%s)", why);
}

const char *ior_test_source_dir(void)
{
	const char *dir = getenv("IOR_SOURCE_DIR");
	return dir && *dir ? dir : ".";
}

const char *ior_test_source_path(const char *relative)
{
	static char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", ior_test_source_dir(), relative);
	return path;
}

static char tmpdir[PATH_MAX];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

/* IOR_TEST_KEEP_DIR=DIR keeps the scratch directory: it is renamed into DIR (on the same file
 * system) instead of removed, so ci/report-identical.sh can write reports from the databases the
 * suites made. */
static void remove_tmpdir(void)
{
	const char *keep = getenv("IOR_TEST_KEEP_DIR");
	if (!tmpdir[0])
		return;
	if (keep && *keep) {
		char dest[PATH_MAX];
		const char *base = strrchr(tmpdir, '/');
		snprintf(dest, sizeof(dest), "%s%s", keep, base ? base : "/scratch");
		if (rename(tmpdir, dest) == 0)
			return;
		fprintf(stderr, "cannot keep %s in %s: %s\n", tmpdir, keep, strerror(errno));
	}
	nftw(tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

const char *ior_test_tmpdir(void)
{
	if (!tmpdir[0]) {
		snprintf(tmpdir, sizeof(tmpdir), "/tmp/ioregress-test.XXXXXX");
		if (!mkdtemp(tmpdir)) {
			fprintf(stderr, "cannot create test directory: %s\n", strerror(errno));
			exit(1);
		}
		atexit(remove_tmpdir);
	}
	return tmpdir;
}

const char *ior_test_path(const char *name)
{
	static char paths[4][PATH_MAX];
	static unsigned slot;
	char *path = paths[slot++ % 4];
	snprintf(path, PATH_MAX, "%s/%s", ior_test_tmpdir(), name);
	return path;
}

const char *ior_test_write_file(const char *name, const char *text)
{
	static char paths[8][PATH_MAX];
	static unsigned slot;
	char *path = paths[slot++ % 8];
	snprintf(path, PATH_MAX, "%s/%s", ior_test_tmpdir(), name);
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return path;
}

extern char **environ;

int ior_test_spawn_to(char *const argv[], const char *input, const char *out, const char *err)
{
	pid_t pid;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, input ? input : "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, err ? err : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return -1;
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int ior_test_spawn(char *const argv[], const char *input)
{
	return ior_test_spawn_to(argv, input, NULL, NULL);
}

char *ior_test_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap);
	while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n + 1 == cap) {
			char *bigger = realloc(buf, cap *= 2);
			if (!bigger)
				free(buf);
			buf = bigger;
		}
	}
	fclose(f);
	if (buf)
		buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

static void slurp(const char *path, char *buf, size_t len)
{
	if (!buf)
		return;
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
}

int ior_test_ioregress(char *const args[], char *out, size_t outlen, char *err, size_t errlen)
{
	const char *bin = getenv("IOR_BINARY");
	if (!bin || access(bin, X_OK) != 0)
		ior_test_skip("IOR_BINARY is not set to a built ioregress");
	char *argv[64] = { (char *)bin };
	for (int i = 0; args[i] && i < 62; i++)
		argv[i + 1] = args[i];
	char opath[PATH_MAX], epath[PATH_MAX];
	snprintf(opath, sizeof(opath), "%s/.stdout", ior_test_tmpdir());
	snprintf(epath, sizeof(epath), "%s/.stderr", ior_test_tmpdir());
	int status = ior_test_spawn_to(argv, NULL, opath, epath);
	slurp(opath, out, outlen);
	slurp(epath, err, errlen);
	return status;
}

void ior_test_read_glob(const char *pattern, char *out, size_t len)
{
	out[0] = '\0';
	glob_t g;
	if (glob(pattern, 0, NULL, &g) != 0)
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");
		char line[1024] = "";
		if (f) {
			if (!fgets(line, sizeof(line), f))
				line[0] = '\0';
			fclose(f);
		}
		size_t n = strlen(out);
		snprintf(out + n, len - n, "%s: %s", g.gl_pathv[i], line);
	}
	globfree(&g);
}

int ior_test_count_glob(const char *pattern)
{
	glob_t g;
	if (glob(pattern, 0, NULL, &g) != 0)
		return 0;
	int n = (int)g.gl_pathc;
	globfree(&g);
	return n;
}

void ior_test_loop_schedulers(char *out, size_t len)
{
	ior_test_read_glob("/sys/block/loop*/queue/scheduler", out, len);
}

const char *ior_test_second_scheduler(void)
{
	static char second[16];
	if (!second[0]) {
		char offered[8192];
		ior_test_loop_schedulers(offered, sizeof(offered));
		bool kyber = !strstr(offered, "bfq") && access("/proc/modules", F_OK) != 0 && strstr(offered, "kyber");
		snprintf(second, sizeof(second), "%s", kyber ? "kyber" : "bfq");
		if (kyber)
			fprintf(stderr, "this kernel offers no bfq and loads no modules: the tests switch to kyber instead\n");
	}
	return second;
}

const char *ior_test_with_second(const char *text)
{
	static char bufs[4][1024];
	static unsigned next;
	char *out = bufs[next++ % 4];
	const char *second = ior_test_second_scheduler();
	size_t o = 0;
	for (const char *p = text; *p && o + strlen(second) + 1 < sizeof(bufs[0]);)
		if (!strncmp(p, "bfq", 3)) {
			o += (size_t)snprintf(out + o, sizeof(bufs[0]) - o, "%s", second);
			p += 3;
		} else {
			out[o++] = *p++;
		}
	out[o] = '\0';
	return out;
}

long long ior_test_query(const char *db_path, const char *sql)
{
	sqlite3 *h = NULL;
	long long v = -1;
	if (sqlite3_open_v2(db_path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return v;
}

int ior_test_ok(int rc)
{
	if (rc != IOR_OK)
		fprintf(stderr, "  status %d: %s\n", rc, ior_error_last());
	return rc;
}

int ior_test_as_nobody(const char *script)
{
	/* the test directory must be reachable by the other user; it stays root's and not writable by them */
	chmod(ior_test_tmpdir(), 0755);
	char *argv[] = { "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-c", (char *)script, NULL };
	return ior_test_spawn_to(argv, NULL, NULL, NULL);
}

pid_t ior_test_start(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	pid_t pid = -1;
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0)
		pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	return pid;
}

void ior_test_random_file(const char *path, unsigned mib)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	static char buf[1 << 20];
	unsigned long long x = 88172645463325252ULL;   /* xorshift64: the same bytes every run */
	for (unsigned i = 0; i < mib; i++) {
		for (size_t j = 0; j + 8 <= sizeof(buf); j += 8) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			memcpy(buf + j, &x, 8);
		}
		CU_ASSERT_FATAL(write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf));
	}
	CU_ASSERT_FATAL(fsync(fd) == 0);
	close(fd);
}

void ior_test_vm_setup(char *cache, size_t len)
{
	if (!getenv("IOR_BINARY"))
		ior_test_skip("IOR_BINARY is not set");
	if (ior_test_spawn((char *[]){ "qemu-system-x86_64", "--version", NULL }, NULL) != 0)
		ior_test_skip("qemu-system-x86_64 cannot run here");
	const char *c = getenv("IOR_VM_CACHE");
	if (c && *c)
		snprintf(cache, len, "%s", c);
	else
		snprintf(cache, len, "%s/.cache/ioregress/kernels", getenv("HOME") ? getenv("HOME") : "/tmp");
}
