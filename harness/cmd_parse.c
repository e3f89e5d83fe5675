/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one command-line parser: every command's options are rows (command.h) bound to a field of its
 * args struct, as git's parse_options binds struct option. */
#include "common/error.h"
#include "harness/command.h"
#include "options/option.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool ior_cmd_row_fits(const struct ior_cmd_opt *row)
{
	switch (row->kind) {
	case IOR_CMD_PLAIN:
		if (row->value == IOR_CMD_NUMBER)
			return false; /* a number is checked as one: IOR_CMD_COUNT, _REAL or _PERCENT */
		if (row->repeat)
			return row->size == sizeof(struct ior_cmd_list);
		return row->size == (row->value == IOR_CMD_FLAG ? sizeof(bool) : sizeof(const char *));
	case IOR_CMD_WORDS:
		return row->size == sizeof(struct ior_cmd_list);
	case IOR_CMD_PERCENT:
	case IOR_CMD_REAL:
		return row->size == sizeof(double);
	case IOR_CMD_COUNT:
		return row->size == sizeof(unsigned) || row->size == sizeof(size_t);
	case IOR_CMD_PARSE:
		return row->parse && row->size;
	}
	return false;
}

static bool is_list(const struct ior_cmd_opt *o)
{
	return o->kind == IOR_CMD_WORDS || (o->kind == IOR_CMD_PLAIN && o->repeat);
}

static bool takes_value(const struct ior_cmd_opt *o)
{
	return o->kind != IOR_CMD_WORDS && !(o->kind == IOR_CMD_PLAIN && o->value == IOR_CMD_FLAG);
}

/* "'x' is not a, b or c" for a choice row (a message --fail-on and --accel have always given). */
static int check_choice(const struct ior_cmd_opt *o, const char *v)
{
	char list[256] = "";
	const char *p = o->choices ? o->choices : "";
	while (*p) {
		size_t len = strcspn(p, " ");
		if (len == strlen(v) && !strncmp(p, v, len))
			return IOR_OK;
		const char *next = p + len + (p[len] == ' ');
		size_t used = strlen(list);
		snprintf(list + used, sizeof(list) - used, "%s%.*s", !used ? "" : *next ? ", " : " or ", (int)len, p);
		p = next;
	}
	return ior_error_set(IOR_EINVALID, "'%s' is not %s", v, list);
}

static int store_count(const struct ior_cmd_opt *o, void *field, const char *v)
{
	uint64_t n;
	int rc = ior_parse_count(v, o->min, o->max, &n);
	if (rc)
		return rc;
	if (o->size == sizeof(unsigned)) {
		unsigned u = (unsigned)n;  /* an int field takes it alike: the range is the row's */
		memcpy(field, &u, sizeof(u));
	} else {
		size_t z = (size_t)n;
		memcpy(field, &z, sizeof(z));
	}
	return IOR_OK;
}

/* Stores value v of row o into args; the message is prefixed with the option's name. */
static int store(const struct ior_cmd_opt *o, void *args, const char *v)
{
	void *field = (char *)args + o->offset;
	int rc = IOR_OK;
	switch (o->kind) {
	case IOR_CMD_PLAIN:
		if (o->value == IOR_CMD_FLAG) {
			*(bool *)field = true;
			return IOR_OK;
		}
		if (o->value == IOR_CMD_CHOICE)
			rc = check_choice(o, v);
		if (!rc)
			*(const char **)field = v;
		break;
	case IOR_CMD_PERCENT:
		rc = ior_parse_percent(v, field);
		break;
	case IOR_CMD_COUNT:
		rc = store_count(o, field, v);
		break;
	case IOR_CMD_REAL:
		rc = ior_parse_number(v, o->min, o->max, field);
		break;
	case IOR_CMD_PARSE:
		rc = o->parse(field, v);
		break;
	case IOR_CMD_WORDS:
		break;
	}
	return rc ? ior_error_wrap(rc, "%s", o->name) : IOR_OK;
}

static bool same_name(const char *arg, size_t len, const char *name)
{
	return name && strlen(name) == len && !strncmp(arg, name, len);
}

static const struct ior_cmd_opt *find_row(const struct ior_cmd_opt *const *sets, size_t nsets, const char *arg,
					  size_t len)
{
	for (size_t s = 0; s < nsets; s++)
		for (const struct ior_cmd_opt *o = sets[s]; o && o->name; o++)
			if (same_name(arg, len, o->name) || same_name(arg, len, o->alias))
				return o;
	return NULL;
}

