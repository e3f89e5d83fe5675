/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Starting a child process, the one way the tool does it: an argument list or a shell command,
 * environment additions, a working directory, a deadline, its output captured, passed through or
 * piped, its rusage, and a stop request passed on to it (fio, mke2fs, make, qemu, bisect's commands). */
#ifndef IOR_COMMON_SPAWN_H
#define IOR_COMMON_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Where the child's stdout goes. */
enum ior_spawn_out {
	IOR_SPAWN_OUT_NULL,     /* /dev/null */
	IOR_SPAWN_OUT_CAPTURE,  /* into out/out_len (ior_spawn_run) */
	IOR_SPAWN_OUT_INHERIT,  /* our stdout */
	IOR_SPAWN_OUT_STDERR,   /* our stderr: a build's output goes where diagnostics go */
	IOR_SPAWN_OUT_PIPE,     /* out_fd, with stderr merged into it and stdin a pipe (in_fd), for a
				 * caller that reads and writes them itself (ior_spawn_start, qemu's console) */
};

/* Where the child's stderr goes (ignored with IOR_SPAWN_OUT_PIPE). */
enum ior_spawn_err {
	IOR_SPAWN_ERR_TAIL,     /* its last bytes into err, for ior_spawn_check's message (ior_spawn_run;
				 * a child started with ior_spawn_start alone keeps our stderr) */
	IOR_SPAWN_ERR_INHERIT,  /* our stderr: the user sees it as it comes */
};

enum ior_spawn_flags {
	/* The child dies with us, even when we are SIGKILLed (the parent-death signal), so no qemu
	 * guest or user command runs on after ioregress is gone. Started with fork, not posix_spawn. */
	IOR_SPAWN_DIE_WITH_US = 1u << 0,
	/* The child runs in a process group of its own under a guard process that ends the whole
	 * group when we die; a stop, the limit or too much output ends the whole group. status is
	 * then the guard's exit: the command's exit status, or 128 + the signal that ended it (the
	 * guard itself is only killed when the group outlives SIGTERM's grace). */
	IOR_SPAWN_GROUP = 1u << 1,
};

struct ior_spawn {
	/* What to run, set by the caller and left as it was. */
	const char *const *argv;   /* argv[0] looked up in PATH unless it has a '/'; or NULL with shell */
	const char *shell;         /* a command line for /bin/sh -c, when argv is NULL */
	const char *const *env;    /* "NAME=value" entries added to (or replacing in) ours, NULL-terminated; NULL = none */
	const char *dir;           /* working directory; NULL = ours */
	enum ior_spawn_out out_to;
	enum ior_spawn_err err_to;
	unsigned flags;            /* enum ior_spawn_flags */
	double limit_s;            /* 0 = none; past it the child is ended and timed_out set */
	size_t max_out;            /* with OUT_CAPTURE, 0 = none; past it the child is ended and too_long set */

	/* Set by ior_spawn_start. */
	pid_t pid;
	int in_fd, out_fd;         /* with IOR_SPAWN_OUT_PIPE: the child's stdin and its stdout+stderr (out_fd
				    * also with OUT_CAPTURE); else -1 */

	/* Set by ior_spawn_run (and ior_spawn_wait: status, rusage, wall_s). */
	int status;                /* wait status (WIFEXITED ...) */
	double wall_s;             /* from before the start to after the wait */
	double usr_s, sys_s;       /* the child's rusage, with the children it waited for */
	char *out;                 /* stdout when captured, NUL-terminated; NULL otherwise */
	size_t out_len;
	char err[1024];            /* the last bytes of stderr (IOR_SPAWN_ERR_TAIL), NUL-terminated */
	bool interrupted;          /* a stop was requested and the child was ended */
	bool timed_out;            /* it outlived limit_s and was ended */
	bool too_long;             /* it wrote more than max_out and was ended */
	double t0;                 /* internal: when it was started */
};

/* Starts the child and waits for it, draining its output. A child that is ended (a stop request:
 * SIGTERM; the limit or max_out: SIGKILL, or SIGTERM to a group) and does not die is sent SIGKILL
 * 2 s later, and one still not gone (stuck in uninterruptible I/O) is left behind 5 s after that
 * rather than waited for. Returns 0 when the child ran, whatever its status; IOR_EINTERRUPTED when
 * a stop was requested before or while it ran; an error when it could not be started. Free with
 * ior_spawn_free. */
int ior_spawn_run(struct ior_spawn *c);

/* Starts the child only (pid, and with IOR_SPAWN_OUT_PIPE in_fd and out_fd): the caller watches it
 * and then calls ior_spawn_wait. An error when it could not be started (not found, not executable,
 * a directory that cannot be entered). */
int ior_spawn_start(struct ior_spawn *c);
/* Waits for a started child (status, rusage, wall_s) and closes in_fd and out_fd. */
int ior_spawn_wait(struct ior_spawn *c);

/* 0 when the child exited with status 0; otherwise an error naming what ("mke2fs") and how it
 * ended (the limit, the status or the signal), with the last line of its stderr. */
int ior_spawn_check(const struct ior_spawn *c, const char *what);

/* Frees what ior_spawn_run captured; the options stay. NULL is a no-op. */
void ior_spawn_free(struct ior_spawn *c);

/* Runs argv in dir (NULL: ours), its stdout to /dev/null, and fails, naming what, unless it exits 0. */
int ior_spawn_tool(const char *const *argv, const char *dir, const char *what);

/* True when prog (no '/') is an executable file in a PATH directory, or prog (with '/') is
 * executable. */
bool ior_spawn_in_path(const char *prog);

/* Splits a command line into a NULL-terminated argv without any shell
 * semantics: arguments are separated by unquoted blanks; '...' keeps
 * everything literally; "..." keeps everything except that \" and \\ stand
 * for " and \; outside quotes a backslash makes the next character literal.
 * ; | & < > $ * ` are ordinary characters. An unterminated quote or a
 * trailing backslash is an error; an empty line gives an empty argv. Free
 * with ior_argv_free. */
int ior_argv_split(char ***out, const char *line);
void ior_argv_free(char **argv);

#endif
