/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Replays every seed and every saved crash of tests/fuzz/corpus/ through the fuzz targets, so what
 * the fuzzer once found stays fixed. */
#include "tests/fuzz/targets.h"
#include "tests/suite.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file; *size its length. NULL when unreadable. */
static uint8_t *read_all(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);
	for (size_t n; buf && (n = fread(buf + len, 1, cap - len, f)) > 0;) {
		len += n;
		if (len == cap) {
			uint8_t *grown = realloc(buf, cap *= 2);
			if (!grown)
				free(buf);
			buf = grown;
		}
	}
	fclose(f);
	*size = len;
	return buf;
}

static int not_hidden(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* Every file of the target's corpus; at least min_files of them, and both
 * accepted and refused inputs, so a corpus of only one kind shows. */
static void replay(const char *target, size_t min_files)
{
	const struct ior_fuzz_target *t = ior_fuzz_targets;
	while (t->name && strcmp(t->name, target) != 0)
		t++;
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->name);
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", ior_test_source_path("tests/fuzz/corpus"));
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/%s", target);
	struct dirent **names = NULL;
	int n = scandir(dir, &names, not_hidden, alphasort);
	CU_ASSERT_FATAL(n >= 0);
	size_t accepted = 0, refused = 0;
	for (int i = 0; i < n; i++) {
		char path[8192];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		size_t size = 0;
		uint8_t *data = read_all(path, &size);
		CU_ASSERT_PTR_NOT_NULL(data);
		if (data && t->fn(data, size) != 0) {
			fprintf(stderr, "\n%s: %s: %s\n", target, names[i]->d_name, ior_fuzz_violation());
			CU_FAIL("a promise broken on a corpus file");
		} else if (data) {
			*(ior_fuzz_accepted() ? &accepted : &refused) += 1;
		}
		free(data);
		free(names[i]);
	}
	free(names);
	printf("(%s: %zu accepted, %zu refused) ", target, accepted, refused);
	CU_ASSERT(accepted + refused >= min_files);
	CU_ASSERT(accepted >= 1);
	CU_ASSERT(refused >= 1);
}

static void test_matrix_corpus(void)
{
	replay("matrix", 6);
}

static void test_csv_corpus(void)
{
	replay("csv", 6);
}

static void test_fio_json_corpus(void)
{
	replay("fio_json", 4);
}

static void test_db_open_corpus(void)
{
	replay("db_open", 4);
}

static void test_matrix_include_corpus(void)
{
	replay("matrix_include", 4);
}

static void test_measure_corpus(void)
{
	replay("measure", 4);
}

static void test_artifact_corpus(void)
{
	replay("artifact", 4);
}

static void test_bisect_replay_corpus(void)
{
	replay("bisect_replay", 4);
}

/* The checks themselves must be able to fail: a file changed behind a
 * refusal is told apart from one left alone. */
static void test_same_detects_change(void)
{
	const uint8_t bytes[] = "not a database at all";
	const char *path = ior_fuzz_path("same.bin");
	CU_ASSERT_EQUAL_FATAL(ior_fuzz_write(path, bytes, sizeof(bytes)), 0);
	CU_ASSERT_EQUAL(ior_fuzz_same(path, bytes, sizeof(bytes)), 1);
	CU_ASSERT_EQUAL(ior_fuzz_same(path, bytes, sizeof(bytes) - 1), 0);
	uint8_t other[sizeof(bytes)];
	memcpy(other, bytes, sizeof(bytes));
	other[3] ^= 1;
	CU_ASSERT_EQUAL(ior_fuzz_same(path, other, sizeof(other)), 0);
	CU_ASSERT_EQUAL(ior_fuzz_same(ior_fuzz_path("missing.bin"), bytes, sizeof(bytes)), -1);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_matrix_corpus),
		IOR_TEST(test_csv_corpus),
		IOR_TEST(test_fio_json_corpus),
		IOR_TEST(test_db_open_corpus),
		IOR_TEST(test_matrix_include_corpus),
		IOR_TEST(test_measure_corpus),
		IOR_TEST(test_artifact_corpus),
		IOR_TEST(test_bisect_replay_corpus),
		IOR_TEST(test_same_detects_change),
		IOR_TEST_END,
	};
	return ior_test_run("fuzz_replay", tests);
}
