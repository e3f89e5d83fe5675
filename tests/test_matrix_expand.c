/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for what a matrix expands to: [defaults] inheritance and its order, sweeps with their names
 * and count, the cell limit, includes, and --set reaching defaults and sweeps. */
#include "common/error.h"
#include "matrix/matrix.h"
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ior_matrix *parse(const char *name, const char *text)
{
	struct ior_matrix *m = NULL;
	if (ior_matrix_parse_string(&m, name, text) != IOR_OK)
		fprintf(stderr, "\nparse: %s\n", ior_error_last());
	return m;
}

static const struct ior_matrix_engine *engine(const struct ior_matrix *m, const char *name)
{
	for (size_t i = 0; i < m->nengines; i++)
		if (strcmp(m->engines[i].name, name) == 0)
			return &m->engines[i];
	fprintf(stderr, "\nno engine '%s'\n", name);
	return NULL;
}

/* True when the engine's canonical parameters hold key=value. */
static bool has(const struct ior_matrix *m, const char *name, const char *kv)
{
	const struct ior_matrix_engine *e = engine(m, name);
	if (!e)
		return false;
	char want[128];
	snprintf(want, sizeof(want), ",%s,", kv);
	char params[1024];
	snprintf(params, sizeof(params), ",%s,", e->params);
	if (strstr(params, want))
		return true;
	fprintf(stderr, "\n%s: no %s in %s\n", name, kv, e->params);
	return false;
}

static void expect_error(const char *name, const char *text, const char *message)
{
	struct ior_matrix *m = (struct ior_matrix *)1;
	CU_ASSERT_EQUAL(ior_matrix_parse_string(&m, name, text), IOR_EINVALID);
	CU_ASSERT_PTR_NULL(m);
	if (!strstr(ior_error_last(), message))
		fprintf(stderr, "\n  want: %s\n  got:  %s\n", message, ior_error_last());
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), message));
}

static const char device[] = "[device d]\nloop = 1G\ndestructive = yes\n";

/* An engine's own key beats its type's [defaults TYPE], which beats [defaults]; [defaults]
 * reaches every type that has the key and skips those that do not. */
