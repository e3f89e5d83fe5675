/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The subcommand interface (git's builtin model): each cmd_<verb>.c holds its descriptor and option
 * rows, command_list.h lists them. */
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

/* How the parser stores a value at the row's .offset in the command's args struct (the field's
 * type, checked against .size). */
enum ior_cmd_kind {
	IOR_CMD_PLAIN = 0,  /* by .value: a flag sets a bool; text, a file or a choice (one of .choices) is a
			     * const char * into argv; with .repeat every value, in a struct ior_cmd_list */
	IOR_CMD_WORDS,      /* takes no value: the words after it, up to the next option, in a struct ior_cmd_list */
	IOR_CMD_PERCENT,    /* a double, the fraction: "10%" or "0.10" */
	IOR_CMD_COUNT,      /* a whole number from .min to .max, into an unsigned or int (4 bytes) or a size_t */
	IOR_CMD_REAL,       /* a double from .min to .max */
	IOR_CMD_PARSE,      /* .parse(field, value): a value with a parser of its own (a format, a metric list) */
};

/* Repeated values (or operands): pointers into argv, in command-line order. */
struct ior_cmd_list {
	const char **v;
	size_t n;
};

/* Values completion looks up where the command runs, beyond the rows' own choices. */
enum ior_cmd_complete {
	IOR_CMD_COMPLETE_NONE = 0,
	IOR_CMD_COMPLETE_ENGINE,          /* an engine name: the [engine NAME] sections of the matrix files */
	IOR_CMD_COMPLETE_KERNEL_PACKAGE,  /* a Debian kernel package: apt-cache's linux-image-* names */
	IOR_CMD_COMPLETE_RELEASE,         /* a kernel release: the database's kernels table (sqlite3, when installed) */
	IOR_CMD_COMPLETE_METRIC,          /* metric names from the metric table, comma-separated, or all */
	IOR_CMD_COMPLETE_METRIC_ONE,      /* one metric name from the metric table */
	IOR_CMD_COMPLETE_SET_KEY,         /* matrix.KEY=, device.NAME.KEY=, engine.NAME.KEY=, defaults.KEY= */
};

/* One option row: the single description the parser, --help, man pages and completion read (git's
 * struct option): where the value goes and how, and what the user is told about it. */
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
	enum ior_cmd_kind kind;
	size_t offset, size;   /* the field in the args struct: IOR_CMD_AT(type, member) */
	double min, max;       /* IOR_CMD_COUNT, IOR_CMD_REAL: the values taken */
	int (*parse)(void *field, const char *value);  /* IOR_CMD_PARSE: IOR_EINVALID with a message on a bad value */
};

/* Where a row's value goes: .offset and .size of member (a path: "filter.host") in type. */
#define IOR_CMD_AT(type, member) .offset = offsetof(type, member), .size = sizeof(((type *)0)->member)

/* The --format words, written from the renderer registry's one list (IOR_RENDERER_LIST of
 * reports/render.h, which the file using them includes): "text md ..." and "text|md|...". */
#define IOR_CMD_WORD_SPACE(name) " " #name
#define IOR_CMD_WORD_BAR(name) "|" #name
#define IOR_CMD_FORMAT_CHOICES (&(IOR_RENDERER_LIST(IOR_CMD_WORD_SPACE))[1])  /* past the first separator */
#define IOR_CMD_FORMAT_ARG (&(IOR_RENDERER_LIST(IOR_CMD_WORD_BAR))[1])

/* Value parsers rows share (cmd_args.c): a renderer name into a const struct ior_renderer *, a
 * metric list into an unsigned set, one metric into an enum ior_metric. */
int ior_cmd_parse_format(void *field, const char *value);
int ior_cmd_parse_metrics(void *field, const char *value);
/* --origin: a KCIDB origin (reports/render.h: ior_kcidb_origin_check). */
#define IOR_CMD_ORIGIN_HELP                                                                          \
	"with --format kcidb, which needs it: the submitting CI system's name (lowercase letters, digits, _; at " \
	"most 32), the start of every id, so two systems never write one id"
int ior_cmd_parse_origin(void *field, const char *value);
int ior_cmd_parse_metric(void *field, const char *value);