/* "'bisect' takes start, run or log (see ...)"; "'vm' takes the subcommand 'run' (see ...)". */
static int no_subcommand(const struct ior_command *cmd)
{
	char list[256] = "";
	for (const struct ior_cmd_sub *s = cmd->subs; s->name; s++) {
		size_t used = strlen(list);
		snprintf(list + used, sizeof(list) - used, "%s%s", s == cmd->subs ? "" : s[1].name ? ", " : " or ", s->name);
	}
	if (!cmd->subs[0].name || !cmd->subs[1].name)
		return ior_error_set(IOR_EINVALID, "'%s' takes the subcommand '%s' (see 'ioregress %s --help')", cmd->name,
				     list, cmd->name);
	return ior_error_set(IOR_EINVALID, "'%s' takes %s (see 'ioregress %s --help')", cmd->name, list, cmd->name);
}

static const struct ior_cmd_sub *find_sub(const struct ior_command *cmd, const char *word)
{
	for (const struct ior_cmd_sub *s = cmd->subs; word && s->name; s++)
		if (!strcmp(s->name, word))
			return s;
	return NULL;
}

/* One word gathered for a list row (or for the operands: row NULL); word NULL marks an
 * IOR_CMD_WORDS row given, so its list is there (v set) even when empty. */
struct gathered {
	const struct ior_cmd_opt *row;
	char *word;
};

/* The words of row, put back into argv from *at on; l->v stays NULL when the row was not given. */
static void gather_one(const struct ior_cmd_opt *row, struct ior_cmd_list *l, char **argv, int *at,
		       const struct gathered *g, size_t ng)
{
	l->v = NULL;
	l->n = 0;
	for (size_t k = 0; k < ng; k++) {
		if (g[k].row != row)
			continue;
		if (!l->v)
			l->v = (const char **)argv + *at;
		if (g[k].word) {
			argv[(*at)++] = g[k].word;
			l->n++;
		}
	}
}

/* Puts the gathered words back into argv from first on, each list's together in row order, then
 * the operands, and points the lists' fields there (every word is one of argv's, so they fit). */
static void gather(const struct ior_cmd_opt *const *sets, size_t nsets, void *args, char **argv, int first,
		   const struct gathered *g, size_t ng, struct ior_cmd_list *operands)
{
	int at = first;
	for (size_t s = 0; s < nsets; s++)
		for (const struct ior_cmd_opt *o = sets[s]; o && o->name; o++)
			if (is_list(o))
				gather_one(o, (struct ior_cmd_list *)((char *)args + o->offset), argv, &at, g, ng);
	gather_one(NULL, operands, argv, &at, g, ng);
	if (!operands->v)
		operands->v = (const char **)argv + at;
}

/* An option of another subcommand is named as such; any other gets "did you mean". */
static int unknown_option(const struct ior_command *cmd, const struct ior_cmd_opt *rows, const char *a, size_t len)
{
	for (const struct ior_cmd_sub *s = cmd->subs; s && s->name; s++)
		if (s->options != rows && find_row(&s->options, 1, a, len))
			return ior_error_set(IOR_EINVALID, "'%.*s' is an option of '%s %s', not of this subcommand (see "
					     "'ioregress %s --help')", (int)len, a, cmd->name, s->name, cmd->name);
	return ior_cmd_unknown_argument(cmd, a);
}

static int parse_words(const struct ior_command *cmd, const struct ior_cmd_opt *const *sets, size_t nsets,
		       const char *operands, int argc, char **argv, int first, void *args, struct gathered *g,
		       size_t *ng)
{
	const struct ior_cmd_opt *words = NULL; /* an IOR_CMD_WORDS row taking the words after it */
	bool options = true;
	for (int i = first; i < argc; i++) {
		char *a = argv[i];
		if (options && !strcmp(a, "--")) {
			options = false;
			continue;
		}
		if (!options || a[0] != '-' || !a[1]) {
			if (!words && !operands)
				return ior_cmd_unknown_argument(cmd, a);
			g[(*ng)++] = (struct gathered){ words, a };
			continue;
		}
		size_t len = strcspn(a, "=");
		const struct ior_cmd_opt *o = find_row(sets, nsets, a, len);
		if (!o)
			return unknown_option(cmd, sets[0], a, len);
		if (!ior_cmd_row_fits(o))
			return ior_error_set(IOR_ERROR, "option row '%s' of '%s' does not fit its field", o->name, cmd->name);
		words = o->kind == IOR_CMD_WORDS ? o : NULL;
		if (words)
			g[(*ng)++] = (struct gathered){ words, NULL };
		char *v = NULL;
		if (!takes_value(o)) {
			if (a[len] == '=')
				return ior_error_set(IOR_EINVALID, "option '%.*s' takes no value", (int)len, a);
		} else if (a[len] == '=') {
			v = a[len + 1] ? a + len + 1 : NULL;
		} else if (i + 1 < argc) {
			v = argv[++i];
			/* `run --baseline --dry-run m.ini`: the value forgotten, not a kernel named --dry-run */
			if (v[0] == '-' && find_row(sets, nsets, v, strcspn(v, "=")))
				return ior_error_set(IOR_EINVALID, "option '%s' needs a value, and '%s' is an option (write "
						     "%s=%s if that is the value)", a, v, a, v);
		}
		if (takes_value(o) && !v)
			return ior_error_set(IOR_EINVALID, "option '%s' needs a value", a);
		if (o->kind == IOR_CMD_PLAIN && o->repeat)
			g[(*ng)++] = (struct gathered){ o, v };
		else if (store(o, args, v))
			return IOR_EINVALID;
	}
	return IOR_OK;
}

