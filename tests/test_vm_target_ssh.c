/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vm run --target ssh:// end to end on the test-bed (a Debian 12 guest that behaves as a machine),
 * one guest boot for every case: a controller SIGKILLed mid-plan and run again resumes; a kernel
 * that does not boot and an SSH connection dropped mid-measurement are faults the run goes past;
 * two packaged kernels x 2 rounds, each package installed with the guest's dpkg unless it is there,
 * each boot a kexec checked by release and boot id, measured on the guest's data disk by its own
 * ioregress and merged; a verdict on boot medians paired by round; what the run installed purged
 * and the guest back on its default kernel at the end. */
#include "tests/machine/testbed.h"
#include "tests/suite.h"

#include "common/error.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static struct ior_testbed m;
static char pkg_default[160], pkg_second[160];

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

/* The guest, booted once for all cases with this build's ioregress on it. */
static bool bed(void)
{
	if (m.running)
		return true;
	if (ior_test_ok(ior_testbed_image(&m)) != 0 || ior_test_ok(ior_testbed_boot(&m, "target-ssh", 600)) != 0 ||
	    ior_test_ok(ior_testbed_install_ioregress(&m, NULL)) != 0)
		return false;
	snprintf(pkg_default, sizeof(pkg_default), "linux-image-%s", m.default_kernel);
	snprintf(pkg_second, sizeof(pkg_second), "linux-image-%s", m.second_kernel);
	return true;
}

