/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the command descriptors and the one parser: help generated from the rows, "did you
 * mean", and every row of every command and subcommand stored into its own field, and taken by the
 * binary against a database that exists. */
#include "common/error.h"
#include "db/db.h"
#include "harness/command_list.h"
#include "reports/render.h"
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char out[32768], err[8192];

static const char *help_of(const struct ior_command *cmd)
{
	FILE *f = fmemopen(out, sizeof(out), "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	ior_cmd_print_help(f, cmd);
	fclose(f);
	return out;
}

/* The options the issue found missing from every help text are there now, with their help. */
static void test_help_lists_every_row(void)
{
	CU_ASSERT_PTR_NOT_NULL(strstr(help_of(&ior_cmd_report), "--alert-spread PERCENT"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "usage: ioregress report [--format text|md|html|json|junit|csv|kcidb]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "-o, --output FILE"));
	CU_ASSERT_PTR_NOT_NULL(strstr(help_of(&ior_cmd_check), "--min-effect PERCENT"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "usage: ioregress check --baseline KERNEL [--candidate KERNEL]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "(required)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(help_of(&ior_cmd_run), "       ioregress run --resume RUN_ID\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "-o, --set KEY=VALUE"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "--db FILE"));
	CU_ASSERT_PTR_NOT_NULL(strstr(help_of(&ior_cmd_vm), "usage: ioregress vm run [--matrix FILE] [--boots N|auto]"));
	/* no line of any help is wider than a terminal */
	const struct ior_command *all[] = { &ior_cmd_run, &ior_cmd_probe, &ior_cmd_report, &ior_cmd_import,
					    &ior_cmd_check, &ior_cmd_recover, &ior_cmd_schedulers, &ior_cmd_merge,
					    &ior_cmd_vm };
	for (size_t c = 0; c < sizeof(all) / sizeof(all[0]); c++) {
		help_of(all[c]);
		const struct ior_cmd_opt *sets[16];
		for (size_t s = 0, n = ior_cmd_row_sets(all[c], sets, 16); s < n; s++)
			for (const struct ior_cmd_opt *o = sets[s]; o->name; o++)
				CU_ASSERT_PTR_NOT_NULL(strstr(out, o->name));
		for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
			CU_ASSERT(strlen(line) <= 80);
	}
	/* a command with subcommands: a synopsis line and a group of options each */
	help_of(&ior_cmd_bisect);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "usage: ioregress bisect start [--repo PATH]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n       ioregress bisect run [--matrix FILE]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n       ioregress bisect replay FILE\n"));
	const char *start = strstr(out, "\nstart options:\n"), *run = strstr(out, "\nrun options:\n");
	CU_ASSERT_TRUE(start && run && start < strstr(out, "  --repo PATH") && strstr(out, "  --repo PATH") < run &&
		       run < strstr(out, "  --cap N"));
}

static void test_did_you_mean(void)
{
	const struct ior_command *list[] = { &ior_cmd_report, &ior_cmd_run, &ior_cmd_schedulers };
	const char *near = NULL;
	CU_ASSERT_PTR_EQUAL(ior_cmd_find(list, 3, "run", &near), &ior_cmd_run);
	CU_ASSERT_PTR_NULL(ior_cmd_find(list, 3, "reprot", &near));
	CU_ASSERT_STRING_EQUAL(near, "report");
	CU_ASSERT_PTR_NULL(ior_cmd_find(list, 3, "frobnicate", &near));
	CU_ASSERT_PTR_NULL(near);
	ior_cmd_unknown_argument(&ior_cmd_check, "--min-efect=5%");
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "did you mean '--min-effect'?"));
	ior_cmd_unknown_argument(&ior_cmd_check, "--zzzzzzzz");
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "see 'ioregress check --help'"));
	CU_ASSERT_PTR_EQUAL(ior_cmd_find_option(&ior_cmd_run, "-o"), ior_cmd_find_option(&ior_cmd_run, "--set=a=b"));

	/* the binary says the same for a mistyped command */
	CU_ASSERT_EQUAL(ior_test_ioregress((char *[]){ "schedulrs", NULL }, out, sizeof(out), err, sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "did you mean 'schedulers'?"));
}

