/* SPDX-License-Identifier: GPL-2.0-or-later */
/* posix_spawn of argument lists with captured output, rusage and stop handling; see engines/spawn.h. */
#include "engines/spawn.h"
#include "engines/clock.h"
#include "common/error.h"
#include "common/stop.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Keeps the last sizeof(res->err)-1 bytes of stderr: the end holds the reason. */
static void keep_err_tail(struct ior_spawn_result *res, const char *buf, size_t n)
{
	size_t cap = sizeof(res->err) - 1, have = strlen(res->err);
	if (n >= cap) {
		memcpy(res->err, buf + n - cap, cap);
		res->err[cap] = '\0';
		return;
	}
	if (have + n > cap) {
		size_t drop = have + n - cap;
		memmove(res->err, res->err + drop, have - drop);
		have -= drop;
	}
	memcpy(res->err + have, buf, n);
	res->err[have + n] = '\0';
}

static int append_out(struct ior_spawn_result *res, size_t *cap, const char *buf, size_t n)
{
	if (res->out_len + n + 1 > *cap) {
		size_t want = *cap ? *cap * 2 : 65536;
		while (want < res->out_len + n + 1)
			want *= 2;
		char *p = realloc(res->out, want);
		if (!p)
			return ior_error_set(IOR_ERROR, "out of memory capturing a child's output");
		res->out = p;
		*cap = want;
	}
	memcpy(res->out + res->out_len, buf, n);
	res->out_len += n;
	res->out[res->out_len] = '\0';
	return IOR_OK;
}

static void stop_child(struct ior_spawn_result *res, pid_t pid)
{
	if (!res->interrupted && ior_stop_requested()) {
		kill(pid, SIGTERM);
		res->interrupted = true;
	}
}

/* Seconds a killed child gets to die before it is left behind (stuck in uninterruptible I/O,
 * SIGKILL waits for that I/O). */
#define KILL_GRACE_S 5.0

/* Past the limit: SIGKILL once; true when the child has had its grace and is given up on. */
static bool over_limit(struct ior_spawn_result *res, pid_t pid, double t0)
{
	if (res->limit_s <= 0)
		return false;
	double late = ior_clock_s() - t0 - res->limit_s;
	if (late > 0 && !res->timed_out) {
		kill(pid, SIGKILL);
		res->timed_out = true;
	}
	return late > KILL_GRACE_S;
}

/* Drains the pipes until both reach end of file, watching for a stop request and the limit. */
static int drain(struct ior_spawn_result *res, pid_t pid, int out_fd, int err_fd, double t0)
{
	struct pollfd fds[2] = { { .fd = err_fd, .events = POLLIN }, { .fd = out_fd, .events = POLLIN } };
	size_t cap = 0;
	char buf[65536];
	int rc = IOR_OK;
	while (fds[0].fd >= 0 || fds[1].fd >= 0) {
		stop_child(res, pid);
		if (over_limit(res, pid, t0)) {
			for (int i = 0; i < 2; i++)
				if (fds[i].fd >= 0)
					close(fds[i].fd);
			break;
		}
		/* A bounded wait: a signal landing just before poll is seen within 250 ms. */
		int n = poll(fds, 2, 250);
		if (n < 0 && errno != EINTR)
			return ior_error_errno(IOR_ERROR, errno, "cannot poll a child's output");
		for (int i = 0; n > 0 && i < 2; i++) {
			if (fds[i].fd < 0 || !fds[i].revents)
				continue;
			ssize_t got = read(fds[i].fd, buf, sizeof(buf));
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
			} else if (i == 0) {
				keep_err_tail(res, buf, (size_t)got);
			} else if (rc == IOR_OK) {
				rc = append_out(res, &cap, buf, (size_t)got);
			}
		}
	}
	return rc;
}

static int reap(struct ior_spawn_result *res, pid_t pid, double t0)
{
	struct rusage ru;
	memset(&ru, 0, sizeof(ru));
	for (;;) {
		/* with a limit, polled: a killed child stuck in the kernel is not waited for */
		pid_t got = wait4(pid, &res->status, res->limit_s > 0 ? WNOHANG : 0, &ru);
		if (got == pid)
			break;
		if (got < 0 && errno != EINTR)
			return ior_error_errno(IOR_ERROR, errno, "cannot wait for child %d", (int)pid);
		stop_child(res, pid);
		if (over_limit(res, pid, t0)) {
			res->status = SIGKILL; /* as if killed: it will be, once its I/O ends */
			break;
		}
		if (got == 0)
			poll(NULL, 0, 20);
	}
	res->usr_s = ior_timeval_s(ru.ru_utime);
	res->sys_s = ior_timeval_s(ru.ru_stime);
	return IOR_OK;
}

