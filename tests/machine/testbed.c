/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The test-bed machine of issue 36's suites: builds or finds the cached Debian 12 image, boots it
 * under qemu for one test, talks to it over SSH, and ends it by its pid whatever the test did. */
#include "tests/machine/testbed.h"

#include "common/error.h"
#include "tests/suite.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The test-beds booted by this program, stopped at exit even when an assertion ended a case. */
#define MAX_BOOTED 8
static struct ior_testbed *booted[MAX_BOOTED];

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void chomp(char *s)
{
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

/* One KEY=value line of machine.env (values may be single-quoted). */
static int env_value(const char *env, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);
	for (const char *line = env; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, key, klen) != 0 || line[klen] != '=')
			continue;
		const char *v = line + klen + 1;
		size_t n = strcspn(v, "\n");
		if (n >= 2 && v[0] == '\'' && v[n - 1] == '\'')
			v++, n -= 2;
		if (n >= len)
			return ior_error_set(IOR_ERROR, "value of %s too long in machine.env", key);
		memcpy(out, v, n);
		out[n] = '\0';
		return IOR_OK;
	}
	return ior_error_set(IOR_ENOTFOUND, "no %s in the test-bed's machine.env", key);
}

int ior_testbed_image(struct ior_testbed *m)
{
	memset(m, 0, sizeof(*m));
	m->qemu.pid = -1;
	ior_test_require_root("the test-bed is built with mmdebstrap and mkfs.ext4 -d");
	if (!ior_spawn_in_path("qemu-system-x86_64") || !ior_spawn_in_path("qemu-img"))
		ior_test_skip("no qemu-system-x86_64 or qemu-img");
	if (!ior_spawn_in_path("mmdebstrap"))
		ior_test_skip("mmdebstrap is not installed (bash ci/setup.sh installs it)");
	if (!ior_spawn_in_path("ssh") || !ior_spawn_in_path("scp"))
		ior_test_skip("no ssh or scp");

	const char *script = ior_test_source_path("tests/machine/build-image.sh");
	struct ior_spawn c = {
		.argv = (const char *const[]){ "bash", script, NULL },
		.out_to = IOR_SPAWN_OUT_CAPTURE,
		.err_to = IOR_SPAWN_ERR_INHERIT,   /* mmdebstrap's progress in the test's log */
		.flags = IOR_SPAWN_DIE_WITH_US,
		.limit_s = 1800,
	};
	int rc = ior_spawn_run(&c);
	if (rc == IOR_OK && !(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0)) {
		/* Without the archive there is nothing to build from: an environment, not a failure. */
		struct addrinfo *ai = NULL;
		if (getaddrinfo("deb.debian.org", "80", NULL, &ai) != 0) {
			ior_spawn_free(&c);
			ior_test_skip("the test-bed is not built and deb.debian.org cannot be reached");
		}
		freeaddrinfo(ai);
		rc = ior_spawn_check(&c, "tests/machine/build-image.sh");
	}
	if (rc == IOR_OK) {
		chomp(c.out);
		const char *last = strrchr(c.out, '\n') ? strrchr(c.out, '\n') + 1 : c.out;
		if (snprintf(m->image, sizeof(m->image), "%s", last) >= (int)sizeof(m->image))
			rc = ior_error_set(IOR_ERROR, "test-bed path too long");
	}
	ior_spawn_free(&c);
	if (rc != IOR_OK)
		return rc;

	char envpath[IOR_TESTBED_PATH + 16];
	snprintf(envpath, sizeof(envpath), "%s/machine.env", m->image);
	char *env = ior_test_read_file(envpath, NULL);
	if (!env)
		return ior_error_errno(IOR_ERROR, errno, "cannot read '%s'", envpath);
	rc = env_value(env, "IOR_MACHINE_DEFAULT_KERNEL", m->default_kernel, sizeof(m->default_kernel));
	if (rc == IOR_OK)
		rc = env_value(env, "IOR_MACHINE_SECOND_KERNEL", m->second_kernel, sizeof(m->second_kernel));
	free(env);
	snprintf(m->key, sizeof(m->key), "%.4000s/id_ed25519", m->image);
	return rc;
}

/* A port of 127.0.0.1 nobody listens on now (qemu may still lose it to a race: boot retries). */
static int free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	int port = -1;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 && getsockname(fd, (struct sockaddr *)&a, &alen) == 0)
		port = ntohs(a.sin_port);
	close(fd);
	return port;
}

