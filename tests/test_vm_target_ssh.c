/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vm run --target ssh:// end to end on the test-bed (a Debian 12 guest that behaves as a machine):
 * two packaged kernels x 2 rounds, each package installed with the guest's dpkg unless it is there,
 * each boot a kexec checked by release and boot id, measured on the guest's data disk by its own
 * ioregress and merged; a verdict on boot medians paired by round; what the run installed purged
 * and the guest back on its default kernel at the end. */
#include "tests/machine/testbed.h"
#include "tests/suite.h"

#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct ior_testbed m;

#define ARCHIVES "/var/tmp/ioregress-machine/apt-archives"

/* The controller's kernel cache, in the test's directory: the test-bed's own downloads copied in when
 * it has them (no network needed), else apt-get download fetches them. */
static const char *seeded_cache(const char *const *packages, size_t n)
{
	static char cache[512];
	snprintf(cache, sizeof(cache), "%s", ior_test_path("kernels"));
	mkdir(cache, 0700);
	for (size_t i = 0; i < n; i++) {
		char cmd[1400];
		snprintf(cmd, sizeof(cmd), "cp %s/%s_*.deb %s/ 2>/dev/null || true", ARCHIVES, packages[i], cache);
		ior_test_spawn((char *[]){ "sh", "-c", cmd, NULL }, NULL);
	}
	return cache;
}

static long long q(const char *db, const char *sql)
{
	return ior_test_query(db, sql);
}

