/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kernel build's cache, record and errors over a stand-in tree (tests/data/fake-kernel: the kernel
 * Makefile's targets in a few lines) in a real git repository; the real kernel is
 * test_kernel_real.c. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tree[1024], build_dir[1024], out[8192], err[8192];

static int git(const char *a1, const char *a2, const char *a3, const char *a4)
{
	char *argv[] = { "git", "-C", tree, "-c", "user.name=t", "-c", "user.email=t@t", (char *)a1, (char *)a2,
			 (char *)a3, (char *)a4, NULL };
	return ior_test_spawn(argv, NULL);
}

/* A fresh copy of the stand-in tree as a git repository with one commit. */
static void setup_tree(void)
{
	static int n;
	n++;
	snprintf(tree, sizeof(tree), "%s/tree%d", ior_test_tmpdir(), n);
	snprintf(build_dir, sizeof(build_dir), "%s/builds%d", ior_test_tmpdir(), n);
	char *cp[] = { "cp", "-r", (char *)ior_test_source_path("tests/data/fake-kernel"), tree, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn(cp, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(git("init", "-q", NULL, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(git("add", "-A", NULL, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(git("commit", "-qm", "first", NULL), 0);
}

static int kbuild(const char *fragment)
{
	char *args[] = { "kernel", "build", "--tree", tree, "--out", build_dir, fragment ? "--fragment" : NULL,
			 (char *)fragment, NULL };
	return ior_test_ioregress(args, out, sizeof(out), err, sizeof(err));
}

/* The value of key in the build.info beside the image out names. */
static void record_value(const char *key, char *value, size_t len)
{
	char path[2048];
	snprintf(path, sizeof(path), "%.*s/build.info", (int)(strstr(out, "/bzImage:") - out), out);
	char *text = ior_test_read_file(path, NULL), k[64];
	snprintf(k, sizeof(k), "\n%s=", key);
	char *at = text ? strstr(text, k) : NULL;
	snprintf(value, len, "%.*s", at ? (int)strcspn(at + strlen(k), "\n") : 0, at ? at + strlen(k) : "");
	free(text);
}

static void test_build_record_and_reuse(void)
{
	setup_tree();
	CU_ASSERT_EQUAL_FATAL(kbuild(NULL), 0);
	/* vm run's operand: PATH/bzImage:MODULES_DIR with the modules' release */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "/bzImage:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "/lib/modules/6.1.0-fake\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "built in"));
	char first[2048], sha[64], config_hash[80], image_hash[80], head[64] = "";
	snprintf(first, sizeof(first), "%s", out);
	record_value("commit", sha, sizeof(sha));
	record_value("config_hash", config_hash, sizeof(config_hash));
	record_value("image_hash", image_hash, sizeof(image_hash));
	char hfile[1024];
	snprintf(hfile, sizeof(hfile), "%s/head", ior_test_tmpdir());
	char *rev[] = { "git", "-C", tree, "rev-parse", "HEAD", NULL };
	ior_test_spawn_to(rev, NULL, hfile, NULL);
	char *h = ior_test_read_file(hfile, NULL);
	snprintf(head, sizeof(head), "%.40s", h ? h : "");
	free(h);
	CU_ASSERT_STRING_EQUAL(sha, head);
	CU_ASSERT_EQUAL(strlen(config_hash), 64);
	CU_ASSERT_EQUAL(strlen(image_hash), 64);
	/* the entry is named by commit and config hash */
	char entry[128];
	snprintf(entry, sizeof(entry), "/images/%.12s-%.12s/bzImage", sha, config_hash);
	CU_ASSERT_PTR_NOT_NULL(strstr(first, entry));
	/* the guest's options were merged over the base config, and the build stamps fixed */
	char cfg[2048];
	snprintf(cfg, sizeof(cfg), "%s/build/.config", build_dir);
	char *text = ior_test_read_file(cfg, NULL);
	CU_ASSERT_TRUE(text && strstr(text, "CONFIG_BASE_tinyconfig=y"));
	CU_ASSERT_TRUE(text && strstr(text, "CONFIG_VIRTIO_BLK=y"));
	free(text);

	/* the same commit and config again: reused, and not even configured: make never ran, so the
	 * build's log (emptied whenever make runs) is still the first build's */
	char logpath[1200];
	snprintf(logpath, sizeof(logpath), "%s/build.log", build_dir);
	CU_ASSERT_EQUAL(ior_test_spawn((char *[]){ "cp", logpath, (char *)ior_test_path("first.log"), NULL }, NULL), 0);
	CU_ASSERT_EQUAL(kbuild(NULL), 0);
	CU_ASSERT_STRING_EQUAL(out, first);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "reused from the cache"));
	CU_ASSERT_EQUAL(ior_test_spawn((char *[]){ "cmp", logpath, (char *)ior_test_path("first.log"), NULL }, NULL), 0);

	/* another config: another entry */
	const char *frag = ior_test_write_file("extra.config", "CONFIG_EXTRA=y\n");
	CU_ASSERT_EQUAL(kbuild(frag), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "built in"));
	CU_ASSERT_STRING_NOT_EQUAL(out, first);
	char extra[2048];
	snprintf(extra, sizeof(extra), "%s", out);
	/* the same fragment file with other contents is another input: configured and built again */
	ior_test_write_file("extra.config", "CONFIG_EXTRA=y\nCONFIG_MORE=y\n");
	CU_ASSERT_EQUAL(kbuild(frag), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "built in"));
	CU_ASSERT_STRING_NOT_EQUAL(out, extra);

	/* a changed tracked file: built each time, never taken for the commit */
	FILE *f = fopen(strcat(strcpy(cfg, tree), "/source.c"), "a");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("/* changed */\n", f);
	fclose(f);
	CU_ASSERT_EQUAL(kbuild(NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "/images/worktree/bzImage:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "changed files: not cached"));
	CU_ASSERT_EQUAL(kbuild(NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "built in"));

	/* committed: a new commit, a new entry, whose image differs */
	CU_ASSERT_EQUAL(git("commit", "-qam", "second", NULL), 0);
	CU_ASSERT_EQUAL(kbuild(NULL), 0);
	CU_ASSERT_PTR_NULL(strstr(out, sha));
	char image2[80];
	record_value("image_hash", image2, sizeof(image2));
	CU_ASSERT_STRING_NOT_EQUAL(image2, image_hash);
	CU_ASSERT_EQUAL(ior_test_count_glob(strcat(strcpy(cfg, build_dir), "/images/*-*/build.info")), 4);
}

static void test_build_failure_quotes_the_log(void)
{
	setup_tree();
	const char *fail = ior_test_write_file("fail.mk", "FAIL=1\n");
	char dst[1200];
	snprintf(dst, sizeof(dst), "%s/fail.mk", tree);
	char *cp[] = { "cp", (char *)fail, dst, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn(cp, NULL), 0);
	CU_ASSERT_EQUAL(git("add", "fail.mk", NULL, NULL), 0);
	CU_ASSERT_EQUAL(git("commit", "-qm", "breaks the build", NULL), 0);
	CU_ASSERT_EQUAL(kbuild(NULL), 1);
	CU_ASSERT_STRING_EQUAL(out, "");
	/* the compiler's line first, make's after; the log named */
	const char *e = strstr(err, "block/blk-mq.c:42:1: error: expected ';'");
	const char *m = strstr(err, "*** [scripts/Makefile.build:250");
	CU_ASSERT_PTR_NOT_NULL(e);
	CU_ASSERT(e && m && e < m);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "build.log"));
	char glob[1200];
	snprintf(glob, sizeof(glob), "%s/images/*", build_dir);
	CU_ASSERT_EQUAL(ior_test_count_glob(glob), 0);
}

