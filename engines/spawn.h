/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running a program from an argument list with posix_spawn, never through a shell: fio, mke2fs and the exec engine's commands. */
#ifndef IOR_ENGINES_SPAWN_H
#define IOR_ENGINES_SPAWN_H

#include <stdbool.h>
#include <stddef.h>

enum ior_spawn_flags {
	IOR_SPAWN_CAPTURE_OUT = 1u << 0, /* keep stdout in result.out; otherwise it goes to /dev/null */
};

struct ior_spawn_result {
	int status;              /* wait status (WIFEXITED ...) */
	double wall_s;           /* from before posix_spawn to after wait4 */
	double usr_s, sys_s;     /* the child's rusage from wait4 */
	char *out;               /* stdout when captured, NUL-terminated; NULL otherwise */
	size_t out_len;
	char err[1024];          /* the last bytes of stderr, NUL-terminated, for messages */
	bool interrupted;        /* a stop was requested and the child was sent SIGTERM */
	bool timed_out;          /* it outlived its limit and was sent SIGKILL */
	double limit_s;          /* that limit */
};

/* Runs argv (argv[0] looked up in PATH unless it has a '/') with dir as the
 * working directory (NULL = ours), stdin from /dev/null, and waits. Returns 0
 * when the child ran (whatever its status), IOR_EINTERRUPTED when a stop was
 * requested, or an error when it could not be started. */
int ior_spawn_run(struct ior_spawn_result *res, const char *const *argv, const char *dir, unsigned flags);
/* The same with a limit (seconds, 0 = none): past it the child is killed (SIGKILL) and
 * res->timed_out set; ior_spawn_check then names the limit. A child that cannot die (stuck in
 * uninterruptible I/O) is left behind after a few more seconds rather than waited for. */
int ior_spawn_run_limited(struct ior_spawn_result *res, const char *const *argv, const char *dir, unsigned flags,
			  double limit_s);

/* 0 when the child exited with status 0; otherwise an error naming what
 * ("mke2fs") and how it ended, with the tail of its stderr. */
int ior_spawn_check(const struct ior_spawn_result *res, const char *what);

void ior_spawn_result_free(struct ior_spawn_result *res);

/* True when prog (no '/') is an executable file in a PATH directory, or prog
 * (with '/') is executable. */
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