static int setup_actions(posix_spawn_file_actions_t *fa, posix_spawnattr_t *attr,
			 int out_w, int err_w, const char *dir)
{
	int e = posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0);
	if (!e && out_w >= 0)
		e = posix_spawn_file_actions_adddup2(fa, out_w, 1);
	else if (!e)
		e = posix_spawn_file_actions_addopen(fa, 1, "/dev/null", O_WRONLY, 0);
	if (!e)
		e = posix_spawn_file_actions_adddup2(fa, err_w, 2);
	if (!e && dir)
		e = posix_spawn_file_actions_addchdir_np(fa, dir);
	/* The child starts with default dispositions and an empty mask, whatever the harness set. */
	sigset_t def, none;
	sigemptyset(&none);
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGTERM);
	sigaddset(&def, SIGHUP);
	if (!e)
		e = posix_spawnattr_setsigdefault(attr, &def);
	if (!e)
		e = posix_spawnattr_setsigmask(attr, &none);
	if (!e)
		e = posix_spawnattr_setflags(attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	return e;
}

static int start(pid_t *pid, const char *const *argv, const char *dir, int out_w, int err_w)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	int e = setup_actions(&fa, &attr, out_w, err_w, dir);
	if (!e)
		e = posix_spawnp(pid, argv[0], &fa, &attr, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (e)
		return ior_error_errno(IOR_ERROR, e, "cannot run '%s'", argv[0]);
	return IOR_OK;
}

int ior_spawn_run(struct ior_spawn_result *res, const char *const *argv, const char *dir, unsigned flags)
{
	return ior_spawn_run_limited(res, argv, dir, flags, 0);
}

int ior_spawn_run_limited(struct ior_spawn_result *res, const char *const *argv, const char *dir, unsigned flags,
			  double limit_s)
{
	memset(res, 0, sizeof(*res));
	res->limit_s = limit_s;
	if (!argv || !argv[0] || !argv[0][0])
		return ior_error_set(IOR_EINVALID, "empty command");
	if (ior_stop_requested())
		return ior_error_set(IOR_EINTERRUPTED, "stop requested before running '%s'", argv[0]);
	int errp[2], outp[2] = { -1, -1 };
	if (pipe2(errp, O_CLOEXEC) != 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot create a pipe for '%s'", argv[0]);
	if ((flags & IOR_SPAWN_CAPTURE_OUT) && pipe2(outp, O_CLOEXEC) != 0) {
		int e = errno;
		close(errp[0]);
		close(errp[1]);
		return ior_error_errno(IOR_ERROR, e, "cannot create a pipe for '%s'", argv[0]);
	}
	pid_t pid;
	double t0 = ior_clock_s();
	int rc = start(&pid, argv, dir, outp[1], errp[1]);
	close(errp[1]);
	if (outp[1] >= 0)
		close(outp[1]);
	if (rc != IOR_OK) {
		close(errp[0]);
		if (outp[0] >= 0)
			close(outp[0]);
		return rc;
	}
	rc = drain(res, pid, outp[0], errp[0], t0);
	int rc2 = reap(res, pid, t0);
	res->wall_s = ior_clock_s() - t0;
	if (rc == IOR_OK)
		rc = rc2;
	if (rc == IOR_OK && res->interrupted)
		rc = ior_error_set(IOR_EINTERRUPTED, "stop requested while '%s' ran", argv[0]);
	return rc;
}

/* The last non-empty line of stderr, which is where tools put the reason. */
static const char *last_line(const char *err, char *buf, size_t len)
{
	size_t n = strlen(err);
	while (n && (err[n - 1] == '\n' || err[n - 1] == '\r' || err[n - 1] == ' '))
		n--;
	size_t b = n;
	while (b && err[b - 1] != '\n')
		b--;
	snprintf(buf, len, "%.*s", (int)(n - b), err + b);
	return buf;
}

int ior_spawn_check(const struct ior_spawn_result *res, const char *what)
{
	char line[512];
	last_line(res->err, line, sizeof(line));
	const char *sep = line[0] ? ": " : "";
	if (res->timed_out)
		return ior_error_set(IOR_ETIMEDOUT, "'%s' did not finish within %.0f s and was killed%s%s", what, res->limit_s,
				     sep, line);
	if (WIFEXITED(res->status) && WEXITSTATUS(res->status) == 0)
		return IOR_OK;
	if (WIFEXITED(res->status))
		return ior_error_set(IOR_ERROR, "'%s' exited with status %d%s%s", what,
				     WEXITSTATUS(res->status), sep, line);
	if (WIFSIGNALED(res->status))
		return ior_error_set(IOR_ERROR, "'%s' was killed by signal %d (%s)%s%s", what,
				     WTERMSIG(res->status), strsignal(WTERMSIG(res->status)), sep, line);
	return ior_error_set(IOR_ERROR, "'%s' ended with wait status %#x", what, (unsigned)res->status);
}

void ior_spawn_result_free(struct ior_spawn_result *res)
{
	if (!res)
		return;
	free(res->out);
	res->out = NULL;
	res->out_len = 0;
}

bool ior_spawn_in_path(const char *prog)
{
	if (!prog || !prog[0])
		return false;
	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	char buf[4096];
	for (const char *p = path; ; ) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)(n ? n : 1), n ? p : ".", prog);
		if (access(buf, X_OK) == 0)
			return true;
		if (!end)
			return false;
		p = end + 1;
	}
}
