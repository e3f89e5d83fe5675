/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bash completion the build installs, run in bash against the command descriptors: every
 * command, exactly each command's options, subcommands, the choices of choice options, matrix and
 * CSV files, engine names from matrices, kernel packages from apt-cache. */
#include "db/db.h"
#include "engines/engine.h"
#include "harness/command_list.h"
#include "harness/completion.h"
#include "measure/metric.h"
#include "tests/suite.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char script[PATH_MAX];   /* the completion file under test */
static char words[8192];    /* what the last completion offered, one per line */

/* Completes the command line given as words (the last one is the word under the cursor) the way
 * bash does on TAB, in the test directory; returns bash's exit status. */
static int complete(const char *first, ...)
{
	char driver[4096];
	int len = snprintf(driver, sizeof(driver),
			   "cd '%s' || exit 9\nsource '%s' || exit 8\nPATH=\"$PWD/bin:$PATH\"\nCOMP_WORDS=(",
			   ior_test_tmpdir(), script);
	va_list ap;
	va_start(ap, first);
	int n = 0;
	for (const char *w = first; w; w = va_arg(ap, const char *), n++)
		len += snprintf(driver + len, sizeof(driver) - (size_t)len, " '%s'", w);
	va_end(ap);
	snprintf(driver + len, sizeof(driver) - (size_t)len,
		 ")\nCOMP_CWORD=%d\n_ioregress\nprintf '%%s\\n' \"${COMPREPLY[@]}\"\n", n - 1);
	const char *path = ior_test_write_file("complete.sh", driver);
	char cmd[1200];
	snprintf(cmd, sizeof(cmd), "bash --norc --noprofile '%s'", path);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	size_t got = fread(words, 1, sizeof(words) - 1, p);
	words[got] = '\0';
	int status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool offered(const char *word)
{
	size_t len = strlen(word);
	for (const char *p = words; (p = strstr(p, word)); p += len)
		if ((p == words || p[-1] == '\n') && p[len] == '\n')
			return true;
	return false;
}

static size_t count_offered(void)
{
	size_t n = 0;
	for (const char *p = words; *p; p++)
		n += *p == '\n';
	return n == 1 && words[0] == '\n' ? 0 : n; /* printf of an empty array prints one empty line */
}

/* Each row's name and alias is offered; returns how many that is. */
static size_t expect_rows(const char *cmd, const struct ior_cmd_opt *rows)
{
	size_t n = 0;
	for (const struct ior_cmd_opt *o = rows; o && o->name; o++, n++) {
		if (!offered(o->name))
			fprintf(stderr, "\n  'ioregress %s -<TAB>' does not offer %s", cmd, o->name);
		CU_ASSERT_TRUE(offered(o->name));
		if (o->alias) {
			CU_ASSERT_TRUE(offered(o->alias));
			n++;
		}
	}
	return n;
}

static void test_every_command_is_offered(void)
{
	CU_ASSERT_EQUAL_FATAL(complete("ioregress", "", NULL), 0);
	for (size_t c = 0; c < ior_command_count; c++)
		CU_ASSERT_TRUE(offered(ior_commands[c]->name));
	CU_ASSERT_TRUE(offered("help"));
	CU_ASSERT_EQUAL(count_offered(), ior_command_count + 1);
	/* a prefix narrows it; the global --db and its value before the command are skipped */
	CU_ASSERT_EQUAL(complete("ioregress", "--db", "x.db", "rep", NULL), 0);
	CU_ASSERT_TRUE(offered("report"));
	CU_ASSERT_EQUAL(count_offered(), 1);
	CU_ASSERT_EQUAL(complete("ioregress", "--db", "=", "x.db", "sch", NULL), 0);
	CU_ASSERT_TRUE(offered("schedulers"));
	CU_ASSERT_EQUAL(complete("ioregress", "-", NULL), 0);
	CU_ASSERT_TRUE(offered("--version"));
	CU_ASSERT_EQUAL(count_offered(), expect_rows("", ior_cmd_global_options) + 1);
}

/* `help` takes the topics main.c knows: engines, engine NAME (every registered engine), a command. */
static void test_help_topics(void)
{
	CU_ASSERT_EQUAL_FATAL(complete("ioregress", "help", "", NULL), 0);
	CU_ASSERT_TRUE(offered("engines") && offered("engine"));
	for (size_t c = 0; c < ior_command_count; c++)
		CU_ASSERT_TRUE(offered(ior_commands[c]->name));
	CU_ASSERT_EQUAL(count_offered(), ior_command_count + 2);
	CU_ASSERT_EQUAL_FATAL(complete("ioregress", "help", "engine", "", NULL), 0);
	for (size_t e = 0; e < ior_engine_count(); e++)
		CU_ASSERT_TRUE(offered(ior_engine_at(e)->name));
	CU_ASSERT_EQUAL(count_offered(), ior_engine_count());
	CU_ASSERT_EQUAL(complete("ioregress", "help", "engine", "hd", NULL), 0);
	CU_ASSERT_TRUE(offered("hdparm"));
	CU_ASSERT_EQUAL(count_offered(), 1);
	CU_ASSERT_EQUAL(complete("ioregress", "help", "engines", "", NULL), 0);
	CU_ASSERT_EQUAL(count_offered(), 0);
}

/* Exactly the options the command's parser takes, and the global ones: nothing stale, nothing missing.
 * A command with a subcommand ("vm run") or several ("bisect start|run|...") offers them first,
 * and its options after one. */
static void test_each_command_offers_exactly_its_options(void)
{
	for (size_t c = 0; c < ior_command_count; c++) {
		const struct ior_command *cmd = ior_commands[c];
		if (cmd->subs) {
			CU_ASSERT_EQUAL_FATAL(complete("ioregress", cmd->name, "", NULL), 0);
			size_t n = 0;
			for (const struct ior_cmd_sub *s = cmd->subs; s->name; s++, n++) {
				if (!offered(s->name))
					fprintf(stderr, "\n  'ioregress %s <TAB>' does not offer %s", cmd->name, s->name);
				CU_ASSERT_TRUE(offered(s->name));
			}
			CU_ASSERT_EQUAL(count_offered(), n);
		}
		/* each subcommand offers its own rows beside the command's */
		for (const struct ior_cmd_sub *s = cmd->subs; !cmd->subs || s->name; s++) {
			if (cmd->subs) {
				CU_ASSERT_EQUAL_FATAL(complete("ioregress", cmd->name, s->name, "-", NULL), 0);
			} else {
				CU_ASSERT_EQUAL_FATAL(complete("ioregress", cmd->name, "-", NULL), 0);
			}
			size_t want = expect_rows(cmd->name, cmd->options) + expect_rows(cmd->name, cmd->subs ? s->options : NULL) +
				      expect_rows(cmd->name, ior_cmd_global_options);
			if (count_offered() != want)
				fprintf(stderr, "\n  'ioregress %s %s -<TAB>' offers %zu words, the rows have %zu:\n%s", cmd->name,
					cmd->subs ? s->name : "", count_offered(), want, words);
			CU_ASSERT_EQUAL(count_offered(), want);
			if (!cmd->subs)
				break;
		}
	}
}

/* After a choice option its values, after a text option nothing (not the option list). */
static void test_values_follow_their_option(void)
{
	size_t choices = 0;
	for (size_t c = 0; c < ior_command_count; c++) {
		const struct ior_cmd_opt *sets[16];
		for (size_t r = 0, nsets = ior_cmd_row_sets(ior_commands[c], sets, 16); r < nsets; r++)
			for (const struct ior_cmd_opt *o = sets[r]; o && o->name; o++) {
				if (o->value != IOR_CMD_CHOICE)
					continue;
				CU_ASSERT_EQUAL_FATAL(complete("ioregress", ior_commands[c]->name, o->name, "", NULL), 0);
				char copy[256];
				snprintf(copy, sizeof(copy), "%s", o->choices);
				for (char *v = strtok(copy, " "); v; v = strtok(NULL, " ")) {
					CU_ASSERT_TRUE(offered(v));
					choices++;
				}
			}
	}
	CU_ASSERT_TRUE(choices >= 2); /* report --format text|json at least */
	CU_ASSERT_EQUAL(complete("ioregress", "report", "--format", "", NULL), 0);
	CU_ASSERT_TRUE(offered("text") && offered("json") && offered("html") && offered("csv"));
	CU_ASSERT_EQUAL(count_offered(), 7);  /* text md html json junit csv kcidb */
	CU_ASSERT_EQUAL(complete("ioregress", "report", "--format", "=", "j", NULL), 0);
	CU_ASSERT_TRUE(offered("json") && offered("junit"));
	CU_ASSERT_EQUAL(count_offered(), 2);
	CU_ASSERT_EQUAL(complete("ioregress", "check", "--baseline", "", NULL), 0);
	CU_ASSERT_EQUAL(count_offered(), 0);
}

/* run's operand is a matrix: .ini files and directories to walk into, not the CSV beside them;
 * import's are CSV files. */
static void test_matrix_and_csv_files(void)
{
	ior_test_write_file("seed.ini", "[matrix]\n");
	ior_test_write_file("samples.csv", "host,kernel,offered\n");
	char dir[1024];
	snprintf(dir, sizeof(dir), "mkdir -p '%s/matrices'", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(system(dir), 0);
	CU_ASSERT_EQUAL(complete("ioregress", "run", "", NULL), 0);
	CU_ASSERT_TRUE(offered("seed.ini"));
	CU_ASSERT_TRUE(offered("matrices"));
	CU_ASSERT_FALSE(offered("samples.csv"));
	CU_ASSERT_EQUAL(complete("ioregress", "run", "--set", "matrix.repetitions=5", "se", NULL), 0);
	CU_ASSERT_TRUE(offered("seed.ini"));
	CU_ASSERT_EQUAL(count_offered(), 1);
	CU_ASSERT_EQUAL(complete("ioregress", "import", "", NULL), 0);
	CU_ASSERT_TRUE(offered("samples.csv"));
	CU_ASSERT_FALSE(offered("seed.ini"));
}

/* A command with a subcommand, written to a file of its own: the subcommand first, then the rows. */
static void test_a_subcommand_is_offered_first(void)
{
	static const struct ior_cmd_opt rows[] = {
		{ .name = "--boots", .value = IOR_CMD_NUMBER, .arg = "N" },
		{ .name = "--accel", .value = IOR_CMD_CHOICE, .arg = "auto|kvm|tcg", .choices = "auto kvm tcg" },
		{ 0 },
	};
	static const struct ior_cmd_sub run[] = { { .name = "run", .options = rows }, { 0 } };
	static const struct ior_command vm = { .name = "vm", .subs = run, .options = rows + 2 };
	const struct ior_command *const list[] = { &vm, &ior_cmd_report };
	char saved[PATH_MAX];
	snprintf(saved, sizeof(saved), "%s", script);
	snprintf(script, sizeof(script), "%s/sub-completion", ior_test_tmpdir());
	FILE *f = fopen(script, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(ior_completion_bash(f, list, 2), 0);
	fclose(f);
	CU_ASSERT_EQUAL(complete("ioregress", "vm", "", NULL), 0);
	CU_ASSERT_TRUE(offered("run"));
	CU_ASSERT_EQUAL(count_offered(), 1);
	CU_ASSERT_EQUAL(complete("ioregress", "vm", "run", "--", NULL), 0);
	CU_ASSERT_TRUE(offered("--boots") && offered("--accel") && offered("--db"));
	CU_ASSERT_FALSE(offered("--format")); /* report's, not vm's */
	CU_ASSERT_EQUAL(complete("ioregress", "vm", "run", "--accel", "", NULL), 0);
	CU_ASSERT_TRUE(offered("kvm") && offered("tcg") && offered("auto"));
	CU_ASSERT_EQUAL(complete("ioregress", "report", "", NULL), 0); /* no subcommand: its options */
	CU_ASSERT_TRUE(offered("--format"));
	snprintf(script, sizeof(script), "%s", saved);
}

/* bisect's subcommands; engine names from the matrices; kernel packages from apt-cache (a stub
 * here, so the names are known) for vm run's operands and each word after bisect start --kernels. */
static void test_subcommands_engines_and_kernel_packages(void)
{
	CU_ASSERT_EQUAL(complete("ioregress", "bisect", "", NULL), 0);
	CU_ASSERT_TRUE(offered("start") && offered("run") && offered("status") && offered("log") && offered("reset") &&
		       offered("replay"));
	CU_ASSERT_FALSE(offered("--repo"));
	CU_ASSERT_EQUAL(complete("ioregress", "bisect", "st", NULL), 0);
	CU_ASSERT_EQUAL(count_offered(), 2);   /* start status */

	ior_test_write_file("engines.ini", "[matrix]\n[engine seqread]\ntype = hdparm\n[engine rand-4k] ; 4k\ntype = aio\n");
	ior_test_write_file("more.ini", "[engine nested-sync-each]\ntype = loop\n");
	CU_ASSERT_EQUAL(complete("ioregress", "report", "--engine", "", NULL), 0);
	CU_ASSERT_TRUE(offered("seqread") && offered("rand-4k") && offered("nested-sync-each"));
	CU_ASSERT_EQUAL(complete("ioregress", "check", "--engine", "r", NULL), 0);
	CU_ASSERT_TRUE(offered("rand-4k"));
	CU_ASSERT_EQUAL(count_offered(), 1);
	/* a matrix named on the line is the one read */
	CU_ASSERT_EQUAL(complete("ioregress", "--db", "x.db", "compare", "more.ini", "--engine", "", NULL), 0);
	CU_ASSERT_TRUE(offered("nested-sync-each"));
	CU_ASSERT_EQUAL(count_offered(), 1);

	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/bin'", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	const char *stub = ior_test_write_file("bin/apt-cache",
		"#!/bin/sh\n[ \"$1\" = pkgnames ] || exit 100\n"
		"printf '%s\\n' linux-image-6.1.0-47-cloud-amd64 linux-image-6.1.0-47-cloud-amd64-dbg \\\n"
		"  linux-image-6.12.57+deb13-cloud-amd64 linux-headers-6.1.0-47-common linux-image-cloud-amd64 \\\n"
		"  linux-image-6.12-amd64-signed-template linux-image-6.12.57+deb13-amd64-dbgsym | grep \"^$2\"\n");
	snprintf(cmd, sizeof(cmd), "chmod +x '%s'", stub);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	CU_ASSERT_EQUAL(complete("ioregress", "vm", "run", "", NULL), 0);
	CU_ASSERT_TRUE(offered("linux-image-6.1.0-47-cloud-amd64") && offered("linux-image-6.12.57+deb13-cloud-amd64"));
	CU_ASSERT_EQUAL(count_offered(), 2);   /* not what vm run refuses: debug symbols, a metapackage, a template */
	CU_ASSERT_FALSE(offered("linux-image-cloud-amd64") || offered("linux-image-6.12-amd64-signed-template"));
	CU_ASSERT_EQUAL(complete("ioregress", "vm", "run", "--boots", "3", "linux-image-6.12", NULL), 0);
	CU_ASSERT_TRUE(offered("linux-image-6.12.57+deb13-cloud-amd64"));
	CU_ASSERT_EQUAL(count_offered(), 1);
	CU_ASSERT_EQUAL(complete("ioregress", "bisect", "start", "--kernels", "", NULL), 0);
	CU_ASSERT_EQUAL(count_offered(), 2);
	CU_ASSERT_EQUAL(complete("ioregress", "bisect", "start", "--kernels", "linux-image-6.1.0-47-cloud-amd64", "linux-image-6.1",
				 NULL), 0);
	CU_ASSERT_TRUE(offered("linux-image-6.12.57+deb13-cloud-amd64"));
	CU_ASSERT_EQUAL(complete("ioregress", "bisect", "start", "--kernels", "a", "--", NULL), 0);
	CU_ASSERT_TRUE(offered("--repo"));   /* an option ends the list */
	CU_ASSERT_EQUAL(complete("ioregress", "bisect", "start", "--bad", "", NULL), 0);
	CU_ASSERT_EQUAL(count_offered(), 0);   /* a revision: nothing to offer */
}

/* --metric offers the metric table's names (a list after a comma, all alone, vm run's one name
 * without all); --set the matrix's, devices' and engines' keys for the sections of the matrix on the
 * line; --baseline, --candidate and --kernel the releases of the database (--db, else
 * ./ioregress.db). */
static void test_metrics_set_keys_and_releases(void)
{
	CU_ASSERT_EQUAL_FATAL(complete("ioregress", "report", "--metric", "", NULL), 0);
	for (int m = 0; m < IOR_METRIC_COUNT; m++)
		CU_ASSERT_TRUE(offered(ior_metric_info((enum ior_metric)m)->name));
	CU_ASSERT_TRUE(offered("all"));
	CU_ASSERT_EQUAL(count_offered(), IOR_METRIC_COUNT + 1);
	CU_ASSERT_EQUAL(complete("ioregress", "check", "--metric", "value,lat_p9", NULL), 0);
	CU_ASSERT_TRUE(offered("value,lat_p99_us") && offered("value,lat_p999_us"));
	CU_ASSERT_EQUAL(count_offered(), 2);
	CU_ASSERT_EQUAL(complete("ioregress", "vm", "run", "--metric", "", NULL), 0);
	CU_ASSERT_FALSE(offered("all"));
	CU_ASSERT_EQUAL(count_offered(), IOR_METRIC_COUNT);

	ior_test_write_file("keys.ini", "[matrix]\n[device scratch]\nloop = 1G\n[engine r4k]\ntype = aio\n");
	CU_ASSERT_EQUAL_FATAL(complete("ioregress", "run", "keys.ini", "--set", "", NULL), 0);
	CU_ASSERT_TRUE(offered("matrix.repetitions=") && offered("matrix.drop_caches=") && offered("defaults.iodepth="));
	CU_ASSERT_TRUE(offered("engine.r4k.bs=") && offered("engine.r4k.rw=") && offered("device.scratch.loop="));
	CU_ASSERT_FALSE(offered("engine.r4k.type=") || offered("device.scratch.bs=") || offered("matrix.bs="));
	CU_ASSERT_EQUAL(complete("ioregress", "run", "keys.ini", "-o", "engine.r4k.iod", NULL), 0);
	CU_ASSERT_TRUE(offered("engine.r4k.iodepth=") && offered("engine.r4k.iodepth_batch=") &&
		       offered("engine.r4k.iodepth_batch_complete="));
	CU_ASSERT_EQUAL(count_offered(), 3);

	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "command -v sqlite3 >/dev/null");
	if (system(cmd) != 0)
		return;   /* the releases come from sqlite3's reading of the database: none without it */
	struct ior_db *db;
	char path[4200];
	snprintf(path, sizeof(path), "%s/kernels.db", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, path)), 0);
	const char *releases[] = { "6.1.0-47-cloud-amd64", "6.12.57+deb13-cloud-amd64", "2.6.33-rc5" };
	for (size_t i = 0; i < 3; i++) {
		int64_t id;
		struct ior_db_kernel k = { .release = releases[i] };
		CU_ASSERT_EQUAL(ior_db_kernel_get(db, &k, &id), 0);
	}
	ior_db_free(db);
	CU_ASSERT_EQUAL(complete("ioregress", "--db", "kernels.db", "check", "--baseline", "", NULL), 0);
	for (size_t i = 0; i < 3; i++)
		CU_ASSERT_TRUE(offered(releases[i]));
	CU_ASSERT_EQUAL(count_offered(), 3);
	CU_ASSERT_EQUAL(complete("ioregress", "--db", "kernels.db", "report", "--kernel", "6.1.", NULL), 0);
	CU_ASSERT_TRUE(offered("6.1.0-47-cloud-amd64"));
	CU_ASSERT_EQUAL(count_offered(), 1);
	CU_ASSERT_EQUAL(complete("ioregress", "--db=kernels.db", "compare", "--kernel", "2", NULL), 0);
	CU_ASSERT_EQUAL(count_offered(), 1);
	/* no --db: ./ioregress.db, which is not there */
	CU_ASSERT_EQUAL(complete("ioregress", "report", "--candidate", "", NULL), 0);
	CU_ASSERT_EQUAL(count_offered(), 0);
}

