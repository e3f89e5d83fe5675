/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for vm/package_release.c, offline (test_vm boots kernels): a kernel image package's name to
 * the release its guest's samples are stored under, and the names that name none. */
#include "common/error.h"
#include "tests/suite.h"
#include "vm/vm.h"

#include <string.h>

static void expect(const char *package, const char *release)
{
	char out[128];
	int rc = ior_vm_package_release(package, out, sizeof(out));
	if (rc)
		fprintf(stderr, "\n  %s: %s", package, ior_error_last());
	CU_ASSERT_EQUAL(rc, IOR_OK);
	CU_ASSERT_STRING_EQUAL(out, release);
}

static void refused(const char *package, const char *words)
{
	char out[128] = "x";
	CU_ASSERT_EQUAL(ior_vm_package_release(package, out, sizeof(out)), IOR_EINVALID);
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), package));
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), words));
}

/* The two series (Debian 12's 6.1.0-NN cloud kernels, Debian 13's 6.12), signed and unsigned. */
static void test_debian_names(void)
{
	expect("linux-image-6.1.0-47-cloud-amd64", "6.1.0-47-cloud-amd64");
	expect("linux-image-6.1.0-57-cloud-amd64-unsigned", "6.1.0-57-cloud-amd64");
	expect("linux-image-6.1.0-50-rt-amd64", "6.1.0-50-rt-amd64");
	expect("linux-image-6.12.38+deb13-cloud-amd64", "6.12.38+deb13-cloud-amd64");
	expect("linux-image-6.12.38+deb13-cloud-amd64-unsigned", "6.12.38+deb13-cloud-amd64");
}

static void test_ubuntu_names(void)
{
	expect("linux-image-6.8.0-31-generic", "6.8.0-31-generic");
	expect("linux-image-unsigned-6.8.0-31-generic", "6.8.0-31-generic");
}

static void test_names_that_name_no_release(void)
{
	refused("linux-image-cloud-amd64", "metapackage");
	refused("linux-image-amd64", "metapackage");
	refused("linux-image-unsigned-", "metapackage");
	refused("linux-image-6.1.0-47-cloud-amd64-dbg", "debug symbols");
	refused("linux-image-6.8.0-31-generic-dbgsym", "debug symbols");
	refused("linux-image-6.12-amd64-signed-template", "template");
	refused("linux-image-amd64-signed-template", "template");
	refused("linux-headers-6.1.0-47-cloud-amd64", "not a kernel image package");
	refused("/boot/vmlinuz-6.1.0-47-cloud-amd64", "not a kernel image package");
	char small[8];
	CU_ASSERT_EQUAL(ior_vm_package_release("linux-image-6.1.0-47-cloud-amd64", small, sizeof(small)), IOR_EINVALID);
	CU_ASSERT_STRING_EQUAL(small, "");
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_debian_names),
		IOR_TEST(test_ubuntu_names),
		IOR_TEST(test_names_that_name_no_release),
		IOR_TEST_END,
	};
	return ior_test_run("vm_package", tests);
}