static void test_defaults_inherit_in_order(void)
{
	char text[1024];
	snprintf(text, sizeof(text),
		 "[defaults]\nruntime = 2s\nbs = 8k\n"
		 "[defaults aio]\nbs = 16k\niodepth = 4\n"
		 "%s"
		 "[engine a]\ntype = aio\n"
		 "[engine b]\ntype = aio\nbs = 32k\n"
		 "[engine u]\ntype = uring\n"
		 "[engine h]\ntype = hdparm\n", device);
	struct ior_matrix *m = parse("defaults.ini", text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(m->nengines, 4);
	CU_ASSERT_TRUE(has(m, "a", "bs=16K") && has(m, "a", "iodepth=4") && has(m, "a", "runtime=2s"));
	CU_ASSERT_TRUE(has(m, "b", "bs=32K") && has(m, "b", "iodepth=4"));
	CU_ASSERT_TRUE(has(m, "u", "bs=8K") && has(m, "u", "iodepth=1") && has(m, "u", "runtime=2s"));
	CU_ASSERT_TRUE(has(m, "h", "bs=8K")); /* hdparm has bs, not runtime */
	CU_ASSERT_STRING_EQUAL(m->warnings, "");
	ior_matrix_free(m);
}

/* A [defaults] key no engine type has is an error at its line; one that no engine of this
 * matrix has is a warning; a [defaults TYPE] key its type lacks, or an unknown type, an error. */
static void test_defaults_bad_and_unused_keys(void)
{
	char text[1024];
	snprintf(text, sizeof(text), "[defaults]\n\nblocksize = 4k\n%s[engine a]\ntype = aio\n", device);
	expect_error("bad.ini", text, "bad.ini:3: blocksize: no engine type has this key");
	snprintf(text, sizeof(text), "[defaults aoi]\nbs = 4k\n%s[engine a]\ntype = aio\n", device);
	expect_error("type.ini", text, "type.ini:1: [defaults aoi]: unknown engine type 'aoi' (did you mean 'aio'?");
	snprintf(text, sizeof(text), "[defaults aio]\ncount = 4\n%s[engine a]\ntype = aio\n", device);
	expect_error("typed.ini", text, "typed.ini:2: count: unknown key");
	snprintf(text, sizeof(text), "[defaults]\ntype = aio\n%s[engine a]\ntype = aio\n", device);
	expect_error("typekey.ini", text, "typekey.ini:2: type: a [defaults] section sets no type");

	snprintf(text, sizeof(text), "[defaults]\ncount = 4\n%s[engine a]\ntype = aio\n", device);
	struct ior_matrix *m = parse("unused.ini", text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_STRING_EQUAL(m->warnings, "unused.ini:2: count: no engine of this matrix has this key, so it changes nothing\n");
	ior_matrix_free(m);
}

/* Several values of a non-text key sweep it: one engine per combination, the last key fastest,
 * each named after its values; a text key keeps its spaces. */
static void test_sweeps_expand_with_names(void)
{
	char text[1024];
	snprintf(text, sizeof(text),
		 "%s[engine r]\ntype = aio\nrw = randread\nbs = 4k 64k 1M\niodepth = 1 8\n"
		 "[engine l]\ntype = loop\ninner_options = bs=1M count=4\n", device);
	struct ior_matrix *m = parse("sweep.ini", text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(m->nengines, 7);
	static const char *const names[] = { "r[bs=4k,iodepth=1]", "r[bs=4k,iodepth=8]", "r[bs=64k,iodepth=1]",
					     "r[bs=64k,iodepth=8]", "r[bs=1M,iodepth=1]", "r[bs=1M,iodepth=8]", "l" };
	for (size_t i = 0; i < 7; i++) {
		CU_ASSERT_STRING_EQUAL(m->engines[i].name, names[i]);
		CU_ASSERT_STRING_EQUAL(m->engines[i].section, i < 6 ? "r" : "l");
	}
	CU_ASSERT_TRUE(has(m, "r[bs=64k,iodepth=8]", "bs=64K") && has(m, "r[bs=64k,iodepth=8]", "iodepth=8"));
	CU_ASSERT_TRUE(has(m, "l", "inner_options=bs\\=1M count\\=4"));
	ior_matrix_free(m);

	/* a sweep inherited from [defaults] sweeps each engine */
	snprintf(text, sizeof(text), "[defaults]\niodepth = 1 32\n%s[engine a]\ntype = aio\n[engine u]\ntype = uring\n",
		 device);
	m = parse("dsweep.ini", text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(m->nengines, 4);
	CU_ASSERT_PTR_NOT_NULL(engine(m, "u[iodepth=32]"));
	ior_matrix_free(m);

	snprintf(text, sizeof(text), "%s[engine r]\ntype = aio\n\nbs = 4k 4k\n", device);
	expect_error("twice.ini", text, "twice.ini:7: bs: '4k' is listed twice");
	snprintf(text, sizeof(text), "%s[engine r]\ntype = aio\nbs = 4k 3q\n", device);
	expect_error("badvalue.ini", text, "badvalue.ini:6: bs: '3q' is not a size");
}

/* A matrix that expands past max_cells is refused with its count. */
static void test_cell_limit(void)
{
	char text[1024];
	snprintf(text, sizeof(text), "[matrix]\nmax_cells = 5\nschedulers = none bfq\n%s"
		 "[engine r]\ntype = aio\nbs = 4k 8k 16k\n", device);
	expect_error("big.ini", text, "big.ini: the matrix expands to 6 cells (1 devices x 2 schedulers x 3 engines), "
				      "more than max_cells = 5");
	/* the default limit: 10000 */
	snprintf(text, sizeof(text), "%s[engine r]\ntype = aio\nbs = 4k 8k 16k 32k 64k 128k 256k 512k 1M 2M\n"
		 "iodepth = 1 2 3 4 5 6 7 8 9 10\nnumjobs = 1 2 3 4 5 6 7 8 9 10\nrwmixread = 10%% 20%% 30%% 40%% 50%% 60%% 70%% 80%% 90%% 100%%\n"
		 "direct = yes no\n", device);
	expect_error("huge.ini", text, "the matrix expands to 20000 cells (1 devices x 1 schedulers x 20000 engines), "
				       "more than max_cells = 10000");
}

/* include = FILE: relative to the including file, as if written there; a missing file, a cycle
 * and an error inside the included file name where they are. The stored text is what was read. */
static void test_includes(void)
{
	const char *base = ior_test_write_file("base.ini", "[device d]\nloop = 1G\n[defaults]\nruntime = 3s\n");
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", base);
	*strrchr(dir, '/') = '\0';
	char path[4200];
	snprintf(path, sizeof(path), "%s/main.ini", dir);
	struct ior_matrix *m = parse(path, "include = base.ini\n[engine a]\ntype = aio\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(m->ndevices, 1);
	CU_ASSERT_TRUE(has(m, "a", "runtime=3s"));
	CU_ASSERT_PTR_NULL(strstr(m->text, "include"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m->text, "[device d]"));
	/* the stored text parses alone to the same engines (a resumed run needs no included file) */
	struct ior_matrix *again = parse("(stored matrix)", m->text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(again);
	CU_ASSERT_STRING_EQUAL(again->engines[0].params, m->engines[0].params);
	ior_matrix_free(again);
	ior_matrix_free(m);

	/* in [matrix] too */
	m = parse(path, "[matrix]\nrepetitions = 2\ninclude = base.ini\n[engine a]\ntype = aio\n");
	CU_ASSERT_PTR_NOT_NULL(m);
	ior_matrix_free(m);

	expect_error(path, "include = nope.ini\n", "main.ini:1: include: cannot open '");
	ior_test_write_file("a.ini", "include = b.ini\n");
	ior_test_write_file("b.ini", "\ninclude = a.ini\n");
	snprintf(path, sizeof(path), "%s/a.ini", dir);
	expect_error(path, "include = b.ini\n", "b.ini:2: include: '");
	expect_error(path, "include = b.ini\n", "includes itself");
	ior_test_write_file("broken.ini", "[device d]\nloop = 1Q\n");
	snprintf(path, sizeof(path), "%s/main.ini", dir);
	expect_error(path, "include = broken.ini\n[engine a]\ntype = aio\n", "broken.ini:2: loop: '1Q' is not a size");
}

/* --set reaches [defaults] (made when missing), [defaults TYPE] and sweeps; a bad one changes nothing. */
static void test_overrides_reach_defaults_and_sweeps(void)
{
	char text[1024];
	snprintf(text, sizeof(text), "%s[engine r]\ntype = aio\n[engine h]\ntype = hdparm\n", device);
	struct ior_matrix *m = parse("set.ini", text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(ior_matrix_set(m, "defaults.runtime=5s"), IOR_OK);
	CU_ASSERT_TRUE(has(m, "r", "runtime=5s"));
	CU_ASSERT_EQUAL(ior_matrix_set(m, "defaults.aio.iodepth=16"), IOR_OK);
	CU_ASSERT_TRUE(has(m, "r", "iodepth=16"));
	CU_ASSERT_EQUAL(ior_matrix_set(m, "engine.r.bs=4k 1M"), IOR_OK);
	CU_ASSERT_EQUAL(m->nengines, 3);
	CU_ASSERT_TRUE(has(m, "r[bs=1M]", "runtime=5s"));
	/* what a run stores now reads as what runs */
	CU_ASSERT_PTR_NOT_NULL(strstr(m->text, "bs = 4k 1M"));
	CU_ASSERT_EQUAL(ior_matrix_set(m, "defaults.blocksize=4k"), IOR_EINVALID);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "override 'defaults.blocksize=4k': blocksize: no engine type has this key");
	CU_ASSERT_EQUAL(m->nengines, 3);
	CU_ASSERT_EQUAL(ior_matrix_set(m, "engine.q.bs=4k"), IOR_EINVALID);
	CU_ASSERT_STRING_EQUAL(ior_error_last(), "override 'engine.q.bs=4k': no engine 'q' in the matrix (did you mean 'r'?)");
	ior_matrix_free(m);
}

/* seed-fio.ini is the four rw modes as one swept key: the same four jobs as before, now named
 * job[rw=...] (they were write, read, randwrite, randread), each with the tester's options. */
static void test_seed_fio_example_sweeps_rw(void)
{
	struct ior_matrix *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_matrix_parse_file(&m, ior_test_source_path("matrix/examples/seed-fio.ini")), IOR_OK);
	CU_ASSERT_EQUAL_FATAL(m->nengines, 4);
	static const char *const rw[] = { "write", "read", "randwrite", "randread" };
	for (size_t i = 0; i < 4; i++) {
		char name[64], kv[64];
		snprintf(name, sizeof(name), "job[rw=%s]", rw[i]);
		snprintf(kv, sizeof(kv), "rw=%s", rw[i]);
		CU_ASSERT_TRUE(has(m, name, kv) && has(m, name, "iodepth=8") && has(m, name, "numjobs=8") &&
			       has(m, name, "size=128M") && has(m, name, "runtime=10s") && has(m, name, "direct=yes"));
	}
	ior_matrix_free(m);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_defaults_inherit_in_order),
		IOR_TEST(test_defaults_bad_and_unused_keys),
		IOR_TEST(test_sweeps_expand_with_names),
		IOR_TEST(test_cell_limit),
		IOR_TEST(test_includes),
		IOR_TEST(test_overrides_reach_defaults_and_sweeps),
		IOR_TEST(test_seed_fio_example_sweeps_rw),
		IOR_TEST_END,
	};
	return ior_test_run("matrix_expand", tests);
}
