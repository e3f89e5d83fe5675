/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Help text generated from the command descriptors, command lookup and "did you mean" for commands and their options. */
#include "common/error.h"
#include "common/suggest.h"
#include "harness/command.h"

#include <string.h>

#define HELP_WIDTH 80
#define HELP_INDENT 22

const struct ior_cmd_opt ior_cmd_global_options[] = {
	{ .name = "--db", .value = IOR_CMD_FILE, .arg = "FILE",
	  .help = "the SQLite database to read and write (default ./ioregress.db)" },
	{ .name = "--quiet", .alias = "-q", .help = "no progress line on stderr" },
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

static void print_synopsis(FILE *out, const struct ior_command *cmd)
{
	int col = fprintf(out, "usage: ioregress %s%s%s", cmd->name, cmd->subcommand ? " " : "",
			  cmd->subcommand ? cmd->subcommand : "");
	int indent = col + 1;
	for (const struct ior_cmd_opt *o = cmd->options; o && o->name; o++) {
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
	if (cmd->operands) {
		if (col + 1 + (int)strlen(cmd->operands) > HELP_WIDTH)
			fprintf(out, "\n%*s", indent - 1, "");
		fprintf(out, " %s", cmd->operands);
	}
	fputc('\n', out);
	for (const struct ior_cmd_opt *o = cmd->options; o && o->name; o++)
		if (o->alone)
			fprintf(out, "       ioregress %s%s%s %s%s%s\n", cmd->name, cmd->subcommand ? " " : "",
				cmd->subcommand ? cmd->subcommand : "", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

void ior_cmd_print_help(FILE *out, const struct ior_command *cmd)
{
	print_synopsis(out, cmd);
	fprintf(out, "\n%s.\n", cmd->summary);
	if (cmd->description) {
		fputc('\n', out);
		print_wrapped(out, cmd->description, 0, 0);
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
	      "       ioregress --version | --help | COMMAND --help\n\ncommands:\n", out);
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
	for (const struct ior_cmd_opt *o = cmd->options; o && o->name; o++)
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
	for (const struct ior_cmd_opt *o = cmd->options; o && o->name && arg[0] == '-'; o++)
		ior_suggest_consider(&near, word, o->name);
	if (near.best)
		return ior_error_set(IOR_EINVALID, "unknown argument '%s' for '%s' (did you mean '%s'?)", arg, cmd->name,
				     near.best);
	return ior_error_set(IOR_EINVALID, "unknown argument '%s' for '%s' (see 'ioregress %s --help')", arg,
			     cmd->name, cmd->name);
}
