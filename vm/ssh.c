/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ssh and scp for a target machine (see ssh.h): argument lists built here, run through common/spawn.h. */
#include "vm/ssh.h"

#include "common/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARGS 64

struct args {
	char *v[MAX_ARGS + 1];
	size_t n;
	bool oom;
};

static void add(struct args *a, const char *fmt, const char *value)
{
	if (a->n >= MAX_ARGS) {
		a->oom = true;
		return;
	}
	char *s = NULL;
	if (asprintf(&s, fmt, value ? value : "") < 0)
		s = NULL;
	a->oom |= !s;
	a->v[a->n++] = s;
}

static int finish(struct args *a, char ***argv)
{
	a->v[a->n] = NULL;
	if (a->oom) {
		for (size_t i = 0; i < a->n; i++)
			free(a->v[i]);
		return ior_error_set(IOR_ERROR, "ssh: too many options or out of memory");
	}
	*argv = calloc(a->n + 1, sizeof(**argv));
	if (!*argv) {
		for (size_t i = 0; i < a->n; i++)
			free(a->v[i]);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	memcpy(*argv, a->v, (a->n + 1) * sizeof(**argv));
	return IOR_OK;
}

/* What ssh and scp share: never ask (no password, no host key question: the user's known_hosts
 * decides), connect within the limit, and notice a peer that went away within 15 s; through the shared
 * connection when there is one (its master is started with ControlMaster=yes before these, and the
 * first -o given wins). */
static void common_options(struct args *a, const struct ior_vm_ssh *s, const char *port_flag)
{
	char n[32];
	if (s->control[0]) {
		add(a, "-o", NULL);
		add(a, "ControlPath=%s", s->control);
		add(a, "-o", NULL);
		add(a, "ControlMaster=no", NULL);
	}
	snprintf(n, sizeof(n), "%.0f", s->connect_timeout_s > 0 ? s->connect_timeout_s : 15);
	add(a, "-o", NULL);
	add(a, "BatchMode=yes", NULL);
	add(a, "-o", NULL);
	add(a, "ConnectTimeout=%s", n);
	add(a, "-o", NULL);
	add(a, "ServerAliveInterval=5", NULL);
	add(a, "-o", NULL);
	add(a, "ServerAliveCountMax=3", NULL);
	if (s->url->port) {
		snprintf(n, sizeof(n), "%u", s->url->port);
		add(a, port_flag, NULL);
		add(a, "%s", n);
	}
	for (size_t i = 0; i < s->noptions; i++) {
		add(a, "-o", NULL);
		add(a, "%s", s->options[i]);
	}
}

/* ssh's options, user and host; the master's (-M -N -f, kept 10 idle minutes) when command is NULL. */
static int ssh_argv(const struct ior_vm_ssh *s, const char *command, char ***argv)
{
	struct args a = { .n = 0 };
	add(&a, "ssh", NULL);
	if (!command) {
		add(&a, "-M", NULL);
		add(&a, "-N", NULL);
		add(&a, "-f", NULL);
		add(&a, "-o", NULL);
		add(&a, "ControlMaster=yes", NULL);
		add(&a, "-o", NULL);
		add(&a, "ControlPersist=600", NULL);
	}
	common_options(&a, s, "-p");
	if (s->url->user[0]) {
		add(&a, "-l", NULL);
		add(&a, "%s", s->url->user);
	}
	add(&a, "--", NULL);
	add(&a, "%s", s->url->host);
	if (command)
		add(&a, "%s", command);
	return finish(&a, argv);
}

int ior_vm_ssh_argv(const struct ior_vm_ssh *s, const char *command, char ***argv)
{
	return ssh_argv(s, command ? command : "", argv);
}

int ior_vm_scp_argv(const struct ior_vm_ssh *s, const char *local, const char *remote, bool upload, char ***argv)
{
	struct args a = { .n = 0 };
	add(&a, "scp", NULL);
	add(&a, "-q", NULL);
	common_options(&a, s, "-P");
	char where[sizeof(s->url->user) + sizeof(s->url->host) + 8];
	bool v6 = strchr(s->url->host, ':') != NULL;
	snprintf(where, sizeof(where), "%s%s%s%s%s", s->url->user, s->url->user[0] ? "@" : "", v6 ? "[" : "",
		 s->url->host, v6 ? "]" : "");
	char *side = NULL;
	if (asprintf(&side, "%s:%s", where, remote) < 0)
		side = NULL;
	a.oom |= !side;
	/* a local path with ':' before any '/' would be read as a host: make it ./path */
	const char *colon = strchr(local, ':'), *slash = strchr(local, '/');
	const char *lfmt = colon && (!slash || colon < slash) ? "./%s" : "%s";
	if (upload)
		add(&a, lfmt, local);
	add(&a, "%s", side);
	if (!upload)
		add(&a, lfmt, local);
	free(side);
	return finish(&a, argv);
}

static int spawn(char **argv, double limit_s, struct ior_spawn *c)
{
	*c = (struct ior_spawn){
		.argv = (const char *const *)argv,
		.out_to = IOR_SPAWN_OUT_CAPTURE,
		.err_to = IOR_SPAWN_ERR_TAIL,
		.flags = IOR_SPAWN_DIE_WITH_US,
		.limit_s = limit_s,
		.max_out = 16u << 20,
	};
	int rc = ior_spawn_run(c);
	c->argv = NULL;
	ior_argv_free(argv);
	return rc;
}

int ior_vm_ssh_run(const struct ior_vm_ssh *s, const char *command, double limit_s, struct ior_spawn *c)
{
	char **argv;
	memset(c, 0, sizeof(*c));
	int rc = ior_vm_ssh_argv(s, command, &argv);
	return rc ? rc : spawn(argv, limit_s, c);
}

bool ior_vm_ssh_lost(const struct ior_spawn *c)
{
	return c->timed_out || (WIFEXITED(c->status) && WEXITSTATUS(c->status) == IOR_VM_SSH_LOST) ||
	       (WIFSIGNALED(c->status) && !c->interrupted);
}

/* The spawned ssh or scp's end as an error (or IOR_OK), naming what. */
static int verdict(const struct ior_vm_ssh *s, const struct ior_spawn *c, const char *what)
{
	if (ior_vm_ssh_lost(c)) {
		size_t l = strlen(c->err);
		while (l && c->err[l - 1] == '\n')
			l--;
		const char *last = c->err + l;
		while (last > c->err && last[-1] != '\n')
			last--;
		return ior_error_set(IOR_ETIMEDOUT, "%s on '%s': %s%s%.*s", what, s->url->name,
				     c->timed_out ? "no answer within the deadline" : "the connection failed or was lost",
				     l ? ": " : "", (int)(c->err + l - last), last);
	}
	return ior_spawn_check(c, what);
}

int ior_vm_ssh_check(const struct ior_vm_ssh *s, const char *command, double limit_s, const char *what, char *out,
		     size_t len)
{
	struct ior_spawn c;
	int rc = ior_vm_ssh_run(s, command, limit_s, &c);
	if (!rc)
		rc = verdict(s, &c, what);
	if (!rc && out) {
		size_t l = c.out ? strlen(c.out) : 0;
		while (l && (c.out[l - 1] == '\n' || c.out[l - 1] == '\r'))
			l--;
		snprintf(out, len, "%.*s", (int)l, c.out ? c.out : "");
	}
	ior_spawn_free(&c);
	return rc;
}

int ior_vm_ssh_copy(const struct ior_vm_ssh *s, const char *local, const char *remote, bool upload, double limit_s)
{
	char **argv;
	int rc = ior_vm_scp_argv(s, local, remote, upload, &argv);
	struct ior_spawn c;
	memset(&c, 0, sizeof(c));
	if (!rc)
		rc = spawn(argv, limit_s, &c);
	if (!rc) {
		char what[PATH_MAX + 64];
		snprintf(what, sizeof(what), "scp %s '%s'", upload ? "to" : "of", remote);
		/* scp's own exit status is 1 for a lost connection too: its message says which */
		rc = verdict(s, &c, what);
		if (rc == IOR_ERROR && (strstr(c.err, "onnection") || strstr(c.err, "lost")))
			rc = ior_error_set(IOR_ETIMEDOUT, "%s", ior_error_last());
	}
	ior_spawn_free(&c);
	return rc;
}

/* ssh -O CMD on the shared connection's socket: 0 when the master answered. */
static int control(const struct ior_vm_ssh *s, const char *cmd)
{
	const char *argv[] = { "ssh", "-o", "BatchMode=yes", "-S", s->control, "-O", cmd, "--", s->url->host, NULL };
	struct ior_spawn c = { .argv = argv, .out_to = IOR_SPAWN_OUT_NULL, .err_to = IOR_SPAWN_ERR_TAIL, .limit_s = 10 };
	int rc = ior_spawn_run(&c);
	if (!rc)
		rc = WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0 ? IOR_OK : IOR_ERROR;
	ior_spawn_free(&c);
	return rc;
}

const char *ior_vm_ssh_base(void)
{
	/* a short path: a unix socket's name holds 107 bytes */
	const char *tmp = getenv("TMPDIR");
	return tmp && tmp[0] == '/' && strlen(tmp) <= 40 ? tmp : "/tmp";
}

/* The socket's private directory made and locked for as long as this process lives (the lock is
 * what tells a sweep it is in use); false when it cannot be made (no sharing then). */
static bool make_dir(struct ior_vm_ssh *s)
{
	char dir[sizeof(s->control) - 3];
	snprintf(dir, sizeof(dir), "%s/" IOR_VM_SSH_DIR_PREFIX "XXXXXX", ior_vm_ssh_base());
	if (!mkdtemp(dir)) /* mode 0700: no other user reaches the connection through it */
		return false;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	/* a sweep that took it in the instant before the lock holds it or has removed it: no sharing */
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0 || fstat(fd, &st) != 0 || st.st_nlink == 0) {
		if (fd >= 0)
			close(fd);
		rmdir(dir);
		return false;
	}
	s->dir_fd = fd;
	s->dir_locked = true;
	snprintf(s->control, sizeof(s->control), "%s/m", dir);
	return true;
}

