/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A real kernel tree (Debian's linux-source-6.1) built with tinyconfig and the guest's options, the
 * build reused from the cache, booted under qemu with a one-cell matrix, and vm run --tree storing
 * its commit. Label "kernel": minutes of compiling. */
#include "tests/suite.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TARBALL "/usr/src/linux-source-6.1.tar.xz"

static char work[1024], tree[1200], build_dir[1200], spec[4096], head[64], out[65536], err[65536];

static bool exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

/* The first word of a command's output. */
static void first_word(char *const argv[], char *word, size_t len)
{
	char path[1200];
	snprintf(path, sizeof(path), "%s/word", ior_test_tmpdir());
	ior_test_spawn_to(argv, NULL, path, NULL);
	char *t = ior_test_read_file(path, NULL);
	snprintf(word, len, "%.*s", t ? (int)strcspn(t, " \n") : 0, t ? t : "");
	free(t);
}

static int git(char *a, char *b, char *c, char *d)
{
	char *argv[] = { "git", "-C", tree, "-c", "user.name=ioregress", "-c", "user.email=test@ioregress", a, b, c, d, NULL };
	return ior_test_spawn(argv, NULL);
}

/* The tree unpacked once into the work directory and made a git repository with one tagged
 * commit (Debian's .gitignore ignores the whole top level, hence add -f). Kept for later runs. */
static int prepare_tree(void)
{
	char git_dir[1300];
	snprintf(git_dir, sizeof(git_dir), "%s/.git", tree);
	if (exists(git_dir))
		return 0;
	mkdir(work, 0755);
	char *tar[] = { "nice", "-n", "15", "tar", "xJf", TARBALL, "-C", work, NULL };
	if (ior_test_spawn(tar, NULL) != 0)
		return -1;
	if (git("init", "-q", NULL, NULL) || git("add", "-f", "-A", ".") || git("commit", "-qm", "linux-source-6.1", NULL) ||
	    git("tag", "-am", "v6.1-debian", "v6.1-debian"))
		return -1;
	return 0;
}

static int kbuild(const char *fragment)
{
	char *args[] = { "kernel", "build", "--tree", tree, "--build-dir", build_dir, "--nice", "15",
			 fragment ? "--fragment" : NULL, (char *)fragment, NULL };
	int rc = ior_test_ioregress(args, out, sizeof(out), err, sizeof(err));
	fprintf(stderr, "\n  %s", err);
	return rc;
}

static void test_build(void)
{
	CU_ASSERT_EQUAL_FATAL(kbuild(NULL), 0);
	snprintf(spec, sizeof(spec), "%.*s", (int)strcspn(out, "\n"), out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(strstr(spec, "/bzImage:"));
	/* the record: HEAD's commit, the sha256 of the config and of the image as sha256sum sees them */
	char dir[4096], info[4200], config[4200], image[4200], want[80];
	snprintf(dir, sizeof(dir), "%.*s", (int)(strstr(spec, "/bzImage:") - spec), spec);
	snprintf(info, sizeof(info), "%s/build.info", dir);
	snprintf(config, sizeof(config), "%s/config", dir);
	snprintf(image, sizeof(image), "%s/bzImage", dir);
	char *text = ior_test_read_file(info, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	char line[200];
	first_word((char *[]){ "git", "-C", tree, "rev-parse", "HEAD", NULL }, head, sizeof(head));
	snprintf(line, sizeof(line), "commit=%s\n", head);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, line));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "describe=v6.1-debian\n"));
	first_word((char *[]){ "sha256sum", config, NULL }, want, sizeof(want));
	snprintf(line, sizeof(line), "config_hash=%s\n", want);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, line));
	first_word((char *[]){ "sha256sum", image, NULL }, want, sizeof(want));
	snprintf(line, sizeof(line), "image_hash=%s\n", want);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, line));
	free(text);
	/* the guest's options took: virtio built in, kyber and bfq as modules installed */
	char *cfg = ior_test_read_file(config, NULL);
	CU_ASSERT_TRUE(cfg && strstr(cfg, "CONFIG_VIRTIO_BLK=y"));
	CU_ASSERT_TRUE(cfg && strstr(cfg, "CONFIG_IOSCHED_BFQ=m"));
	CU_ASSERT_TRUE(cfg && strstr(cfg, "CONFIG_64BIT=y"));
	free(cfg);
	char mods[4200];
	snprintf(mods, sizeof(mods), "%s/kernel/block/bfq.ko", strchr(spec, ':') + 1);
	CU_ASSERT(exists(mods));
}

static void test_reuse(void)
{
	CU_ASSERT_EQUAL_FATAL(kbuild(NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "reused from the cache"));
	char again[4096];
	snprintf(again, sizeof(again), "%.*s", (int)strcspn(out, "\n"), out);
	CU_ASSERT_STRING_EQUAL(again, spec);
}

/* Two commits that compile to the same code give byte-identical images (the build stamps are
 * fixed): a commit that edits only a file under Documentation/ gets its own cache entry, built
 * (not reused), whose bzImage is HEAD's byte for byte. The tree returns to where it was. */
