/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for kernel/version: parsing and ordering of real kernel release strings (Debian, Ubuntu,
 * RHEL, Fedora, Arch, WSL, mainline, -gSHA builds). */
#include "common/error.h"
#include "kernel/version.h"
#include "tests/suite.h"

#include <stdlib.h>
#include <string.h>

/* Real release strings, in the order kernel testers expect. Sources: the field report's
 * kernels (tests/data), Debian bookworm's archive (apt-cache search linux-image), public
 * bug reports and CI logs (syzbot and kernel-test builds for -gSHA, Fedora rawhide/ELN,
 * RHEL 6/7/8/9, Ubuntu, Arch, WSL2), and this machine's own kernel. */
static const char *const sorted[] = {
	"2.6.26-2-686",
	"2.6.30",
	"2.6.30-2",
	"2.6.31",
	"2.6.32",
	"2.6.32-5-amd64",
	"2.6.32-754.el6.x86_64",
	"2.6.33-rc5",
	"2.6.33",
	"2.6.33.1",
	"2.6.34",
	"3.2.0-4-amd64",
	"3.10.0-1160.el7.x86_64",
	"3.16.0-4-amd64",
	"4.9.0-8-amd64",
	"4.15.0-20-generic",
	"4.18.0-513.5.1.el8_9.x86_64",
	"4.19.0-17-amd64",
	"5.4.0-42-generic",
	"5.10.0-28-amd64",
	"5.10.102.1-microsoft-standard-WSL2",
	"5.13.0-0.rc5.20210611git929d931f2b40.42.fc35.x86_64",
	"5.14.0-427.13.1.el9_4.x86_64",
	"5.14.0-427.33.1.el9_4.x86_64",
	"5.15.0-91-generic",
	"5.15.90.1-microsoft-standard-WSL2",
	"6.0.0-rc3-syzkaller-00299-gd895ec7938c4-dirty",
	"6.1.0-rc2-syzkaller-00105-gb229b6ca5abb",
	"6.1.0-47-amd64",
	"6.1.0-47-cloud-amd64",
	"6.1.0-57-amd64",
	"6.1.1-arch1-1",
	"6.5.0-9-generic",
	"6.5.0-35-generic",
	"6.7.0-rc1",
	"6.7.0-rc5-00042-g88035e5694a8",
	"6.7.0-rc5-syzkaller-00047-g5bd7ef53ffe5",
	"6.7.0-rc6",
	"6.7.0-rc6-next-20231221-debug-09925-g857647efa9be",
	"6.7.0-rc7+",
	"6.7.5-arch1-1",
	"6.8.0-31-generic",
	"6.9.0-rc4-syzkaller-00173-g3cdb45594619",
	"6.12.117+deb12-amd64",
	"6.12.117+deb12-cloud-amd64",
	"6.16.0-0.rc2.24.eln149.x86_64",
	"6.16.0-rc7-syzkaller-00093-g94ce1ac2c9b4",
	"6.18.44-fc-v669",
};
#define NSORTED (sizeof(sorted) / sizeof(sorted[0]))

struct parsed {
	const char *release;
	int major, minor, patch, sublevel, rc;
	const char *commit, *extra;
};

