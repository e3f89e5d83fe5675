/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A tree revision as a kernel for a real machine, on the test-bed: Debian's linux-source-6.1 built
 * with the guest's own config trimmed to its loaded modules (localmodconfig), packaged with make
 * bindeb-pkg, installed on the guest over SSH, booted with kexec, measured, and purged at the end.
 * Label "kernel machine slow": a build of a distribution config takes hours on 2 busy cores; run by
 * hand in pieces (make resumes where it stopped), never in CI:
 *   flock /tmp/ior-root-tests.lock tests/machine/piece.sh 1500 build/tests/test_machine_kernel
 * with IOR_BINARY, IOR_SOURCE_DIR and IOR_BUILD_DIR set as ctest sets them. The tree and the build stay
 * in IOR_MACHINE_KERNEL_WORK (default /var/tmp/ioregress-machine-kernel) between pieces. */
#include "tests/machine/testbed.h"
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TARBALL "/usr/src/linux-source-6.1.tar.xz"

static struct ior_testbed m;
static char work[1024], tree[1200], build_dir[1200], head[64];

static bool exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int git(char *a, char *b, char *c, char *d)
{
	char *argv[] = { "git", "-C", tree, "-c", "user.name=ioregress", "-c", "user.email=test@ioregress", a, b, c, d, NULL };
	return ior_test_spawn(argv, NULL);
}

/* The tree: a git repository of Debian's linux-source-6.1 with one commit, made once in the work
 * directory (the kernel suite's own when it is there: a local clone shares its objects) and kept. */
static int prepare_tree(void)
{
	char git_dir[1300], theirs[1300];
	snprintf(git_dir, sizeof(git_dir), "%s/.git", tree);
	if (exists(git_dir))
		return 0;
	mkdir(work, 0755);
	snprintf(theirs, sizeof(theirs), "%s", "/var/tmp/ioregress-kernel/linux-source-6.1/.git");
	if (exists(theirs)) {
		theirs[strlen(theirs) - 5] = '\0';
		return ior_test_spawn((char *[]){ "git", "clone", "-q", theirs, tree, NULL }, NULL);
	}
	char *tar[] = { "nice", "-n", "15", "tar", "xJf", TARBALL, "-C", work, NULL };
	if (ior_test_spawn(tar, NULL) != 0)
		return -1;
	return git("init", "-q", NULL, NULL) || git("add", "-f", "-A", ".") || git("commit", "-qm", "linux-source-6.1", NULL);
}

static long long q(const char *db, const char *sql)
{
	return ior_test_query(db, sql);
}

/* Lines of text holding word, for comparing configs. */
static int count(const char *text, const char *word)
{
	int n = 0;
	for (const char *p = text; p && (p = strstr(p, word)); p += strlen(word))
		n++;
	return n;
}

