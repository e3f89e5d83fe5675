/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The subcommand interface (git's builtin model): each cmd_<verb>.c holds its descriptor, main.c lists them. */
#ifndef IOR_HARNESS_COMMAND_H
#define IOR_HARNESS_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct ior_db;
struct ior_db_filter;

enum ior_command_flags {
	IOR_CMD_NEEDS_DB = 1u << 0,   /* the runner opens --db (default ./ioregress.db) before calling */
	IOR_CMD_NEEDS_ROOT = 1u << 1, /* refused up front when not root */
	IOR_CMD_DB_EXISTS = 1u << 2,  /* with NEEDS_DB: the file must exist; a missing one is an error, not created */
	IOR_CMD_DRY_RUN = 1u << 3,    /* takes --dry-run, which needs neither root nor the database */
};

struct ior_cmd_ctx {
	const char *db_path;  /* --db FILE, anywhere on the command line */
	bool quiet;           /* --quiet: no progress line */
	struct ior_db *db;    /* open when the command has IOR_CMD_NEEDS_DB */
};

/* What an option's value is, for help text, man pages and shell completion. */
enum ior_cmd_value {
	IOR_CMD_FLAG = 0,      /* takes no value */
	IOR_CMD_TEXT,          /* free text: a kernel release, a host name, KEY=VALUE */
	IOR_CMD_FILE,          /* a path */
	IOR_CMD_CHOICE,        /* one of .choices */
	IOR_CMD_NUMBER,        /* a count, seconds, a percentage */
};

/* Values completion looks up where the command runs, beyond the rows' own choices. */
enum ior_cmd_complete {
	IOR_CMD_COMPLETE_NONE = 0,
	IOR_CMD_COMPLETE_ENGINE,          /* an engine name: the [engine NAME] sections of the matrix files */
	IOR_CMD_COMPLETE_KERNEL_PACKAGE,  /* a Debian kernel package: apt-cache's linux-image-* names */
};

/* One option row: the single description that --help, man pages and completion read. */
struct ior_cmd_opt {
	const char *name;      /* "--format" */
	const char *alias;     /* a short or older spelling ("-o"), or NULL */
	enum ior_cmd_value value;
	const char *arg;       /* the value's placeholder in help ("FILE", "text|json"), NULL for flags */
	const char *choices;   /* IOR_CMD_CHOICE: the values, space separated */
	bool repeat;           /* may be given more than once */
	bool required;         /* the command refuses to run without it */
	bool alone;            /* used without the other options: a synopsis line of its own */
	enum ior_cmd_complete complete;  /* what completion offers for the value (arg ending "...": each word up to the next option) */
	const char *help;      /* one or more sentences; wrapped when printed */
};

/* Rows several commands share: the database filters. */
#define IOR_CMD_ROW_HOST \
	{ .name = "--host", .value = IOR_CMD_TEXT, .arg = "HOST", .help = "only samples measured on HOST" }
#define IOR_CMD_ROW_KERNEL \
	{ .name = "--kernel", .value = IOR_CMD_TEXT, .arg = "RELEASE", .help = "only samples of kernel RELEASE" }
#define IOR_CMD_ROW_DEVICE \
	{ .name = "--device", .value = IOR_CMD_TEXT, .arg = "DEVICE", .help = "only samples of DEVICE (its matrix name)" }
#define IOR_CMD_ROW_SCHEDULER \
	{ .name = "--scheduler", .value = IOR_CMD_TEXT, .arg = "NAME", .help = "only samples taken with scheduler NAME" }
#define IOR_CMD_ROW_ENGINE \
	{ .name = "--engine", .value = IOR_CMD_TEXT, .arg = "NAME", .complete = IOR_CMD_COMPLETE_ENGINE, \
	  .help = "only samples of engine NAME" }

struct ior_command {
	const char *name;
	/* argv[0] is the verb; global options are already removed. Returns the exit status. */
	int (*fn)(int argc, char **argv, struct ior_cmd_ctx *ctx);
	unsigned flags;
	int error_status;     /* exit status when the runner itself fails (bad --db): 1, or 128 for check */
	const char *summary;  /* one line for `ioregress --help` */
	const char *subcommand; /* the word that must follow the name ("run" for vm), or NULL */
	const char *subcommands; /* or the words one of which must (completion offers them first), space separated */
	const char *operands; /* what follows the options in the synopsis ("[MATRIX]", "FILE.csv..."), or NULL */
	bool operand_files;   /* the operands are paths (for completion) */
	const char *operand_glob; /* the files completion offers for them ("*.ini"), NULL for any */
	enum ior_cmd_complete operand_complete; /* or the values it looks up for them */
	const char *description;  /* paragraphs after the synopsis, or NULL */
	const struct ior_cmd_opt *options; /* rows ending with { 0 } */
};

/* The options every command takes (main.c strips them first), ending with { 0 }. */
extern const struct ior_cmd_opt ior_cmd_global_options[];

/* Prints `ioregress NAME --help`: synopsis, description, then one entry per row and the global options. */
void ior_cmd_print_help(FILE *out, const struct ior_command *cmd);
/* Prints `ioregress --help`: the synopsis, each command's summary, the global options. */
void ior_cmd_print_overview(FILE *out, const struct ior_command *const *list, size_t n);

/* The command named name in list, or NULL with *suggest the nearest name within two edits (or NULL). */
const struct ior_command *ior_cmd_find(const struct ior_command *const *list, size_t n, const char *name,
				       const char **suggest);
/* The row of cmd named arg (before any '='), by name or alias, or NULL. */
const struct ior_cmd_opt *ior_cmd_find_option(const struct ior_command *cmd, const char *arg);
/* Sets the error for an argument cmd does not take, naming the nearest of its options when one is close. */
int ior_cmd_unknown_argument(const struct ior_command *cmd, const char *arg);

/* Prints "error: MESSAGE" (git's style) with the last ior_error message appended when there is one. */
void ior_cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the last ior_error message as "error: MESSAGE" and clears it. */
void ior_cmd_error_last(void);

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

/* True when argv holds --help or -h; the runner checks it first and prints the command's help. */
bool ior_cmd_wants_help(int argc, char **argv);

#endif