int ior_vm_ssh_share(struct ior_vm_ssh *s, double limit_s)
{
	if (!s->control[0]) {
		/* what controllers killed before left (their lock is gone with them) */
		ior_vm_ssh_sweep(NULL, NULL, NULL, NULL);
		if (!make_dir(s))
			return IOR_OK;
	}
	if (access(s->control, F_OK) == 0 && control(s, "check") == IOR_OK)
		return IOR_OK;
	unlink(s->control);   /* a master gone with the boot it was connected to */
	char **argv;
	if (ssh_argv(s, NULL, &argv))
		return IOR_OK;
	struct ior_spawn c;
	int rc = spawn(argv, limit_s, &c);
	ior_spawn_free(&c);
	return rc == IOR_EINTERRUPTED ? rc : IOR_OK;
}

bool ior_vm_ssh_shared(const struct ior_vm_ssh *s)
{
	return s->control[0] && access(s->control, F_OK) == 0;
}

void ior_vm_ssh_unshare(struct ior_vm_ssh *s)
{
	if (!s->control[0])
		return;
	if (access(s->control, F_OK) == 0)
		control(s, "exit");
	unlink(s->control);
	char *slash = strrchr(s->control, '/');
	if (slash) {
		*slash = '\0';
		if (rmdir(s->control) != 0 && errno != ENOENT)
			fprintf(stderr, "warning: cannot remove '%s': %s\n", s->control, strerror(errno));
	}
	if (s->dir_locked)
		close(s->dir_fd);   /* after the rmdir: a sweep never sees it unlocked while it is ours */
	s->dir_locked = false;
	s->control[0] = '\0';
}

bool ior_vm_shell_quote(const char *s, char *out, size_t len)
{
	size_t o = 0;
	if (len < 3)
		return false;
	out[o++] = '\'';
	for (; *s; s++) {
		const char *piece = *s == '\'' ? "'\\''" : NULL;
		size_t pl = piece ? 4 : 1;
		if (o + pl + 2 > len)
			return false;
		if (piece)
			memcpy(out + o, piece, pl);
		else
			out[o] = *s;
		o += pl;
	}
	out[o++] = '\'';
	out[o] = '\0';
	return true;
}
