/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vm run --target local, run INSIDE the test-bed guest (never on this machine): it refuses without
 * the confirmation, and with it runs a two-kernel, two-round plan on the guest across its own kexecs
 * with the one-shot unit, measures each boot, removes the unit and ends on the default kernel. The
 * test only boots the guest, starts the plan over SSH, waits, and reads the guest's database. */
#include "tests/suite.h"
#include "tests/machine/testbed.h"

#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct ior_testbed m;
static char cmd[4096], out[65536];

#define MATRIX                                                                                           \
	"[matrix]\nrepetitions = 2\nschedulers = mq-deadline\ndrop_caches = yes\n\n"                   \
	"[device vdb]\npath = /dev/vdb\n\n"                                                             \
	"[engine direct]\ntype = hdparm\ndirect = yes\nduration = 0.2s\nsettle = 0s\nbs = 1M\n"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Boots the guest with this build's ioregress, the matrix and both kernel packages in root's cache
 * (so vm run resolves them without apt there). */
static void setup_guest(const char *name)
{
	if (ior_testbed_running(&m))   /* the cases share one boot: the refusal leaves the guest as it was */
		return;
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_image(&m)) == 0);
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_boot(&m, name, 900)) == 0);
	fprintf(stderr, "test-bed up: SSH after %.1f s\n", m.boot_s);
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_install_ioregress(&m, NULL)) == 0);
	const char *matrix = ior_test_write_file("local.ini", MATRIX);
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_put(&m, matrix, "/root/local.ini")) == 0);
	CU_ASSERT_FATAL(ior_testbed_ssh(&m, "install -d -m 0700 /root/.cache /root/.cache/ioregress "
					"/root/.cache/ioregress/kernels", out, sizeof(out), 60) == 0);
	const char *kernels[] = { m.default_kernel, m.second_kernel };
	for (int i = 0; i < 2; i++) {
		char pattern[IOR_TESTBED_PATH + 200], list[8192] = "";
		snprintf(pattern, sizeof(pattern), "%s/debs/linux-image-%s_*.deb", m.image, kernels[i]);
		ior_test_read_glob(pattern, list, sizeof(list));
		char *colon = strstr(list, ": ");
		CU_ASSERT_FATAL(colon != NULL);
		*colon = '\0';
		const char *base = strrchr(list, '/') + 1;
		char remote[600];
		snprintf(remote, sizeof(remote), "/root/.cache/ioregress/kernels/%s", base);
		CU_ASSERT_FATAL(ior_test_ok(ior_testbed_put(&m, list, remote)) == 0);
	}
}

static void test_refused_without_confirmation(void)
{
	setup_guest("local");
	char boot[64], after[64];
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_boot_id(&m, boot, sizeof(boot))) == 0);
	snprintf(cmd, sizeof(cmd), "cd /root && ioregress --db /root/refused.db vm run --target local --matrix local.ini "
		 "linux-image-%s linux-image-%s 2>&1; echo status=$?; test -e /etc/systemd/system/ioregress-local.service "
		 "&& echo unit || true", m.second_kernel, m.default_kernel);
	CU_ASSERT(ior_testbed_ssh(&m, cmd, out, sizeof(out), 300) == 0);
	fprintf(stderr, "%s\n", out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "--reboot-this-machine"));
	CU_ASSERT_PTR_NULL(strstr(out, "status=0"));
	CU_ASSERT_PTR_NULL(strstr(out, "\nunit"));
	sleep(5);
	CU_ASSERT(ior_testbed_boot_id(&m, after, sizeof(after)) == IOR_OK && strcmp(boot, after) == 0);
}

static void test_two_kernels_two_rounds(void)
{
	setup_guest("local");
	char boot[64];
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_boot_id(&m, boot, sizeof(boot))) == 0);
	/* detached: the process ends with the guest's first kexec */
	snprintf(cmd, sizeof(cmd), "cd /root && setsid -f sh -c 'ioregress --db /root/local.db vm run "
		 "--target local --reboot-this-machine --boots 2 --matrix local.ini linux-image-%s linux-image-%s >/root/first.log 2>&1' "
		 "</dev/null >/dev/null 2>&1", m.second_kernel, m.default_kernel);
	CU_ASSERT_FATAL(ior_testbed_ssh(&m, cmd, out, sizeof(out), 60) == 0);

	/* 4 kexecs, 4 measurements and the reboot into the default kernel: under TCG about 2 min each */
	double t0 = now_s(), deadline = t0 + 3000;
	bool done = false;
	while (!done && now_s() < deadline && ior_testbed_running(&m)) {
		sleep(15);
		done = ior_testbed_ssh(&m, "test \"$(sqlite3 /root/local.db \"SELECT state FROM target_plans ORDER BY id "
				       "DESC LIMIT 1\" 2>/dev/null)\" = done && ! test -e /etc/systemd/system/"
				       "ioregress-local.service", NULL, 0, 60) == 0;
	}
	fprintf(stderr, "plan ended after %.0f s (done: %d)\n", now_s() - t0, done);
	ior_testbed_ssh(&m, "cat /root/first.log; cat /var/log/ioregress-local.log", out, sizeof(out), 60);
	fprintf(stderr, "%s\n", out);
	CU_ASSERT_FATAL(done);

	/* The guest is back on its default kernel, with no unit and no state left. */
	CU_ASSERT(ior_testbed_ssh(&m, "uname -r", out, sizeof(out), 60) == 0);
	CU_ASSERT_STRING_EQUAL(out, m.default_kernel);
	CU_ASSERT(ior_testbed_ssh(&m, "ls /etc/systemd/system/multi-user.target.wants/ioregress-local.service "
				      "/var/lib/ioregress-local 2>/dev/null | wc -l", out, sizeof(out), 60) == 0);
	CU_ASSERT_STRING_EQUAL(out, "0");

	/* The database from the guest's disk: four boots on the target 'local', each a new boot of the
	 * kernel its step named, each measured. */
	const char *db = ior_test_path("local.db");
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_get(&m, "/root/local.db", db)) == 0);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM vm_boots WHERE target = 'local'"), 4);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM vm_boots WHERE target = 'local' AND outcome = 'ok'"), 4);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(DISTINCT boot_id) FROM vm_boots WHERE target = 'local'"), 4);
	char sql[512];
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM vm_boots WHERE target = 'local' AND kernel_release = '%s'",
		 m.second_kernel);
	CU_ASSERT_EQUAL(ior_test_query(db, sql), 2);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(DISTINCT boot_index) FROM vm_boots WHERE target = 'local'"), 2);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM target_steps WHERE state = 'done'"), 4);
	/* every boot's samples merged: both kernels, 2 repetitions per boot */
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM sample_view WHERE kernel = '%s'", m.second_kernel);
	CU_ASSERT(ior_test_query(db, sql) >= 4);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM sample_view WHERE kernel = '%s'", m.default_kernel);
	CU_ASSERT(ior_test_query(db, sql) >= 4);
	ior_testbed_ssh(&m, "systemctl --no-block poweroff", NULL, 0, 30);
	ior_testbed_wait_exit(&m, 300);
	ior_testbed_stop(&m);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_refused_without_confirmation),
		IOR_TEST(test_two_kernels_two_rounds),
		IOR_TEST_END,
	};
	return ior_test_run("machine_local", tests);
}
