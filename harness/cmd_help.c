/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Help text generated from the command descriptors (grouped by subcommand), command lookup and "did
 * you mean" for commands and their options. */
#include "common/error.h"
#include "common/suggest.h"
#include "harness/command.h"

#include <string.h>

#define HELP_WIDTH 80
#define HELP_INDENT 22

const struct ior_cmd_opt ior_cmd_global_options[] = {
	{ .name = "--db", .value = IOR_CMD_FILE, .arg = "FILE",
	  .help = "the SQLite database to read and write (default ./ioregress.db)", IOR_CMD_AT(struct ior_cmd_ctx, db_path) },
	{ .name = "--quiet", .alias = "-q", .help = "no progress line on stderr", IOR_CMD_AT(struct ior_cmd_ctx, quiet) },
	/* no field: each command answers its own --help */
	{ .name = "--help", .alias = "-h", .help = "print this help and exit" },
	{ 0 },
};

/* Prints text from column `col`, wrapped at HELP_WIDTH, continuation lines at `indent`. */
static void print_wrapped(FILE *out, const char *text, int col, int indent)
{
	const char *p = text;
	while (*p) {
		const char *end = p;
		while (*end && *end != ' ' && *end != '\n')
			end++;
		int len = (int)(end - p);
		if (col > indent && col + 1 + len > HELP_WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", len, p);
		col += len;
		if (*end == '\n' && end[1] == '\n') {
			fputs("\n\n", out);
			fprintf(out, "%*s", indent, "");
			col = indent;
			end++;
		}
		p = *end ? end + 1 : end;
	}
	fputc('\n', out);
}

static int print_option_name(FILE *out, const struct ior_cmd_opt *o)
{
	int col = fprintf(out, "  %s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "", o->name);
	if (o->arg)
		col += fprintf(out, " %s", o->arg);
	return col;
}

static void print_rows(FILE *out, const struct ior_cmd_opt *rows)
{
	for (const struct ior_cmd_opt *o = rows; o && o->name; o++) {
		int col = print_option_name(out, o);
		if (col + 1 > HELP_INDENT) {
			fprintf(out, "\n%*s", HELP_INDENT, "");
		} else {
			fprintf(out, "%*s", HELP_INDENT - col, "");
		}
		char help[1024];
		snprintf(help, sizeof(help), "%s%s%s", o->help, o->repeat ? " (may be repeated)" : "",
			 o->required ? " (required)" : "");
		print_wrapped(out, help, HELP_INDENT, HELP_INDENT);
	}
}

size_t ior_cmd_row_sets(const struct ior_command *cmd, const struct ior_cmd_opt **sets, size_t max)
{
	size_t n = 0;
	if (n < max)
		sets[n++] = cmd->options;
	for (const struct ior_cmd_sub *s = cmd->subs; s && s->name && n < max; s++)
		sets[n++] = s->options;
	return n;
}

/* One synopsis line: the command (and subcommand), its rows but the alone ones, the operands. */
static void print_usage_line(FILE *out, const char *lead, const char *words, const struct ior_cmd_opt *const *sets,
			     size_t nsets, const char *operands)
{
	int col = fprintf(out, "%s%s", lead, words);
	int indent = col + 1;
	for (size_t s = 0; s < nsets; s++)
		for (const struct ior_cmd_opt *o = sets[s]; o && o->name; o++) {
			if (o->alone)
				continue;
			char item[160];
			snprintf(item, sizeof(item), "%s%s%s%s%s%s", o->required ? "" : "[", o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "", o->required ? "" : "]", o->repeat ? "..." : "");
			if (col + 1 + (int)strlen(item) > HELP_WIDTH) {
				fprintf(out, "\n%*s", indent - 1, "");
				col = indent - 1;
			}
			col += fprintf(out, " %s", item);
		}
	if (operands) {
		if (col + 1 + (int)strlen(operands) > HELP_WIDTH)
			fprintf(out, "\n%*s", indent - 1, "");
		fprintf(out, " %s", operands);
	}
	fputc('\n', out);
	for (size_t s = 0; s < nsets; s++)
		for (const struct ior_cmd_opt *o = sets[s]; o && o->name; o++)
			if (o->alone)
				fprintf(out, "       %s %s%s%s\n", words, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* A line per subcommand (its rows, then the command's), or one for a command without any. */
static void print_synopsis(FILE *out, const struct ior_command *cmd)
{
	char words[96];
	if (!cmd->subs) {
		snprintf(words, sizeof(words), "ioregress %s", cmd->name);
		print_usage_line(out, "usage: ", words, &cmd->options, 1, cmd->operands);
		return;
	}
	for (const struct ior_cmd_sub *s = cmd->subs; s->name; s++) {
		snprintf(words, sizeof(words), "ioregress %s %s", cmd->name, s->name);
		const struct ior_cmd_opt *sets[] = { s->options, cmd->options };
		print_usage_line(out, s == cmd->subs ? "usage: " : "       ", words, sets, 2, s->operands);
	}
}

void ior_cmd_print_help(FILE *out, const struct ior_command *cmd)
{
	print_synopsis(out, cmd);
	fprintf(out, "\n%s.\n", cmd->summary);
	if (cmd->description) {
		fputc('\n', out);
		print_wrapped(out, cmd->description, 0, 0);
	}
	/* grouped by subcommand: "start options:", "run options:"; a lone subcommand's are the options */
	bool several = cmd->subs && cmd->subs[0].name && cmd->subs[1].name;
	for (const struct ior_cmd_sub *s = cmd->subs; s && s->name; s++)
		if (s->options && s->options->name) {
			fprintf(out, "\n%s%soptions:\n", several ? s->name : "", several ? " " : "");
			print_rows(out, s->options);
		}
	if (cmd->options && cmd->options->name) {
		fputs("\noptions:\n", out);
		print_rows(out, cmd->options);
	}
	fputs("\nglobal options:\n", out);
	print_rows(out, ior_cmd_global_options);
}

void ior_cmd_print_overview(FILE *out, const struct ior_command *const *list, size_t n)
{
	fputs("usage: ioregress [--db FILE] [--quiet] COMMAND [ARGS]\n"
	      "       ioregress --version | -V | --help | COMMAND --help\n\ncommands:\n", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %-11s %s\n", list[i]->name, list[i]->summary);
	fputs("\nglobal options:\n", out);
	print_rows(out, ior_cmd_global_options);
}

const struct ior_command *ior_cmd_find(const struct ior_command *const *list, size_t n, const char *name,
				       const char **suggest)
{
	struct ior_suggestion near;
	ior_suggest_init(&near);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(list[i]->name, name) == 0)
			return list[i];
		ior_suggest_consider(&near, name, list[i]->name);
	}
	if (suggest)
		*suggest = near.best;
	return NULL;
}

static bool same_option(const char *arg, const char *name)
{
	size_t len = strlen(name);
	return strncmp(arg, name, len) == 0 && (arg[len] == '\0' || arg[len] == '=');
}

const struct ior_cmd_opt *ior_cmd_find_option(const struct ior_command *cmd, const char *arg)
{
	const struct ior_cmd_opt *sets[16];
	size_t n = ior_cmd_row_sets(cmd, sets, 16);
	for (size_t s = 0; s < n; s++)
		for (const struct ior_cmd_opt *o = sets[s]; o && o->name; o++)
			if (same_option(arg, o->name) || (o->alias && same_option(arg, o->alias)))
				return o;
	return NULL;
}

int ior_cmd_unknown_argument(const struct ior_command *cmd, const char *arg)
{
	char word[64];
	snprintf(word, sizeof(word), "%.*s", (int)strcspn(arg, "="), arg);
	struct ior_suggestion near;
	ior_suggest_init(&near);
	const struct ior_cmd_opt *sets[16];
	size_t n = arg[0] == '-' ? ior_cmd_row_sets(cmd, sets, 16) : 0;
	for (size_t s = 0; s < n; s++)
		for (const struct ior_cmd_opt *o = sets[s]; o && o->name; o++)
			ior_suggest_consider(&near, word, o->name);
	/* the very word: an option given where only operands are read (after "--") */
	if (near.best && strcmp(near.best, word) == 0)
		return ior_error_set(IOR_EINVALID, "'%s' is an operand after '--', not an option, and '%s' takes no "
				     "such operand (see 'ioregress %s --help')", arg, cmd->name, cmd->name);
	if (near.best)
		return ior_error_set(IOR_EINVALID, "unknown argument '%s' for '%s' (did you mean '%s'?)", arg, cmd->name,
				     near.best);
	return ior_error_set(IOR_EINVALID, "unknown argument '%s' for '%s' (see 'ioregress %s --help')", arg,
			     cmd->name, cmd->name);
}