/* vm run's argument list on the guest: its db, the matrix, one round of the two kernels in order. */
struct vm_args {
	char db[512], key[600];
	char *argv[40];
};
static void vm_args(struct vm_args *a, const char *name, const char *matrix, const char *cache, const char *first,
		    const char *second, const char *boots)
{
	snprintf(a->db, sizeof(a->db), "%s", ior_test_path(name));
	snprintf(a->key, sizeof(a->key), "IdentityFile=%s", m.key);
	char *v[] = { "--db", a->db, "vm", "run", "--target", m.target, "--ssh-option", a->key, "--ssh-option",
		      "StrictHostKeyChecking=no", "--ssh-option", "UserKnownHostsFile=/dev/null", "--ssh-option",
		      "LogLevel=ERROR", "--matrix", (char *)matrix, "--boots", (char *)boots, "--cache-dir", (char *)cache,
		      "--boot-timeout", "600", (char *)first, (char *)second, NULL };
	memcpy(a->argv, v, sizeof(v));
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Waits up to limit_s for sql on db to give a positive count (the controller's progress). */
static bool wait_for(const char *db, const char *sql, double limit_s)
{
	for (double t0 = now_s(); now_s() - t0 < limit_s;) {
		if (access(db, F_OK) == 0 && q(db, sql) > 0)
			return true;
		usleep(300 * 1000);
	}
	return false;
}

/* ioregress in the background with args after its binary (IOR_BINARY). */
static pid_t start_ioregress(char *const *args)
{
	char *argv[48] = { getenv("IOR_BINARY") };
	for (size_t i = 0; args[i] && i + 2 < 48; i++)
		argv[i + 1] = args[i];
	return ior_test_start(argv);
}

/* The matrix of every case: hdparm on the guest's data disk, 3 repetitions of duration each. */
static const char *matrix_file(const char *name, const char *duration)
{
	char text[400];
	snprintf(text, sizeof(text),
		 "[matrix]\nrepetitions = 3\nwarmup = 1\nschedulers = mq-deadline\n[device vdb]\npath = /dev/vdb\n"
		 "[engine hdparm-direct]\ntype = hdparm\ndirect = yes\nduration = %s\nsettle = 0.2s\n",
		 duration);
	return ior_test_write_file(name, text);
}

/* The controller's kernel cache with both kernels' packages. */
static const char *both_kernels(void)
{
	const char *packages[] = { pkg_default, pkg_second };
	return seeded_cache(packages, 2);
}

/* The guest runs its default kernel and holds no work directory of ours. */
static void guest_left_clean(void)
{
	char out[512];
	CU_ASSERT(ior_testbed_ssh(&m, "uname -r; ls -d /var/tmp/ioregress-target.* 2>/dev/null | wc -l", out, sizeof(out),
				  60) == 0);
	char want[200];
	snprintf(want, sizeof(want), "%s\n0", m.default_kernel);
	CU_ASSERT_STRING_EQUAL(out, want);
}

/* One round of the second kernel then the default one, started in the background and SIGKILLed once
 * the target measures the first: the plan left running with the guest on the second kernel. */
static void killed_plan(struct vm_args *a, const char *db)
{
	vm_args(a, db, matrix_file("target.ini", "1s"), both_kernels(), pkg_second, pkg_default, "1");
	double t0 = now_s();
	pid_t pid = start_ioregress(a->argv);
	CU_ASSERT_FATAL(pid > 0);
	bool measuring = wait_for(a->db, "SELECT count(*) FROM target_steps WHERE seq = 1 AND state = 'measuring'", 900);
	CU_ASSERT(measuring);
	usleep(1500 * 1000); /* the target's ioregress has begun */
	kill(pid, SIGKILL);
	int status;
	waitpid(pid, &status, 0);
	fprintf(stderr, "\nkilled the controller %.0f s after it began (step 1 measuring: %d)\n", now_s() - t0, measuring);
}

/* SIGKILL of the controller while the target measures its first boot, then the same vm run again:
 * the plan is resumed (one vm_run, the killed step booted again, the next one once), every boot's
 * samples stored once, and the guest left on its default kernel with nothing of ours. */
static void test_resume_after_sigkill(void)
{
	CU_ASSERT_FATAL(bed());
	struct vm_args a;
	killed_plan(&a, "resume.db");
	int status;
	double t0;
	CU_ASSERT_EQUAL(q(a.db, "SELECT count(*) FROM vm_boots"), 0);
	CU_ASSERT_EQUAL(q(a.db, "SELECT count(*) FROM target_plans WHERE state = 'running'"), 1);

	char out[8192], err[16384];
	t0 = now_s();
	status = ior_test_ioregress(a.argv, out, sizeof(out), err, sizeof(err));
	fprintf(stderr, "%s%sresumed run: %.0f s\n", out, err, now_s() - t0);
	CU_ASSERT_EQUAL(status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "resuming the plan"));
	CU_ASSERT_EQUAL(q(a.db, "SELECT count(*) FROM target_plans"), 1);
	CU_ASSERT_EQUAL(q(a.db, "SELECT count(*) FROM target_plans WHERE state = 'done'"), 1);
	CU_ASSERT_EQUAL(q(a.db, "SELECT count(*) FROM vm_boots WHERE outcome = 'ok'"), 2);
	CU_ASSERT_EQUAL(q(a.db, "SELECT count(DISTINCT vm_run) FROM vm_boots"), 1);
	CU_ASSERT_EQUAL(q(a.db, "SELECT count(*) FROM vm_boots v JOIN target_plans p ON p.vm_run = v.vm_run"), 2);
	/* the killed step was tried twice (once by each controller), the other once */
	CU_ASSERT_EQUAL(q(a.db, "SELECT tries FROM target_steps WHERE seq = 1 AND state = 'done'"), 2);
	CU_ASSERT_EQUAL(q(a.db, "SELECT tries FROM target_steps WHERE seq = 2 AND state = 'done'"), 1);
	/* no sample twice: each kernel's run holds one boot's samples, 3 measured and 1 warm-up */
	char sql[512];
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM sample_view WHERE kernel = '%s' AND warmup = 0", m.second_kernel);
	CU_ASSERT_EQUAL(q(a.db, sql), 3);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM sample_view WHERE kernel = '%s' AND warmup = 0", m.default_kernel);
	CU_ASSERT_EQUAL(q(a.db, sql), 3);
	CU_ASSERT_EQUAL(q(a.db, "SELECT count(*) FROM runs"), 2);
	/* both kernels were installed before: nothing to remove, nothing recorded */
	CU_ASSERT_EQUAL(q(a.db, "SELECT count(*) FROM target_installs"), 0);
	guest_left_clean();
}

/* A kernel that does not boot: its initramfs replaced with one whose /init resets the machine at once
 * (busybox reboot -f), so it never reaches SSH and the guest comes back on its default kernel, as a
 * machine's watchdog or panic= brings it back. (An /init that exits, so the kernel panics, would be
 * the same fault, but on the test-bed the kexec'd kernel's panic=5 reset hangs after "Rebooting in 5
 * seconds.." under TCG: a lab needs --power-cycle for that.) It is boot-failed with the reason, and
 * the run goes on; then SSH
 * dropped in the middle of the next boot's measurement (the guest's sshd session of that command
 * killed) is a lost try, tried again: the boot is ok with every sample once. */
static void test_boot_failed_and_ssh_dropped(void)
{
	CU_ASSERT_FATAL(bed());
	char busybox[64] = "/bin/busybox";
	CU_ASSERT_FATAL(ior_testbed_put(&m, busybox, "/root/busybox") == 0);
	char cmd[2048], out[8192];
	snprintf(cmd, sizeof(cmd),
		 "set -e; i=/boot/initrd.img-%s; cp -p $i /root/initrd.saved; d=$(mktemp -d); mkdir $d/bin; "
		 "mv /root/busybox $d/bin/busybox; printf '#!/bin/busybox sh\\necho ior-test: this init resets the machine\\nexec /bin/busybox reboot -f\\n' "
		 "> $d/init; chmod 755 $d/init $d/bin/busybox; (cd $d && find . | cpio -o -H newc --quiet) > $i; rm -rf $d",
		 m.second_kernel);
	CU_ASSERT_FATAL(ior_testbed_ssh(&m, cmd, out, sizeof(out), 120) == 0);

	struct vm_args a;
	vm_args(&a, "faults.db", matrix_file("long.ini", "3s"), both_kernels(), pkg_second, pkg_default, "1");
	double t0 = now_s();
	pid_t pid = start_ioregress(a.argv);
	CU_ASSERT_FATAL(pid > 0);
	/* the second step measuring: its sshd session killed as soon as the target's ioregress runs */
	bool measuring = wait_for(a.db, "SELECT count(*) FROM target_steps WHERE seq = 2 AND state = 'measuring'", 900);
	CU_ASSERT(measuring);
	int killed = 0;
	for (double t1 = now_s(); measuring && !killed && now_s() - t1 < 60;) {
		if (ior_testbed_ssh(&m, "p=$(pgrep -o -f 'round1[.]db --quiet run'); test -n \"$p\" || exit 1; "
				    "while [ \"$(cat /proc/$p/comm)\" != sshd ]; do p=$(cut -d' ' -f4 /proc/$p/stat); done; "
				    "kill $p; echo killed $p", out, sizeof(out), 30) == 0)
			killed = 1;
		else
			usleep(300 * 1000);
	}
	CU_ASSERT(killed);
	fprintf(stderr, "\nSSH session of the measurement killed %.0f s after the run began: %s\n", now_s() - t0, out);
	int status;
	CU_ASSERT(waitpid(pid, &status, 0) == pid);
	fprintf(stderr, "faults run: %.0f s, exit %d\n", now_s() - t0, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	/* 1: a boot was not ok (ioregress-vm(1)); the run went on past it */
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 1);

	char sql[600];
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM vm_boots WHERE kernel = '%s' AND outcome = 'boot-failed' AND "
		 "reason LIKE '%%came back running %s, not %s%%'", pkg_second, m.default_kernel, m.second_kernel);
	CU_ASSERT_EQUAL(q(a.db, sql), 1);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM vm_boots WHERE kernel = '%s' AND outcome = 'ok' AND run_id IS NOT NULL",
		 pkg_default);
	CU_ASSERT_EQUAL(q(a.db, sql), 1);
	CU_ASSERT_EQUAL(q(a.db, "SELECT count(*) FROM vm_boots"), 2);
	CU_ASSERT_EQUAL(q(a.db, "SELECT count(*) FROM target_steps WHERE seq = 1 AND state = 'skipped'"), 1);
	CU_ASSERT_EQUAL(q(a.db, "SELECT tries FROM target_steps WHERE seq = 2 AND state = 'done'"), 2);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM sample_view WHERE kernel = '%s' AND warmup = 0", m.default_kernel);
	CU_ASSERT_EQUAL(q(a.db, sql), 3);
	CU_ASSERT_EQUAL(q(a.db, "SELECT count(*) FROM runs"), 1);
	CU_ASSERT_EQUAL(q(a.db, "SELECT count(*) FROM target_plans WHERE state = 'done'"), 1);
	guest_left_clean();
	snprintf(cmd, sizeof(cmd), "mv /root/initrd.saved /boot/initrd.img-%s", m.second_kernel);
	CU_ASSERT(ior_testbed_ssh(&m, cmd, out, sizeof(out), 60) == 0);
}

