/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bisect run --target ssh:// on the test-bed (a Debian 12 guest that behaves as a machine): each
 * measurement one kexec boot of the guest, measured on its data disk by its own ioregress. An end
 * that does not boot stops the bisection after its tries, and the guest is left on its default
 * kernel; three packages with a slowdown planted in all but the first name the second. */
#include "tests/machine/testbed.h"
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static struct ior_testbed m;
static char pkg_default[160], pkg_second[160];
static char out[1 << 16], err[1 << 18];

#define ARCHIVES "/var/tmp/ioregress-machine/apt-archives"
/* The third kernel of the long case (apt-get download fetches it when no cache has it). */
#define K612 "linux-image-6.12.113+deb12-cloud-amd64-unsigned"
#define R612 "6.12.113+deb12-cloud-amd64"

/* The guest, booted once for all cases with this build's ioregress on it. */
static bool bed(void)
{
	if (m.running)
		return true;
	if (ior_test_ok(ior_testbed_image(&m)) != 0 || ior_test_ok(ior_testbed_boot(&m, "bisect-target", 600)) != 0 ||
	    ior_test_ok(ior_testbed_install_ioregress(&m, NULL)) != 0)
		return false;
	snprintf(pkg_default, sizeof(pkg_default), "linux-image-%s", m.default_kernel);
	snprintf(pkg_second, sizeof(pkg_second), "linux-image-%s", m.second_kernel);
	return true;
}

/* The controller's kernel cache (bisect run takes $XDG_CACHE_HOME/ioregress/kernels), seeded with the
 * test-bed's downloads and root's kernel cache: no network needed for the kernels they hold. */
static const char *cache(void)
{
	static char dir[512];
	snprintf(dir, sizeof(dir), "%s", ior_test_path("xdg"));
	mkdir(dir, 0700);
	setenv("XDG_CACHE_HOME", dir, 1);
	snprintf(dir, sizeof(dir), "%s", ior_test_path("xdg/ioregress"));
	mkdir(dir, 0700);
	snprintf(dir, sizeof(dir), "%s", ior_test_path("xdg/ioregress/kernels"));
	mkdir(dir, 0700);
	char cmd[1400];
	snprintf(cmd, sizeof(cmd), "cp %s/linux-image-*.deb %s/ 2>/dev/null; cp \"$HOME\"/.cache/ioregress/kernels/*.deb %s/ "
		 "2>/dev/null; true", ARCHIVES, dir, dir);
	ior_test_spawn((char *[]){ "sh", "-c", cmd, NULL }, NULL);
	return dir;
}

/* hdparm --direct on the guest's data disk: the bisection's measure, 3 repetitions a boot. */
static const char *matrix(void)
{
	return ior_test_write_file("bisect.ini", "[matrix]\nrepetitions = 3\nwarmup = 1\nschedulers = mq-deadline\n"
				   "[device vdb]\npath = /dev/vdb\n[engine hdparm-direct]\ntype = hdparm\ndirect = yes\n"
				   "duration = 1s\nsettle = 0.2s\n");
}

/* bisect run on the guest with the test-bed's ssh options, extra arguments after. */
static int bisect_run(const char *db, const char *extra1, const char *extra2)
{
	char key[600];
	snprintf(key, sizeof(key), "IdentityFile=%s", m.key);
	char *args[] = { "--db", (char *)db, "bisect", "run", "--matrix", (char *)matrix(), "--target", m.target,
			 "--ssh-option", key, "--ssh-option", "StrictHostKeyChecking=no", "--ssh-option",
			 "UserKnownHostsFile=/dev/null", "--ssh-option", "LogLevel=ERROR", "--boot-timeout", "900",
			 (char *)extra1, (char *)extra2, NULL };
	int rc = ior_test_ioregress(args, out, sizeof(out), err, sizeof(err));
	fprintf(stderr, "\nbisect run: exit %d\n%s%s", rc, out, err);
	return rc;
}

static int start(const char *db, const char *a, const char *b, const char *c)
{
	char *args[] = { "--db", (char *)db, "bisect", "start", "--kernels", (char *)a, (char *)b, (char *)c, NULL };
	return ior_test_ioregress(args, out, sizeof(out), err, sizeof(err));
}

/* The guest runs its default kernel and holds no work directory of ours. */
static void guest_on_default(void)
{
	char got[512], want[200];
	CU_ASSERT(ior_testbed_ssh(&m, "uname -r; ls -d /var/tmp/ioregress-target.* 2>/dev/null | wc -l", got, sizeof(got),
				  60) == 0);
	snprintf(want, sizeof(want), "%s\n0", m.default_kernel);
	CU_ASSERT_STRING_EQUAL(got, want);
}

/* The good end's initrd replaced with one whose /init resets the machine at once: it never reaches
 * SSH, the guest comes back on its default kernel, and after its tries the bisection stops (nothing
 * can be judged against that end), exit 1. The first round measures the bad end first (the guest's
 * default kernel, booted once and measured), then the good end three times. Each measurement was a
 * boot of the guest under the target's name, the target's own kernel is in the log, and the guest is
 * left on it with nothing of ours. Four kexec boots. */