/* -V is the version, as --version (it was answered as a mistyped command, "did you mean 'vm'?"). */
static void test_dash_v_is_the_version(void)
{
	char out[256], err[256], version[256];
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress((char *[]){ "--version", NULL }, version, sizeof(version), NULL, 0), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(version, "ioregress "));
	CU_ASSERT_EQUAL(ior_test_ioregress((char *[]){ "-V", NULL }, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(out, version);
	CU_ASSERT_STRING_EQUAL(err, "");
}

/* Into buf, a value of a row's kind that the parser takes and that stores something other than
 * zero; NULL for a row that takes none. A row with a parser of its own needs an example here. */
static const char *sample_value(const struct ior_cmd_opt *o, char *buf, size_t len)
{
	static const struct {
		const char *name, *value;
	} parsed[] = {
		{ "--format", "json" }, { "--metric", "lat_p99_us" }, { "--since", "2024-01-02" },
		{ "--origin", "ci" },   { "--by", "scheduler" },      { "--boots", "2" },
		{ "--budget", "90m" },
	};
	const char *v = NULL;
	switch (o->kind) {
	case IOR_CMD_PLAIN:
		if (o->value == IOR_CMD_FLAG)
			return NULL;
		if (o->value == IOR_CMD_CHOICE) {
			snprintf(buf, len, "%.*s", (int)strcspn(o->choices, " "), o->choices);
			return buf;
		}
		v = o->value == IOR_CMD_FILE ? "/nonexistent/ior-test" : "x=1";
		break;
	case IOR_CMD_PERCENT:
		v = "5%";
		break;
	case IOR_CMD_COUNT:
	case IOR_CMD_REAL:
		snprintf(buf, len, "%.0f", o->max);
		return buf;
	case IOR_CMD_PARSE:
		for (size_t i = 0; !v && i < sizeof(parsed) / sizeof(parsed[0]); i++)
			if (!strcmp(parsed[i].name, o->name))
				v = parsed[i].value;
		if (!v) {
			fprintf(stderr, "\n  %s: no example value for a row with a parser of its own", o->name);
			CU_FAIL("a row with a parser of its own has no example value");
			v = "x";
		}
		break;
	case IOR_CMD_WORDS:
		return NULL;
	}
	snprintf(buf, len, "%s", v);
	return buf;
}

/* "NAME [SUB] OPTION [VALUE]" (repeatable rows given twice, a word list two words) into args. */
static int words_for(const struct ior_command *cmd, const struct ior_cmd_sub *sub, const struct ior_cmd_opt *o,
		     char **args, char *value)
{
	int n = 0;
	args[n++] = (char *)cmd->name;
	if (sub)
		args[n++] = (char *)sub->name;
	for (int times = 0; times < (o->repeat ? 2 : 1); times++) {
		args[n++] = (char *)o->name;
		if (sample_value(o, value, 64))
			args[n++] = (char *)sample_value(o, value, 64);
	}
	if (o->kind == IOR_CMD_WORDS) {
		args[n++] = "w1";
		args[n++] = "w2";
	}
	args[n] = NULL;
	return n;
}

static bool all_zero(const unsigned char *p, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (p[i])
			return false;
	return true;
}

/* In the parser: the row's value lands in its own field and nowhere else, lists get every value. */
static void check_binding(const struct ior_command *cmd, const struct ior_cmd_sub *sub, const struct ior_cmd_opt *o)
{
	static unsigned char args[1 << 16];
	char *argv[16], value[64];
	int argc = words_for(cmd, sub, o, argv, value);
	memset(args, 0, sizeof(args));
	CU_ASSERT_TRUE_FATAL(ior_cmd_row_fits(o) && o->offset + o->size <= sizeof(args));
	struct ior_cmd_parsed p;
	ior_error_clear();
	int rc = ior_cmd_parse(cmd, argc, argv, args, &p);
	bool stored = rc == IOR_OK && !all_zero(args, o->offset, o->offset + o->size);
	bool alone = all_zero(args, 0, o->offset) && all_zero(args, o->offset + o->size, sizeof(args));
	if (!stored || !alone)
		fprintf(stderr, "\n  %s%s%s %s: %s%s", cmd->name, sub ? " " : "", sub ? sub->name : "", o->name,
			rc ? ior_error_last() : "", !stored ? " (not stored in its field)" : " (wrote outside its field)");
	CU_ASSERT_TRUE(stored);
	CU_ASSERT_TRUE(alone);
	CU_ASSERT_PTR_EQUAL(p.sub, sub);
	CU_ASSERT_EQUAL(p.operands.n, 0);
	if (o->repeat || o->kind == IOR_CMD_WORDS) {
		const struct ior_cmd_list *l = (const void *)(args + o->offset);
		CU_ASSERT_EQUAL(l->n, 2);
	} else if (sample_value(o, value, sizeof(value))) {
		/* "--name=value" stores the same as "--name value" */
		static unsigned char again[sizeof(args)];
		char joined[128];
		snprintf(joined, sizeof(joined), "%s=%s", o->name, value);
		char *eq_argv[] = { argv[0], sub ? argv[1] : joined, sub ? joined : NULL, NULL };
		memset(again, 0, sizeof(again));
		rc = ior_cmd_parse(cmd, sub ? 3 : 2, eq_argv, again, &p);
		bool same = !memcmp(again + o->offset, args + o->offset, o->size);
		if (!same && o->size == sizeof(char *)) { /* a string: the same text from another place in argv */
			const char *x, *y;
			memcpy(&x, again + o->offset, sizeof(x));
			memcpy(&y, args + o->offset, sizeof(y));
			same = x && y && !strcmp(x, y);
		}
		if (rc || !same)
			fprintf(stderr, "\n  %s: '%s' %s", cmd->name, joined, rc ? ior_error_last() : "stores something else");
		CU_ASSERT_EQUAL(rc, IOR_OK);
		CU_ASSERT_TRUE(same);
	}
	/* a value the row's kind refuses (past its range, no choice, no percentage) is refused naming it */
	bool checked = o->kind == IOR_CMD_COUNT || o->kind == IOR_CMD_REAL || o->kind == IOR_CMD_PERCENT ||
		       o->kind == IOR_CMD_PARSE || (o->kind == IOR_CMD_PLAIN && o->value == IOR_CMD_CHOICE);
	if (checked) {
		char bad[64], want[96];
		if (o->kind == IOR_CMD_COUNT || o->kind == IOR_CMD_REAL)
			snprintf(bad, sizeof(bad), "%.0f", o->max + 1);
		else
			snprintf(bad, sizeof(bad), "no-such-%s", o->name + 2);
		char *bad_argv[] = { argv[0], argv[1], argv[2], bad, NULL };
		int skip = sub ? 0 : 1;   /* without a subcommand the option is argv[1] */
		if (skip) {
			bad_argv[2] = bad;
			bad_argv[3] = NULL;
		}
		snprintf(want, sizeof(want), "%s: ", o->name);
		ior_error_clear();
		rc = ior_cmd_parse(cmd, 4 - skip, bad_argv, args, &p);
		if (rc != IOR_EINVALID || strncmp(ior_error_last(), want, strlen(want)))
			fprintf(stderr, "\n  %s %s %s: taken (%s)", cmd->name, o->name, bad, ior_error_last());
		CU_ASSERT_EQUAL(rc, IOR_EINVALID);
		CU_ASSERT_EQUAL(strncmp(ior_error_last(), want, strlen(want)), 0);
	}
}

/* In the binary, against a database that exists (report, check and schedulers refuse a missing
 * one before they parse): no option is refused as unknown, of another subcommand, or missing its
 * value (check_binding has parsed the value; what the command does with it may fail here). */
static void check_in_binary(const char *db, const struct ior_command *cmd, const struct ior_cmd_sub *sub,
			    const struct ior_cmd_opt *o)
{
	char *argv[20] = { "--db", (char *)db }, value[64];
	int n = 2 + words_for(cmd, sub, o, argv + 2, value);
	if (!strcmp(cmd->name, "run"))
		argv[n++] = "/nonexistent/m.ini"; /* a matrix that does not exist: nothing is measured */
	if (!strcmp(cmd->name, "kernel")) {
		argv[n++] = "--tree";             /* a tree that does not exist: nothing is built */
		argv[n++] = "/nonexistent/linux";
	}
	argv[n] = NULL;
	err[0] = '\0';
	ior_test_ioregress(argv, out, sizeof(out), err, sizeof(err));
	bool refused = strstr(err, "unknown argument") || strstr(err, "is an option of") || strstr(err, "needs a value") ||
		       strstr(err, "takes no value");
	if (refused)
		fprintf(stderr, "\n  %s %s: %s", cmd->name, o->name, err);
	CU_ASSERT_FALSE(refused);
	/* and the binary's parser is the one that knows the row: "--name=" has no value, "--flag=x" has one */
	bool valued = sample_value(o, value, sizeof(value)) != NULL;
	char malformed[96], says[160];
	snprintf(malformed, sizeof(malformed), "%s=%s", o->name, valued ? "" : "x");
	snprintf(says, sizeof(says), valued ? "error: option '%s=' needs a value" : "error: option '%s' takes no value",
		 o->name);
	n = 2;
	argv[n++] = (char *)cmd->name;
	if (sub)
		argv[n++] = (char *)sub->name;
	argv[n++] = malformed;
	argv[n] = NULL;
	int status = ior_test_ioregress(argv, out, sizeof(out), err, sizeof(err));
	if (!strstr(err, says) || status != ior_cmd_usage_status(cmd))
		fprintf(stderr, "\n  %s %s: exit %d, '%s', not '%s'", cmd->name, malformed, status, err, says);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, says));
	CU_ASSERT_EQUAL(status, ior_cmd_usage_status(cmd));
}

