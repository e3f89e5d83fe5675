/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The test-bed of issue 36 behaves as a real machine: it boots its default kernel and answers SSH,
 * runs this build's ioregress, kexecs into its second kernel from inside (a new release and boot id), comes back to the
 * default kernel after a panic (panic=5, a reset with qemu's -kernel), and powers off. */
#include "tests/suite.h"
#include "tests/machine/testbed.h"

#include "common/error.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static struct ior_testbed m;

static void test_boot_kexec_panic_poweroff(void)
{
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_image(&m)) == 0);
	CU_ASSERT_FATAL(strcmp(m.default_kernel, m.second_kernel) != 0);
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_boot(&m, "smoke", 600)) == 0);
	fprintf(stderr, "test-bed %s: SSH on port %d after %.1f s\n", m.image, m.port, m.boot_s);

	char out[4096], boot1[64], boot2[64], boot3[64];
	CU_ASSERT_FATAL(ior_testbed_ssh(&m, "uname -r", out, sizeof(out), 60) == 0);
	CU_ASSERT_STRING_EQUAL(out, m.default_kernel);
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_boot_id(&m, boot1, sizeof(boot1))) == 0);

	/* The device measured: the sparse data disk is the guest's /dev/vdb, 2 GiB by default. */
	CU_ASSERT(ior_testbed_ssh(&m, "blockdev --getsize64 /dev/vdb", out, sizeof(out), 60) == 0);
	CU_ASSERT_STRING_EQUAL(out, "2147483648");
	/* This build's ioregress runs there: the image holds every library it links. */
	CU_ASSERT(ior_test_ok(ior_testbed_install_ioregress(&m, NULL)) == 0);
	char here[256] = "";
	CU_ASSERT(ior_test_ioregress((char *[]){ "--version", NULL }, here, sizeof(here), NULL, 0) == 0);
	CU_ASSERT(ior_testbed_ssh(&m, "ioregress --version", out, sizeof(out), 60) == 0);
	here[strcspn(here, "\n")] = '\0';
	CU_ASSERT_STRING_EQUAL(out, here);
	/* The command line a kexec reuses carries panic=5, so a panicking kernel resets the machine. */
	CU_ASSERT(ior_testbed_ssh(&m, "cat /proc/cmdline", out, sizeof(out), 60) == 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "panic=5"));

	/* kexec into the second kernel, from inside the guest, as the SSH and local kinds will. */
	char cmd[1024];
	snprintf(cmd, sizeof(cmd),
		 "kexec -l /boot/vmlinuz-%s --initrd=/boot/initrd.img-%s --reuse-cmdline && systemctl --no-block kexec",
		 m.second_kernel, m.second_kernel);
	double t = 0;
	CU_ASSERT_FATAL(ior_testbed_ssh(&m, cmd, out, sizeof(out), 120) == 0);
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_wait_new_boot(&m, boot1, 600, boot2, sizeof(boot2))) == 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	t = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	fprintf(stderr, "kexec to SSH: %.1f s\n", t);
	CU_ASSERT(ior_testbed_ssh(&m, "uname -r", out, sizeof(out), 60) == 0);
	CU_ASSERT_STRING_EQUAL(out, m.second_kernel);

	/* A kernel that dies: the panic resets the machine, which boots its default kernel again. The
	 * ssh session dies with the kernel, so its status says nothing. */
	ior_testbed_ssh(&m, "sync; echo c > /proc/sysrq-trigger", NULL, 0, 30);
	clock_gettime(CLOCK_MONOTONIC, &a);
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_wait_new_boot(&m, boot2, 600, boot3, sizeof(boot3))) == 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	t = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	fprintf(stderr, "panic to SSH on the default kernel: %.1f s\n", t);
	CU_ASSERT(strcmp(boot3, boot1) != 0);
	CU_ASSERT(ior_testbed_ssh(&m, "uname -r", out, sizeof(out), 60) == 0);
	CU_ASSERT_STRING_EQUAL(out, m.default_kernel);
	/* The journal is kept across boots: the panicked boot's kernel log is there to read. */
	CU_ASSERT(ior_testbed_ssh(&m, "journalctl -k -b -1 -q --no-pager | head -n 1", out, sizeof(out), 60) == 0);
	CU_ASSERT(strstr(out, "Linux version") != NULL);

	/* Power off: qemu ends by itself with status 0. */
	ior_testbed_ssh(&m, "systemctl --no-block poweroff", NULL, 0, 30);
	CU_ASSERT_EQUAL(ior_testbed_wait_exit(&m, 300), 0);
	ior_testbed_stop(&m);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_boot_kexec_panic_poweroff),
		IOR_TEST_END,
	};
	return ior_test_run("machine", tests);
}