static void test_two_kernels_two_rounds_over_ssh(void)
{
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_image(&m)) == 0);
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_boot(&m, "target-ssh", 600)) == 0);
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_install_ioregress(&m, NULL)) == 0);
	char out[8192], err[16384], cmd[1024], first_boot[64];
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_boot_id(&m, first_boot, sizeof(first_boot))) == 0);

	/* the second kernel's package purged first, so the run installs it (and must remove it); the
	 * default one stays installed, so the run leaves it as it is */
	char pkg_default[160], pkg_second[160];
	snprintf(pkg_default, sizeof(pkg_default), "linux-image-%s", m.default_kernel);
	snprintf(pkg_second, sizeof(pkg_second), "linux-image-%s", m.second_kernel);
	snprintf(cmd, sizeof(cmd), "DEBIAN_FRONTEND=noninteractive dpkg --purge %s >/dev/null 2>&1; test ! -e /boot/vmlinuz-%s",
		 pkg_second, m.second_kernel);
	CU_ASSERT_FATAL(ior_testbed_ssh(&m, cmd, out, sizeof(out), 300) == 0);

	const char *packages[] = { pkg_default, pkg_second };
	const char *cache = seeded_cache(packages, 2);
	const char *matrix = ior_test_write_file("target.ini",
						 "[matrix]\nrepetitions = 3\nwarmup = 1\nschedulers = mq-deadline\n"
						 "[device vdb]\npath = /dev/vdb\n"
						 "[engine hdparm-direct]\ntype = hdparm\ndirect = yes\nduration = 1s\nsettle = 0.2s\n");
	char db[512], key[600];
	snprintf(db, sizeof(db), "%s", ior_test_path("controller.db"));
	snprintf(key, sizeof(key), "IdentityFile=%s", m.key);
	char *args[] = { "--db", db, "vm", "run", "--target", m.target, "--ssh-option", key, "--ssh-option",
			 "StrictHostKeyChecking=no", "--ssh-option", "UserKnownHostsFile=/dev/null", "--ssh-option",
			 "LogLevel=ERROR", "--matrix", (char *)matrix, "--boots", "2", "--cache-dir", (char *)cache,
			 "--boot-timeout", "600", pkg_default, pkg_second, NULL };
	int status = ior_test_ioregress(args, out, sizeof(out), err, sizeof(err));
	fprintf(stderr, "\n%s%s", out, err);
	CU_ASSERT_EQUAL(status, 0);

	/* four boots, all ok, each on the target with its own boot id, the release expected, in rounds
	 * rotated: default second, then second default */
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots"), 4);
	char sql[1024];
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM vm_boots WHERE outcome = 'ok' AND target = '%s'", m.target);
	CU_ASSERT_EQUAL(q(db, sql), 4);
	CU_ASSERT_EQUAL(q(db, "SELECT count(DISTINCT boot_id) FROM vm_boots WHERE boot_id IS NOT NULL"), 4);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM vm_boots WHERE boot_id = '%s'", first_boot);
	CU_ASSERT_EQUAL(q(db, sql), 0);
	snprintf(sql, sizeof(sql),
		 "SELECT count(*) FROM vm_boots WHERE (kernel = '%s' AND kernel_release = '%s') OR (kernel = '%s' AND "
		 "kernel_release = '%s')",
		 pkg_default, m.default_kernel, pkg_second, m.second_kernel);
	CU_ASSERT_EQUAL(q(db, sql), 4);
	/* the boots in order as bits, the default kernel's set: A B B A is 1 + 8 */
	snprintf(sql, sizeof(sql),
		 "SELECT sum((kernel = '%s') << (id - (SELECT min(id) FROM vm_boots))) FROM vm_boots", pkg_default);
	CU_ASSERT_EQUAL(q(db, sql), 9);
	CU_ASSERT_EQUAL(q(db, "SELECT count(DISTINCT vm_run) FROM vm_boots"), 1);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM vm_boots WHERE boot_s > 0 AND run_id IS NOT NULL"), 4);

	/* measured on the guest's disk, stored under both releases, merged once per boot */
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM sample_view WHERE kernel = '%s' AND device_path = '/dev/vdb' "
		 "AND warmup = 0", m.second_kernel);
	CU_ASSERT_EQUAL(q(db, sql), 6);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM sample_view WHERE kernel = '%s' AND device_path = '/dev/vdb' "
		 "AND warmup = 0", m.default_kernel);
	CU_ASSERT_EQUAL(q(db, sql), 6);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM target_steps WHERE state = 'done'"), 4);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM target_plans WHERE state = 'done'"), 1);

	/* a verdict on boot medians, paired by round */
	char *check[] = { "--db", db, "check", "--baseline", m.default_kernel, "--candidate", m.second_kernel, NULL };
	ior_test_ioregress(check, out, sizeof(out), err, sizeof(err));
	fprintf(stderr, "%s", out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "paired by boot round, 2 boots a side"));

	/* what the run installed is gone, what was there stays, and the guest runs its default kernel */
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM target_installs"), 1);
	CU_ASSERT_EQUAL(q(db, "SELECT count(*) FROM target_installs WHERE removed_at IS NOT NULL"), 1);
	snprintf(cmd, sizeof(cmd), "dpkg-query -W -f='${db:Status-Abbrev}' %s 2>/dev/null; echo; test -e /boot/vmlinuz-%s "
		 "&& echo image-left; uname -r", pkg_second, m.second_kernel);
	CU_ASSERT(ior_testbed_ssh(&m, cmd, out, sizeof(out), 60) == 0);
	CU_ASSERT_PTR_NULL(strstr(out, "ii"));
	CU_ASSERT_PTR_NULL(strstr(out, "image-left"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, m.default_kernel));
	snprintf(cmd, sizeof(cmd), "dpkg-query -W -f='${db:Status-Abbrev}' %s; ls -d /var/tmp/ioregress-target.* 2>/dev/null | wc -l",
		 pkg_default);
	CU_ASSERT(ior_testbed_ssh(&m, cmd, out, sizeof(out), 60) == 0);
	CU_ASSERT_STRING_EQUAL(out, "ii 0");
	ior_testbed_stop(&m);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_two_kernels_two_rounds_over_ssh),
		IOR_TEST_END,
	};
	return ior_test_run("vm_target_ssh", tests);
}