/* Every row of every command and subcommand (the one list, nothing left out) is taken by the parser
 * into its own field and by the binary; an option of one subcommand is refused by another; every
 * command the overview lists answers --help. */
static void test_parsers_take_their_rows(void)
{
	char db[4096];
	snprintf(db, sizeof(db), "%s/rows.db", ior_test_tmpdir());
	struct ior_db *handle = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&handle, db)), 0);
	ior_db_free(handle);
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress((char *[]){ "--help", NULL }, out, sizeof(out), NULL, 0), 0);
	char overview[sizeof(out)];
	memcpy(overview, out, sizeof(out));
	size_t rows = 0, refused_elsewhere = 0;
	for (size_t c = 0; c < ior_command_count; c++) {
		const struct ior_command *cmd = ior_commands[c];
		char listed[64];
		snprintf(listed, sizeof(listed), "\n  %s ", cmd->name);
		CU_ASSERT_PTR_NOT_NULL(strstr(overview, listed));
		CU_ASSERT_EQUAL(ior_test_ioregress((char *[]){ (char *)cmd->name, "--help", NULL }, out, sizeof(out),
						   NULL, 0), 0);
		for (const struct ior_cmd_sub *sub = cmd->subs; !cmd->subs || sub->name; sub++) {
			const struct ior_cmd_opt *sets[] = { cmd->subs ? sub->options : NULL, cmd->options };
			for (size_t s = 0; s < 2; s++)
				for (const struct ior_cmd_opt *o = sets[s]; o && o->name; o++, rows++) {
					check_binding(cmd, cmd->subs ? sub : NULL, o);
					check_in_binary(db, cmd, cmd->subs ? sub : NULL, o);
				}
			/* a row of this subcommand under every other subcommand that lacks the name */
			for (const struct ior_cmd_sub *other = cmd->subs; cmd->subs && other->name; other++)
				for (const struct ior_cmd_opt *o = sub->options; other != sub && o->name; o++) {
					char *argv[] = { (char *)cmd->name, (char *)other->name, (char *)o->name, "x", NULL };
					struct ior_cmd_parsed p;
					static unsigned char args[1 << 16];
					bool theirs = false;
					for (const struct ior_cmd_opt *r = other->options; r->name; r++)
						theirs |= !strcmp(r->name, o->name);
					if (theirs)
						continue;
					CU_ASSERT_NOT_EQUAL(ior_cmd_parse(cmd, 4, argv, args, &p), IOR_OK);
					CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "is an option of"));
					refused_elsewhere++;
				}
			if (!cmd->subs)
				break;
		}
	}
	printf("\n  %zu rows parsed in place and in the binary, %zu refused under another subcommand", rows,
	       refused_elsewhere);
	CU_ASSERT_TRUE(rows >= 90);
	CU_ASSERT_TRUE(refused_elsewhere >= 20);
}

