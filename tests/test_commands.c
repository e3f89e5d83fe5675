/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the command descriptors: help generated from the rows, "did you mean", and that each command's parser takes exactly its rows. */
#include "common/error.h"
#include "harness/commands.h"
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
		for (const struct ior_cmd_opt *o = all[c]->options; o->name; o++)
			CU_ASSERT_PTR_NOT_NULL(strstr(out, o->name));
		for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
			CU_ASSERT(strlen(line) <= 80);
	}
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

/* A value each kind of row accepts, so the parser gets past the option itself. */
static const char *sample_value(const struct ior_cmd_opt *o)
{
	switch (o->value) {
	case IOR_CMD_CHOICE: {
		static char first[32];
		snprintf(first, sizeof(first), "%.*s", (int)strcspn(o->choices, " "), o->choices);
		return first;
	}
	case IOR_CMD_NUMBER: return "5";
	case IOR_CMD_FILE: return "/nonexistent/ior-test";
	case IOR_CMD_TEXT: return "x=1";
	case IOR_CMD_FLAG: break;
	}
	return NULL;
}

/* Every row the help shows is an option the command's parser takes, and every command the
 * overview lists answers --help: the rows cannot describe options that do not exist. */
static void test_parsers_take_their_rows(void)
{
	char db[4096];
	snprintf(db, sizeof(db), "%s/rows.db", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress((char *[]){ "--help", NULL }, out, sizeof(out), NULL, 0), 0);
	char overview[sizeof(out)];
	memcpy(overview, out, sizeof(out));
	const struct ior_command *all[] = { &ior_cmd_run, &ior_cmd_probe, &ior_cmd_report, &ior_cmd_import,
					    &ior_cmd_check, &ior_cmd_recover, &ior_cmd_schedulers, &ior_cmd_merge,
					    &ior_cmd_vm };
	for (size_t c = 0; c < sizeof(all) / sizeof(all[0]); c++) {
		const struct ior_command *cmd = all[c];
		char listed[64];
		snprintf(listed, sizeof(listed), "\n  %s ", cmd->name);
		CU_ASSERT_PTR_NOT_NULL(strstr(overview, listed));
		CU_ASSERT_EQUAL(ior_test_ioregress((char *[]){ (char *)cmd->name, "--help", NULL }, out, sizeof(out),
						   NULL, 0), 0);
		if ((cmd->flags & IOR_CMD_NEEDS_ROOT) && geteuid() != 0)
			continue;
		for (const struct ior_cmd_opt *o = cmd->options; o->name; o++) {
			const char *v = sample_value(o);
			char *args[8] = { "--db", db, (char *)cmd->name };
			int n = 3;
			if (cmd->subcommand)
				args[n++] = (char *)cmd->subcommand; /* vm run: without a KERNEL nothing boots */
			args[n++] = (char *)o->name;
			if (v)
				args[n++] = (char *)v;
			if (!strcmp(cmd->name, "run"))
				args[n++] = "/nonexistent/m.ini"; /* a matrix that does not exist: nothing is measured */
			args[n] = NULL;
			ior_test_ioregress(args, out, sizeof(out), err, sizeof(err));
			if (strstr(err, "unknown"))
				fprintf(stderr, "%s %s: %s", cmd->name, o->name, err);
			CU_ASSERT_PTR_NULL(strstr(err, "unknown"));
		}
	}
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

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_help_lists_every_row),
		IOR_TEST(test_did_you_mean),
		IOR_TEST(test_parsers_take_their_rows),
		IOR_TEST(test_format_rows_list_every_renderer),
		IOR_TEST_END,
	};
	return ior_test_run("commands", tests);
}