static void test_good_end_that_does_not_boot(void)
{
	CU_ASSERT_FATAL(bed());
	char cmd[2048], got[8192];
	char busybox[64] = "/bin/busybox";
	CU_ASSERT_FATAL(ior_testbed_put(&m, busybox, "/root/busybox") == 0);
	/* the second kernel is the good end, broken; the default one the bad end */
	snprintf(cmd, sizeof(cmd),
		 "set -e; i=/boot/initrd.img-%s; cp -p $i /root/initrd.saved; d=$(mktemp -d); mkdir $d/bin; "
		 "mv /root/busybox $d/bin/busybox; printf '#!/bin/busybox sh\\nexec /bin/busybox reboot -f\\n' > $d/init; "
		 "chmod 755 $d/init $d/bin/busybox; (cd $d && find . | cpio -o -H newc --quiet) > $i; rm -rf $d",
		 m.second_kernel);
	CU_ASSERT_FATAL(ior_testbed_ssh(&m, cmd, got, sizeof(got), 120) == 0);
	const char *db = ior_test_path("stop.db");
	cache();
	/* three names apt knows; the middle one is never measured: the bisection stops at the ends */
	CU_ASSERT_EQUAL_FATAL(start(db, pkg_second, K612, pkg_default), 0);
	int rc = bisect_run(db, "--retries", "0");
	CU_ASSERT_EQUAL(rc, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "does not boot"));
	char sql[600];
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM vm_boots WHERE target = '%s' AND kernel = '%s' AND outcome = 'ok'",
		 m.target, pkg_default);
	CU_ASSERT(ior_test_query(db, sql) >= 1);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM vm_boots WHERE target = '%s' AND kernel = '%s' AND outcome = "
		 "'boot-failed'", m.target, pkg_second);
	CU_ASSERT_EQUAL(ior_test_query(db, sql), 3);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM bisect_log WHERE event = 'target-default' AND detail = '%s %s'",
		 m.target, m.default_kernel);
	CU_ASSERT_EQUAL(ior_test_query(db, sql), 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM target_plans WHERE state <> 'done'"), 0);
	guest_on_default();
	snprintf(cmd, sizeof(cmd), "mv /root/initrd.saved /boot/initrd.img-%s", m.second_kernel);
	CU_ASSERT(ior_testbed_ssh(&m, cmd, got, sizeof(got), 60) == 0);
}

/* Three packages, oldest first: the guest's default kernel, its second one and 6.12 (installed by
 * the run and purged at its end). A unit on the guest cuts the data disk's requests to 4 KiB on every
 * kernel but the first, so the second is the first bad one, far beyond the noise. About 65 boots (10
 * calibration rounds of both ends, 5 rounds of the candidate, 10 rounds to confirm): over an hour
 * under TCG, so it runs only with IOR_TEST_MACHINE_BISECT=1. */
static void test_three_packages_named(void)
{
	if (!getenv("IOR_TEST_MACHINE_BISECT") || strcmp(getenv("IOR_TEST_MACHINE_BISECT"), "1")) {
		ior_test_not_run("a whole bisection is about 65 kexec boots of the guest (over an hour under TCG): "
				 "IOR_TEST_MACHINE_BISECT=1 runs it");
		return;
	}
	CU_ASSERT_FATAL(bed());
	char cmd[2048], got[8192];
	snprintf(cmd, sizeof(cmd),
		 "printf '[Unit]\\nDescription=ior-test: small requests on vdb but on %s\\nBefore=ssh.service\\n"
		 "[Service]\\nType=oneshot\\nExecStart=/bin/sh -c \"test $(uname -r) = %s || echo 4 > "
		 "/sys/block/vdb/queue/max_sectors_kb\"\\n[Install]\\nWantedBy=multi-user.target\\n' > "
		 "/etc/systemd/system/ior-test-slow.service && systemctl enable ior-test-slow.service 2>&1",
		 m.default_kernel, m.default_kernel);
	CU_ASSERT_FATAL(ior_testbed_ssh(&m, cmd, got, sizeof(got), 120) == 0);
	const char *db = ior_test_path("three.db");
	cache();
	CU_ASSERT_EQUAL_FATAL(start(db, pkg_default, pkg_second, K612), 0);
	int rc = bisect_run(db, "--cap", "10");
	CU_ASSERT_EQUAL(rc, 0);
	char want[300];
	snprintf(want, sizeof(want), "first bad commit: %s", pkg_second);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	char sql[600];
	snprintf(sql, sizeof(sql), "SELECT count(DISTINCT kernel) FROM vm_boots WHERE target = '%s' AND outcome = 'ok'",
		 m.target);
	CU_ASSERT_EQUAL(ior_test_query(db, sql), 3);
	/* 6.12 was installed by the bisection and purged at its end; the guest is on its own kernel */
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM target_installs WHERE removed_at IS NULL"), 0);
	snprintf(cmd, sizeof(cmd), "test -e /boot/vmlinuz-%s && echo left; systemctl disable ior-test-slow.service "
		 ">/dev/null 2>&1; true", R612);
	CU_ASSERT(ior_testbed_ssh(&m, cmd, got, sizeof(got), 60) == 0);
	CU_ASSERT_PTR_NULL(strstr(got, "left"));
	guest_on_default();
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_good_end_that_does_not_boot),
		IOR_TEST(test_three_packages_named),
		IOR_TEST_END,
	};
	return ior_test_run("bisect_target_ssh", tests);
}