static void test_identical_image(void)
{
	char doc[1300], image[4096], again[4096];
	snprintf(doc, sizeof(doc), "%s/Documentation/block/index.rst", tree);
	CU_ASSERT_EQUAL_FATAL(git("checkout", "-q", "-B", "ior-identical-image"), 0);
	FILE *f = fopen(doc, "a");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("\n.. a documentation-only commit: no code changes\n", f);
	fclose(f);
	int committed = git("commit", "-qam", "Documentation: a line more (no code change)", NULL);
	int rc = committed ? -1 : kbuild(NULL);
	char *built = strstr(err, "built in ");
	snprintf(again, sizeof(again), "%.*s", (int)strcspn(out, "\n"), out);
	CU_ASSERT_EQUAL(git("checkout", "-q", "-f", "-"), 0);
	CU_ASSERT_EQUAL_FATAL(committed, 0);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(built);
	CU_ASSERT_STRING_NOT_EQUAL(again, spec); /* its own cache entry: another commit */
	snprintf(image, sizeof(image), "%.*s", (int)(strchr(spec, ':') - spec), spec);
	again[strcspn(again, ":")] = '\0';
	CU_ASSERT_EQUAL(ior_test_spawn((char *[]){ "cmp", image, again, NULL }, NULL), 0);
}

static void test_boot_one_cell(void)
{
	char db[1200], q[512], hash[80], config[4200];
	snprintf(db, sizeof(db), "%s/boot.db", ior_test_tmpdir());
	char *run[] = { "--db", db, "vm", "run", "--matrix", (char *)ior_test_source_path("tests/data/vm-bisect.ini"), spec, NULL };
	int rc = ior_test_ioregress(run, out, sizeof(out), err, sizeof(err));
	fprintf(stderr, "\n  %s%s", out, err);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM vm_boots WHERE outcome = 'ok'"), 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM samples WHERE warmup = 0"), 5); /* and 1 warm-up */
	/* the guest found the build's config: its kernel row carries the build's config hash */
	snprintf(config, sizeof(config), "%.*s/config", (int)(strstr(spec, "/bzImage:") - spec), spec);
	first_word((char *[]){ "sha256sum", config, NULL }, hash, sizeof(hash));
	snprintf(q, sizeof(q), "SELECT count(*) FROM kernels WHERE config_hash = '%s'", hash);
	CU_ASSERT_EQUAL(ior_test_query(db, q), 1);
}

static void test_vm_run_tree(void)
{
	char db[1200], q[512];
	snprintf(db, sizeof(db), "%s/tree.db", ior_test_tmpdir());
	char *run[] = { "--db", db, "vm", "run", "--tree", tree, "--build-dir", build_dir, "--nice", "15", "--matrix",
			(char *)ior_test_source_path("tests/data/vm-bisect.ini"), "v6.1-debian", NULL };
	int rc = ior_test_ioregress(run, out, sizeof(out), err, sizeof(err));
	fprintf(stderr, "\n  %s%s", out, err);
	CU_ASSERT_EQUAL(rc, 0);
	/* stored as run --kernel-tree stores it: the commit, its describe, and a release naming it */
	snprintf(q, sizeof(q), "SELECT count(*) FROM kernels k JOIN commits c ON c.id = k.commit_id WHERE c.sha = '%s' "
		 "AND c.describe = 'v6.1-debian' AND k.release LIKE '%%-g%.12s%%'", head, head);
	CU_ASSERT_EQUAL(ior_test_query(db, q), 1);
	/* HEAD is where it was */
	char now[64];
	first_word((char *[]){ "git", "-C", tree, "rev-parse", "HEAD", NULL }, now, sizeof(now));
	CU_ASSERT_STRING_EQUAL(now, head);
}

static void test_config_refused(void)
{
	const char *frag = ior_test_write_file("novirtio.config", "# CONFIG_VIRTIO_BLK is not set\n");
	CU_ASSERT_EQUAL(kbuild(frag), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no CONFIG_VIRTIO_BLK=y after olddefconfig"));
}

int main(void)
{
	if (!getenv("IOR_BINARY"))
		ior_test_skip("IOR_BINARY is not set");
	const char *w = getenv("IOR_KERNEL_WORK");
	snprintf(work, sizeof(work), "%s", w && *w ? w : "/var/tmp/ioregress-kernel");
	snprintf(tree, sizeof(tree), "%s/linux-source-6.1", work);
	const char *bd = getenv("IOR_KERNEL_BUILD_DIR"); /* an existing build directory: only what changed compiles */
	if (bd && *bd)
		snprintf(build_dir, sizeof(build_dir), "%s", bd);
	else
		snprintf(build_dir, sizeof(build_dir), "%s/build", work);
	if (!exists(TARBALL) && !exists(tree))
		ior_test_skip("no kernel tree: install linux-source-6.1 (" TARBALL ")");
	if (ior_test_spawn((char *[]){ "qemu-system-x86_64", "--version", NULL }, NULL) != 0)
		ior_test_skip("qemu-system-x86_64 cannot run here");
	if (prepare_tree() != 0) {
		fprintf(stderr, "cannot unpack '%s' into '%s' as a git repository\n", TARBALL, work);
		return 1;
	}
	static const struct ior_test tests[] = {
		IOR_TEST(test_build),
		IOR_TEST(test_reuse),
		IOR_TEST(test_identical_image),
		IOR_TEST(test_boot_one_cell),
		IOR_TEST(test_vm_run_tree),
		IOR_TEST(test_config_refused),
		IOR_TEST_END,
	};
	return ior_test_run("kernel_real", tests);
}