static void test_bad_arguments(void)
{
	char *both[] = { "kernel", "build", "--config", "/dev/null", "--defconfig", "tinyconfig", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(both, out, sizeof(out), err, sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not both"));
	char *notree[] = { "kernel", "build", "--tree", (char *)ior_test_tmpdir(), NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(notree, out, sizeof(out), err, sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "is no kernel tree"));
	/* neither XDG_CACHE_HOME nor HOME (a service, env -i): no default build directory, never one at / */
	char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL, *xdg = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;
	unsetenv("HOME"), unsetenv("XDG_CACHE_HOME");
	char *nohome[] = { "kernel", "build", "--tree", tree, NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(nohome, out, sizeof(out), err, sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "give --build-dir DIR"));
	CU_ASSERT_NOT_EQUAL(access("/builds", F_OK), 0);
	if (home)
		setenv("HOME", home, 1);
	if (xdg)
		setenv("XDG_CACHE_HOME", xdg, 1);
	free(home), free(xdg);
	/* a build directory another user owns could hold their links and images: refused */
	if (geteuid() == 0) {
		char theirs[1200];
		snprintf(theirs, sizeof(theirs), "%s/theirs", ior_test_tmpdir());
		CU_ASSERT_EQUAL_FATAL(mkdir(theirs, 0755), 0);
		CU_ASSERT_EQUAL_FATAL(chown(theirs, 65534, 65534), 0);
		char *foreign[] = { "kernel", "build", "--tree", tree, "--build-dir", theirs, NULL };
		CU_ASSERT_NOT_EQUAL(ior_test_ioregress(foreign, out, sizeof(out), err, sizeof(err)), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "kernel build directory"));
	}
	char *nofrag[] = { "kernel", "build", "--tree", tree, "--fragment", "/nonexistent.config", NULL };
	CU_ASSERT_NOT_EQUAL(ior_test_ioregress(nofrag, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--fragment '/nonexistent.config' does not exist"));
	char *sub[] = { "kernel", "make", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(sub, out, sizeof(out), err, sizeof(err)), 2);
}

/* bisect start --kernel keeps the config arguments (paths absolute) in the log; log writes them as
 * a kernel line, replay reads it back, and run takes them from there. */
static void test_bisect_kernel_config_in_log_and_replay(void)
{
	setup_tree();
	CU_ASSERT_EQUAL(git("commit", "--allow-empty", "-qm", "second"), 0);
	CU_ASSERT_EQUAL(git("commit", "--allow-empty", "-qm", "third"), 0);
	char db[1200], db2[1200], logf[1200];
	snprintf(db, sizeof(db), "%s/k.db", ior_test_tmpdir());
	snprintf(db2, sizeof(db2), "%s/k2.db", ior_test_tmpdir());
	snprintf(logf, sizeof(logf), "%s/k.log", ior_test_tmpdir());
	const char *frag = ior_test_write_file("bisect.config", "CONFIG_EXTRA=y\n");
	char *start[] = { "--db", db, "bisect", "start", "--repo", tree, "--good", "HEAD~2", "--bad", "HEAD", "--kernel",
			  "--defconfig", "defconfig", "--fragment", (char *)frag, "--build-dir", build_dir, "--nice", "15", NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(start, out, sizeof(out), err, sizeof(err)), 0);
	char *log[] = { "--db", db, "bisect", "log", NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(log, out, sizeof(out), err, sizeof(err)), 0);
	char want[4096];
	/* each replayable line starts with the time it was logged, "@2026-...Z " */
	snprintf(want, sizeof(want), "Z kernel --defconfig 'defconfig' --fragment '%s' --build-dir '%s' --nice '15'\n", frag,
		 build_dir);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	FILE *f = fopen(logf, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(out, f);
	fclose(f);
	char *replay[] = { "--db", db2, "bisect", "replay", logf, NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(replay, out, sizeof(out), err, sizeof(err)), 0);
	char *log2[] = { "--db", db2, "bisect", "log", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(log2, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	/* run over a kernel tree needs the matrix its boots run */
	char *run[] = { "--db", db2, "bisect", "run", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(run, out, sizeof(out), err, sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "over a kernel tree needs --matrix FILE"));
	/* the config options belong to start --kernel */
	char *stray[] = { "--db", db, "bisect", "start", "--repo", tree, "--good", "HEAD~2", "--bad", "HEAD", "--fragment",
			  (char *)frag, NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(stray, out, sizeof(out), err, sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "need 'bisect start --kernel'"));
	char *vmstray[] = { "--db", db, "vm", "run", "--boot-only", "--defconfig", "tinyconfig", "x/bzImage", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(vmstray, out, sizeof(out), err, sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "need --tree DIR"));
}

int main(void)
{
	if (!getenv("IOR_BINARY"))
		ior_test_skip("IOR_BINARY is not set");
	if (ior_test_spawn((char *[]){ "git", "--version", NULL }, NULL) != 0 ||
	    ior_test_spawn((char *[]){ "make", "--version", NULL }, NULL) != 0)
		ior_test_skip("git or make cannot run here");
	static const struct ior_test tests[] = {
		IOR_TEST(test_build_record_and_reuse),
		IOR_TEST(test_build_failure_quotes_the_log),
		IOR_TEST(test_bad_arguments),
		IOR_TEST(test_bisect_kernel_config_in_log_and_replay),
		IOR_TEST_END,
	};
	return ior_test_run("kernel_build", tests);
}
