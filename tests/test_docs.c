/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The documents keep up with the code: every matrix key and every command option is in its man
 * page, db/SCHEMA.md is at the code's schema version, man pages' examples hold one command a line,
 * ioregress-check(1) lists every metric, and the guide's packaged-kernel journey parses. */
#include "db/db.h"
#include "engines/engine.h"
#include "harness/command_list.h"
#include "matrix/matrix.h"
#include "measure/metric.h"
#include "tests/suite.h"

#include <glob.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A page's definition-list terms (lines that start with *TERM*), each under the "## " heading
 * it stands below ("" before the first). */
struct term {
	char heading[96];
	char name[64];
	char line[512];
	int lineno;
};

struct page {
	char path[512];
	struct term *terms;
	size_t n;
	bool *used;
};

static void page_load(struct page *p, const char *relative)
{
	snprintf(p->path, sizeof(p->path), "%s", ior_test_source_path(relative));
	FILE *f = fopen(p->path, "r");
	if (!f)
		CU_FAIL_FATAL("a man page source is missing");
	p->terms = NULL;
	p->n = 0;
	char heading[96] = "", line[512];
	for (int lineno = 1; fgets(line, sizeof(line), f); lineno++) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "## ", 3) == 0) {
			snprintf(heading, sizeof(heading), "%s", line + 3);
			continue;
		}
		if (line[0] == '#') { /* a section of its own ("# OPTIONS") ends the subsection */
			heading[0] = '\0';
			continue;
		}
		/* a term is one word ("*bs* = _size_", "*--format* text|json"); "*destructive = yes*"
		 * at the start of a wrapped sentence is prose */
		const char *end = line[0] == '*' ? strchr(line + 1, '*') : NULL;
		if (!end || end == line + 1 || memchr(line + 1, ' ', (size_t)(end - line - 1)))
			continue;
		p->terms = realloc(p->terms, (p->n + 1) * sizeof(*p->terms));
		CU_ASSERT_PTR_NOT_NULL_FATAL(p->terms);
		struct term *t = &p->terms[p->n++];
		snprintf(t->heading, sizeof(t->heading), "%s", heading);
		snprintf(t->name, sizeof(t->name), "%.*s", (int)(end - line - 1), line + 1);
		snprintf(t->line, sizeof(t->line), "%s", line);
		t->lineno = lineno;
	}
	fclose(f);
	p->used = calloc(p->n ? p->n : 1, sizeof(*p->used));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p->used);
}

static void page_free(struct page *p)
{
	free(p->terms);
	free(p->used);
}

/* The term for name under heading, marked used; NULL (and a line saying what is missing) when absent. */
static const struct term *page_term(struct page *p, const char *heading, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->terms[i].heading, heading) && !strcmp(p->terms[i].name, name)) {
			p->used[i] = true;
			return &p->terms[i];
		}
	fprintf(stderr, "\n  %s: no '*%s*' under '## %s'", p->path, name, heading);
	return NULL;
}

/* True when an enum's term line ("*rw* = read|write|randread (default read)") lists choice. */
static bool names_choice(const char *line, const char *choice)
{
	const char *p = strstr(line, " = ");
	if (!p)
		return false;
	p += 3;
	size_t len = strlen(choice);
	for (;;) {
		size_t word = strcspn(p, "| ");
		if (word == len && !strncmp(p, choice, len))
			return true;
		if (p[word] != '|')
			return false;
		p += word + 1;
	}
}

/* Each row of rows has its term under heading, and an enum's term names every choice. */
static void check_rows(struct page *p, const char *heading, const struct ior_option *rows)
{
	for (const struct ior_option *r = rows; r && r->name; r++) {
		const struct term *t = page_term(p, heading, r->name);
		CU_ASSERT_PTR_NOT_NULL(t);
		for (size_t c = 0; t && r->type == IOR_OPT_ENUM && r->choices[c]; c++) {
			bool named = names_choice(t->line, r->choices[c]);
			if (!named)
				fprintf(stderr, "\n  %s:%d: '%s' does not name the choice '%s'", p->path, t->lineno, r->name,
					r->choices[c]);
			CU_ASSERT_TRUE(named);
		}
	}
}

/* Every term under a heading the code describes is one of its keys: the page documents no key the
 * code has dropped. Terms under other headings (the VALUES list) are prose. */
static void check_nothing_extra(const struct page *p)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct term *t = &p->terms[i];
		bool described = t->heading[0] == '[' || strncmp(t->heading, "type = ", 7) == 0;
		if (described && !p->used[i])
			fprintf(stderr, "\n  %s:%d: '%s' under '## %s' is no key of the code", p->path, t->lineno, t->name,
				t->heading);
		CU_ASSERT_TRUE(!described || p->used[i]);
	}
}