/* True when the child has ended, without reaping it (ior_spawn_wait does that). */
static bool ended(const struct ior_testbed *m)
{
	siginfo_t si = { 0 };
	return m->qemu.pid <= 0 ||
	       (waitid(P_PID, (id_t)m->qemu.pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == m->qemu.pid);
}

bool ior_testbed_running(struct ior_testbed *m)
{
	return m->running && !ended(m);
}

static void stop_all(void)
{
	for (int i = 0; i < MAX_BOOTED; i++)
		if (booted[i])
			ior_testbed_stop(booted[i]);
}

static void remember(struct ior_testbed *m)
{
	static bool registered;
	if (!registered) {
		atexit(stop_all);
		registered = true;
	}
	for (int i = 0; i < MAX_BOOTED; i++)
		if (booted[i] == m)
			return;
	for (int i = 0; i < MAX_BOOTED; i++)
		if (!booted[i]) {
			booted[i] = m;
			return;
		}
}

static int start_qemu(struct ior_testbed *m)
{
	m->port = free_port();
	if (m->port <= 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot find a free port on 127.0.0.1");
	char port[16];
	snprintf(port, sizeof(port), "%d", m->port);
	snprintf(m->target, sizeof(m->target), "ssh://root@127.0.0.1:%d", m->port);
	static char image_env[IOR_TESTBED_PATH + 32];
	snprintf(image_env, sizeof(image_env), "IOR_MACHINE_DIR=%s", m->image);
	/* boot.sh run makes the overlay and the disk and then execs qemu: the pid is qemu's, and the
	 * parent-death signal survives the exec, so qemu ends with the test even on SIGKILL. */
	m->qemu = (struct ior_spawn){
		.argv = (const char *const[]){ "bash", ior_test_source_path("tests/machine/boot.sh"), "run", m->dir, port, NULL },
		.env = (const char *const[]){ image_env, NULL },
		.out_to = IOR_SPAWN_OUT_STDERR,
		.flags = IOR_SPAWN_DIE_WITH_US,
	};
	int rc = ior_spawn_start(&m->qemu);
	if (rc != IOR_OK)
		return ior_error_wrap(rc, "cannot start the test-bed's qemu");
	m->running = true;
	remember(m);
	return IOR_OK;
}

int ior_testbed_boot(struct ior_testbed *m, const char *name, double deadline_s)
{
	if (snprintf(m->dir, sizeof(m->dir), "%s/%s", ior_test_tmpdir(), name) >= (int)sizeof(m->dir))
		return ior_error_set(IOR_ERROR, "test-bed directory name too long");
	if (mkdir(m->dir, 0700) != 0 && errno != EEXIST)
		return ior_error_errno(IOR_ERROR, errno, "cannot create '%s'", m->dir);
	snprintf(m->ssh_config, sizeof(m->ssh_config), "%.4000s/ssh_config", m->dir);
	snprintf(m->console, sizeof(m->console), "%.4000s/console.log", m->dir);
	snprintf(m->data_disk, sizeof(m->data_disk), "%.4000s/data.img", m->dir);

	double t0 = now_s(), end = t0 + deadline_s;
	/* A port taken between free_port and qemu's bind ends qemu at once: try another. */
	for (int attempt = 0; attempt < 3; attempt++) {
		double started = now_s();
		int rc = start_qemu(m);
		if (rc != IOR_OK)
			return rc;
		while (now_s() < end) {
			if (ended(m))
				break;
			if (access(m->ssh_config, R_OK) == 0 && ior_testbed_ssh(m, "true", NULL, 0, 30) == 0) {
				m->boot_s = now_s() - started;
				return IOR_OK;
			}
			sleep(2);
		}
		if (!ended(m)) {
			ior_testbed_stop(m);
			return ior_error_set(IOR_ETIMEDOUT, "the test-bed answered no SSH on port %d within %.0f s (console: %s)",
					     m->port, deadline_s, m->console);
		}
		ior_spawn_wait(&m->qemu);
		m->running = false;
		if (now_s() - started > 20)   /* it ran for a while: not a port race */
			break;
	}
	return ior_error_set(IOR_ERROR, "the test-bed's qemu ended before SSH answered (console: %s)", m->console);
}

int ior_testbed_ssh(struct ior_testbed *m, const char *command, char *out, size_t len, double limit_s)
{
	struct ior_spawn c = {
		.argv = (const char *const[]){ "ssh", "-F", m->ssh_config, IOR_TESTBED_HOST, command, NULL },
		.out_to = IOR_SPAWN_OUT_CAPTURE,
		.limit_s = limit_s,
		.max_out = 1 << 20,
	};
	int rc = ior_spawn_run(&c);
	int status = -1;
	if (rc == IOR_OK && !c.timed_out && WIFEXITED(c.status))
		status = WEXITSTATUS(c.status);
	if (out && len) {
		snprintf(out, len, "%s%s", c.out ? c.out : "", status == 0 ? "" : c.err);
		chomp(out);
	}
	ior_spawn_free(&c);
	return status;
}

static int scp(struct ior_testbed *m, const char *from, const char *to)
{
	struct ior_spawn c = {
		.argv = (const char *const[]){ "scp", "-q", "-F", m->ssh_config, from, to, NULL },
		.out_to = IOR_SPAWN_OUT_NULL,
		.limit_s = 600,
	};
	int rc = ior_spawn_run(&c);
	if (rc == IOR_OK)
		rc = ior_spawn_check(&c, "scp");
	ior_spawn_free(&c);
	return rc;
}

int ior_testbed_put(struct ior_testbed *m, const char *local, const char *remote)
{
	char to[IOR_TESTBED_PATH + 32];
	snprintf(to, sizeof(to), IOR_TESTBED_HOST ":%s", remote);
	return scp(m, local, to);
}

int ior_testbed_get(struct ior_testbed *m, const char *remote, const char *local)
{
	char from[IOR_TESTBED_PATH + 32];
	snprintf(from, sizeof(from), IOR_TESTBED_HOST ":%s", remote);
	return scp(m, from, local);
}

int ior_testbed_install_ioregress(struct ior_testbed *m, const char *binary)
{
	if (!binary)
		binary = getenv("IOR_BINARY");
	if (!binary || !*binary)
		return ior_error_set(IOR_EINVALID, "no ioregress binary to install on the test-bed (IOR_BINARY is not set)");
	int rc = ior_testbed_put(m, binary, "/usr/local/bin/ioregress.new");
	if (rc != IOR_OK)
		return ior_error_wrap(rc, "cannot copy '%s' to the test-bed", binary);
	char out[1024];
	int st = ior_testbed_ssh(m, "chmod 0755 /usr/local/bin/ioregress.new && mv /usr/local/bin/ioregress.new "
				 "/usr/local/bin/ioregress && ioregress --version", out, sizeof(out), 120);
	if (st != 0)
		return ior_error_set(IOR_ERROR, "this build's ioregress does not run on the test-bed (status %d): %s", st, out);
	return IOR_OK;
}

int ior_testbed_boot_id(struct ior_testbed *m, char *out, size_t len)
{
	int st = ior_testbed_ssh(m, "cat /proc/sys/kernel/random/boot_id", out, len, 60);
	if (st != 0 || strlen(out) != 36)
		return ior_error_set(IOR_ERROR, "cannot read the test-bed's boot id (ssh status %d: %s)", st, out);
	return IOR_OK;
}

int ior_testbed_wait_new_boot(struct ior_testbed *m, const char *old_boot_id, double deadline_s,
			      char *out, size_t len)
{
	double end = now_s() + deadline_s;
	while (now_s() < end) {
		if (!ior_testbed_running(m))
			return ior_error_set(IOR_ERROR, "the test-bed's qemu ended while waiting for it to boot again (console: %s)",
					     m->console);
		if (ior_testbed_boot_id(m, out, len) == IOR_OK && strcmp(out, old_boot_id) != 0)
			return IOR_OK;
		sleep(2);
	}
	return ior_error_set(IOR_ETIMEDOUT, "the test-bed did not come back with a new boot id within %.0f s (console: %s)",
			     deadline_s, m->console);
}

int ior_testbed_wait_exit(struct ior_testbed *m, double deadline_s)
{
	double end = now_s() + deadline_s;
	while (m->running && !ended(m) && now_s() < end)
		usleep(200 * 1000);
	if (!m->running || !ended(m))
		return -1;
	ior_spawn_wait(&m->qemu);
	m->running = false;
	return WIFEXITED(m->qemu.status) ? WEXITSTATUS(m->qemu.status) : 128 + WTERMSIG(m->qemu.status);
}

void ior_testbed_stop(struct ior_testbed *m)
{
	if (m->running) {
		if (!ended(m)) {
			kill(m->qemu.pid, SIGTERM);
			for (int i = 0; i < 50 && !ended(m); i++)
				usleep(100 * 1000);
			if (!ended(m))
				kill(m->qemu.pid, SIGKILL);
		}
		ior_spawn_wait(&m->qemu);
		m->running = false;
	}
	if (m->dir[0]) {
		char path[IOR_TESTBED_PATH + 32];
		snprintf(path, sizeof(path), "%.4000s/root.qcow2", m->dir);
		unlink(path);
		unlink(m->data_disk);
	}
}
