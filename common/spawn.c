/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Child processes behind common/spawn.h: started by posix_spawn, or by fork when the child must die
 * with us; output drained, deadlines kept and stop requests passed on while it runs. */
#include "common/spawn.h"
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
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Seconds an ended child gets before SIGKILL (a shell's traps, fio writing its last figures), and
 * after SIGKILL before it is left behind (stuck in uninterruptible I/O, SIGKILL waits for it). */
#define TERM_GRACE_S 2.0
#define KILL_GRACE_S 5.0

static double mono_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static const char *child_name(const struct ior_spawn *c)
{
	return c->argv ? c->argv[0] : c->shell;
}

/* What the child's descriptors 0, 1 and 2 become: an fd to dup2 there, NULL_FD for /dev/null,
 * KEEP_FD for ours. */
enum { NULL_FD = -1, KEEP_FD = -2 };
struct plan {
	const char *file;          /* what execvp/posix_spawnp looks up */
	char *const *argv, *const *envp;
	const char *dir;
	int fd[3];
	int child_ends[3];         /* the pipe ends only the child keeps: the parent and a guard close theirs (-1: none) */
	int report;                /* the fork path's exec-error pipe (write end), -1 without */
	pid_t parent;
};

/* The environment with c->env's entries added or replaced: borrowed strings, a new array. */
static char **merged_env(const char *const *add)
{
	size_t n = 0, k = 0;
	while (environ && environ[n])
		n++;
	while (add[k])
		k++;
	char **env = calloc(n + k + 1, sizeof(*env));
	if (!env)
		return NULL;
	size_t used = 0;
	for (size_t i = 0; i < n; i++) {
		bool replaced = false;
		for (size_t j = 0; j < k && !replaced; j++) {
			size_t name = strcspn(add[j], "=");
			replaced = !strncmp(environ[i], add[j], name) && environ[i][name] == '=';
		}
		if (!replaced)
			env[used++] = environ[i];
	}
	for (size_t j = 0; j < k; j++)
		env[used++] = (char *)add[j];
	return env;
}

/* The child starts with default dispositions and an empty mask, whatever the harness set: a
 * stop passed on as SIGTERM ends it, and a pipe it writes to that closes ends it as a shell's would. */
static void stop_signals(sigset_t *def)
{
	sigemptyset(def);
	sigaddset(def, SIGPIPE);
	sigaddset(def, SIGINT);
	sigaddset(def, SIGTERM);
	sigaddset(def, SIGHUP);
}

static int spawn_plain(const struct plan *p, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	int e = 0;
	for (int i = 0; i < 3 && !e; i++) {
		if (p->fd[i] == NULL_FD)
			e = posix_spawn_file_actions_addopen(&fa, i, "/dev/null", i ? O_WRONLY : O_RDONLY, 0);
		else if (p->fd[i] != KEEP_FD)
			e = posix_spawn_file_actions_adddup2(&fa, p->fd[i], i);
	}
	if (!e && p->dir)
		e = posix_spawn_file_actions_addchdir_np(&fa, p->dir);
	sigset_t def, none;
	stop_signals(&def);
	sigemptyset(&none);
	if (!e)
		e = posix_spawnattr_setsigdefault(&attr, &def);
	if (!e)
		e = posix_spawnattr_setsigmask(&attr, &none);
	if (!e)
		e = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	if (!e)
		e = posix_spawnp(pid, p->file, &fa, &attr, p->argv, p->envp);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	return e;
}

static void reset_signals(void)
{
	sigset_t def;
	stop_signals(&def);
	for (int s = 1; s < NSIG; s++)
		if (sigismember(&def, s) == 1)
			signal(s, SIG_DFL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* In a forked child (async-signal-safe calls only): the descriptors, the directory, the exec. An
 * error goes to the parent through the report pipe as an errno. */
static void exec_child(const struct plan *p)
{
	reset_signals();
	for (int i = 0; i < 3; i++) {
		int fd = p->fd[i] == NULL_FD ? open("/dev/null", (i ? O_WRONLY : O_RDONLY) | O_CLOEXEC) : p->fd[i];
		if (fd != KEEP_FD && (fd < 0 || dup2(fd, i) < 0))
			goto fail;
	}
	if (p->dir && chdir(p->dir))
		goto fail;
	execvpe(p->file, p->argv, p->envp);
fail:;
	int e = errno;
	if (write(p->report, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* The guard's answer to our death: the whole group, itself included, ends at once. */
static void end_own_group(int sig)
{
	(void)sig;
	kill(0, SIGKILL);
}

/* The forked child. With a group, it is the group's leader and stays as its guard while the
 * command runs: our death, even by SIGKILL, reaches it as SIGUSR1 (the parent-death signal) and
 * it ends the whole group, so nothing the command started is left orphaned; otherwise it exits
 * with the command's status (128 + a signal's number). */
static void forked(const struct plan *p, bool group)
{
	if (group) {
		setpgid(0, 0);
		reset_signals();
		/* a stop or the limit ends the command; the guard stays to report how it ended */
		signal(SIGINT, SIG_IGN), signal(SIGTERM, SIG_IGN), signal(SIGHUP, SIG_IGN);
		struct sigaction sa = { .sa_handler = end_own_group };
		sigaction(SIGUSR1, &sa, NULL);
	}
	prctl(PR_SET_PDEATHSIG, group ? SIGUSR1 : SIGKILL);
	if (getppid() != p->parent)
		_exit(127);   /* we died before the signal was set */
	if (!group)
		exec_child(p);
	pid_t cmd = fork();
	if (cmd == 0) {
		signal(SIGUSR1, SIG_DFL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);   /* and the command dies with its guard */
		exec_child(p);
	}
	if (cmd < 0) {
		int e = errno;
		if (write(p->report, &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	/* the reader sees the end of the command's output, not the guard's copy of the pipes */
	for (int i = 0; i < 3; i++)
		if (p->child_ends[i] >= 0)
			close(p->child_ends[i]);
	close(p->report);
	int st = 0;
	while (waitpid(cmd, &st, 0) < 0 && errno == EINTR)
		;
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

/* fork rather than posix_spawn: the child has to ask for the parent-death signal itself. Returns
 * an errno value when it could not be started. */
static int spawn_forked(struct plan *p, pid_t *pid, bool group)
{
	int report[2];
	if (pipe2(report, O_CLOEXEC))
		return errno;
	p->report = report[1];
	p->parent = getpid();
	fflush(NULL);   /* what we printed comes before what it prints */
	*pid = fork();
	if (*pid == 0)
		forked(p, group);
	int e = *pid < 0 ? errno : 0;
	close(report[1]);
	if (*pid > 0 && group)
		setpgid(*pid, *pid);   /* both sides, so the group exists before either looks */
	ssize_t got;
	while ((got = read(report[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(report[0]);
	if (*pid > 0 && got == (ssize_t)sizeof(e)) {
		while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
			;
		return e ? e : ECHILD;
	}
	return e;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* The pipes a start makes: the parent's ends in c (and *err_r, stderr's tail, only for a caller
 * that reads it: err_r not NULL), the child's in p. */
static int make_pipes(struct ior_spawn *c, struct plan *p, int *err_r)
{
	int out[2] = { -1, -1 }, err[2] = { -1, -1 }, in[2] = { -1, -1 };
	bool piped = c->out_to == IOR_SPAWN_OUT_PIPE;
	bool tail = err_r && !piped && c->err_to == IOR_SPAWN_ERR_TAIL;
	if (((piped || c->out_to == IOR_SPAWN_OUT_CAPTURE) && pipe2(out, O_CLOEXEC)) ||
	    (piped && pipe2(in, O_CLOEXEC)) || (tail && pipe2(err, O_CLOEXEC))) {
		int e = errno;
		for (int i = 0; i < 2; i++)
			close_fd(&out[i]), close_fd(&err[i]), close_fd(&in[i]);
		return ior_error_errno(IOR_ERROR, e, "cannot create a pipe for '%s'", child_name(c));
	}
	static const int out_fd[] = { [IOR_SPAWN_OUT_NULL] = NULL_FD, [IOR_SPAWN_OUT_INHERIT] = KEEP_FD,
				      [IOR_SPAWN_OUT_STDERR] = STDERR_FILENO };
	p->fd[0] = piped ? in[0] : NULL_FD;
	p->fd[1] = out[1] >= 0 ? out[1] : out_fd[c->out_to];
	p->fd[2] = piped ? out[1] : err[1] >= 0 ? err[1] : KEEP_FD;
	p->child_ends[0] = in[0], p->child_ends[1] = out[1], p->child_ends[2] = err[1];
	c->in_fd = in[1];
	c->out_fd = out[0];
	if (err_r)
		*err_r = err[0];
	return IOR_OK;
}

static int start(struct ior_spawn *c, int *err_r)
{
	c->pid = -1;
	c->in_fd = c->out_fd = -1;
	if (err_r)
		*err_r = -1;
	const char *sh[] = { "sh", "-c", c->shell, NULL };
	const char *const *argv = c->argv ? c->argv : c->shell ? sh : NULL;
	if (!argv || !argv[0] || !argv[0][0])
		return ior_error_set(IOR_EINVALID, "empty command");
	struct plan p = { .file = c->argv ? argv[0] : "/bin/sh", .argv = (char *const *)argv, .envp = environ,
			  .dir = c->dir, .report = -1 };
	char **env = NULL;
	if (c->env && !(env = merged_env(c->env)))
		return ior_error_set(IOR_ERROR, "out of memory starting '%s'", child_name(c));
	if (env)
		p.envp = env;
	int rc = make_pipes(c, &p, err_r);
	if (rc) {
		free(env);
		return rc;
	}
	c->t0 = mono_s();
	bool fork_it = c->flags & (IOR_SPAWN_DIE_WITH_US | IOR_SPAWN_GROUP);
	int e = fork_it ? spawn_forked(&p, &c->pid, c->flags & IOR_SPAWN_GROUP) : spawn_plain(&p, &c->pid);
	free(env);
	for (int i = 0; i < 3; i++)
		if (p.child_ends[i] >= 0)
			close(p.child_ends[i]);
	if (e) {
		c->pid = -1;
		close_fd(&c->in_fd), close_fd(&c->out_fd);
		if (err_r)
			close_fd(err_r);
		return ior_error_errno(IOR_ERROR, e, "cannot run '%s'%s%s", child_name(c), c->dir ? " in " : "",
				       c->dir ? c->dir : "");
	}
	return IOR_OK;
}

int ior_spawn_start(struct ior_spawn *c)
{
	return start(c, NULL);
}

/* Keeps the last sizeof(c->err)-1 bytes of stderr: the end holds the reason. */
static void keep_err_tail(struct ior_spawn *c, const char *buf, size_t n)
{
	size_t cap = sizeof(c->err) - 1, have = strlen(c->err);
	if (n >= cap) {
		memcpy(c->err, buf + n - cap, cap);
		c->err[cap] = '\0';
		return;
	}
	if (have + n > cap) {
		size_t drop = have + n - cap;
		memmove(c->err, c->err + drop, have - drop);
		have -= drop;
	}
	memcpy(c->err + have, buf, n);
	c->err[have + n] = '\0';
}

static int append_out(struct ior_spawn *c, size_t *cap, const char *buf, size_t n)
{
	if (c->out_len + n + 1 > *cap) {
		size_t want = *cap ? *cap * 2 : 65536;
		while (want < c->out_len + n + 1)
			want *= 2;
		char *p = realloc(c->out, want);
		if (!p)
			return ior_error_set(IOR_ERROR, "out of memory capturing the output of '%s'", child_name(c));
		c->out = p;
		*cap = want;
	}
	memcpy(c->out + c->out_len, buf, n);
	c->out_len += n;
	c->out[c->out_len] = '\0';
	return IOR_OK;
}

/* A running child's ending: when it was asked to end, when it was killed. */
struct ending {
	double asked, killed;
};

static void signal_child(const struct ior_spawn *c, int sig)
{
	kill(c->flags & IOR_SPAWN_GROUP ? -c->pid : c->pid, sig);
}

static void end_child(const struct ior_spawn *c, struct ending *e, int sig, double t)
{
	signal_child(c, sig);
	if (e->asked < 0)
		e->asked = t;
	if (sig == SIGKILL && e->killed < 0)
		e->killed = t;
}

/* A stop request, the limit, too much output: the child is ended; true when it has had every grace
 * and is given up on. */
static bool watch(struct ior_spawn *c, struct ending *e)
{
	double t = mono_s();
	/* a group is asked first (a command's traps clean up); a lone child past its limit is killed */
	int hard = c->flags & IOR_SPAWN_GROUP ? SIGTERM : SIGKILL;
	if (!c->interrupted && ior_stop_requested()) {
		c->interrupted = true;
		end_child(c, e, SIGTERM, t);
	}
	if (!c->timed_out && c->limit_s > 0 && t - c->t0 > c->limit_s) {
		c->timed_out = true;
		end_child(c, e, hard, t);
	}
	if (c->too_long && e->asked < 0)
		end_child(c, e, hard, t);
	if (e->asked >= 0 && e->killed < 0 && t - e->asked > TERM_GRACE_S)
		end_child(c, e, SIGKILL, t);
	return e->killed >= 0 && t - e->killed > KILL_GRACE_S;
}

static int reap(struct ior_spawn *c, int options)
{
	struct rusage ru;
	memset(&ru, 0, sizeof(ru));
	pid_t got;
	while ((got = wait4(c->pid, &c->status, options, &ru)) < 0 && errno == EINTR)
		;
	if (got < 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot wait for child %d ('%s')", (int)c->pid, child_name(c));
	if (got == 0)
		return 1;
	c->usr_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	c->sys_s = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	c->wall_s = mono_s() - c->t0;
	return IOR_OK;
}

/* Reads what is ready on fds[i]: stderr's tail (0) or captured stdout (1). */
static int take(struct ior_spawn *c, struct pollfd *fds, int i, size_t *cap)
{
	char buf[65536];
	ssize_t got = read(fds[i].fd, buf, sizeof(buf));
	if (got < 0 && (errno == EINTR || errno == EAGAIN))
		return IOR_OK;
	if (got <= 0) {
		close_fd(&fds[i].fd);
		return IOR_OK;
	}
	if (i == 0) {
		keep_err_tail(c, buf, (size_t)got);
		return IOR_OK;
	}
	int rc = append_out(c, cap, buf, (size_t)got);
	if (c->max_out && c->out_len > c->max_out)
		c->too_long = true;
	return rc;
}

/* Until the pipes reach end of file and the child is reaped (or given up on). */
static int drain(struct ior_spawn *c, int err_r)
{
	/* readable when the child exits, so a quick one costs no polling interval (20 ms steps without) */
	int exited = (int)syscall(SYS_pidfd_open, c->pid, 0);
	struct pollfd fds[3] = { { .fd = err_r, .events = POLLIN }, { .fd = c->out_fd, .events = POLLIN },
				 { .fd = exited, .events = POLLIN } };
	c->out_fd = -1;
	struct ending e = { -1, -1 };
	size_t cap = 0;
	int rc = IOR_OK, waiting = 1;
	while (waiting > 0) {
		if (watch(c, &e)) {
			c->status = SIGKILL;   /* as if killed: it will be, once its I/O ends */
			break;
		}
		/* bounded: a stop request landing just before poll is seen within 100 ms */
		int n = poll(fds, 3, exited >= 0 ? 100 : 20);
		if (n < 0 && errno != EINTR) {
			rc = ior_error_errno(IOR_ERROR, errno, "cannot poll the output of '%s'", child_name(c));
			break;
		}
		for (int i = 0; n > 0 && i < 2; i++)
			if (fds[i].fd >= 0 && fds[i].revents) {
				int r = take(c, fds, i, &cap);
				rc = rc ? rc : r;
			}
		if (n > 0 && fds[2].fd >= 0 && fds[2].revents)
			close_fd(&fds[2].fd);   /* it exited; what it left running may still hold the pipes */
		if (fds[0].fd < 0 && fds[1].fd < 0 && (waiting = reap(c, WNOHANG)) < 0 && !rc)
			rc = waiting;
	}
	for (int i = 0; i < 3; i++)
		close_fd(&fds[i].fd);
	if (e.asked >= 0 && (c->flags & IOR_SPAWN_GROUP))
		kill(-c->pid, SIGKILL);   /* the guard is gone; what the command started may linger */
	return rc;
}

int ior_spawn_run(struct ior_spawn *c)
{
	c->out = NULL;
	c->out_len = 0;
	c->err[0] = '\0';
	c->status = 0;
	c->wall_s = c->usr_s = c->sys_s = 0;
	c->interrupted = c->timed_out = c->too_long = false;
	if (c->out_to == IOR_SPAWN_OUT_PIPE)
		return ior_error_set(IOR_EINVALID, "a piped child is watched by its caller: ior_spawn_start");
	if (child_name(c) && ior_stop_requested())
		return ior_error_set(IOR_EINTERRUPTED, "stop requested before running '%s'", child_name(c));
	int err_r;
	int rc = start(c, &err_r);
	if (rc)
		return rc;
	rc = drain(c, err_r);
	if (c->wall_s == 0)
		c->wall_s = mono_s() - c->t0;
	if (rc == IOR_OK && c->interrupted)
		rc = ior_error_set(IOR_EINTERRUPTED, "stop requested while '%s' ran", child_name(c));
	return rc;
}

int ior_spawn_wait(struct ior_spawn *c)
{
	close_fd(&c->in_fd);
	close_fd(&c->out_fd);
	return reap(c, 0);
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

int ior_spawn_check(const struct ior_spawn *c, const char *what)
{
	char line[512];
	last_line(c->err, line, sizeof(line));
	const char *sep = line[0] ? ": " : "";
	if (c->timed_out)
		return ior_error_set(IOR_ETIMEDOUT, "'%s' did not finish within %.0f s and was killed%s%s", what, c->limit_s,
				     sep, line);
	if (WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0)
		return IOR_OK;
	if (WIFEXITED(c->status))
		return ior_error_set(IOR_ERROR, "'%s' exited with status %d%s%s", what,
				     WEXITSTATUS(c->status), sep, line);
	if (WIFSIGNALED(c->status))
		return ior_error_set(IOR_ERROR, "'%s' was killed by signal %d (%s)%s%s", what,
				     WTERMSIG(c->status), strsignal(WTERMSIG(c->status)), sep, line);
	return ior_error_set(IOR_ERROR, "'%s' ended with wait status %#x", what, (unsigned)c->status);
}

void ior_spawn_free(struct ior_spawn *c)
{
	if (!c)
		return;
	free(c->out);
	c->out = NULL;
	c->out_len = 0;
}

int ior_spawn_tool(const char *const *argv, const char *dir, const char *what)
{
	struct ior_spawn c = { .argv = argv, .dir = dir };
	int rc = ior_spawn_run(&c);
	if (rc == IOR_OK)
		rc = ior_spawn_check(&c, what);
	ior_spawn_free(&c);
	return rc;
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