/* SIGKILL of the controller while the target runs a test kernel, then `recover` instead of the run
 * again: the target booted back to its default kernel, the work directory removed, the plan given
 * up (a later vm run begins its own); a second recover finds nothing. */
static void test_recover_after_sigkill(void)
{
	CU_ASSERT_FATAL(bed());
	struct vm_args a;
	killed_plan(&a, "recover.db");
	int status;
	double t0;
	char out[8192], err[8192], sql[300];
	CU_ASSERT(ior_testbed_ssh(&m, "uname -r; ls -d /var/tmp/ioregress-target.* | wc -l", out, sizeof(out), 60) == 0);
	snprintf(sql, sizeof(sql), "%s\n1", m.second_kernel);
	CU_ASSERT_STRING_EQUAL(out, sql);

	t0 = now_s();
	char *recover[] = { "--db", a.db, "recover", NULL };
	status = ior_test_ioregress(recover, out, sizeof(out), err, sizeof(err));
	fprintf(stderr, "%s%srecover: %.0f s\n", out, err, now_s() - t0);
	CU_ASSERT_EQUAL(status, 0);
	snprintf(sql, sizeof(sql), "booting %s again", m.default_kernel);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, sql));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "work directory"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "aborted"));
	CU_ASSERT_EQUAL(q(a.db, "SELECT count(*) FROM target_plans WHERE state = 'aborted'"), 1);
	guest_left_clean();
	status = ior_test_ioregress(recover, out, sizeof(out), err, sizeof(err));
	CU_ASSERT_EQUAL(status, 0);
	CU_ASSERT_PTR_NULL(strstr(out, "vm:"));
}