/* Rows several commands share: the database filters, into a struct ior_db_filter at member. */
#define IOR_CMD_FILTER_ROW(option, placeholder, text, type, member) \
	{ .name = "--" #option, .value = IOR_CMD_TEXT, .arg = placeholder, .help = text, IOR_CMD_AT(type, member.option) }
#define IOR_CMD_FILTER_ROW_COMPLETE(option, placeholder, text, complete_, type, member)                        \
	{ .name = "--" #option, .value = IOR_CMD_TEXT, .arg = placeholder, .complete = complete_, .help = text, \
	  IOR_CMD_AT(type, member.option) }
#define IOR_CMD_ROW_HOST(type, member) IOR_CMD_FILTER_ROW(host, "HOST", "only samples measured on HOST", type, member)
#define IOR_CMD_ROW_KERNEL(type, member) \
	IOR_CMD_FILTER_ROW_COMPLETE(kernel, "RELEASE", "only samples of kernel RELEASE", IOR_CMD_COMPLETE_RELEASE, type, member)
#define IOR_CMD_ROW_DEVICE(type, member) \
	IOR_CMD_FILTER_ROW(device, "DEVICE", "only samples of DEVICE (its matrix name)", type, member)
#define IOR_CMD_ROW_SCHEDULER(type, member) \
	IOR_CMD_FILTER_ROW(scheduler, "NAME", "only samples taken with scheduler NAME", type, member)
#define IOR_CMD_ROW_ENGINE(type, member) \
	{ .name = "--engine", .value = IOR_CMD_TEXT, .arg = "NAME", .complete = IOR_CMD_COMPLETE_ENGINE, \
	  .help = "only samples of engine NAME", IOR_CMD_AT(type, member.engine) }

/* A subcommand row ("bisect start"): its own options, taken besides the command's. */
struct ior_cmd_sub {
	const char *name;
	const char *operands;  /* what follows its options in the synopsis ("FILE"), NULL: none taken */
	const struct ior_cmd_opt *options; /* rows ending with { 0 } */
};

struct ior_command {
	const char *name;
	/* argv[0] is the verb; global options are already removed. Returns the exit status. */
	int (*fn)(int argc, char **argv, struct ior_cmd_ctx *ctx);
	unsigned flags;
	int error_status;     /* exit status when the runner itself fails (bad --db): 1, or 128 for check */
	const char *summary;  /* one line for `ioregress --help` */
	const struct ior_cmd_sub *subs; /* the words one of which must follow the name, ending with { 0 }; or NULL */
	const char *operands; /* what follows the options in the synopsis ("[MATRIX]", "FILE.csv..."), NULL: none taken */
	bool operand_files;   /* the operands are paths (for completion) */
	const char *operand_glob; /* the files completion offers for them ("*.ini"), NULL for any */
	enum ior_cmd_complete operand_complete; /* or the values it looks up for them */
	const char *description;  /* paragraphs after the synopsis, or NULL */
	const struct ior_cmd_opt *options; /* rows every subcommand takes, ending with { 0 } */
};

/* The options every command takes (main.c takes them out first, into struct ior_cmd_ctx), ending with { 0 }. */
extern const struct ior_cmd_opt ior_cmd_global_options[];

/* Prints `ioregress NAME --help`: a synopsis per subcommand, description, the rows grouped by
 * subcommand, and the global options. */
void ior_cmd_print_help(FILE *out, const struct ior_command *cmd);
/* Prints `ioregress --help`: the synopsis, each command's summary, the global options. */
void ior_cmd_print_overview(FILE *out, const struct ior_command *const *list, size_t n);

/* The command named name in list, or NULL with *suggest the nearest name within two edits (or NULL). */
const struct ior_command *ior_cmd_find(const struct ior_command *const *list, size_t n, const char *name,
				       const char **suggest);
/* The row of cmd (or of any of its subcommands) named arg (before any '='), by name or alias, or NULL. */
const struct ior_cmd_opt *ior_cmd_find_option(const struct ior_command *cmd, const char *arg);
/* Sets the error for an argument cmd does not take, naming the nearest of its options when one is close. */
int ior_cmd_unknown_argument(const struct ior_command *cmd, const char *arg);

/* The row tables of cmd: its own options, then each subcommand's; returns how many (at most max). */
size_t ior_cmd_row_sets(const struct ior_command *cmd, const struct ior_cmd_opt **sets, size_t max);
/* Whether row's field (.size) holds what its kind stores; the parser refuses a row that does not. */
bool ior_cmd_row_fits(const struct ior_cmd_opt *row);

/* What a parse found besides the rows' fields. */
struct ior_cmd_parsed {
	const struct ior_cmd_sub *sub;     /* the subcommand, or NULL */
	struct ior_cmd_list operands;      /* the words that are no option nor an option's value */
};

/* The one option parser (git's parse_options): argv[0] is the verb, then the subcommand when cmd
 * has any, then options (cmd's and the subcommand's rows; "--name value", "--name=value" or the
 * alias) and operands in any order, "--" ending the options. Each value is stored into args as its
 * row says. argv's array is reused: the lists and operands point into it, gathered at its front, so
 * pointers in it are overwritten and repeated (give a copy of an array whose strings are freed). Returns
 * IOR_EINVALID with a message naming the option (or the operand) on any bad input. */
int ior_cmd_parse(const struct ior_command *cmd, int argc, char **argv, void *args, struct ior_cmd_parsed *out);
/* Takes the words of rows (those with a field) out of argv[1..], wherever they stand before "--", and
 * stores their values into args; the other words keep their order. A row of IOR_CMD_FILE refuses an
 * empty value. On a bad one the first error is kept and IOR_EINVALID returned, the rest still taken,
 * so the caller can still tell which command was meant. */
int ior_cmd_take_options(const struct ior_cmd_opt *rows, int *argc, char **argv, void *args);
/* The exit status of a usage error of cmd: 2, or its error status when that is higher (check's 128). */
int ior_cmd_usage_status(const struct ior_command *cmd);
/* The usual start of a command: parses, and on a usage error prints it and returns the usage
 * status (else 0). */
int ior_cmd_parse_or_usage(const struct ior_command *cmd, int argc, char **argv, void *args,
			   struct ior_cmd_parsed *out);

/* Prints "error: MESSAGE" (git's style) with the last ior_error message appended when there is one. */
void ior_cmd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the last ior_error message as "error: MESSAGE" and clears it. */
void ior_cmd_error_last(void);

/* Whether flag row name (cmd's or a subcommand's) is set by argv as ior_cmd_parse reads it: a word
 * that is an option's value or an operand ("run -- --dry-run") is not the flag. False when argv
 * does not parse. */
bool ior_cmd_flag_given(const struct ior_command *cmd, int argc, char **argv, const char *name);

/* True when argv holds --help or -h; the runner checks it first and prints the command's help. */
bool ior_cmd_wants_help(int argc, char **argv);

#endif
