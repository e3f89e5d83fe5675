/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kernel build's cache, record and errors over a stand-in tree (tests/data/fake-kernel: the kernel
 * Makefile's targets in a few lines) in a real git repository; the real kernel is
 * test_kernel_real.c. */
#include "tests/suite.h"
#include "vm/kernel_build.h"
#include "vm/kernel_build_progress.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
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
	char compiler[128];   /* Kconfig's CONFIG_CC_VERSION_TEXT, its escapes undone */
	record_value("compiler", compiler, sizeof(compiler));
	CU_ASSERT_STRING_EQUAL(compiler, "gcc (Fake \"cc\") 1.0");
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
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "/images/worktree-"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "(local changes "));
	CU_ASSERT_EQUAL(kbuild(NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "built in"));

	/* committed: a new commit, a new entry, whose image differs */
	CU_ASSERT_EQUAL(git("commit", "-qam", "second", NULL), 0);
	CU_ASSERT_EQUAL(kbuild(NULL), 0);
	CU_ASSERT_PTR_NULL(strstr(out, sha));
	char image2[80];
	record_value("image_hash", image2, sizeof(image2));
	CU_ASSERT_STRING_NOT_EQUAL(image2, image_hash);
	CU_ASSERT_EQUAL(ior_test_count_glob(strcat(strcpy(cfg, build_dir), "/images/*-*/build.info")), 5);
	CU_ASSERT_EQUAL(ior_test_count_glob(strcat(strcpy(cfg, build_dir), "/images/worktree-*/build.info")), 1);
}

/* Issue 35: a tree with local changes built at two commits (as vm run --tree does for each
 * revision) kept one images/worktree entry, each build deleting the last, so the first build's
 * row named the second's image; and nothing said the tree had local changes. */
static void test_local_changes_keep_each_revisions_image(void)
{
	setup_tree();
	FILE *f = fopen(strcat(strcpy(out, tree), "/source.c"), "a");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("/* a local change */\n", f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(kbuild(NULL), 0);
	char first[2048], changes[80], describe[300];
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(out, ":"), out);
	record_value("local_changes", changes, sizeof(changes));
	CU_ASSERT_EQUAL(strlen(changes), 64);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "local changes"));
	/* another commit, the same local change on top */
	const char *other = ior_test_write_file("other.txt", "x\n");
	char dst[1200];
	snprintf(dst, sizeof(dst), "%s/other.txt", tree);
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn((char *[]){ "cp", (char *)other, dst, NULL }, NULL), 0);
	CU_ASSERT_EQUAL(git("add", "other.txt", NULL, NULL), 0);
	CU_ASSERT_EQUAL(git("commit", "-qm", "second", NULL), 0);
	CU_ASSERT_EQUAL_FATAL(kbuild(NULL), 0);
	char second[2048];
	snprintf(second, sizeof(second), "%.*s", (int)strcspn(out, ":"), out);
	CU_ASSERT_STRING_NOT_EQUAL(first, second);
	/* the first revision's image is still there for the rows that name it */
	CU_ASSERT_EQUAL(access(first, F_OK), 0);
	CU_ASSERT_EQUAL(access(second, F_OK), 0);
	record_value("describe", describe, sizeof(describe));
	CU_ASSERT_TRUE(strlen(describe) == 0 || strstr(describe, "-dirty") != NULL);
	/* another change: another entry even at the same commit */
	f = fopen(strcat(strcpy(dst, tree), "/source.c"), "a");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("/* another */\n", f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(kbuild(NULL), 0);
	char third[80];
	record_value("local_changes", third, sizeof(third));
	CU_ASSERT_STRING_NOT_EQUAL(third, changes);
	CU_ASSERT_EQUAL(access(second, F_OK), 0);
}

static bool exists(const char *p)
{
	struct stat st;
	return lstat(p, &st) == 0;
}

