/* The subcommand interface (git's command-table model): one cmd_<verb>.c per subcommand, listed in main.c. */
#ifndef IOR_HARNESS_COMMAND_H
#define IOR_HARNESS_COMMAND_H

#include <stdbool.h>
#include <stdio.h>

struct ior_db;
struct ior_db_filter;

enum ior_command_flags {
	IOR_CMD_NEEDS_DB = 1u << 0,   /* the runner opens --db (default ./ioregress.db) before calling */
	IOR_CMD_NEEDS_ROOT = 1u << 1, /* refused up front when not root */
	IOR_CMD_DB_EXISTS = 1u << 2,  /* with NEEDS_DB: the file must exist; a missing one is an error, not created */
};

struct ior_cmd_ctx {
	const char *db_path;  /* --db FILE, anywhere on the command line */
	bool quiet;           /* --quiet: no progress line */
	struct ior_db *db;    /* open when the command has IOR_CMD_NEEDS_DB */
};

struct ior_command {
	const char *name;
	/* argv[0] is the verb; global options are already removed. Returns the exit status. */
	int (*fn)(int argc, char **argv, struct ior_cmd_ctx *ctx);
	unsigned flags;
	int error_status;     /* exit status when the runner itself fails (bad --db): 1, or 128 for check */
	const char *summary;  /* one line for `ioregress --help` */
	const char *usage;    /* full text for `ioregress VERB --help` */
};

/* Prints "error: MESSAGE" (git's style) with the last ior_error message appended when there is one. */
void ior_cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Matches "--key value" or "--key=value" at argv[*i]: true when the key matched, with
 * *value the value (advancing *i past a separate one), or NULL when it is missing. */
bool ior_cmd_option(int argc, char **argv, int *i, const char *key, const char **value);
/* The same for if/else chains: the value, or NULL; *missing is set when key matched
 * without a value, so that is reported as such rather than as an unknown argument. */
const char *ior_cmd_option_value(int argc, char **argv, int *i, const char *key, bool *missing);

/* The database filter options a command accepts (a mask of these). */
enum ior_cmd_filter {
	IOR_FILTER_HOST = 1u << 0,      /* --host */
	IOR_FILTER_KERNEL = 1u << 1,    /* --kernel */
	IOR_FILTER_DEVICE = 1u << 2,    /* --device */
	IOR_FILTER_SCHEDULER = 1u << 3, /* --scheduler */
	IOR_FILTER_ENGINE = 1u << 4,    /* --engine */
};
/* Matches one of the filter options that accepted names at argv[*i] and stores
 * its value in f: true when it did. A matched option without a value returns
 * false with *missing set, as ior_cmd_option_value does. */
bool ior_cmd_filter_option(int argc, char **argv, int *i, unsigned accepted, struct ior_db_filter *f,
			   bool *missing);

/* True when argv holds --help or -h; commands call it first and print their usage. */
bool ior_cmd_wants_help(int argc, char **argv);

#endif