static const struct parsed fields[] = {
	{ "2.6.30-2", 2, 6, 30, 0, 0, "", "-2" },
	{ "2.6.33-rc5", 2, 6, 33, 0, 5, "", "-rc5" },
	{ "2.6.33.1", 2, 6, 33, 1, 0, "", "" },
	{ "6.1.0-47-amd64", 6, 1, 0, 0, 0, "", "-47-amd64" },
	{ "6.12.117+deb12-cloud-amd64", 6, 12, 117, 0, 0, "", "+deb12-cloud-amd64" },
	{ "5.14.0-427.13.1.el9_4.x86_64", 5, 14, 0, 0, 0, "", "-427.13.1.el9_4.x86_64" },
	{ "6.5.0-35-generic", 6, 5, 0, 0, 0, "", "-35-generic" },
	{ "5.15.90.1-microsoft-standard-WSL2", 5, 15, 90, 1, 0, "", "-microsoft-standard-WSL2" },
	{ "6.7.0-rc5-00042-g88035e5694a8", 6, 7, 0, 0, 5, "88035e5694a8", "-rc5-00042-g88035e5694a8" },
	{ "6.0.0-rc3-syzkaller-00299-gd895ec7938c4-dirty", 6, 0, 0, 0, 3, "d895ec7938c4",
	  "-rc3-syzkaller-00299-gd895ec7938c4-dirty" },
	{ "6.7.0-rc6-next-20231221-debug-09925-g857647efa9be", 6, 7, 0, 0, 6, "857647efa9be",
	  "-rc6-next-20231221-debug-09925-g857647efa9be" },
	{ "5.13.0-0.rc5.20210611git929d931f2b40.42.fc35.x86_64", 5, 13, 0, 0, 5, "929d931f2b40",
	  "-0.rc5.20210611git929d931f2b40.42.fc35.x86_64" },
	{ "6.16.0-0.rc2.24.eln149.x86_64", 6, 16, 0, 0, 2, "", "-0.rc2.24.eln149.x86_64" },
	{ "6.7.0-rc7+", 6, 7, 0, 0, 7, "", "-rc7+" },
	{ "6.1.1-arch1-1", 6, 1, 1, 0, 0, "", "-arch1-1" },
	{ "6.18.44-fc-v669", 6, 18, 44, 0, 0, "", "-fc-v669" },
};

static void test_parse_fields_of_real_releases(void)
{
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct parsed *e = &fields[i];
		struct ior_kver v;
		CU_ASSERT_EQUAL_FATAL(ior_kver_parse(e->release, &v), IOR_OK);
		CU_ASSERT_EQUAL(v.major, e->major);
		CU_ASSERT_EQUAL(v.minor, e->minor);
		CU_ASSERT_EQUAL(v.patch, e->patch);
		CU_ASSERT_EQUAL(v.sublevel, e->sublevel);
		CU_ASSERT_EQUAL(v.rc, e->rc);
		CU_ASSERT_STRING_EQUAL(v.commit, e->commit);
		CU_ASSERT_STRING_EQUAL(v.extra, e->extra);
		if (strcmp(v.commit, e->commit) || v.rc != e->rc || strcmp(v.extra, e->extra))
			fprintf(stderr, "mismatch on '%s': rc %d commit '%s' extra '%s'\n", e->release, v.rc,
				v.commit, v.extra);
	}
}

static void test_generic_is_not_a_commit(void)
{
	/* "-generic" starts with -g and an e: a naive -g<hex> match would take "e" as a commit */
	struct ior_kver v;
	CU_ASSERT_EQUAL(ior_kver_parse("6.8.0-31-generic", &v), IOR_OK);
	CU_ASSERT_STRING_EQUAL(v.commit, "");
	/* Fedora's "git2" is a snapshot count, not a commit */
	CU_ASSERT_EQUAL(ior_kver_parse("4.1.0-0.rc2.git2.1.fc23.x86_64", &v), IOR_OK);
	CU_ASSERT_STRING_EQUAL(v.commit, "");
	CU_ASSERT_EQUAL(v.rc, 2);
}

static void test_every_real_release_parses(void)
{
	CU_ASSERT(NSORTED >= 30);
	for (size_t i = 0; i < NSORTED; i++) {
		struct ior_kver v;
		CU_ASSERT_EQUAL(ior_kver_parse(sorted[i], &v), IOR_OK);
	}
}

static void test_unparsable_is_rejected_with_message(void)
{
	struct ior_kver v;
	CU_ASSERT_EQUAL(ior_kver_parse("linux-next", &v), IOR_EINVALID);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "kernel release 'linux-next' does not start with a version number");
	CU_ASSERT_EQUAL(ior_kver_parse("6", &v), IOR_EINVALID);
	CU_ASSERT_EQUAL(ior_kver_parse("", &v), IOR_EINVALID);
}

