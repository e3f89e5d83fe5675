/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for vm/ssh.c against an sshd this test starts on 127.0.0.1 (a free port, keys made in its
 * scratch directory): a command and its output, files both ways, a failing command, the deadline,
 * a refused connection, a connection dropped and a peer frozen mid-command; and vm run --target
 * refusing this very machine before anything is installed. */
#include "common/error.h"
#include "common/spawn.h"
#include "kernel/info.h"
#include "tests/suite.h"
#include "vm/ssh.h"
#include "vm/target.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SSHD "/usr/sbin/sshd"

static pid_t sshd_pid;
static unsigned port;
static char key[512], url_text[128], opt_key[600], opt_known[64], opt_strict[64], opt_log[64];
static struct ior_vm_target_url url;
static const char *opts[4];

static unsigned free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) || getsockname(fd, (struct sockaddr *)&a, &len))
		ior_test_skip("no free port on 127.0.0.1: %s", strerror(errno));
	close(fd);
	return ntohs(a.sin_port);
}

static bool accepts(unsigned p)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)p),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	bool ok = fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	if (fd >= 0)
		close(fd);
	return ok;
}

static void keygen(const char *path)
{
	char *argv[] = { "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", (char *)path, NULL };
	unlink(path);
	if (ior_test_spawn(argv, NULL) != 0)
		ior_test_skip("ssh-keygen failed");
}

static void stop_sshd(void)
{
	if (sshd_pid > 0) {
		kill(sshd_pid, SIGTERM);
		waitpid(sshd_pid, NULL, 0);
		sshd_pid = 0;
	}
}

static void start_sshd(void)
{
	if (access(SSHD, X_OK) != 0)
		ior_test_skip("no %s (openssh-server; ci/setup.sh installs it)", SSHD);
	if (geteuid() == 0)
		mkdir("/run/sshd", 0755);   /* sshd's privilege separation directory, as its package makes it */
	char host[512], auth[512], pub[600];
	snprintf(host, sizeof(host), "%s", ior_test_path("host_key"));
	snprintf(key, sizeof(key), "%s", ior_test_path("user_key"));
	snprintf(auth, sizeof(auth), "%s", ior_test_path("authorized_keys"));
	keygen(host);
	keygen(key);
	snprintf(pub, sizeof(pub), "%s.pub", key);
	char *text = ior_test_read_file(pub, NULL);
	ior_test_write_file("authorized_keys", text);
	free(text);
	chmod(auth, 0600);
	port = free_port();
	char p[16], listen[64], authopt[600];
	snprintf(p, sizeof(p), "%u", port);
	snprintf(listen, sizeof(listen), "ListenAddress=127.0.0.1");
	snprintf(authopt, sizeof(authopt), "AuthorizedKeysFile=%s", auth);
	char *argv[] = { SSHD, "-D", "-f", "/dev/null", "-p", p, "-h", host, "-o", listen, "-o", authopt,
			 "-o", "PidFile=none", "-o", "StrictModes=no", "-o", "Subsystem=sftp internal-sftp",
			 "-o", "PermitRootLogin=prohibit-password", NULL };
	sshd_pid = ior_test_start(argv);
	atexit(stop_sshd);   /* the runner exits on its own when a case could not run */
	for (int i = 0; i < 100 && !accepts(port); i++)
		usleep(50000);
	if (!accepts(port))
		ior_test_skip("sshd did not listen on 127.0.0.1:%u", port);
	struct passwd *pw = getpwuid(geteuid());
	snprintf(url_text, sizeof(url_text), "ssh://%s@127.0.0.1:%u", pw ? pw->pw_name : "root", port);
	if (ior_vm_target_parse(&url, url_text))
		ior_test_skip("%s", ior_error_last());
	snprintf(opt_key, sizeof(opt_key), "IdentityFile=%s", key);
	snprintf(opt_known, sizeof(opt_known), "UserKnownHostsFile=/dev/null");
	snprintf(opt_strict, sizeof(opt_strict), "StrictHostKeyChecking=no");
	snprintf(opt_log, sizeof(opt_log), "LogLevel=ERROR");
	opts[0] = opt_key;
	opts[1] = opt_known;
	opts[2] = opt_strict;
	opts[3] = opt_log;
}