/* kernel build with argument words of its own (NULL-terminated, at most 12). */
static int kbuild_with(const char *const *words)
{
	char *args[24] = { "kernel", "build", "--tree", tree };
	size_t n = 4;
	for (size_t i = 0; words[i] && n < 23; i++)
		args[n++] = (char *)words[i];
	args[n] = NULL;
	return ior_test_ioregress(args, out, sizeof(out), err, sizeof(err));
}

static bool refused_with(int rc, const char *words)
{
	bool ok = rc != 0 && strstr(err, words);
	if (!ok)
		fprintf(stderr, "\n  exit %d, stderr: %s", rc, err);
	return ok;
}

/* Issue 35, BROKEN 1: root built another user's --fragment and --config, a config value such as
 * CONFIG_INITRAMFS_SOURCE="$(shell ...)" runs as a command when kbuild reads it, and a tree
 * whose scripts another user edited ran them as root. Each is refused before anything is made. */
static void test_untrusted_config_and_tree_refused(void)
{
	if (geteuid() != 0) {
		ior_test_not_run("the trust rule applies to root");
		return;
	}
	setup_tree();
	char theirs[1200], frag[1300], marker[1200];
	snprintf(theirs, sizeof(theirs), "%s/their-configs", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkdir(theirs, 0755), 0);
	CU_ASSERT_EQUAL_FATAL(chown(theirs, 65534, 65534), 0);
	snprintf(frag, sizeof(frag), "%s/evil.config", theirs);
	snprintf(marker, sizeof(marker), "%s/PWNK", ior_test_tmpdir());
	FILE *f = fopen(frag, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("CONFIG_EXTRA=y\n", f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(chown(frag, 65534, 65534), 0);
	CU_ASSERT_TRUE(refused_with(kbuild_with((const char *[]){ "--build-dir", build_dir, "--fragment", frag, NULL }),
				    "belongs to uid 65534"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--fragment"));
	CU_ASSERT_TRUE(refused_with(kbuild_with((const char *[]){ "--build-dir", build_dir, "--config", frag, NULL }),
				    "refusing --config"));
	/* bisect start --kernel refuses it at once, not at its first build */
	CU_ASSERT_EQUAL(git("commit", "--allow-empty", "-qm", "second"), 0);
	char db[1200];
	snprintf(db, sizeof(db), "%s/untrusted.db", ior_test_tmpdir());
	char *start[] = { "--db", db, "bisect", "start", "--repo", tree, "--good", "HEAD~1", "--bad", "HEAD", "--kernel",
			  "--fragment", frag, "--build-dir", build_dir, NULL };
	CU_ASSERT_TRUE(refused_with(ior_test_ioregress(start, out, sizeof(out), err, sizeof(err)), "belongs to uid 65534"));
	/* refused before the build directory was made */
	CU_ASSERT_FALSE(exists(build_dir));
	/* one anyone may write, though root's */
	const char *open_frag = ior_test_write_file("open.config", "CONFIG_EXTRA=y\n");
	chmod(open_frag, 0666);
	CU_ASSERT_TRUE(refused_with(kbuild_with((const char *[]){ "--build-dir", build_dir, "--fragment", open_frag, NULL }),
				    "writable by every user"));
	/* root's own fragment with a make expansion in a value */
	char text[2048];
	snprintf(text, sizeof(text), "CONFIG_EXTRA=y\nCONFIG_INITRAMFS_SOURCE=\"$(shell id -u > %s)\"\n", marker);
	const char *expand = ior_test_write_file("expand.config", text);
	CU_ASSERT_TRUE(refused_with(kbuild_with((const char *[]){ "--build-dir", build_dir, "--fragment", expand, NULL }),
				    "expand.config':2: CONFIG_INITRAMFS_SOURCE holds '$('"));
	const char *tick = ior_test_write_file("tick.config", "CONFIG_CMDLINE=\"`id`\"\n");
	CU_ASSERT_TRUE(refused_with(kbuild_with((const char *[]){ "--build-dir", build_dir, "--config", tick, NULL }),
				    "holds '`'"));
	CU_ASSERT_FALSE(exists(marker));
	CU_ASSERT_FALSE(exists(build_dir));
	/* a tree whose merge script another user could have changed: building it runs that script */
	char script[1300], body[2048];
	snprintf(script, sizeof(script), "%s/scripts/kconfig/merge_config.sh", tree);
	snprintf(body, sizeof(body), "#!/bin/sh\nid -u > %s\n", marker);
	f = fopen(script, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(body, f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(chown(script, 65534, 65534), 0);
	CU_ASSERT_TRUE(refused_with(kbuild_with((const char *[]){ "--build-dir", build_dir, NULL }), "belongs to uid 65534"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "runs its code"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "merge_config.sh"));
	CU_ASSERT_FALSE(exists(marker));
	CU_ASSERT_FALSE(exists(build_dir));
	/* the same through vm run --tree (refused before any boot) */
	snprintf(db, sizeof(db), "%s/vmtree.db", ior_test_tmpdir());
	char *vm[] = { "--db", db, "vm", "run", "--boot-only", "--tree", tree, "--build-dir", build_dir, "HEAD", NULL };
	CU_ASSERT_TRUE(refused_with(ior_test_ioregress(vm, out, sizeof(out), err, sizeof(err)), "belongs to uid 65534"));
	CU_ASSERT_FALSE(exists(marker));
}

/* Issue 35, BROKEN 2 and the weak --build-dir items: the directory itself is held private before
 * anything is made in it; names in it are never followed; a cache entry whose image changed is not
 * reused; a relative --build-dir is taken from the current directory and errors name what was typed. */
static void test_build_dir_private_and_checked(void)
{
	setup_tree();
	/* the tampered cache entry: built again, not reused */
	CU_ASSERT_EQUAL_FATAL(kbuild(NULL), 0);
	char image[2048];
	snprintf(image, sizeof(image), "%.*s", (int)strcspn(out, ":"), out);
	FILE *f = fopen(image, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("planted\n", f);
	fclose(f);
	CU_ASSERT_EQUAL(kbuild(NULL), 0);
	CU_ASSERT_PTR_NULL(strstr(err, "reused from the cache"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "is not the image built"));
	char *text = ior_test_read_file(image, NULL);
	CU_ASSERT_TRUE(text && !strstr(text, "planted"));
	free(text);

	/* a relative --build-dir: from the current directory */
	char here[1024];
	CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(here, sizeof(here)));
	CU_ASSERT_EQUAL_FATAL(chdir(ior_test_tmpdir()), 0);
	int rc = kbuild_with((const char *[]){ "--build-dir", "rel-builds", NULL });
	char want[1200];
	snprintf(want, sizeof(want), "%s/rel-builds/images/", ior_test_tmpdir());
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_EQUAL(chdir(here), 0);
	/* a link of our own to a private directory is followed once: the build goes where it points */
	char alias[1200], aimed[1200];
	snprintf(alias, sizeof(alias), "%s/builds-alias", ior_test_tmpdir());
	snprintf(aimed, sizeof(aimed), "%s/aimed", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkdir(aimed, 0755), 0);
	CU_ASSERT_EQUAL_FATAL(symlink(aimed, alias), 0);
	CU_ASSERT_EQUAL(kbuild_with((const char *[]){ "--build-dir", alias, NULL }), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "/aimed/images/"));

	if (geteuid() != 0) {
		ior_test_not_run("the cases with another user's directories need root");
		return;
	}
	/* a sticky directory anyone may write, as /tmp: refused, nothing made in it */
	char sticky[1200], p[1400];
	snprintf(sticky, sizeof(sticky), "%s/sticky", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkdir(sticky, 0755), 0);
	CU_ASSERT_EQUAL_FATAL(chmod(sticky, 01777), 0);
	CU_ASSERT_TRUE(refused_with(kbuild_with((const char *[]){ "--build-dir", sticky, NULL }), "writable by every user"));
	snprintf(p, sizeof(p), "%s/*", sticky);
	CU_ASSERT_EQUAL(ior_test_count_glob(p), 0);
	/* in it, another user's link to a directory of root's: they could point it elsewhere at any time */
	char rootdir[1200], script[4096];
	snprintf(rootdir, sizeof(rootdir), "%s/roots", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkdir(rootdir, 0755), 0);
	snprintf(script, sizeof(script), "ln -s %s %s/link", rootdir, sticky);
	CU_ASSERT_EQUAL_FATAL(ior_test_as_nobody(script), 0);
	snprintf(p, sizeof(p), "%s/link/kb", sticky);
	CU_ASSERT_TRUE(refused_with(kbuild_with((const char *[]){ "--build-dir", p, NULL }), "symbolic link of uid 65534"));
	snprintf(p, sizeof(p), "%s/kb", rootdir);
	CU_ASSERT_FALSE(exists(p));
	/* below another user's directory: refused before anything of root's is left there */
	char theirs[1200];
	snprintf(theirs, sizeof(theirs), "%s/their-home", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkdir(theirs, 0755), 0);
	CU_ASSERT_EQUAL_FATAL(chown(theirs, 65534, 65534), 0);
	snprintf(p, sizeof(p), "%s/.cache/builds", theirs);
	CU_ASSERT_TRUE(refused_with(kbuild_with((const char *[]){ "--build-dir", p, NULL }), "belongs to uid 65534"));
	snprintf(p, sizeof(p), "%s/.cache", theirs);
	CU_ASSERT_FALSE(exists(p));
	/* typed relative, refused: the message names what was typed */
	CU_ASSERT_EQUAL_FATAL(chdir(theirs), 0);
	rc = kbuild_with((const char *[]){ "--build-dir", "kb/x", NULL });
	CU_ASSERT_EQUAL(chdir(here), 0);
	CU_ASSERT_TRUE(refused_with(rc, "--build-dir 'kb/x': refusing kernel build directory"));
	/* a link planted in a build directory (while it was open to others) is never written through */
	char victim[1200], mine[1200], link[1400];
	snprintf(victim, sizeof(victim), "%s/precious", ior_test_tmpdir());
	snprintf(mine, sizeof(mine), "%s/mine", ior_test_tmpdir());
	f = fopen(victim, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("precious\n", f);
	fclose(f);
	chmod(victim, 0600);
	CU_ASSERT_EQUAL_FATAL(mkdir(mine, 0755), 0);
	snprintf(link, sizeof(link), "%s/guest.config", mine);
	CU_ASSERT_EQUAL_FATAL(symlink(victim, link), 0);
	CU_ASSERT_TRUE(refused_with(kbuild_with((const char *[]){ "--build-dir", mine, NULL }), "symbolic link"));
	text = ior_test_read_file(victim, NULL);
	CU_ASSERT_TRUE(text && !strcmp(text, "precious\n"));
	free(text);
}

static bool wait_for(bool (*cond)(const char *), const char *arg, double seconds)
{
	for (int i = 0; i < (int)(seconds * 20); i++) {
		if (cond(arg))
			return true;
		usleep(50000);
	}
	return cond(arg);
}

static bool file_exists(const char *p)
{
	return exists(p);
}

/* No make into that build directory (vm/kernel_build_journal.c's /proc scan for O=DIR/build). */
static bool no_make_in(const char *out_dir)
{
	return ior_kbuild_live_make(out_dir) == 0;
}

/* ioregress kernel build started in the background (its stderr dropped), killed with SIGKILL once
 * make sleeps in bzImage; 0 when that happened. */
static int kill_in_the_middle(const char *const *words, const char *obj_dir)
{
	char *argv[32] = { "/bin/sh", "-c", "exec \"$0\" \"$@\" 2>/dev/null", getenv("IOR_BINARY"), "kernel", "build",
			   "--tree", tree };
	size_t n = 8;
	for (size_t i = 0; words[i] && n < 31; i++)
		argv[n++] = (char *)words[i];
	argv[n] = NULL;
	char started[1200];
	snprintf(started, sizeof(started), "%s/slow-started", obj_dir);
	unlink(started);
	pid_t pid = ior_test_start(argv);
	if (pid <= 0)
		return -1;
	bool in_make = wait_for(file_exists, started, 30);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return in_make ? 0 : -1;
}

/* Ends what a kill left running (before the fix: make, re-parented to init). */
static void end_leftovers(const char *out_dir)
{
	for (pid_t p; (p = ior_kbuild_live_make(out_dir));) {
		kill(p, SIGKILL);
		usleep(100000);
	}
}

/* Issue 35, BROKEN 6: SIGKILL of kernel build left make running in O=, and the next build ran
 * make beside it. make now dies with us, a build journals itself so the next one and recover know
 * it was cut off, and no build starts beside a make still running in its O= directory. */
static void test_killed_build_leaves_no_make(void)
{
	setup_tree();
	const char *slow = ior_test_write_file("slow.mk", "SLOW=37\n");
	char dst[1200], obj[1300], objdir[1300];
	snprintf(dst, sizeof(dst), "%s/fail.mk", tree);
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn((char *[]){ "cp", (char *)slow, dst, NULL }, NULL), 0);
	snprintf(objdir, sizeof(objdir), "%s/build", build_dir);
	snprintf(obj, sizeof(obj), "O=%s", objdir);
	CU_ASSERT_EQUAL_FATAL(kill_in_the_middle((const char *[]){ "--build-dir", build_dir, NULL }, objdir), 0);
	bool gone = wait_for(no_make_in, build_dir, 5);
	CU_ASSERT_TRUE(gone);
	end_leftovers(build_dir);
	/* the next build says the last one was cut off, and builds */
	unlink(dst);
	CU_ASSERT_EQUAL(kbuild_with((const char *[]){ "--build-dir", build_dir, NULL }), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "was cut off"));
	/* a make still running in O= (as one a cut-off build left): no second make beside it */
	char *decoy[] = { "/usr/bin/perl", "-e", "sleep 30", obj, NULL };
	pid_t d = ior_test_start(decoy);
	CU_ASSERT_FATAL(d > 0);
	for (int i = 0; i < 100 && ior_kbuild_live_make(build_dir) != d; i++)
		usleep(20000);
	CU_ASSERT_TRUE(refused_with(kbuild_with((const char *[]){ "--build-dir", build_dir, NULL }), "is still running"));
	kill(d, SIGKILL);
	waitpid(d, NULL, 0);

	/* recover finds a cut-off build in the default build directories */
	if (geteuid() != 0) {
		ior_test_not_run("recover needs root");
		return;
	}
	char xdg[1200], db[1200], jglob[1400];
	snprintf(xdg, sizeof(xdg), "%s/xdg", ior_test_tmpdir());
	snprintf(db, sizeof(db), "%s/recover.db", ior_test_tmpdir());
	char *old = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;
	setenv("XDG_CACHE_HOME", xdg, 1);
	CU_ASSERT_EQUAL(ior_test_spawn((char *[]){ "cp", (char *)slow, dst, NULL }, NULL), 0);
	/* the default directory's name is the tree's plus a hash: found after the start */
	char *argv[] = { "/bin/sh", "-c", "exec \"$0\" \"$@\" 2>/dev/null", getenv("IOR_BINARY"), "kernel", "build", "--tree",
			 tree, NULL };
	pid_t pid = ior_test_start(argv);
	snprintf(jglob, sizeof(jglob), "%s/ioregress/builds/*/build/slow-started", xdg);
	for (int i = 0; i < 600 && ior_test_count_glob(jglob) == 0; i++)
		usleep(50000);
	CU_ASSERT_EQUAL(ior_test_count_glob(jglob), 1);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	snprintf(jglob, sizeof(jglob), "%s/ioregress/builds/*/journal", xdg);
	CU_ASSERT_EQUAL(ior_test_count_glob(jglob), 1);
	char *recover[] = { "--db", db, "recover", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(recover, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "kernel build into '"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "cut off"));
	CU_ASSERT_EQUAL(ior_test_count_glob(jglob), 0);
	if (old)
		setenv("XDG_CACHE_HOME", old, 1);
	else
		unsetenv("XDG_CACHE_HOME");
	free(old);
	unlink(dst);
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

static int cmp_words(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The targets the stand-in Makefile ran since the last call (its targets.log, emptied here), in
 * name order: make -j runs bzImage and modules side by side, in either order. */
static void targets_ran(char *list, size_t len)
{
	char path[1200], *words[32];
	size_t n = 0, used = 0;
	snprintf(path, sizeof(path), "%s/build/targets.log", build_dir);
	char *text = ior_test_read_file(path, NULL), *save = NULL;
	for (char *w = text ? strtok_r(text, "\n", &save) : NULL; w && n < 32; w = strtok_r(NULL, "\n", &save))
		words[n++] = w;
	if (n)
		qsort(words, n, sizeof(words[0]), cmp_words);
	list[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(list + used, len - used, "%s ", words[i]);
	free(text);
	unlink(path);
}

/* Appends line to the tree's file (relative to tree; tree itself for a path starting with '/'). */
static void append_line(const char *file, const char *line)
{
	char path[1200];
	snprintf(path, sizeof(path), "%s%s%s", file[0] == '/' ? "" : tree, file[0] == '/' ? "" : "/", file);
	FILE *f = fopen(path, "a");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(line, f);
	fclose(f);
}

/* A commit adding line to file, built (with fragment, or none): the targets make ran must be want. */
static void commit_and_build(const char *file, const char *line, const char *fragment, const char *want)
{
	char ran[512];
	append_line(file, line);
	CU_ASSERT_EQUAL(git("commit", "-qam", line, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(kbuild(fragment), 0);
	targets_ran(ran, sizeof(ran));
	CU_ASSERT_STRING_EQUAL(ran, want);
}

/* The module the entry just built installed holds text. */
static void installed_module_holds(const char *text)
{
	char mods[1200];
	const char *dir = strchr(out, ':') + 1;
	snprintf(mods, sizeof(mods), "%.*s/kernel/block/fake.ko", (int)strcspn(dir, "\n"), dir);
	char *ko = ior_test_read_file(mods, NULL);
	CU_ASSERT_TRUE(ko && strstr(ko, text));
	free(ko);
}

/* Issue 38: every build merged the config again, ran olddefconfig and installed the modules,
 * whatever changed. Now each step runs when its inputs changed, and only then. */
static void test_unchanged_steps_skipped(void)
{
	static const char all[] = "bzImage merge_config modules modules_install olddefconfig tinyconfig ";
	static const char configured[] = "bzImage merge_config modules olddefconfig tinyconfig ";
	char ran[512], cfg[1200];
	setup_tree();
	CU_ASSERT_EQUAL_FATAL(kbuild(NULL), 0);
	targets_ran(ran, sizeof(ran));
	CU_ASSERT_STRING_EQUAL(ran, all);
	/* a commit changing a source file: neither configured nor its modules installed again; the
	 * entry has its modules all the same, as the module built */
	commit_and_build("source.c", "int more;\n", NULL, "bzImage modules ");
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not configured again"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "linked, not installed again"));
	installed_module_holds("int fake;");
	/* a Kconfig file changed (one Kconfig read, by the list kbuild wrote): configured, modules kept */
	commit_and_build("arch/x86/Kconfig", "# more\n", NULL, configured);
	/* a module changed: installed, config kept */
	commit_and_build("module.c", "int fake2;\n", NULL, "bzImage modules modules_install ");
	installed_module_holds("int fake2;");
	/* a fragment is an input: configured */
	const char *frag = ior_test_write_file("skip.config", "CONFIG_EXTRA=y\n");
	commit_and_build("source.c", "int again;\n", frag, configured);
	/* a .config changed behind our back (another make in the directory): configured */
	snprintf(cfg, sizeof(cfg), "%s/build/.config", build_dir);
	append_line(cfg, "CONFIG_OTHER=y\n");
	commit_and_build("source.c", "int third;\n", frag, configured);
}

/* The progress line: objects of the last full build's total, elapsed, and the time left only for a
 * cold build (a rebuild compiles what changed, its pace says nothing of the rest). */
static void test_progress_line(void)
{
	char line[400];
	ior_kbuild_progress_line(line, sizeof(line), "build", 200, 800, true, 600, "CC block/bfq.o");
	CU_ASSERT_STRING_EQUAL(line, "kernel build: 200 of ~800 objects compiled, 10:00 elapsed, about 30:00 left "
				     "(now: CC block/bfq.o)");
	ior_kbuild_progress_line(line, sizeof(line), "build", 3, 800, false, 75, "LD vmlinux");
	CU_ASSERT_STRING_EQUAL(line, "kernel build: 3 objects compiled, 01:15 elapsed (now: LD vmlinux)");
	ior_kbuild_progress_line(line, sizeof(line), "build", 10, 0, true, 3725, "");
	CU_ASSERT_STRING_EQUAL(line, "kernel build: 10 objects compiled, 1:02:05 elapsed");
}

/* The log's compile lines counted past a line far longer than any buffer: openssl's GENKEY writes
 * thousands of progress dots on one line of a bindeb-pkg build's log, and the count used to stop
 * there for the rest of the build. A line still being written is left for the next look. */
static void test_progress_counts_past_a_long_line(void)
{
	char log[600];
	snprintf(log, sizeof(log), "%s/progress.log", ior_test_tmpdir());
	FILE *f = fopen(log, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("  CC      kernel/a.o\n  GENKEY  certs/signing_key.pem\n", f);
	for (int i = 0; i < 6000; i++)
		fputc(i % 67 ? '.' : '+', f);
	fputs("  CC      kernel/kprobes.o\n  CC      kernel/b.o\n  AS      arch/x86/c.o\n  LD      vmlinux\n", f);
	fputs("  CC      kernel/half", f); /* make is still writing this one */
	fclose(f);
	long from = 0, n = 0;
	char now[160] = "";
	ior_kbuild_progress_scan(log, &from, &n, now, sizeof(now));
	CU_ASSERT_EQUAL(n, 3); /* a.o, b.o, c.o: the dots' line begins with no step */
	CU_ASSERT_STRING_EQUAL(now, "LD vmlinux");
	f = fopen(log, "a");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(".o\n", f);
	fclose(f);
	ior_kbuild_progress_scan(log, &from, &n, now, sizeof(now));
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_STRING_EQUAL(now, "CC kernel/half.o");
	unlink(log);
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
		IOR_TEST(test_local_changes_keep_each_revisions_image),
		IOR_TEST(test_untrusted_config_and_tree_refused),
		IOR_TEST(test_build_dir_private_and_checked),
		IOR_TEST(test_killed_build_leaves_no_make),
		IOR_TEST(test_progress_line),
		IOR_TEST(test_progress_counts_past_a_long_line),
		IOR_TEST(test_unchanged_steps_skipped),
		IOR_TEST_END,
	};
	return ior_test_run("kernel_build", tests);
}
