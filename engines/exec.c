/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The exec engine: times a command run from an argument list, never through a shell, with optional
 * untimed setup and cleanup commands. */
#include "engines/engine.h"
#include "common/spawn.h"
#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Commands are split by ior_argv_split (common/spawn.h): blanks separate
 * arguments, '...' and "..." quote, a backslash escapes; ; | & > $ * are
 * plain characters, so "make -j2; rm -rf x" runs make with three arguments. */
struct exec_opts {
	char *command;
	char *setup;
	char *cleanup;
	char *dir;
};

#define EXEC_OPT(field) offsetof(struct exec_opts, field)

static const struct ior_option exec_rows[] = {
	{ .name = "command", .type = IOR_OPT_STRING, .offset = EXEC_OPT(command),
	  .help = "the timed command, an argument list (quotes allowed, no shell)" },
	{ .name = "setup", .type = IOR_OPT_STRING, .offset = EXEC_OPT(setup),
	  .help = "run before each repetition, untimed (e.g. make clean)" },
	{ .name = "cleanup", .type = IOR_OPT_STRING, .offset = EXEC_OPT(cleanup),
	  .help = "run after each repetition, untimed, even when the command failed" },
	{ .name = "dir", .type = IOR_OPT_STRING, .offset = EXEC_OPT(dir),
	  .help = "working directory of all three commands" },
	IOR_OPTION_END
};

struct exec_state {
	char **command, **setup, **cleanup;
	char *dir;
};

static void exec_cleanup(void *state)
{
	struct exec_state *s = state;
	if (!s)
		return;
	ior_argv_free(s->command);
	ior_argv_free(s->setup);
	ior_argv_free(s->cleanup);
	free(s->dir);
	free(s);
}

/* NULL text gives a NULL argv (no command); an empty or blank one is an error for the timed command only. */
static int split(char ***out, const char *text, const char *key)
{
	*out = NULL;
	if (!text)
		return IOR_OK;
	int rc = ior_argv_split(out, text);
	if (rc != IOR_OK)
		return ior_error_wrap(rc, "exec: %s", key);
	if (!(*out)[0]) {
		ior_argv_free(*out);
		*out = NULL;
	}
	return IOR_OK;
}

static int exec_init(void **state, const struct ior_engine_args *args)
{
	*state = NULL;
	const struct exec_opts *o = args->opts;
	struct exec_state *s = calloc(1, sizeof(*s));
	if (!s)
		return ior_error_set(IOR_ERROR, "exec: out of memory");
	int rc = split(&s->command, o->command, "command");
	if (rc == IOR_OK)
		rc = split(&s->setup, o->setup, "setup");
	if (rc == IOR_OK)
		rc = split(&s->cleanup, o->cleanup, "cleanup");
	if (rc == IOR_OK && !s->command)
		rc = ior_error_set(IOR_EINVALID, "exec: command is empty");
	if (rc == IOR_OK && o->dir && o->dir[0] && !(s->dir = strdup(o->dir)))
		rc = ior_error_set(IOR_ERROR, "exec: out of memory");
	if (rc == IOR_OK && !ior_spawn_in_path(s->command[0]))
		rc = ior_error_set(IOR_EUNSUPPORTED, "exec: '%s' is not an executable in PATH", s->command[0]);
	if (rc != IOR_OK) {
		exec_cleanup(s);
		return rc;
	}
	*state = s;
	return IOR_OK;
}

static int run(char **argv, const char *dir, const char *what, struct ior_spawn *res)
{
	*res = (struct ior_spawn){ .argv = (const char *const *)argv, .dir = dir };
	int rc = ior_spawn_run(res);
	if (rc == IOR_OK)
		rc = ior_spawn_check(res, argv[0]);
	ior_spawn_free(res);
	if (rc != IOR_OK)
		return ior_error_wrap(rc, "exec: %s", what);
	return IOR_OK;
}

static int exec_measure(void *state, struct ior_sample *out)
{
	struct exec_state *s = state;
	struct ior_spawn res;
	if (s->setup) {
		int rc = run(s->setup, s->dir, "setup", &res);
		if (rc != IOR_OK)
			return rc;
	}
	int rc = run(s->command, s->dir, "command", &res);
	if (s->cleanup) {
		/* Runs even when the command failed; the command's error is the one reported. */
		struct ior_error_state failed;
		ior_error_save(&failed, rc);
		struct ior_spawn cres;
		rc = ior_error_restore(&failed, run(s->cleanup, s->dir, "cleanup", &cres));
	}
	if (rc != IOR_OK)
		return rc;
	memset(out, 0, sizeof(*out));
	out->value = res.wall_s;
	out->unit = IOR_UNIT_SECONDS;
	out->higher_is_better = false;
	out->wall_s = res.wall_s;
	out->usr_s = res.usr_s;
	out->sys_s = res.sys_s;
	size_t n = (size_t)snprintf(out->detail, sizeof(out->detail), "exec");
	for (char **a = s->command; *a && n < sizeof(out->detail); a++)
		n += (size_t)snprintf(out->detail + n, sizeof(out->detail) - n, " %s", *a);
	return IOR_OK;
}

const struct ior_engine_ops ior_engine_exec = {
	.name = "exec",
	.help = "times a command (argument list, no shell) with optional setup and cleanup commands",
	.flags = 0, /* touches no device by itself; what the command does is the matrix author's choice */
	.options = exec_rows,
	.options_size = sizeof(struct exec_opts),
	.init = exec_init,
	.measure = exec_measure,
	.cleanup = exec_cleanup,
};