static struct ior_vm_ssh conn(void)
{
	return (struct ior_vm_ssh){ .url = &url, .options = opts, .noptions = 4, .connect_timeout_s = 5, .sudo = "" };
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_command_and_output(void)
{
	struct ior_vm_ssh s = conn();
	char out[256], boot[64];
	int rc = ior_vm_ssh_check(&s, "echo hello; cat /proc/sys/kernel/random/boot_id", 30, "echo", out, sizeof(out));
	if (rc)
		fprintf(stderr, "\n  %s", ior_error_last());
	CU_ASSERT_EQUAL_FATAL(rc, IOR_OK);
	ior_kernel_boot_id(boot, sizeof(boot));
	char want[128];
	snprintf(want, sizeof(want), "hello\n%s", boot);
	CU_ASSERT_STRING_EQUAL(out, want);
}

static void test_files_both_ways(void)
{
	struct ior_vm_ssh s = conn();
	const char *up = ior_test_path("up.bin"), *remote = ior_test_path("remote.bin"), *down = ior_test_path("down.bin");
	ior_test_random_file(up, 3);
	unlink(remote);
	unlink(down);
	int rc = ior_vm_ssh_copy(&s, up, remote, true, 60);
	if (rc)
		fprintf(stderr, "\n  %s", ior_error_last());
	CU_ASSERT_EQUAL_FATAL(rc, IOR_OK);
	CU_ASSERT_EQUAL_FATAL(ior_vm_ssh_copy(&s, down, remote, false, 60), IOR_OK);
	size_t a = 0, b = 0;
	char *x = ior_test_read_file(up, &a), *y = ior_test_read_file(down, &b);
	CU_ASSERT_EQUAL(a, 3u << 20);
	CU_ASSERT_TRUE(a == b && x && y && memcmp(x, y, a) == 0);
	free(x);
	free(y);
	/* a file the target does not have: an error naming it, not a lost connection */
	rc = ior_vm_ssh_copy(&s, down, "/nonexistent/ior-x", false, 60);
	CU_ASSERT_EQUAL(rc, IOR_ERROR);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "/nonexistent/ior-x"));
}

/* A command that fails is the command's failure: the connection was fine. */
static void test_failing_command(void)
{
	struct ior_vm_ssh s = conn();
	struct ior_spawn c;
	CU_ASSERT_EQUAL_FATAL(ior_vm_ssh_run(&s, "echo why >&2; exit 3", 30, &c), IOR_OK);
	CU_ASSERT_FALSE(ior_vm_ssh_lost(&c));
	CU_ASSERT_TRUE(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 3);
	ior_spawn_free(&c);
	CU_ASSERT_EQUAL(ior_vm_ssh_check(&s, "echo why >&2; exit 3", 30, "the step", NULL, 0), IOR_ERROR);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "why"));
}

static void test_deadline(void)
{
	struct ior_vm_ssh s = conn();
	double t0 = now_s();
	CU_ASSERT_EQUAL(ior_vm_ssh_check(&s, "sleep 30", 2, "sleeping", NULL, 0), IOR_ETIMEDOUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "no answer within the deadline"));
	CU_ASSERT_TRUE(now_s() - t0 < 12);
}

