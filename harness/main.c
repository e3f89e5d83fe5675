/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ioregress's entry point: global options, dispatch from the list of commands, and the shared
 * set-up each command asks for. */
#include "common/error.h"
#include "db/db.h"
#include "harness/command_list.h"
#include "harness/engine_help.h"
#include "common/trust.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_DB "./ioregress.db"


static const struct ior_command *find_command(const char *name, const char **suggest)
{
	return ior_cmd_find(ior_commands, ior_command_count, name, suggest);
}

/* git's check: output that could not be written is an error, not a silent truncation. */
static int close_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		ior_error_clear();
		ior_cmd_error("cannot write to standard output: %s", strerror(errno));
		return status ? status : 1;
	}
	return status;
}

static int run_command(const struct ior_command *cmd, int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	if (ior_cmd_wants_help(argc, argv)) {
		ior_cmd_print_help(stdout, cmd);
		return 0;
	}
	/* a dry run shows what would run: no root, no database; decided from the parsed arguments,
	 * never from a word (`run --baseline --dry-run m.ini` ran with no database) */
	bool dry = (cmd->flags & IOR_CMD_DRY_RUN) && ior_cmd_flag_given(cmd, argc, argv, "--dry-run");
	unsigned flags = dry ? cmd->flags & ~(unsigned)(IOR_CMD_NEEDS_ROOT | IOR_CMD_NEEDS_DB) : cmd->flags;
	if ((flags & IOR_CMD_NEEDS_ROOT) && geteuid() != 0) {
		ior_error_clear();
		ior_cmd_error("'ioregress %s' needs root (it switches schedulers and creates loop devices)", cmd->name);
		return cmd->error_status;
	}
	if (flags & IOR_CMD_NEEDS_DB) {
		ior_error_clear();
		if (ior_check_trusted_file(ctx->db_path, "database") != IOR_OK) {
			fprintf(stderr, "error: %s\n", ior_error_last());
			return cmd->error_status;
		}
		bool existing = cmd->flags & IOR_CMD_DB_EXISTS;
		int rc = existing ? ior_db_open_existing(&ctx->db, ctx->db_path) : ior_db_open(&ctx->db, ctx->db_path);
		if (rc == IOR_ENOTFOUND && existing) {
			/* a typo in --db must not look like an empty database: 2 at least, as for usage */
			fprintf(stderr, "error: %s\n", ior_error_last());
			return cmd->error_status > 2 ? cmd->error_status : 2;
		}
		if (rc != IOR_OK) {
			ior_cmd_error("cannot open database '%s'", ctx->db_path);
			return cmd->error_status;
		}
	}
	int status = cmd->fn(argc, argv, ctx);
	ior_db_free(ctx->db);
	ctx->db = NULL;
	return status;
}

/* `ioregress help engines`, `help engine NAME`, `help COMMAND`. */
static int help_topic(int argc, char **argv)
{
	if (strcmp(argv[0], "engines") == 0 && argc == 1) {
		ior_help_engines(stdout);
		return 0;
	}
	if (strcmp(argv[0], "engine") == 0 && argc == 2) {
		ior_error_clear();
		if (ior_help_engine(stdout, argv[1]) == IOR_OK)
			return 0;
		ior_cmd_error_last();
		return 2;
	}
	const char *near = NULL;
	const struct ior_command *cmd = argc == 1 ? find_command(argv[0], &near) : NULL;
	if (cmd) {
		ior_cmd_print_help(stdout, cmd);
		return 0;
	}
	ior_error_clear();
	ior_cmd_error("no help on '%s'%s%s%s (topics: engines, engine NAME, a command)", argv[0], near ? " (did you mean '" : "",
		      near ? near : "", near ? "'?)" : "");
	return 2;
}

int main(int argc, char **argv)
{
	struct ior_cmd_ctx ctx = { .db_path = DEFAULT_DB };
	ior_error_clear();
	if (ior_cmd_take_options(ior_cmd_global_options, &argc, argv, &ctx) != IOR_OK) {
		ior_cmd_error_last();
		/* check's errors must be >= 128 so git bisect run aborts instead of marking a commit bad */
		const struct ior_command *cmd = argc > 1 ? find_command(argv[1], NULL) : NULL;
		return cmd ? cmd->error_status : 2;
	}
	if (argc < 2) {
		ior_cmd_print_overview(stderr, ior_commands, ior_command_count);
		return 2;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "version") == 0) {
		printf("ioregress %s\n", IOR_VERSION);
		return close_stdout(0);
	}
	if (strcmp(argv[1], "help") == 0 && argc > 2)
		return close_stdout(help_topic(argc - 2, argv + 2));
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		ior_cmd_print_overview(stdout, ior_commands, ior_command_count);
		return close_stdout(0);
	}
	const char *near = NULL;
	const struct ior_command *cmd = find_command(argv[1], &near);
	if (!cmd) {
		ior_error_clear();
		if (near)
			ior_cmd_error("'%s' is not an ioregress command (did you mean '%s'?)", argv[1], near);
		else
			ior_cmd_error("'%s' is not an ioregress command (see 'ioregress --help')", argv[1]);
		return 2;
	}
	return close_stdout(run_command(cmd, argc - 1, argv + 1, &ctx));
}