/* Bad input names the option and is a usage error: an unknown option, a missing value, a value out
 * of its row's range or choices, a flag given a value, an operand where none is taken, no subcommand. */
static void test_bad_input_names_the_option(void)
{
	static const struct {
		const char *const words[6];
		const char *says;
	} bad[] = {
		{ { "bisect", "start", "--lower-is-beter" }, "did you mean '--lower-is-better'?" },
		{ { "bisect", "run", "--cap", "3" }, "--cap: '3' is not a whole number from 5 to 100000" },
		{ { "bisect", "run", "--cap" }, "option '--cap' needs a value" },
		{ { "bisect", "stat" }, "'bisect' takes start, run, status, log, reset or replay" },
		{ { "vm", "run", "--accel=xen" }, "--accel: 'xen' is not auto, kvm or tcg" },
		{ { "vm", "run", "--boot-only=yes" }, "option '--boot-only' takes no value" },
		{ { "vm", "run", "--timeout", "0" }, "--timeout: '0' is not a number from 1 to 86400" },
		{ { "kernel" }, "'kernel' takes the subcommand 'build'" },
		{ { "report", "--min-effect", "5" }, "--min-effect: '5' is ambiguous" },
		{ { "report", "--format", "jsno" }, "--format: unknown format 'jsno'; did you mean 'json'?" },
		{ { "report", "stray" }, "unknown argument 'stray' for 'report'" },
		/* issue 35: the very word was suggested back; impossible dates were taken; a forgotten value
		 * took the next option as its value */
		{ { "report", "--", "--format" }, "'--format' is an operand after '--', not an option" },
		{ { "report", "--since", "2026-13-45" }, "--since: '2026-13-45' is not a date" },
		{ { "report", "--since", "2026-02-30" }, "--since: '2026-02-30' is not a date" },
		{ { "report", "--since", "2026-02-28T24:00" }, "--since: '2026-02-28T24:00' is not a date" },
		{ { "run", "--baseline", "--dry-run", "m.ini" }, "option '--baseline' needs a value, and '--dry-run' is an option" },
	};
	char *args[8];
	static unsigned char buf[1 << 16];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int n = 0;
		for (; n < 6 && bad[i].words[n]; n++)
			args[n] = (char *)bad[i].words[n];
		args[n] = NULL;
		const struct ior_command *cmd = ior_cmd_find(ior_commands, ior_command_count, args[0], NULL);
		struct ior_cmd_parsed p;
		memset(buf, 0, sizeof(buf));
		ior_error_clear();
		CU_ASSERT_EQUAL(ior_cmd_parse(cmd, n, args, buf, &p), IOR_EINVALID);
		if (!strstr(ior_error_last(), bad[i].says))
			fprintf(stderr, "\n  '%s ...': '%s', not '%s'", args[0], ior_error_last(), bad[i].says);
		CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), bad[i].says));
	}
	/* the binary prints it and exits with the usage status */
	CU_ASSERT_EQUAL(ior_test_ioregress((char *[]){ "kernel", "build", "--nice", "20", NULL }, out, sizeof(out), err,
					   sizeof(err)), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "error: --nice: '20' is not a whole number from 0 to 19"));
}