static void test_matrix_page_has_every_key_of_every_section_and_engine(void)
{
	struct page p;
	page_load(&p, "matrix/man/ioregress-matrix.5.scd");
	check_rows(&p, "[matrix]", ior_matrix_settings_options());
	check_rows(&p, "[device NAME]", ior_matrix_device_options());
	CU_ASSERT_PTR_NOT_NULL(page_term(&p, "[engine NAME]", "type"));
	check_rows(&p, "[engine NAME]", ior_matrix_job_options());
	for (size_t i = 0; i < ior_engine_count(); i++) {
		const struct ior_engine_ops *e = ior_engine_at(i);
		char heading[96];
		snprintf(heading, sizeof(heading), "type = %s", e->name);
		check_rows(&p, heading, e->options);
	}
	check_nothing_extra(&p);
	page_free(&p);
}

/* The check itself: a page without a key fails it, and one with a key the code lacks too. */
static void test_a_missing_or_extra_key_is_caught(void)
{
	struct page p;
	page_load(&p, "matrix/man/ioregress-matrix.5.scd");
	const struct ior_option rows[] = {
		{ .name = "repetitions", .type = IOR_OPT_UINT },
		{ .name = "no_such_key", .type = IOR_OPT_UINT },
		IOR_OPTION_END,
	};
	CU_ASSERT_PTR_NOT_NULL(page_term(&p, "[matrix]", rows[0].name));
	CU_ASSERT_PTR_NULL(page_term(&p, "[matrix]", rows[1].name));
	size_t extra = 0;
	for (size_t i = 0; i < p.n; i++)
		extra += !strcmp(p.terms[i].heading, "[matrix]") && !p.used[i];
	CU_ASSERT_TRUE(extra > 0); /* schedulers, drop_caches, ... were not asked for */
	page_free(&p);
}

/* The definition-list lines (those starting with "*") of a page's OPTIONS and COMMANDS sections,
 * joined, so "*--host* _H_, *--device* _D_" documents both; the SYNOPSIS alone documents nothing. */
static void term_lines(char *out, size_t len, const char *relative)
{
	FILE *f = fopen(ior_test_source_path(relative), "r");
	if (!f)
		fprintf(stderr, "\n  no man page %s", relative);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	size_t used = 0;
	char line[512];
	out[0] = '\0';
	bool listing = false;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "# ", 2))
			listing = !strcmp(line, "# OPTIONS\n") || !strcmp(line, "# COMMANDS\n");
		else if (listing && line[0] == '*' && used + strlen(line) < len)
			used += (size_t)snprintf(out + used, len - used, "%s", line);
	}
	fclose(f);
}

static bool documents(const char *terms, const char *page, const char *name)
{
	char bold[80];
	snprintf(bold, sizeof(bold), "*%s*", name);
	bool there = strstr(terms, bold) != NULL;
	if (!there)
		fprintf(stderr, "\n  %s: no term for '%s'", page, name);
	return there;
}

/* Every "*--option*" of the terms is a row of cmd (of any of its subcommands) or of the global
 * options: none is stale. */
static void check_no_stale_option(const char *terms, const char *page, const struct ior_command *cmd)
{
	for (const char *p = terms; (p = strstr(p, "*-")); p++) {
		const char *end = strchr(p + 1, '*');
		if (!end)
			break;
		char name[64];
		snprintf(name, sizeof(name), "%.*s", (int)(end - p - 1), p + 1);
		const struct ior_cmd_opt *set[16] = { ior_cmd_global_options };
		size_t nsets = 1 + (cmd ? ior_cmd_row_sets(cmd, set + 1, 15) : 0);
		bool known = false;
		for (const struct ior_cmd_opt **r = set; r < set + nsets; r++)
			for (const struct ior_cmd_opt *o = *r; o && o->name; o++)
				known |= !strcmp(o->name, name) || (o->alias && !strcmp(o->alias, name));
		known |= !strcmp(name, "--version") || !strcmp(name, "-V"); /* ioregress(1): main's own */
		if (!known)
			fprintf(stderr, "\n  %s: '%s' is no option of the command", page, name);
		CU_ASSERT_TRUE(known);
		p = end;
	}
}

static void test_each_command_page_has_every_option(void)
{
	static char terms[1 << 16];
	for (size_t c = 0; c < ior_command_count; c++) {
		const struct ior_command *cmd = ior_commands[c];
		char page[128];
		snprintf(page, sizeof(page), "harness/man/ioregress-%s.1.scd", cmd->name);
		term_lines(terms, sizeof(terms), page);
		const struct ior_cmd_opt *sets[16];
		for (size_t s = 0, nsets = ior_cmd_row_sets(cmd, sets, 16); s < nsets; s++)
			for (const struct ior_cmd_opt *o = sets[s]; o && o->name; o++) {
				CU_ASSERT_TRUE(documents(terms, page, o->name));
				if (o->alias)
					CU_ASSERT_TRUE(documents(terms, page, o->alias));
				char choices[256];
				snprintf(choices, sizeof(choices), "%s", o->value == IOR_CMD_CHOICE && o->choices ? o->choices : "");
				for (char *v = strtok(choices, " "); v; v = strtok(NULL, " "))
					CU_ASSERT_PTR_NOT_NULL(strstr(terms, v));
			}
		check_no_stale_option(terms, page, cmd);
	}
}

