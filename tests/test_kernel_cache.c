/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for vm/kernel_source.c's cache as root: no shared default, and another user's packages and
 * planted links refused (issue 23, case 1). */
#include "common/error.h"
#include "tests/suite.h"
#include "vm/vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PKG "linux-image-9.9.9-ior"

/* A tiny kernel package built with dpkg-deb -b: boot/vmlinuz-9.9.9, a module tree, and a setuid file
 * standing for what an attacker would unpack. */
static const char *make_deb(void)
{
	static char deb[4096];
	char script[8192];
	const char *t = ior_test_tmpdir();
	snprintf(deb, sizeof(deb), "%s/" PKG "_1_amd64.deb", t);
	snprintf(script, sizeof(script),
		 "set -e; r=%s/debroot; rm -rf $r; mkdir -p $r/DEBIAN $r/boot $r/lib/modules/9.9.9 $r/bin;"
		 "printf 'Package: " PKG "\\nVersion: 1\\nArchitecture: amd64\\nMaintainer: t <t@t>\\nDescription: t\\n'"
		 " > $r/DEBIAN/control; echo k > $r/boot/vmlinuz-9.9.9; echo x > $r/bin/planted; chmod 4755 $r/bin/planted;"
		 "dpkg-deb -b -Zgzip $r %s >/dev/null",
		 t, deb);
	char *argv[] = { "sh", "-c", script, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn(argv, NULL), 0);
	return deb;
}

static bool exists(const char *p)
{
	struct stat st;
	return lstat(p, &st) == 0;
}

/* env -i, a service: no fallback to /tmp/.cache, which any user can create first. */
static void test_no_home_no_shared_default(void)
{
	char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL, *xdg = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;
	unsetenv("HOME");
	unsetenv("XDG_CACHE_HOME");
	char cache[4096] = "x";
	ior_vm_default_cache(cache, sizeof(cache));
	CU_ASSERT_STRING_EQUAL(cache, "");
	struct ior_vm_kernel k;
	CU_ASSERT_EQUAL(ior_vm_kernel_resolve(&k, PKG, cache), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "--cache-dir"));
	if (home)
		setenv("HOME", home, 1);
	if (xdg)
		setenv("XDG_CACHE_HOME", xdg, 1);
	free(home);
	free(xdg);
	setenv("HOME", "/root", 1);
	ior_vm_default_cache(cache, sizeof(cache));
	CU_ASSERT_STRING_EQUAL(cache, "/root/.cache/ioregress/kernels");
}

/* The attack: another uid owns the cache, leaves its package there and a link where root unpacks
 * (CACHE/PKG -> a root-owned directory). Root must refuse, and nothing may land in the target. */
static void test_other_users_cache_and_link_refused(void)
{
	const char *deb = make_deb(), *t = ior_test_tmpdir();
	char target[4096], cache[4096], script[16384], planted[4096];
	snprintf(target, sizeof(target), "%s/rootdir", t);
	snprintf(cache, sizeof(cache), "%s/evil/.cache/ioregress/kernels", t);
	snprintf(planted, sizeof(planted), "%s/bin/planted", target);
	CU_ASSERT_EQUAL_FATAL(mkdir(target, 0755), 0);
	char evil[4096];
	snprintf(evil, sizeof(evil), "%s/evil", t);
	CU_ASSERT_EQUAL_FATAL(mkdir(evil, 0755), 0);
	CU_ASSERT_EQUAL_FATAL(chown(evil, 65534, 65534), 0);
	chmod(deb, 0644);
	snprintf(script, sizeof(script), "set -e; mkdir -p %s; cp %s %s/; ln -s %s %s/" PKG, cache, deb, cache, target, cache);
	CU_ASSERT_EQUAL_FATAL(ior_test_as_nobody(script), 0);

	struct ior_vm_kernel k;
	int rc = ior_vm_kernel_resolve(&k, PKG, cache);
	CU_ASSERT_EQUAL(rc, IOR_EREFUSED);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "uid 65534"));
	CU_ASSERT_FALSE(exists(planted));
}

/* A root-owned cache where the other user could only plant the link (a group-writable cache of
 * their group would be the same): the link is refused by lstat, never followed. */
static void test_planted_link_in_root_cache_refused(void)
{
	const char *deb = make_deb(), *t = ior_test_tmpdir();
	char target[4096], cache[4096], cmd[16384], planted[4096];
	snprintf(target, sizeof(target), "%s/rootdir2", t);
	snprintf(cache, sizeof(cache), "%s/rootcache", t);
	snprintf(planted, sizeof(planted), "%s/bin/planted", target);
	CU_ASSERT_EQUAL_FATAL(mkdir(target, 0755), 0);
	CU_ASSERT_EQUAL_FATAL(mkdir(cache, 0755), 0);
	snprintf(cmd, sizeof(cmd), "cp %s %s/ && ln -s %s %s/" PKG, deb, cache, target, cache);
	char *argv[] = { "sh", "-c", cmd, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn(argv, NULL), 0);
	struct ior_vm_kernel k;
	CU_ASSERT_EQUAL(ior_vm_kernel_resolve(&k, PKG, cache), IOR_EREFUSED);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "symbolic link"));
	CU_ASSERT_FALSE(exists(planted));

	/* a world-writable cache is refused before anything in it is read */
	char open_cache[4096];
	snprintf(open_cache, sizeof(open_cache), "%s/opencache", t);
	CU_ASSERT_EQUAL_FATAL(mkdir(open_cache, 0777), 0);
	chmod(open_cache, 0777);
	CU_ASSERT_EQUAL(ior_vm_kernel_resolve(&k, PKG, open_cache), IOR_EREFUSED);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "every user"));
}

/* What the rule must not break: root's own cache unpacks and resolves, and a second resolve uses it. */
static void test_own_cache_resolves(void)
{
	const char *deb = make_deb(), *t = ior_test_tmpdir();
	char cache[4096], cmd[8192];
	snprintf(cache, sizeof(cache), "%s/own/kernels", t);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s && cp %s %s/", cache, deb, cache);
	char *argv[] = { "sh", "-c", cmd, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn(argv, NULL), 0);
	struct ior_vm_kernel k;
	CU_ASSERT_EQUAL(ior_test_ok(ior_vm_kernel_resolve(&k, PKG, cache)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(k.release, "9.9.9");
	CU_ASSERT_STRING_EQUAL(k.package_version, "1");
	CU_ASSERT_EQUAL(ior_test_ok(ior_vm_kernel_resolve(&k, PKG, cache)), IOR_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(k.image, "/" PKG "/boot/vmlinuz-9.9.9"));
}

int main(void)
{
	ior_test_require_root("the cache's cross-user cases need root and a second uid");
	static const struct ior_test tests[] = {
		IOR_TEST(test_no_home_no_shared_default),
		IOR_TEST(test_other_users_cache_and_link_refused),
		IOR_TEST(test_planted_link_in_root_cache_refused),
		IOR_TEST(test_own_cache_resolves),
		IOR_TEST_END,
	};
	return ior_test_run("kernel_cache", tests);
}
