/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The installed tool: `cmake --install` with DESTDIR lays out every file, and the Debian package
 * from cpack depends on the right libraries, recommends what vm run needs, names its maintainer,
 * unpacks with dpkg -x, runs, shows its gzipped man pages and is lintian-clean of errors. */
#include "tests/suite.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *build_dir(void)
{
	const char *dir = getenv("IOR_BUILD_DIR");
	return dir && *dir ? dir : "build";
}

/* Runs a shell command line and returns what it printed on stdout (at most len - 1 bytes) and
 * its exit status; -1 when it could not run. The test builds every line from its own paths. */
static int capture(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int capture(char *out, size_t len, const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	size_t n = fread(out, 1, len - 1, p);
	out[n] = '\0';
	int status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool exists(const char *root, const char *relative)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", root, relative);
	struct stat st;
	bool there = stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
	if (!there)
		fprintf(stderr, "\n  missing: %s", path);
	return there;
}

/* The files a user of the package needs, under a root that holds usr/. */
static void check_layout(const char *root)
{
	CU_ASSERT_TRUE(exists(root, "usr/bin/ioregress"));
	/* the guest binary vm run puts into its guests, where ioregress looks for it (vm/guest_binary.c) */
	CU_ASSERT_TRUE(exists(root, "usr/libexec/ioregress/ioregress-guest"));
	CU_ASSERT_TRUE(exists(root, "usr/share/man/man1/ioregress.1.gz"));
	CU_ASSERT_TRUE(exists(root, "usr/share/man/man1/ioregress-run.1.gz"));
	CU_ASSERT_TRUE(exists(root, "usr/share/man/man1/ioregress-check.1.gz"));
	CU_ASSERT_TRUE(exists(root, "usr/share/man/man5/ioregress-matrix.5.gz"));
	CU_ASSERT_TRUE(exists(root, "usr/share/bash-completion/completions/ioregress"));
	CU_ASSERT_TRUE(exists(root, "usr/share/doc/ioregress/examples/seed-hdparm.ini"));
	CU_ASSERT_TRUE(exists(root, "usr/share/doc/ioregress/examples/seed-fio.ini"));
	CU_ASSERT_TRUE(exists(root, "usr/share/doc/ioregress/copyright"));
	CU_ASSERT_TRUE(exists(root, "usr/share/doc/ioregress/changelog.gz"));
	/* man pages gzipped, as Debian policy wants: none left plain */
	char plain[1024];
	snprintf(plain, sizeof(plain), "%s/usr/share/man/man*/*.[0-9]", root);
	CU_ASSERT_EQUAL(ior_test_count_glob(plain), 0);
	/* one program: the test suites and the libraries stay in the build tree */
	char pattern[1024];
	snprintf(pattern, sizeof(pattern), "%s/usr/bin/*", root);
	CU_ASSERT_EQUAL(ior_test_count_glob(pattern), 1);
	snprintf(pattern, sizeof(pattern), "%s/usr/lib*/*.a", root);
	CU_ASSERT_EQUAL(ior_test_count_glob(pattern), 0);
}

static void test_install_honours_prefix_and_destdir(void)
{
	char root[1024], out[8192];
	snprintf(root, sizeof(root), "%s/destdir", ior_test_tmpdir());
	int status = capture(out, sizeof(out), "DESTDIR='%s' cmake --install '%s' --prefix /usr 2>&1", root, build_dir());
	if (status)
		fprintf(stderr, "\n%s", out);
	CU_ASSERT_EQUAL_FATAL(status, 0);
	check_layout(root);
	/* every file went below DESTDIR: no install line names a path outside it */
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
		if (!strncmp(line, "-- Installing: ", 15) || !strncmp(line, "-- Up-to-date: ", 15))
			CU_ASSERT_NSTRING_EQUAL(line + 15, root, strlen(root));
}

static void test_deb_depends_unpacks_runs_and_has_man_pages(void)
{
	char pkg[1024], root[1024], out[16384], deb[1024];
	snprintf(pkg, sizeof(pkg), "%s/pkg", ior_test_tmpdir());
	snprintf(root, sizeof(root), "%s/root", ior_test_tmpdir());
	int status = capture(out, sizeof(out), "cpack -G DEB --config '%s/CPackConfig.cmake' -B '%s' 2>&1", build_dir(), pkg);
	if (status)
		fprintf(stderr, "\n%s", out);
	CU_ASSERT_EQUAL_FATAL(status, 0);
	CU_ASSERT_EQUAL_FATAL(capture(deb, sizeof(deb), "ls '%s'/ioregress_*_*.deb", pkg), 0);
	deb[strcspn(deb, "\n")] = '\0';

	/* Depends: from dpkg-shlibdeps, one package per library the binary links */
	CU_ASSERT_EQUAL(capture(out, sizeof(out), "dpkg-deb -f '%s' Depends", deb), 0);
	const char *libs[] = { "libc6", "libsqlite3-0", "libaio1", "liburing2", "libkmod2", "libblkid1",
			       "libjson-c5", "zlib1g", "libssl3" };
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		bool listed = strstr(out, libs[i]) != NULL;
		if (!listed)
			fprintf(stderr, "\n  Depends: lacks %s: %s", libs[i], out);
		CU_ASSERT_TRUE(listed);
	}
	CU_ASSERT_EQUAL(capture(out, sizeof(out), "dpkg-deb -f '%s' Package Version", deb), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "Package: ioregress\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "Version: " IOR_VERSION "\n"));

	CU_ASSERT_EQUAL_FATAL(capture(out, sizeof(out), "dpkg -x '%s' '%s' 2>&1", deb, root), 0);
	check_layout(root);
	CU_ASSERT_EQUAL(capture(out, sizeof(out), "'%s/usr/bin/ioregress' --version", root), 0);
	CU_ASSERT_STRING_EQUAL(out, "ioregress " IOR_VERSION "\n");
	CU_ASSERT_EQUAL(capture(out, sizeof(out), "MANWIDTH=100 man -l '%s/usr/share/man/man1/ioregress-run.1.gz' 2>&1", root), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "ioregress-run - run a test matrix and store every sample"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "--allow-destructive"));
	CU_ASSERT_EQUAL(capture(out, sizeof(out), "MANWIDTH=100 man -l '%s/usr/share/man/man5/ioregress-matrix.5.gz' 2>&1", root), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "iodepth"));
	CU_ASSERT_EQUAL(capture(out, sizeof(out), "cat '%s/usr/share/doc/ioregress/copyright'", root), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "License: GPL-2.0-or-later"));

	/* a package-only install runs vm run: qemu and busybox come with apt's default Recommends */
	CU_ASSERT_EQUAL(capture(out, sizeof(out), "dpkg-deb -f '%s' Recommends", deb), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "qemu-system-x86"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "busybox-static"));
	/* a Maintainer that names someone (DEBFULLNAME/DEBEMAIL or git's user), not a placeholder */
	CU_ASSERT_EQUAL(capture(out, sizeof(out), "dpkg-deb -f '%s' Maintainer", deb), 0);
	char name[256] = "", mail[256] = "";
	CU_ASSERT_EQUAL(sscanf(out, "%255[^<]<%255[^>]>", name, mail), 2);
	CU_ASSERT_PTR_NOT_NULL(strchr(mail, '@'));
	CU_ASSERT_PTR_NULL(strstr(out, "noreply.example>"));
	CU_ASSERT_EQUAL(capture(out, sizeof(out), "zcat '%s/usr/share/doc/ioregress/changelog.gz'", root), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "ioregress (" IOR_VERSION ") unstable; urgency=medium"));
}

