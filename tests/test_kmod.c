/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for kernel/modules: scheduler module states via libkmod on a real Debian kernel package's
 * module tree, and on a kernel without one. */
#include "common/error.h"
#include "kernel/info.h"
#include "kernel/modules.h"
#include "kernel/sched_history.h"
#include "tests/suite.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define CACHE_DIR "/tmp/ioregress-kernel-cache"
#define META_PACKAGE "linux-image-cloud-amd64"

static char package[128];    /* linux-image-6.1.0-NN-cloud-amd64 */
static char root[PATH_MAX];  /* the extracted package */
static char modules_dir[PATH_MAX + 16], release[256];

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Runs argv (no shell) in dir, stdout to out_path (NULL: to /dev/null); returns the exit status. */
static int run(const char *dir, const char *out_path, char *const argv[])
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	if (dir)
		posix_spawn_file_actions_addchdir_np(&fa, dir);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out_path ? out_path : "/dev/null",
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	pid_t pid;
	int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err)
		return -1;
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The package the cloud meta-package currently depends on, unless IOR_KMOD_PACKAGE names one. */
static bool choose_package(void)
{
	const char *env = getenv("IOR_KMOD_PACKAGE");
	if (env && *env) {
		snprintf(package, sizeof(package), "%s", env);
		return true;
	}
	char out[PATH_MAX];
	snprintf(out, sizeof(out), "%s/depends.txt", CACHE_DIR);
	char *argv[] = { "apt-cache", "depends", META_PACKAGE, NULL };
	if (run(NULL, out, argv) != 0)
		return false;
	FILE *f = fopen(out, "r");
	char line[256];
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, " Depends: %127[a-z0-9.+-]", package) == 1 && strncmp(package, "linux-image-", 12) == 0)
			break;
		else
			package[0] = '\0';
	if (f)
		fclose(f);
	return package[0] != '\0';
}

static bool find_deb(char *deb, size_t len)
{
	char pattern[PATH_MAX];
	snprintf(pattern, sizeof(pattern), "%s/%s_*.deb", CACHE_DIR, package);
	glob_t g;
	bool found = glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0;
	if (found)
		snprintf(deb, len, "%s", g.gl_pathv[g.gl_pathc - 1]);
	globfree(&g);
	return found;
}

static void download(char *deb, size_t len)
{
	char *get[] = { "apt-get", "-q", "download", package, NULL };
	if (run(CACHE_DIR, NULL, get) != 0) {
		char *update[] = { "apt-get", "-q", "update", NULL };
		if (run(NULL, NULL, update) != 0 || run(CACHE_DIR, NULL, get) != 0)
			ior_test_skip("cannot download %s with apt-get (no network or no such package)", package);
	}
	if (!find_deb(deb, len))
		ior_test_skip("apt-get download %s left no .deb in %s", package, CACHE_DIR);
}

/* The extracted tree holds exactly one lib/modules/RELEASE. */
static bool find_release(void)
{
	snprintf(modules_dir, sizeof(modules_dir), "%s/lib/modules", root);
	DIR *d = opendir(modules_dir);
	if (!d)
		return false;
	struct dirent *e;
	release[0] = '\0';
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			snprintf(release, sizeof(release), "%s", e->d_name);
	closedir(d);
	return release[0] != '\0';
}

/* Download, extract and depmod once; later runs reuse the cache (marked by "done"). */
static void prepare_tree(void)
{
	mkdir(CACHE_DIR, 0755);
	if (!choose_package())
		ior_test_skip("cannot find a Debian kernel package: 'apt-cache depends %s' failed", META_PACKAGE);
	char done[PATH_MAX + 16];
	snprintf(root, sizeof(root), "%s/%s", CACHE_DIR, package);
	snprintf(done, sizeof(done), "%s.done", root);
	if (access(done, F_OK) == 0 && find_release()) {
		fprintf(stderr, "using cached %s (%s)\n", package, release);
		return;
	}
	double t0 = now();
	char deb[PATH_MAX];
	if (!find_deb(deb, sizeof(deb)))
		download(deb, sizeof(deb));
	double t1 = now();
	char *rm[] = { "rm", "-rf", "--", root, NULL };
	run(NULL, NULL, rm);
	char *extract[] = { "dpkg-deb", "-x", deb, root, NULL };
	if (run(NULL, NULL, extract) != 0 || !find_release())
		ior_test_skip("cannot extract '%s' with dpkg-deb", deb);
	double t2 = now();
	char *depmod[] = { "depmod", "-b", root, release, NULL };
	if (run(NULL, NULL, depmod) != 0)
		ior_test_skip("depmod -b '%s' %s failed", root, release);
	double t3 = now();
	FILE *f = fopen(done, "w");
	if (f)
		fclose(f);
	fprintf(stderr, "%s (%s): download %.1f s, extract %.1f s, depmod %.1f s\n", deb, release, t1 - t0,
		t2 - t1, t3 - t2);
}