/* Every --format row (report, check, compare) offers exactly the renderers of the registry, in its
 * order: the word list in help, man pages and completion is written in the rows. */
static void test_format_rows_list_every_renderer(void)
{
	size_t n;
	const struct ior_renderer *const *r = ior_renderers(&n);
	char want[256] = "";
	for (size_t i = 0; i < n; i++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s", i ? " " : "", r[i]->name);
	size_t rows = 0;
	for (size_t c = 0; c < ior_command_count; c++) {
		const struct ior_cmd_opt *o = ior_cmd_find_option(ior_commands[c], "--format");
		if (!o)
			continue;
		rows++;
		if (strcmp(o->choices, want))
			fprintf(stderr, "\n  %s --format offers '%s', the registry has '%s'", ior_commands[c]->name, o->choices, want);
		CU_ASSERT_STRING_EQUAL(o->choices, want);
	}
	CU_ASSERT_EQUAL(rows, 3);
}

/* The global options are rows too, taken out wherever they stand before "--" (main.c): their
 * values land in the context, every other word keeps its order, and a bad one is named. */
static void test_global_options_taken_anywhere(void)
{
	char *argv[] = { "ioregress", "report", "-q", "--format", "md", "--db=a.db", "--help", "--", "--db", "x", NULL };
	int argc = 10;
	struct ior_cmd_ctx ctx = { .db_path = "unset" };
	ior_error_clear();
	CU_ASSERT_EQUAL(ior_cmd_take_options(ior_cmd_global_options, &argc, argv, &ctx), IOR_OK);
	CU_ASSERT_STRING_EQUAL(ctx.db_path, "a.db");
	CU_ASSERT_TRUE(ctx.quiet);
	const char *left[] = { "ioregress", "report", "--format", "md", "--help", "--", "--db", "x" };
	CU_ASSERT_EQUAL_FATAL(argc, 8);
	for (int i = 0; i < argc; i++)
		CU_ASSERT_STRING_EQUAL(argv[i], left[i]);
	CU_ASSERT_PTR_NULL(argv[argc]);

	static const struct {
		const char *const words[4];
		const char *says;
		int status; /* the command's own error status: check's is 128, for git bisect run */
	} bad[] = {
		{ { "--db=", "report" }, "error: option '--db' needs a file name", 1 },
		{ { "report", "--db" }, "error: option '--db' needs a file name", 1 },
		{ { "--db", "", "report" }, "error: option '--db' needs a file name", 1 },
		{ { "--quiet=yes", "--db=", "report" }, "error: option '--quiet' takes no value", 1 },
		{ { "--db=", "-q", "check" }, "error: option '--db' needs a file name", 128 },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int status = ior_test_ioregress((char **)bad[i].words, out, sizeof(out), err, sizeof(err));
		if (!strstr(err, bad[i].says))
			fprintf(stderr, "\n  case %zu: '%s', not '%s'", i, err, bad[i].says);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].says));
		CU_ASSERT_PTR_NULL(strstr(strstr(err, "error:") + 1, "error:")); /* one message: the first problem */
		CU_ASSERT_EQUAL(status, bad[i].status);
	}
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_help_lists_every_row),
		IOR_TEST(test_did_you_mean),
		IOR_TEST(test_dash_v_is_the_version),
		IOR_TEST(test_parsers_take_their_rows),
		IOR_TEST(test_bad_input_names_the_option),
		IOR_TEST(test_format_rows_list_every_renderer),
		IOR_TEST(test_global_options_taken_anywhere),
		IOR_TEST_END,
	};
	return ior_test_run("commands", tests);
}