static void test_refused_connection(void)
{
	struct ior_vm_target_url closed;
	char text[64];
	snprintf(text, sizeof(text), "ssh://127.0.0.1:%u", free_port());
	CU_ASSERT_EQUAL_FATAL(ior_vm_target_parse(&closed, text), IOR_OK);
	struct ior_vm_ssh s = conn();
	s.url = &closed;
	double t0 = now_s();
	CU_ASSERT_EQUAL(ior_vm_ssh_check(&s, "true", 30, "reaching it", NULL, 0), IOR_ETIMEDOUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "the connection failed or was lost"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), text));
	CU_ASSERT_TRUE(now_s() - t0 < 10);
	CU_ASSERT_EQUAL(ior_vm_ssh_copy(&s, ior_test_path("up.bin"), "/tmp/x", true, 30), IOR_ETIMEDOUT);
}

/* The session's sshd killed under a running command: ssh says the connection is lost (255). */
static void test_dropped_connection(void)
{
	struct ior_vm_ssh s = conn();
	struct ior_spawn c;
	double t0 = now_s();
	CU_ASSERT_EQUAL_FATAL(ior_vm_ssh_run(&s, "sleep 1; kill -9 $PPID; sleep 30", 60, &c), IOR_OK);
	CU_ASSERT_TRUE(ior_vm_ssh_lost(&c));
	CU_ASSERT_FALSE(c.timed_out);
	CU_ASSERT_TRUE(now_s() - t0 < 20);
	ior_spawn_free(&c);
}

/* A peer that stops answering (its session frozen, as a hung machine): noticed by the keep-alives
 * within about 15 s, not at the command's 120 s deadline. */
static void test_frozen_peer(void)
{
	struct ior_vm_ssh s = conn();
	const char *pidfile = ior_test_path("frozen.pid");
	unlink(pidfile);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "echo $PPID > %s; kill -STOP $PPID; sleep 60", pidfile);
	struct ior_spawn c;
	double t0 = now_s();
	CU_ASSERT_EQUAL_FATAL(ior_vm_ssh_run(&s, cmd, 120, &c), IOR_OK);
	double took = now_s() - t0;
	CU_ASSERT_TRUE(ior_vm_ssh_lost(&c));
	CU_ASSERT_FALSE(c.timed_out);
	CU_ASSERT_TRUE(took < 40);
	ior_spawn_free(&c);
	char *pid = ior_test_read_file(pidfile, NULL);
	if (pid && atoi(pid) > 1) { /* the frozen session is a child of the sshd this test started */
		kill(atoi(pid), SIGKILL);
		kill(atoi(pid), SIGCONT);
	}
	free(pid);
}

/* ssh://127.0.0.1 is this machine: vm run refuses it before it installs or boots anything. */
static void test_vm_run_refuses_this_machine(void)
{
	const char *db = ior_test_path("target.db");
	char ko[700], kh[64], ks[64];
	snprintf(ko, sizeof(ko), "--ssh-option=%s", opt_key);
	snprintf(kh, sizeof(kh), "--ssh-option=%s", opt_known);
	snprintf(ks, sizeof(ks), "--ssh-option=%s", opt_strict);
	unlink(db);
	char *args[] = { "--db", (char *)db, "vm", "run", "--target", url_text, ko, kh, ks, "--boot-only",
			 "linux-image-6.1.0-47-cloud-amd64", NULL };
	char out[4096], err[4096];
	int status = ior_test_ioregress(args, out, sizeof(out), err, sizeof(err));
	if (!strstr(err, "is this machine"))
		fprintf(stderr, "\n  status %d: %s%s", status, out, err);
	CU_ASSERT_EQUAL(status, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "is this machine"));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM vm_boots"), 0);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM target_installs"), 0);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_command_and_output),
		IOR_TEST(test_files_both_ways),
		IOR_TEST(test_failing_command),
		IOR_TEST(test_deadline),
		IOR_TEST(test_refused_connection),
		IOR_TEST(test_dropped_connection),
		IOR_TEST(test_frozen_peer),
		IOR_TEST(test_vm_run_refuses_this_machine),
		IOR_TEST_END,
	};
	start_sshd();
	return ior_test_run("vm_ssh", tests);
}