static void test_two_kernels_two_rounds_over_ssh(void)
{
	CU_ASSERT_FATAL(bed());
	char out[8192], err[16384], cmd[1024], first_boot[64];
	CU_ASSERT_FATAL(ior_test_ok(ior_testbed_boot_id(&m, first_boot, sizeof(first_boot))) == 0);

	/* the second kernel's package purged first, so the run installs it (and must remove it); the
	 * default one stays installed, so the run leaves it as it is */
	snprintf(cmd, sizeof(cmd), "DEBIAN_FRONTEND=noninteractive dpkg --purge %s >/dev/null 2>&1; test ! -e /boot/vmlinuz-%s",
		 pkg_second, m.second_kernel);
	CU_ASSERT_FATAL(ior_testbed_ssh(&m, cmd, out, sizeof(out), 300) == 0);

	const char *cache = both_kernels();
	const char *matrix = matrix_file("target.ini", "1s");
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
		IOR_TEST(test_resume_after_sigkill),
		IOR_TEST(test_boot_failed_and_ssh_dropped),
		IOR_TEST(test_recover_after_sigkill),
		IOR_TEST(test_two_kernels_two_rounds_over_ssh), /* last: it purges the second kernel */
		IOR_TEST_END,
	};
	return ior_test_run("vm_target_ssh", tests);
}
