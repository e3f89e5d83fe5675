/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bisect over packaged kernels, offline: a measuring step that stands for one boot per measurement
 * (its level moving from boot to boot, its repetitions close together), driven through the real
 * driver and judge on a real SQLite file; the answers count boots per side and name the smallest
 * findable change. */
#include "tests/suite.h"

#include "bisect/driver.h"
#include "bisect/measure.h"
#include "bisect/source.h"
#include "bisect/state.h"
#include "common/error.h"
#include "db/db.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KA "linux-image-6.1.0-47-cloud-amd64"
#define KB "linux-image-6.1.0-50-cloud-amd64"
#define KC "linux-image-6.1.0-57-cloud-amd64"

/* A boot: the kernel's level times a factor that moves from boot to boot (up to +-8%, as TCG
 * guests do between boots), then 5 repetitions within 0.5% of it. */
struct boots {
	struct ior_bisect_measure base;
	double level[3];
	unsigned boot;
};

static int build(struct ior_bisect_measure *m, const char *id, enum ior_step_outcome *out, char *image, size_t len)
{
	(void)m;
	*out = IOR_STEP_OK;
	snprintf(image, len, "%s", id);
	return IOR_OK;
}

static int measure(struct ior_bisect_measure *bm, const char *id, double **x, size_t *n, enum ior_step_outcome *out)
{
	struct boots *m = (struct boots *)bm;
	int k = !strcmp(id, KA) ? 0 : !strcmp(id, KB) ? 1 : 2;
	double boot = m->level[k] * (1 + 0.08 * sin(m->boot++ * 2.3));
	double *v = realloc(*x, (*n + 5) * sizeof(*v));
	if (!v)
		return IOR_ERROR;
	*x = v;
	for (int r = 0; r < 5; r++)
		(*x)[(*n)++] = boot * (1 + 0.005 * sin(r * 1.9));
	*out = IOR_STEP_OK;
	return IOR_OK;
}

static void nothing(struct ior_bisect_measure *m)
{
	(void)m;
}

/* A bisection over KA, KB, KC with these levels; the driver's output in text. */
static int bisect(const char *name, double a, double b, double c, char *text, size_t len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", ior_test_tmpdir(), name);
	unlink(path);
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_db_open(&db, path)), 0);
	const char *names[] = { KA, KB, KC };
	struct ior_bisect_source *src = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_bisect_source_packages(&src, names, 3)), 0);
	struct ior_bisect_info info = { .source = "packages", .good = KA, .bad = KC, .kernels = KA " " KB " " KC,
					.higher_is_better = true };
	int64_t id;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_bisect_create(db, &info, &id)), 0);
	struct boots m = { .base = { .build = build, .measure = measure, .free = nothing, .per_boot = true },
			   .level = { a, b, c } };
	FILE *out = fmemopen(text, len, "w");
	struct ior_bisect_driver d = { .db = db, .id = id, .src = src, .m = &m.base, .out = out };
	ior_bisect_judge_opts_default(&d.o);
	d.o.cap = d.o.calibrate_cap = 10;
	struct ior_bisect_result res;
	int rc = ior_test_ok(ior_bisect_drive(&d, &res));
	fclose(out);
	CU_ASSERT_EQUAL(rc, 0);
	printf("\n%s", text);
	ior_bisect_source_free(src);
	ior_db_free(db);
	return rc ? -1 : (int)res.end;
}

static char text[16384];

/* No difference between the ends: refused, and the refusal names noise, samples and boots per side
 * and the smallest change it could have found. */
static void test_refusal_names_boots_and_smallest_change(void)
{
	CU_ASSERT_EQUAL(bisect("refuse.db", 100, 100, 100, text, sizeof(text)), IOR_BISECT_REFUSED);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "refused: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "noise "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "50 samples of the good end in 10 boots and 50 of the bad end in 10 boots (one "
					    "boot of each per round, each boot's median one observation)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "the smallest change findable at --cap 10 is"));
}

/* A 40% drop from KB on, +-8% between boots: found, and the answer counts boots. */
static void test_answer_counts_boots(void)
{
	CU_ASSERT_EQUAL(bisect("found.db", 100, 60, 60, text, sizeof(text)), IOR_BISECT_FOUND);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "first bad commit: " KB));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "125 samples of the good end in 25 boots and 125 of the bad end in 25 boots"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "the smallest change findable at --cap 10 is"));
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_refusal_names_boots_and_smallest_change),
		IOR_TEST(test_answer_counts_boots),
		IOR_TEST_END,
	};
	return ior_test_run("bisect_boots", tests);
}