static struct ior_kmod *open_package_tree(void)
{
	struct ior_kmod *k = NULL;
	CU_ASSERT_EQUAL(ior_kmod_open(&k, modules_dir, release), IOR_OK);
	return k;
}

static void expect_state(struct ior_kmod *k, const char *module, enum ior_mod_state want)
{
	enum ior_mod_state st = IOR_MOD_NO_TREE;
	CU_ASSERT_EQUAL(ior_kmod_state(k, module, &st), IOR_OK);
	if (st != want)
		fprintf(stderr, "%s on %s: %s, want %s\n", module, release, ior_mod_state_name(st),
			ior_mod_state_name(want));
	CU_ASSERT_EQUAL(st, want);
}

static void test_package_tree_bfq_and_kyber_loadable(void)
{
	struct ior_kmod *k = open_package_tree();
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	CU_ASSERT_TRUE(ior_kmod_has_tree(k));
	CU_ASSERT_FALSE(ior_kmod_is_running(k));
	expect_state(k, "bfq", IOR_MOD_LOADABLE);
	expect_state(k, "kyber-iosched", IOR_MOD_LOADABLE);
	expect_state(k, "kyber_iosched", IOR_MOD_LOADABLE);
	/* the module file libkmod names is really in the extracted tree */
	char path[PATH_MAX];
	CU_ASSERT_EQUAL(ior_kmod_path(k, "bfq", path, sizeof(path)), IOR_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(path, "/block/bfq.ko"));
	CU_ASSERT_EQUAL(strncmp(path, root, strlen(root)), 0);
	CU_ASSERT_EQUAL(access(path, R_OK), 0);
	ior_kmod_free(k);
}

/* mq-deadline is whatever the package's own config makes it. */
static void test_package_tree_mq_deadline_follows_config(void)
{
	char config[PATH_MAX + 300], *text;
	size_t len;
	snprintf(config, sizeof(config), "%s/boot/config-%s", root, release);
	CU_ASSERT_EQUAL_FATAL(ior_kernel_config_load(&text, &len, config), IOR_OK);
	char v = ior_kernel_config_value(text, "CONFIG_MQ_IOSCHED_DEADLINE");
	free(text);
	fprintf(stderr, "%s: CONFIG_MQ_IOSCHED_DEADLINE=%c\n", release, v);
	struct ior_kmod *k = open_package_tree();
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	expect_state(k, "mq-deadline", v == 'y' ? IOR_MOD_BUILTIN : v == 'm' ? IOR_MOD_LOADABLE : IOR_MOD_ABSENT);
	ior_kmod_free(k);
}

/* 6.x has no legacy schedulers (removed in 5.0): the history and the tree agree. */
static void test_package_tree_has_no_legacy_schedulers(void)
{
	struct ior_kmod *k = open_package_tree();
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	size_t n;
	const char *const *mods = ior_kmod_scheduler_modules(&n);
	CU_ASSERT_EQUAL(n, 7);
	const struct ior_sched_info *h = ior_sched_history(&n);
	for (size_t i = 0; i < n; i++) {
		if (!h[i].module || ior_sched_upstream(&h[i], release))
			continue;
		expect_state(k, h[i].module, IOR_MOD_ABSENT);
	}
	CU_ASSERT_STRING_EQUAL(mods[0], "as-iosched");
	ior_kmod_free(k);
}

static void test_loading_into_another_kernel_is_refused(void)
{
	struct ior_kmod *k = open_package_tree();
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	CU_ASSERT_EQUAL(ior_kmod_load(k, "bfq"), IOR_EREFUSED);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "not the running kernel's tree"));
	CU_ASSERT_EQUAL(ior_kmod_loaded_count(k), 0);
	ior_kmod_free(k);
}