/* lintian, Debian's package checker: no error (E:) on the package. */
static void test_deb_is_lintian_clean_of_errors(void)
{
	char out[16384], deb[1024];
	if (capture(out, sizeof(out), "command -v lintian") != 0)
		ior_test_skip("no lintian here (ci/setup.sh installs it)");
	CU_ASSERT_EQUAL_FATAL(capture(deb, sizeof(deb), "ls '%s/pkg'/ioregress_*_*.deb", ior_test_tmpdir()), 0);
	deb[strcspn(deb, "\n")] = '\0';
	int status = capture(out, sizeof(out), "lintian --fail-on error '%s' 2>&1", deb);
	printf("\n  lintian: %s", *out ? out : "no tags\n");
	CU_ASSERT_EQUAL(status, 0);
	CU_ASSERT_PTR_NULL(strstr(out, "E: "));
}

/* Issue 37: the package build ignored dpkg-buildflags, and lintian noted no fortify functions and
 * no bindnow. The packaged binary is linked with -z now and calls glibc's checked functions
 * (_FORTIFY_SOURCE), and lintian, asked for its informational tags too, notes neither. */
static void test_deb_is_built_hardened(void)
{
	char out[16384], deb[1024], binary[1024];
	snprintf(binary, sizeof(binary), "%s/harness/ioregress", build_dir());
	if (capture(out, sizeof(out), "nm -D '%s' | grep -c __asan_init", binary) == 0) {
		ior_test_not_run("a sanitizer build: fortify and ASan do not go together; the package is built from the release build");
		return;
	}
	CU_ASSERT_EQUAL(capture(out, sizeof(out), "readelf -d '%s'", binary), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "BIND_NOW"));
	CU_ASSERT_EQUAL(capture(out, sizeof(out), "nm -D '%s' | grep -c '__[a-z_]*_chk@'", binary), 0);
	printf("\n  checked glibc functions: %s", out);
	CU_ASSERT(atoi(out) >= 5);
	if (capture(out, sizeof(out), "command -v lintian") != 0) {
		ior_test_not_run("no lintian here (ci/setup.sh installs it)");
		return;
	}
	CU_ASSERT_EQUAL_FATAL(capture(deb, sizeof(deb), "ls '%s/pkg'/ioregress_*_*.deb", ior_test_tmpdir()), 0);
	deb[strcspn(deb, "\n")] = '\0';
	CU_ASSERT_EQUAL(capture(out, sizeof(out), "lintian --display-info '%s' 2>&1", deb), 0);
	printf("\n  lintian --display-info: %s", *out ? out : "no tags\n");
	CU_ASSERT_PTR_NULL(strstr(out, "hardening-no-bindnow"));
	CU_ASSERT_PTR_NULL(strstr(out, "hardening-no-fortify-functions"));
}

int main(void)
{
	const char *tools[] = { "cmake", "cpack", "dpkg-deb", "dpkg-shlibdeps", "man" };
	char out[256];
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (capture(out, sizeof(out), "command -v '%s'", tools[i]) != 0)
			ior_test_skip("no %s here (ci/setup.sh installs it)", tools[i]);
	char man[1024];
	snprintf(man, sizeof(man), "%s/man/ioregress.1", build_dir());
	if (access(man, R_OK) != 0)
		ior_test_skip("the man pages were not built (no scdoc when this build was configured)");
	static const struct ior_test tests[] = {
		IOR_TEST(test_install_honours_prefix_and_destdir),
		IOR_TEST(test_deb_depends_unpacks_runs_and_has_man_pages),
		IOR_TEST(test_deb_is_lintian_clean_of_errors),
		IOR_TEST(test_deb_is_built_hardened),
		IOR_TEST_END,
	};
	return ior_test_run("package", tests);
}