/* The installed file is what the descriptors give today, not a stale copy. */
static void test_build_file_is_current(void)
{
	char *now = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&now, &len);
	CU_ASSERT_EQUAL_FATAL(ior_completion_bash(f, ior_commands, ior_command_count), 0);
	fclose(f);
	FILE *built = fopen(script, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(built);
	char *text = calloc(1, len + 2);
	size_t got = fread(text, 1, len + 1, built);
	fclose(built);
	CU_ASSERT_EQUAL(got, len);
	CU_ASSERT_TRUE(got == len && memcmp(text, now, len) == 0);
	free(text);
	free(now);
}

int main(void)
{
	const char *dir = getenv("IOR_BUILD_DIR");
	char relative[1024];
	snprintf(relative, sizeof(relative), "%s/completion/ioregress", dir && *dir ? dir : "build");
	if (!realpath(relative, script)) /* absolute: the completions run in the test directory */
		ior_test_skip("no completion file at %s (build the 'completion' target)", relative);
	if (system("command -v bash >/dev/null") != 0)
		ior_test_skip("no bash here");
	static const struct ior_test tests[] = {
		IOR_TEST(test_every_command_is_offered),
		IOR_TEST(test_each_command_offers_exactly_its_options),
		IOR_TEST(test_help_topics),
		IOR_TEST(test_values_follow_their_option),
		IOR_TEST(test_matrix_and_csv_files),
		IOR_TEST(test_a_subcommand_is_offered_first),
		IOR_TEST(test_subcommands_engines_and_kernel_packages),
		IOR_TEST(test_metrics_set_keys_and_releases),
		IOR_TEST(test_build_file_is_current),
		IOR_TEST_END,
	};
	return ior_test_run("completion", tests);
}
