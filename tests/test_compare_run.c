/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The seed-loop example on real loop stacks (tmpfs > loop, and a loop nested in it), scaled down:
 * the report answers the comparisons the matrix declares. */
#include "tests/suite.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char output[1 << 17], errors[1 << 16];

static bool says(const char *text)
{
	if (strstr(output, text))
		return true;
	fprintf(stderr, "missing from output: %s\n--- output ---\n%s--- errors ---\n%s", text, output, errors);
	return false;
}

/* matrix/examples/seed-loop.ini with every occurrence of from replaced by to. */
static void replace_all(char *text, size_t cap, const char *from, const char *to)
{
	char *p = text;
	while ((p = strstr(p, from))) {
		size_t lf = strlen(from), lt = strlen(to), rest = strlen(p + lf);
		if (strlen(text) - lf + lt + 1 > cap)
			return;
		memmove(p + lt, p + lf, rest + 1);
		memcpy(p, to, lt);
		p += lt;
	}
}

/* The example as written, with 16 MiB written per repetition instead of 256 and files to fit:
 * the cells, the stacks, the five repetitions and the declared comparisons are the example's. */
static const char *scaled_seed_loop(void)
{
	static char text[16384];
	FILE *f = fopen(ior_test_source_path("matrix/examples/seed-loop.ini"), "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "compare = engine: tmpfs-sync-each nested-sync-each"));
	replace_all(text, sizeof(text), "count=256", "count=16");
	replace_all(text, sizeof(text), "backing_size = 320M", "backing_size = 96M");
	replace_all(text, sizeof(text), "size = 300M", "size = 64M");
	char dir[4200];
	snprintf(dir, sizeof(dir), "loop = 16M\nbacking_dir = %s", ior_test_tmpdir());
	replace_all(text, sizeof(text), "loop = 16M", dir);
	return ior_test_write_file("seed-loop.ini", text);
}

static void test_seed_loop_answers_its_comparisons(void)
{
	char db[4096], file[4096];
	snprintf(db, sizeof(db), "%s/seed-loop.db", ior_test_tmpdir());
	snprintf(file, sizeof(file), "%s", scaled_seed_loop());
	int status = ior_test_ioregress((char *[]){ "--db", db, "--quiet", "run", file, NULL }, output, sizeof(output),
					errors, sizeof(errors));
	CU_ASSERT_EQUAL_FATAL(status, 0);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM samples"), 20);
	/* interleaved: each repetition stored with its round, so the comparisons pair by round */
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM samples WHERE round IS NOT NULL"), 20);
	CU_ASSERT_EQUAL(ior_test_ioregress((char *[]){ "--db", db, "report", NULL }, output, sizeof(output), errors,
					   sizeof(errors)), 0);
	/* both questions come first, each with a sentence and its verdict row on 5 against 5 samples */
	const char *q = strstr(output, "declared comparisons:\nengine: tmpfs-sync-each (reference) against nested-sync-each (");
	CU_ASSERT_TRUE(q == output);
	CU_ASSERT_TRUE(says("engine: tmpfs-sync-end (reference) against nested-sync-end ("));
	CU_ASSERT_TRUE(says("seed-loop.ini:"));
	CU_ASSERT_PTR_NULL(strstr(output, "no answer: no cell was measured on both"));
	CU_ASSERT_TRUE(says("value         5   5"));
	CU_ASSERT_TRUE(says("paired by round (5 rounds of one run)"));
	/* the same answer as compare gives for the question */
	char report[sizeof(output)];
	snprintf(report, sizeof(report), "%s", output);
	status = ior_test_ioregress((char *[]){ "--db", db, "compare", "--by", "engine", "tmpfs-sync-each", "nested-sync-each",
						"--metric", "value", NULL }, output, sizeof(output), errors, sizeof(errors));
	CU_ASSERT_TRUE(status == 0 || status == 1 || status == 125);
	const char *row = strstr(output, "scratch      none         value");
	CU_ASSERT_PTR_NOT_NULL_FATAL(row);
	char line[512];
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(row, "\n"), row);
	CU_ASSERT_PTR_NOT_NULL(strstr(report, line));
	fprintf(stderr, "%s", report);
}

int main(void)
{
	ior_test_require_root("builds loop stacks over tmpfs through the ioregress binary");
	static const struct ior_test tests[] = {
		IOR_TEST(test_seed_loop_answers_its_comparisons),
		IOR_TEST_END,
	};
	return ior_test_run("compare_run", tests);
}
