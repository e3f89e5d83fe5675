/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for vm/package_name.c through the commands that take kernel package names (vm run, bisect
 * start --kernels, and a name bisect run meets later): a release string or a metapackage gets a
 * did-you-mean with package names apt's lists hold, never a debug package, before anything is
 * fetched, booted or recorded. It reads apt's local lists (apt-cache pkgnames, no network) and
 * skips where they hold no linux-image package (ci/setup.sh fetches them); vm run gets /bin/false
 * as its qemu, so nothing here can boot. */
#include "common/error.h"
#include "common/spawn.h"
#include "tests/suite.h"
#include "vm/vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static char *apt;   /* apt-cache pkgnames linux-image-: one name a line */
static char out[65536], err[65536];

static bool is_debug(const char *name)
{
	size_t n = strlen(name);
	return (n > 4 && !strcmp(name + n - 4, "-dbg")) || (n > 7 && !strcmp(name + n - 7, "-dbgsym"));
}

static bool in_apt(const char *name)
{
	size_t n = strlen(name);
	for (const char *p = strstr(apt, name); p; p = strstr(p + 1, name))
		if ((p == apt || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return true;
	return false;
}

/* The first name of apt's list that keep says yes to, into name; false when none does. */
static bool first_name(bool (*keep)(const char *), char *name, size_t len)
{
	for (const char *p = apt; *p;) {
		size_t l = strcspn(p, "\n");
		snprintf(name, len, "%.*s", (int)l, p);
		p += l + (p[l] == '\n');
		if (l && keep(name))
			return true;
	}
	return false;
}

static bool bootable(const char *name)
{
	char rel[128];
	bool ok = !is_debug(name) && ior_vm_package_release(name, rel, sizeof(rel)) == IOR_OK;
	ior_error_clear();
	return ok;
}

/* A metapackage: an image package that names no release and carries no debug symbols (nor is the
 * template signed images are built from, linux-image-amd64-signed-template). */
static bool metapackage(const char *name)
{
	return !is_debug(name) && !bootable(name) && !strstr(name, "-signed-template");
}

/* The did-you-mean of an error: every quoted name between "did you mean " and "?)" is a package
 * apt's lists hold, bootable, no debug package, and holds needle; a metapackage's (needle a flavour,
 * amd64) names a release of that very flavour (6.1.0-47-amd64, never 6.1.0-47-rt-amd64). Returns how
 * many there are. */
static int check_suggestions(const char *text, const char *needle)
{
	const char *from = strstr(text, "did you mean "), *to = from ? strstr(from, "?)") : NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(to);
	int n = 0;
	for (const char *p = strchr(from, '\''); p && p < to;) {
		const char *end = strchr(p + 1, '\'');
		CU_ASSERT_PTR_NOT_NULL_FATAL(end);
		char name[256];
		snprintf(name, sizeof(name), "%.*s", (int)(end - p - 1), p + 1);
		printf("\n  suggested: %s", name);
		CU_ASSERT_TRUE(in_apt(name));
		CU_ASSERT_TRUE(bootable(name));
		CU_ASSERT_FALSE(is_debug(name));
		CU_ASSERT_PTR_NULL(strstr(name, "-signed-template"));
		CU_ASSERT_PTR_NOT_NULL(strstr(name, needle));
		char rel[128];
		size_t rl = ior_vm_package_release(name, rel, sizeof(rel)) == IOR_OK ? strlen(rel) : 0, nl = strlen(needle);
		if (!(needle[0] >= '0' && needle[0] <= '9'))
			CU_ASSERT(rl > nl + 1 && !strcmp(rel + rl - nl, needle) && rel[rl - nl - 1] == '-' &&
				  strchr("0123456789", rel[rl - nl - 2]));
		n++;
		p = strchr(end + 1, '\'');
	}
	return n;
}

/* vm run and bisect start --kernels with name first: both refuse it (exit 2) with suggestions that
 * hold needle, and bisect start records nothing. */
static void refused_everywhere(const char *name, const char *needle)
{
	const char *db = ior_test_path("names.db");
	char matrix[4096], cache[4096];
	snprintf(matrix, sizeof(matrix), "%s", ior_test_source_path("tests/data/vm-bisect.ini"));
	snprintf(cache, sizeof(cache), "%s/cache", ior_test_tmpdir());
	char *vm[] = { "--db", (char *)db, "vm", "run", "--qemu", "/bin/false", "--cache-dir", cache, "--matrix", matrix,
		       (char *)name, NULL };
	int rc = ior_test_ioregress(vm, out, sizeof(out), err, sizeof(err));
	printf("\n  vm run %s: exit %d: %s", name, rc, err);
	CU_ASSERT_EQUAL(rc, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "is not a bootable kernel package (did you mean "));
	CU_ASSERT(check_suggestions(err, needle) >= 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM vm_boots"), 0);
	char *start[] = { "--db", (char *)db, "bisect", "start", "--kernels", (char *)name, "/a/bzImage:/a/modules",
			  "/b/bzImage:/b/modules", NULL };
	rc = ior_test_ioregress(start, out, sizeof(out), err, sizeof(err));
	printf("\n  bisect start --kernels %s: exit %d: %s", name, rc, err);
	CU_ASSERT_EQUAL(rc, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--kernels: '"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "is not a bootable kernel package (did you mean "));
	CU_ASSERT(check_suggestions(err, needle) >= 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisects"), 0);
}

/* 6.1.0-47-cloud-amd64 for linux-image-6.1.0-47-cloud-amd64: the release of a package apt has. */
static void test_release_string_gets_did_you_mean(void)
{
	char name[256], release[128];
	CU_ASSERT_TRUE_FATAL(first_name(bootable, name, sizeof(name)));
	CU_ASSERT_EQUAL_FATAL(ior_vm_package_release(name, release, sizeof(release)), IOR_OK);
	refused_everywhere(release, release);
}

/* linux-image-cloud-amd64: names the packages whose names hold cloud-amd64. */
static void test_metapackage_gets_did_you_mean(void)
{
	char name[256];
	if (!first_name(metapackage, name, sizeof(name))) {
		ior_test_not_run("apt's lists hold no linux-image metapackage");
		return;
	}
	refused_everywhere(name, name + strlen("linux-image-"));
}

/* A debug package given is refused with its bootable siblings, never another debug package. */
static void test_debug_package_never_suggested(void)
{
	char name[256];
	if (!first_name(is_debug, name, sizeof(name))) {
		ior_test_not_run("apt's lists hold no linux-image debug package");
		return;
	}
	char stem[256];
	snprintf(stem, sizeof(stem), "%.*s", (int)(strlen(name) - (strstr(name, "-dbgsym") ? 7 : 4) - 12), name + 12);
	refused_everywhere(name, stem);
}

/* Issue 37: a name cut short (linux-image-6.1.0-47-cloud for linux-image-6.1.0-47-cloud-amd64) is
 * more than two edits from any package, and got no suggestion: now the packages it begins. */
static void test_name_cut_short_gets_did_you_mean(void)
{
	char name[256];
	CU_ASSERT_TRUE_FATAL(first_name(bootable, name, sizeof(name)));
	char cut[256];
	snprintf(cut, sizeof(cut), "%.*s", (int)(strrchr(name, '-') - name), name);
	const char *db = ior_test_path("cut.db");
	char matrix[4096], cache[4096];
	snprintf(matrix, sizeof(matrix), "%s", ior_test_source_path("tests/data/vm-bisect.ini"));
	snprintf(cache, sizeof(cache), "%s/cache", ior_test_tmpdir());
	char *vm[] = { "--db", (char *)db, "vm", "run", "--qemu", "/bin/false", "--cache-dir", cache, "--matrix", matrix,
		       cut, NULL };
	int rc = ior_test_ioregress(vm, out, sizeof(out), err, sizeof(err));
	printf("\n  vm run %s: exit %d: %s", cut, rc, err);
	CU_ASSERT_NOT_EQUAL(rc, 0);
	char expect[400];
	snprintf(expect, sizeof(expect), "(did you mean '%s", cut);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, expect));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM vm_boots"), 0);
}

/* A release string that reaches bisect run (a bisection replayed from a log, or started before
 * start checked names) stops at its "build" with the check's own words, not a bare "build failed";
 * nothing is fetched (the cache is the test's) and nothing boots. */
static void test_release_string_at_run_keeps_its_message(void)
{
	char name[256], release[128];
	CU_ASSERT_TRUE_FATAL(first_name(bootable, name, sizeof(name)));
	CU_ASSERT_EQUAL_FATAL(ior_vm_package_release(name, release, sizeof(release)), IOR_OK);
	char text[1024];
	snprintf(text, sizeof(text), "start --kernels %s /a/bzImage:/a/modules /b/bzImage:/b/modules\n", release);
	const char *log = ior_test_write_file("release.log", text), *db = ior_test_path("run.db");
	char cache[4096], matrix[4096];
	snprintf(cache, sizeof(cache), "%s/xdg", ior_test_tmpdir());
	setenv("XDG_CACHE_HOME", cache, 1);
	char *replay[] = { "--db", (char *)db, "bisect", "replay", (char *)log, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(replay, out, sizeof(out), err, sizeof(err)), 0);
	snprintf(matrix, sizeof(matrix), "%s", ior_test_source_path("tests/data/vm-bisect.ini"));
	char *run[] = { "--db", (char *)db, "bisect", "run", "--matrix", matrix, NULL };
	int rc = ior_test_ioregress(run, out, sizeof(out), err, sizeof(err));
	printf("\n  exit %d\n%s%s", rc, out, err);
	CU_ASSERT_EQUAL(rc, 1);
	snprintf(text, sizeof(text), "stopped: the good end %s does not build\n  its build failed: ", release);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, text));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "is not a bootable kernel package (did you mean "));
	CU_ASSERT(check_suggestions(out, release) >= 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_log WHERE event = 'build-error' AND detail LIKE "
				       "'%did you mean%'"), 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM vm_boots"), 0);
	unsetenv("XDG_CACHE_HOME");
}

int main(void)
{
	if (!getenv("IOR_BINARY"))
		ior_test_skip("IOR_BINARY is not set");
	struct ior_spawn r = { .argv = (const char *const[]){ "apt-cache", "pkgnames", "linux-image-", NULL },
			       .out_to = IOR_SPAWN_OUT_CAPTURE };
	if (ior_spawn_run(&r) != IOR_OK || !WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0 || !r.out) {
		ior_spawn_free(&r);
		ior_test_skip("apt-cache cannot list packages here");
	}
	apt = r.out;
	char name[256];
	if (!first_name(bootable, name, sizeof(name)))
		ior_test_skip("apt's lists hold no linux-image package (run apt-get update, as ci/setup.sh does)");
	static const struct ior_test tests[] = {
		IOR_TEST(test_release_string_gets_did_you_mean),
		IOR_TEST(test_metapackage_gets_did_you_mean),
		IOR_TEST(test_debug_package_never_suggested),
		IOR_TEST(test_name_cut_short_gets_did_you_mean),
		IOR_TEST(test_release_string_at_run_keeps_its_message),
		IOR_TEST_END,
	};
	int rc = ior_test_run("package_name", tests);
	free(apt);
	return rc;
}