/* ioregress(1) lists every command and the global options; every page in harness/man is one of them. */
static void test_main_page_lists_commands_and_global_options(void)
{
	static char terms[1 << 16];
	const char *page = "harness/man/ioregress.1.scd";
	term_lines(terms, sizeof(terms), page);
	for (size_t c = 0; c < ior_command_count; c++)
		CU_ASSERT_TRUE(documents(terms, page, ior_commands[c]->name));
	for (const struct ior_cmd_opt *o = ior_cmd_global_options; o->name; o++) {
		CU_ASSERT_TRUE(documents(terms, page, o->name));
		if (o->alias)
			CU_ASSERT_TRUE(documents(terms, page, o->alias));
	}
	check_no_stale_option(terms, page, NULL);
	glob_t g;
	CU_ASSERT_EQUAL_FATAL(glob(ior_test_source_path("harness/man/ioregress-*.1.scd"), 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *name = strrchr(g.gl_pathv[i], '/') + strlen("/ioregress-");
		bool command = false;
		for (size_t c = 0; c < ior_command_count; c++) {
			size_t len = strlen(ior_commands[c]->name);
			command |= !strncmp(name, ior_commands[c]->name, len) && !strcmp(name + len, ".1.scd");
		}
		if (!command)
			fprintf(stderr, "\n  %s is the page of no command", g.gl_pathv[i]);
		CU_ASSERT_TRUE(command);
	}
	CU_ASSERT_EQUAL(g.gl_pathc, ior_command_count);
	globfree(&g);
}

/* Command words that start a command in an example line. */
static size_t commands_in(const char *line)
{
	static const char *const starts[] = { "ioregress ", "git ", "make ", "sudo " };
	size_t n = 0;
	for (const char *p = line; *p; p++)
		for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
			n += (p == line || p[-1] == ' ' || p[-1] == '\'') && !strncmp(p, starts[i], strlen(starts[i]));
	return n;
}

/* Each built man page's EXAMPLES as man prints them: one command a line (scdoc joins the lines
 * of an indented paragraph into one, so each example is a literal block), no "&&", "||" or ";". */
static void test_examples_hold_one_command_a_line(void)
{
	const char *dir = getenv("IOR_BUILD_DIR");
	char pattern[1024];
	snprintf(pattern, sizeof(pattern), "%s/man/ioregress*.[0-9]", dir && *dir ? dir : "build");
	glob_t g;
	if (glob(pattern, 0, NULL, &g) || system("command -v man >/dev/null")) {
		CU_FAIL("no built man pages or no man here: build the man target (scdoc) and install man-db");
		return;
	}
	size_t examples = 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char cmd[2048], line[1024];
		snprintf(cmd, sizeof(cmd), "MANWIDTH=400 man -l '%s' 2>/dev/null", g.gl_pathv[i]);
		FILE *p = popen(cmd, "r");
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		bool in = false;
		while (fgets(line, sizeof(line), p)) {
			line[strcspn(line, "\n")] = '\0';
			if (line[0] && line[0] != ' ')
				in = !strcmp(line, "EXAMPLES");
			size_t indent = strspn(line, " ");
			if (!in || indent < 11)   /* prose is indented 7, literal blocks 11 */
				continue;
			examples++;
			bool joined = commands_in(line + indent) > 1 || strstr(line, "&&") || strstr(line, "||") || strchr(line, ';');
			if (joined)
				fprintf(stderr, "\n  %s: two commands on one example line: %s", g.gl_pathv[i], line + indent);
			CU_ASSERT_FALSE(joined);
		}
		pclose(p);
	}
	printf("\n  %zu example lines in %zu pages", examples, g.gl_pathc);
	CU_ASSERT_TRUE(examples >= 15);
	globfree(&g);
}