static void test_tree_on_target(void)
{
	double t0 = now_s();
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_image(&m)) == 0);
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_boot(&m, "machine-kernel", 600)) == 0);
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_install_ioregress(&m, NULL)) == 0);
	double booted = now_s() - t0;
	const char *matrix = ior_test_write_file(
		"m.ini", "[matrix]\nrepetitions = 3\nwarmup = 1\nschedulers = mq-deadline\n[device vdb]\npath = /dev/vdb\n"
			 "[engine hdparm-direct]\ntype = hdparm\ndirect = yes\nduration = 1s\nsettle = 0.2s\n");
	char db[1200], key[1300], out[8192], err[65536];
	snprintf(db, sizeof(db), "%s", ior_test_path("kernel.db"));
	snprintf(key, sizeof(key), "IdentityFile=%s", m.key);
	char *args[] = { "--db", db, "vm", "run", "--target", m.target, "--ssh-option", key, "--ssh-option",
			 "StrictHostKeyChecking=no", "--ssh-option", "UserKnownHostsFile=/dev/null", "--ssh-option",
			 "LogLevel=ERROR", "--tree", tree, "--build-dir", build_dir, "--nice", "19", "--localmodconfig",
			 "--matrix", (char *)matrix, "--boots", "1", "--boot-timeout", "900", "HEAD", NULL };
	double r0 = now_s();
	int status = ior_test_ioregress(args, out, sizeof(out), err, sizeof(err));
	double ran = now_s() - r0;
	fprintf(stderr, "\n%s%s\n", out, err);
	CU_ASSERT_EQUAL(status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "trimmed to its loaded modules"));
	/* the release names HEAD's commit; the boot was of it, ok, measured and merged */
	char release[200], sql[600];
	snprintf(release, sizeof(release), "%%-g%.12s", head);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM vm_boots WHERE outcome = 'ok' AND kernel_release LIKE '%s' AND target = '%s'",
		 release, m.target);
	CU_ASSERT_EQUAL(q(db, sql), 1);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM sample_view WHERE kernel LIKE '%s' AND warmup = 0", release);
	CU_ASSERT_EQUAL(q(db, sql), 3);
	/* the kernel's identity holds the release's short sha; its commit row the whole one, filled in by
	 * the controller (the target has no tree) */
	snprintf(sql, sizeof(sql),
		 "SELECT count(*) FROM kernels k JOIN commits c ON c.id = k.commit_id WHERE k.release LIKE '%s' "
		 "AND k.git_commit = '%.12s' AND c.sha = '%s'",
		 release, head, head);
	CU_ASSERT_EQUAL(q(db, sql), 1);
	/* installed as a package, recorded, and purged at the end: the guest back on its default kernel */
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM target_installs WHERE package LIKE 'linux-image-%-g%' AND removed_at IS NOT NULL"),
			1);
	char here[512];
	CU_ASSERT_EQUAL(ior_testbed_ssh(&m, "uname -r; dpkg -l 'linux-image-*-g*' 2>/dev/null | grep -c '^ii' || true", here,
					sizeof(here), 60), 0);
	char want[200];
	snprintf(want, sizeof(want), "%s\n0", m.default_kernel);
	CU_ASSERT_STRING_EQUAL(here, want);
	/* the config built: the guest's own, trimmed to its modules (far fewer =m than Debian's) */
	char guest_config[256], cmd[400], *theirs = malloc(1 << 20);
	snprintf(cmd, sizeof(cmd), "cat /boot/config-%s", m.default_kernel);
	CU_ASSERT_EQUAL(ior_testbed_ssh(&m, cmd, theirs, 1 << 20, 60), 0);
	snprintf(guest_config, sizeof(guest_config), "%s/build/.config", build_dir);
	char *ours = ior_test_read_file(guest_config, NULL);
	CU_ASSERT_PTR_NOT_NULL(ours);
	int mods_ours = count(ours, "=m\n"), mods_theirs = count(theirs, "=m\n");
	fprintf(stderr, "modules: %d in the guest's config, %d after localmodconfig\n", mods_theirs, mods_ours);
	CU_ASSERT(mods_ours > 0 && mods_ours * 4 < mods_theirs);
	CU_ASSERT_PTR_NOT_NULL(ours ? strstr(ours, "CONFIG_DEBUG_INFO_NONE=y") : NULL);
	free(ours);
	free(theirs);
	double load[3] = { 0 };
	getloadavg(load, 3);
	fprintf(stderr, "machine_kernel: the whole case %.0f s (test-bed up %.0f s, vm run %.0f s), load %.1f %.1f %.1f\n",
		now_s() - t0, booted, ran, load[0], load[1], load[2]);
}

int main(void)
{
	if (!getenv("IOR_BINARY"))
		ior_test_skip("IOR_BINARY is not set");
	const char *w = getenv("IOR_MACHINE_KERNEL_WORK");
	snprintf(work, sizeof(work), "%s", w && *w ? w : "/var/tmp/ioregress-machine-kernel");
	snprintf(tree, sizeof(tree), "%s/linux-source-6.1", work);
	snprintf(build_dir, sizeof(build_dir), "%s/build", work);
	if (!exists(TARBALL) && !exists(tree))
		ior_test_skip("no kernel tree: install linux-source-6.1 (" TARBALL ")");
	if (prepare_tree() != 0) {
		fprintf(stderr, "cannot make the git tree '%s'\n", tree);
		return 1;
	}
	char path[1300];
	snprintf(path, sizeof(path), "%s/head", work);
	ior_test_spawn_to((char *[]){ "git", "-C", tree, "rev-parse", "HEAD", NULL }, NULL, path, NULL);
	char *h = ior_test_read_file(path, NULL);
	snprintf(head, sizeof(head), "%.40s", h ? h : "");
	free(h);
	static const struct ior_test tests[] = {
		IOR_TEST(test_tree_on_target),
		IOR_TEST_END,
	};
	return ior_test_run("machine_kernel", tests);
}