/* A kernel without a module tree is reported, not an error; its config still tells =y from unset. */
static void test_kernel_without_tree(void)
{
	const char *dir = ior_test_tmpdir();
	char modules[PATH_MAX], boot[PATH_MAX];
	snprintf(modules, sizeof(modules), "%s/lib/modules", dir);
	snprintf(boot, sizeof(boot), "%s/boot", dir);
	CU_ASSERT_EQUAL(mkdir(boot, 0755) == 0 || errno == EEXIST, 1);
	char lib[PATH_MAX];
	snprintf(lib, sizeof(lib), "%s/lib", dir);
	mkdir(lib, 0755);
	CU_ASSERT_EQUAL_FATAL(mkdir(modules, 0755) == 0 || errno == EEXIST, 1);

	struct ior_kmod *k = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_kmod_open(&k, modules, "6.18.44-test"), IOR_OK);
	CU_ASSERT_FALSE(ior_kmod_has_tree(k));
	enum ior_mod_state st;
	CU_ASSERT_EQUAL(ior_kmod_state(k, "bfq", &st), IOR_OK);
	CU_ASSERT_EQUAL(st, IOR_MOD_NO_TREE);
	CU_ASSERT_STRING_EQUAL(ior_mod_state_name(st), "no module tree");
	CU_ASSERT_EQUAL(ior_kmod_load(k, "bfq"), IOR_EUNSUPPORTED);
	ior_kmod_free(k);

	/* the same kernel with a config beside it */
	char cfg[PATH_MAX + 32];
	snprintf(cfg, sizeof(cfg), "%s/config-6.18.44-test", boot);
	FILE *f = fopen(cfg, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("CONFIG_MQ_IOSCHED_DEADLINE=y\nCONFIG_MQ_IOSCHED_KYBER=m\n# CONFIG_IOSCHED_BFQ is not set\n", f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(ior_kmod_open(&k, modules, "6.18.44-test"), IOR_OK);
	CU_ASSERT_EQUAL(ior_kmod_state(k, "mq-deadline", &st), IOR_OK);
	CU_ASSERT_EQUAL(st, IOR_MOD_BUILTIN);
	CU_ASSERT_EQUAL(ior_kmod_state(k, "kyber-iosched", &st), IOR_OK);
	CU_ASSERT_EQUAL(st, IOR_MOD_NO_TREE);
	CU_ASSERT_EQUAL(ior_kmod_state(k, "bfq", &st), IOR_OK);
	CU_ASSERT_EQUAL(st, IOR_MOD_ABSENT);
	ior_kmod_free(k);
	ior_kmod_free(NULL);
}

/* The running kernel: this machine has no tree, so states come from its config or say so. */
static void test_running_kernel_states_are_consistent(void)
{
	struct ior_kmod *k = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_kmod_open(&k, NULL, NULL), IOR_OK);
	CU_ASSERT_TRUE(ior_kmod_is_running(k));
	size_t n;
	const char *const *mods = ior_kmod_scheduler_modules(&n);
	for (size_t i = 0; i < n; i++) {
		enum ior_mod_state st;
		CU_ASSERT_EQUAL(ior_kmod_state(k, mods[i], &st), IOR_OK);
		if (!ior_kmod_has_tree(k))
			CU_ASSERT(st == IOR_MOD_NO_TREE || st == IOR_MOD_BUILTIN || st == IOR_MOD_ABSENT);
		fprintf(stderr, "running %s: %s %s\n", ior_kmod_release(k), mods[i], ior_mod_state_name(st));
	}
	ior_kmod_free(k);
}

int main(void)
{
	prepare_tree();
	static const struct ior_test tests[] = {
		IOR_TEST(test_package_tree_bfq_and_kyber_loadable),
		IOR_TEST(test_package_tree_mq_deadline_follows_config),
		IOR_TEST(test_package_tree_has_no_legacy_schedulers),
		IOR_TEST(test_loading_into_another_kernel_is_refused),
		IOR_TEST(test_kernel_without_tree),
		IOR_TEST(test_running_kernel_states_are_consistent),
		IOR_TEST_END,
	};
	return ior_test_run("kmod", tests);
}