static void test_pairs_kernel_testers_expect(void)
{
	CU_ASSERT(ior_kver_cmp("2.6.33-rc5", "2.6.33") < 0);
	CU_ASSERT(ior_kver_cmp("2.6.33", "2.6.33.1") < 0);
	CU_ASSERT(ior_kver_cmp("2.6.33.1", "2.6.34") < 0);
	CU_ASSERT(ior_kver_cmp("2.6.30", "2.6.30-2") < 0);
	CU_ASSERT(ior_kver_cmp("2.6.30-2", "2.6.31") < 0);
	CU_ASSERT(ior_kver_cmp("6.1.0-47-amd64", "6.1.0-57-amd64") < 0);
	CU_ASSERT(ior_kver_cmp("6.5.0-9-generic", "6.5.0-35-generic") < 0);
	CU_ASSERT(ior_kver_cmp("2.6.9", "2.6.10") < 0);
	CU_ASSERT(ior_kver_cmp("6.7.0-rc2", "6.7.0-rc10") < 0);
	CU_ASSERT(ior_kver_cmp("6.1.0-57-amd64", "6.12.117+deb12-cloud-amd64") < 0);
	CU_ASSERT_EQUAL(ior_kver_cmp("6.1.0", "6.1.0"), 0);
	CU_ASSERT(ior_kver_cmp("not-a-kernel", "2.6.30") > 0);
	CU_ASSERT(ior_kver_cmp("2.6.30", "not-a-kernel") < 0);
}

static void test_order_is_consistent_on_every_pair(void)
{
	for (size_t i = 0; i < NSORTED; i++)
		for (size_t j = 0; j < NSORTED; j++) {
			int c = ior_kver_cmp(sorted[i], sorted[j]);
			int want = i < j ? -1 : i > j;
			if (c != want)
				fprintf(stderr, "cmp('%s', '%s') = %d, want %d\n", sorted[i], sorted[j], c, want);
			CU_ASSERT_EQUAL(c, want);
		}
}

static void test_sort_restores_order_from_shuffles(void)
{
	char *list[NSORTED];
	for (unsigned seed = 1; seed <= 20; seed++) {
		for (size_t i = 0; i < NSORTED; i++)
			list[i] = (char *)sorted[i];
		srand(seed);
		for (size_t i = NSORTED - 1; i > 0; i--) {
			size_t j = (size_t)rand() % (i + 1);
			char *t = list[i];
			list[i] = list[j];
			list[j] = t;
		}
		ior_kver_sort(list, NSORTED);
		for (size_t i = 0; i < NSORTED; i++)
			CU_ASSERT_STRING_EQUAL(list[i], sorted[i]);
	}
}

static void test_series_groups_rc_and_stable(void)
{
	CU_ASSERT_EQUAL(ior_kver_series("2.6.33-rc5"), ior_kver_series("2.6.33.1"));
	CU_ASSERT(ior_kver_series("2.6.32") < ior_kver_series("2.6.33-rc5"));
	CU_ASSERT_EQUAL(ior_kver_series("6.1.0-47-amd64"), ior_kver_series("6.1.170"));
	CU_ASSERT(ior_kver_series("4.20.17") < ior_kver_series("5.0.0-rc1"));
	CU_ASSERT_EQUAL(ior_kver_series("nonsense"), -1);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_parse_fields_of_real_releases),
		IOR_TEST(test_generic_is_not_a_commit),
		IOR_TEST(test_every_real_release_parses),
		IOR_TEST(test_unparsable_is_rejected_with_message),
		IOR_TEST(test_pairs_kernel_testers_expect),
		IOR_TEST(test_order_is_consistent_on_every_pair),
		IOR_TEST(test_sort_restores_order_from_shuffles),
		IOR_TEST(test_series_groups_rc_and_stable),
		IOR_TEST_END,
	};
	return ior_test_run("kver", tests);
}