/* db/SCHEMA.md says "(now **N**)" and has one upgrade row per version up to N. */
static void test_schema_md_is_at_the_code_version(void)
{
	FILE *f = fopen(ior_test_source_path("db/SCHEMA.md"), "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	static char text[1 << 17];
	size_t len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[len] = '\0';
	const char *now = strstr(text, "(now **");
	CU_ASSERT_PTR_NOT_NULL_FATAL(now);
	int version = atoi(now + strlen("(now **"));
	if (version != IOR_DB_SCHEMA_VERSION)
		fprintf(stderr, "\n  db/SCHEMA.md says version %d, db/db.h has %d", version, IOR_DB_SCHEMA_VERSION);
	CU_ASSERT_EQUAL(version, IOR_DB_SCHEMA_VERSION);
	for (int v = 1; v <= IOR_DB_SCHEMA_VERSION; v++) {
		char row[16];
		snprintf(row, sizeof(row), "\n| %d | ", v);
		bool listed = strstr(text, row) != NULL;
		if (!listed)
			fprintf(stderr, "\n  db/SCHEMA.md has no upgrade row for version %d", v);
		CU_ASSERT_TRUE(listed);
	}
}

/* The paragraph under a page's "*--metric*" term: the term's line and the indented lines after it. */
static char *metric_paragraph(const char *relative)
{
	char *text = ior_test_read_file(ior_test_source_path(relative), NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	char *start = strstr(text, "\n*--metric*");
	if (!start)
		fprintf(stderr, "\n  %s: no *--metric* term", relative);
	CU_ASSERT_PTR_NOT_NULL_FATAL(start);
	char *end = strstr(start + 1, "\n\n");
	char *out = strndup(start + 1, end ? (size_t)(end - start - 1) : strlen(start + 1));
	free(text);
	return out;
}

/* ioregress-check(1) lists every metric of measure/metric.h's table in bold, and the other pages
 * whose commands take --metric send the reader there: a metric added to the table and not to the
 * page fails here. */
static void test_metric_pages_list_every_metric(void)
{
	char *check = metric_paragraph("harness/man/ioregress-check.1.scd");
	for (int m = 0; m < IOR_METRIC_COUNT; m++) {
		char bold[80];
		snprintf(bold, sizeof(bold), "*%s*", ior_metric_info((enum ior_metric)m)->name);
		bool listed = strstr(check, bold) != NULL;
		if (!listed)
			fprintf(stderr, "\n  ioregress-check.1.scd: --metric does not list %s", bold);
		CU_ASSERT_TRUE(listed);
	}
	free(check);
	const char *others[] = { "harness/man/ioregress-compare.1.scd", "harness/man/ioregress-report.1.scd",
				 "harness/man/ioregress-vm.1.scd" };
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		char *para = metric_paragraph(others[i]);
		bool refers = strstr(para, "*ioregress-check*(1)") != NULL;
		if (!refers)
			fprintf(stderr, "\n  %s: --metric does not refer to *ioregress-check*(1)", others[i]);
		CU_ASSERT_TRUE(refers);
		free(para);
	}
}

/* The guide's packaged-kernel journey (docs/bisecting.md): its one-cell matrix parses to one
 * device and one engine (so the bisection's measure is that cell), its commands are bisect start
 * --kernels with full package names, good first and bad last, and it names the answer for a
 * kernel that does not boot in the words `bisect run` prints. */
static void test_guide_packaged_kernel_journey(void)
{
	char *text = ior_test_read_file(ior_test_source_path("docs/bisecting.md"), NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	const char *section = strstr(text, "### Packaged kernels: `bisect start --kernels`");
	CU_ASSERT_PTR_NOT_NULL_FATAL(section);
	const char *end = strstr(section + 4, "\n### ");
	const char *ini = strstr(section, "```ini\n");
	CU_ASSERT_FATAL(ini && (!end || ini < end));
	ini += strlen("```ini\n");
	const char *close = strstr(ini, "```");
	CU_ASSERT_PTR_NOT_NULL_FATAL(close);
	char *matrix = strndup(ini, (size_t)(close - ini));
	struct ior_matrix *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_matrix_parse_string(&m, "docs/bisecting.md one-cell.ini", matrix)), 0);
	CU_ASSERT_EQUAL(m->ndevices, 1);
	CU_ASSERT_EQUAL(m->nengines, 1);
	ior_matrix_free(m);
	free(matrix);
	const char *start = strstr(section, "    ioregress bisect start --kernels linux-image-");
	CU_ASSERT(start && (!end || start < end));
	CU_ASSERT_PTR_NOT_NULL(strstr(section, "    ioregress bisect run --matrix one-cell.ini"));
	CU_ASSERT_PTR_NOT_NULL(strstr(section, "`first kernel that does not boot: PACKAGE`"));
	free(text);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_matrix_page_has_every_key_of_every_section_and_engine),
		IOR_TEST(test_a_missing_or_extra_key_is_caught),
		IOR_TEST(test_each_command_page_has_every_option),
		IOR_TEST(test_main_page_lists_commands_and_global_options),
		IOR_TEST(test_schema_md_is_at_the_code_version),
		IOR_TEST(test_examples_hold_one_command_a_line),
		IOR_TEST(test_metric_pages_list_every_metric),
		IOR_TEST(test_guide_packaged_kernel_journey),
		IOR_TEST_END,
	};
	return ior_test_run("docs", tests);
}