int ior_cmd_parse(const struct ior_command *cmd, int argc, char **argv, void *args, struct ior_cmd_parsed *out)
{
	memset(out, 0, sizeof(*out));
	int first = 1;
	if (cmd->subs) {
		if (!(out->sub = find_sub(cmd, argc > 1 ? argv[1] : NULL)))
			return no_subcommand(cmd);
		first = 2;
	}
	const struct ior_cmd_opt *sets[2];
	size_t nsets = 0;
	if (out->sub)
		sets[nsets++] = out->sub->options;
	sets[nsets++] = cmd->options;
	struct gathered g[argc > first ? argc - first : 1];
	size_t ng = 0;
	int rc = parse_words(cmd, sets, nsets, out->sub ? out->sub->operands : cmd->operands, argc, argv, first, args, g,
			     &ng);
	if (rc == IOR_OK)
		gather(sets, nsets, args, argv, first, g, ng, &out->operands);
	return rc;
}

/* Stores one taken option's value: "--name=value" or the next word. */
static int take_value(const struct ior_cmd_opt *o, char **argv, int argc, int *i, size_t len, void *args)
{
	const char *a = argv[*i];
	if (!takes_value(o))
		return a[len] == '=' ? ior_error_set(IOR_EINVALID, "option '%.*s' takes no value", (int)len, a)
				     : store(o, args, NULL);
	const char *v = a[len] == '=' ? a + len + 1 : *i + 1 < argc ? argv[++*i] : NULL;
	if (!v || (!*v && o->value == IOR_CMD_FILE))
		return ior_error_set(IOR_EINVALID, "option '%.*s' needs a %s", (int)len, a,
				     o->value == IOR_CMD_FILE ? "file name" : "value");
	return store(o, args, v);
}

int ior_cmd_take_options(const struct ior_cmd_opt *rows, int *argc, char **argv, void *args)
{
	int out = 1;
	char first[512] = ""; /* the first problem's message: the one to mend first */
	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			while (i < *argc)
				argv[out++] = argv[i++];
			break;
		}
		size_t len = strcspn(a, "=");
		const struct ior_cmd_opt *o = find_row(&rows, 1, a, len);
		if (!o || !o->size) {
			argv[out++] = argv[i];
			continue;
		}
		int bad = ior_cmd_row_fits(o) ? take_value(o, argv, *argc, &i, len, args)
					      : ior_error_set(IOR_ERROR, "option row '%s' does not fit its field", o->name);
		if (bad && !first[0])
			snprintf(first, sizeof(first), "%s", ior_error_last());
	}
	*argc = out;
	argv[out] = NULL;
	return first[0] ? ior_error_set(IOR_EINVALID, "%s", first) : IOR_OK;
}

int ior_cmd_usage_status(const struct ior_command *cmd)
{
	return cmd->error_status > 2 ? cmd->error_status : 2;
}

int ior_cmd_parse_or_usage(const struct ior_command *cmd, int argc, char **argv, void *args,
			   struct ior_cmd_parsed *out)
{
	ior_error_clear();
	if (ior_cmd_parse(cmd, argc, argv, args, out) == IOR_OK)
		return 0;
	ior_cmd_error_last();
	return ior_cmd_usage_status(cmd);
}

bool ior_cmd_flag_given(const struct ior_command *cmd, int argc, char **argv, const char *name)
{
	const struct ior_cmd_opt *row = ior_cmd_find_option(cmd, name);
	if (!row || row->kind != IOR_CMD_PLAIN || row->value != IOR_CMD_FLAG || !ior_cmd_row_fits(row))
		return false;
	const struct ior_cmd_opt *sets[16];
	size_t nsets = ior_cmd_row_sets(cmd, sets, 16), size = 0;
	for (size_t s = 0; s < nsets; s++)
		for (const struct ior_cmd_opt *o = sets[s]; o->name; o++)
			if (o->offset + o->size > size)
				size = o->offset + o->size;
	/* the command's args struct is not known here: a zeroed block as large as its rows reach */
	void *args = calloc(1, size ? size : 1);
	char **copy = calloc((size_t)argc + 1, sizeof(*copy));
	bool given = false;
	if (args && copy) {
		memcpy(copy, argv, (size_t)argc * sizeof(*copy));
		struct ior_cmd_parsed p;
		given = ior_cmd_parse(cmd, argc, copy, args, &p) == IOR_OK && *(bool *)((char *)args + row->offset);
		ior_error_clear(); /* the command's own parse says what is wrong */
	}
	free(args);
	free(copy);
	return given;
}
