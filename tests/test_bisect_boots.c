/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bisect over packaged kernels, offline: a measuring step that stands for one boot per measurement
 * (its level moving from boot to boot, its repetitions close together), driven through the real
 * driver and judge on a real SQLite file; the answers count boots per side and name the smallest
 * findable change, every line names each kernel by its full package name, and an end whose boots
 * keep failing stops the bisection with its outcome and console head. */
#include "tests/suite.h"

#include "bisect/driver.h"
#include "bisect/measure.h"
#include "bisect/replay.h"
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
	int fail;                /* the kernel (0-2) whose boots fail from its measurement fail_from on, or -1 */
	unsigned fail_from, measured[3];
	const char *failure;     /* what measure_vm says of it: outcome, tries, reason, console head */
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
	if (k == m->fail && ++m->measured[k] >= m->fail_from) {
		*out = IOR_STEP_BOOT_FAILED;
		snprintf(bm->failure, sizeof(bm->failure), "%s", m->failure);
		return IOR_OK;
	}
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

static char error[1024];   /* the driver's error, when it returned one */
static size_t calibrate;   /* the judge's calibration rounds when not 0 */

/* A bisection over KA, KB, KC with m's levels; the driver's output in text, its status and log in
 * shown (when not NULL); the driver's return code in *rc. */
static int bisect_with(const char *name, struct boots *m, char *text, size_t len, char *shown, size_t slen, int *drive_rc)
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
	m->base = (struct ior_bisect_measure){ .build = build, .measure = measure, .free = nothing, .per_boot = true };
	FILE *out = fmemopen(text, len, "w");
	struct ior_bisect_driver d = { .db = db, .id = id, .src = src, .m = &m->base, .out = out };
	ior_bisect_judge_opts_default(&d.o);
	d.o.cap = d.o.calibrate_cap = 10;
	if (calibrate)
		d.o.calibrate = d.o.calibrate_cap = calibrate;
	struct ior_bisect_result res;
	*drive_rc = ior_bisect_drive(&d, &res);
	fclose(out);
	printf("\n%s", text);
	snprintf(error, sizeof(error), "%s", *drive_rc ? ior_error_last() : "");
	if (*drive_rc)
		printf("error: %s\n", error);
	struct ior_bisect_info b;
	if (shown && ior_test_ok(ior_bisect_current(db, &b)) == 0) {
		FILE *f = fmemopen(shown, slen, "w");
		CU_ASSERT_EQUAL(ior_test_ok(ior_bisect_print_status(f, db, &b, src)), 0);
		CU_ASSERT_EQUAL(ior_test_ok(ior_bisect_log_print(f, db, &b)), 0);
		fclose(f);
		ior_bisect_info_free(&b);
	}
	ior_bisect_source_free(src);
	ior_db_free(db);
	return *drive_rc ? -1 : (int)res.end;
}

/* A bisection over KA, KB, KC with these levels, none failing; the driver's output in text. */
static int bisect(const char *name, double a, double b, double c, char *text, size_t len, char *shown, size_t slen)
{
	struct boots m = { .level = { a, b, c }, .fail = -1 };
	int rc;
	int end = bisect_with(name, &m, text, len, shown, slen, &rc);
	CU_ASSERT_EQUAL(ior_test_ok(rc), 0);
	return end;
}

static char text[16384], shown[65536];

/* No difference between the ends: refused, and the refusal names noise, samples and boots per side
 * and the smallest change it could have found. */
static void test_refusal_names_boots_and_smallest_change(void)
{
	CU_ASSERT_EQUAL(bisect("refuse.db", 100, 100, 100, text, sizeof(text), NULL, 0), IOR_BISECT_REFUSED);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "refused: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "noise "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "50 samples of the good end in 10 boots and 50 of the bad end in 10 boots (one "
					    "boot of each per round, each boot's median one observation)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "the smallest change findable at --cap 10 is"));
}

/* A 40% drop from KB on, +-8% between boots: found, and the answer counts boots. Progress, status,
 * log and evidence name every kernel by its full package name (they were cut to 'linux-image-'). */
static void test_answer_counts_boots(void)
{
	CU_ASSERT_EQUAL(bisect("found.db", 100, 60, 60, text, sizeof(text), shown, sizeof(shown)), IOR_BISECT_FOUND);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "first bad commit: " KB));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "125 samples of the good end in 25 boots and 125 of the bad end in 25 boots"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "the smallest change findable at --cap 10 is"));
	/* progress */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "building " KA ", elapsed "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "building " KB ", elapsed "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "building " KC ", elapsed "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "2 candidate(s) left, " KB " next, elapsed "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n" KB " bad: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "confirming " KB " against its parent " KA ": "));
	/* evidence */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  " KA " good end "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  " KB " culprit "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  " KC " bad end "));
	/* status, then the log */
	CU_ASSERT_PTR_NOT_NULL(strstr(shown, ": found\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(shown, "\n  good " KA "\n  bad  " KC "\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(shown, "first bad commit: " KB "\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(shown, "start --kernels " KA " " KB " " KC "\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(shown, "Z build " KB " ok " KB "\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(shown, "Z measure " KB " round="));
	CU_ASSERT_PTR_NOT_NULL(strstr(shown, "Z mark " KB " bad "));
}

/* The good end panics at its third boot (each standing for three tries, as measure_vm's): the
 * bisection stops with an error (exit 1) naming the good end, that it panics, and the boot's outcome,
 * tries, reason and console head, kept as the bisection's result (status) and in its log, the
 * samples measured before it kept. */
static void test_end_that_panics_stops_with_its_head(void)
{
	struct boots m = { .level = { 100, 60, 60 }, .fail = 0, .fail_from = 3,
			   .failure = "panic after 3 boots: Kernel panic - not syncing: Fatal exception; console: traps: "
				      "PANIC: double fault | RIP: kmem_cache_alloc_noprof" };
	int rc;
	bisect_with("panics.db", &m, text, sizeof(text), shown, sizeof(shown), &rc);
	CU_ASSERT_EQUAL(rc, IOR_ERROR);
	CU_ASSERT_PTR_NOT_NULL(strstr(error, "the bisection cannot go on: the good end '" KA "' panics"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "stopped: the good end " KA " panics\n  panic after 3 boots: Kernel panic - "
					    "not syncing: Fatal exception; console: traps: PANIC: double fault | RIP: "
					    "kmem_cache_alloc_noprof\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "with the 20 sample(s) measured so far kept"));   /* two boots of each end */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "next: start again with a good end that builds and boots"));
	/* status: still started (run again tries it again), the stop as its result; the log keeps it */
	CU_ASSERT_PTR_NOT_NULL(strstr(shown, ": started\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(shown, "\nstopped: the good end " KA " panics\n  panic after 3 boots: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(shown, "Z boot-failed " KA " panic after 3 boots: Kernel panic"));
	CU_ASSERT_PTR_NOT_NULL(strstr(shown, "Z stopped: the good end " KA " panics: panic after 3 boots: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(shown, "Z measure " KA " round=1 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(shown, "Z measure " KC " round=2 "));
}

/* The kernel between the ends does not boot (each failure standing for measure_vm's three tries):
 * the answer names it, and it cost the ends nothing past their calibration. With 11 calibration
 * rounds the rotation puts the good end first in round 12, the candidate's first, so the good end
 * used to boot once more for a round the candidate then left incomplete. */
static void test_unbootable_candidate_costs_the_ends_no_boot(void)
{
	struct boots m = { .level = { 100, 60, 60 }, .fail = 1, .fail_from = 1,
			   .failure = "boot-failed after 3 boots: qemu ended (exit 1) before init" };
	int rc;
	calibrate = 11;
	int end = bisect_with("unbootable.db", &m, text, sizeof(text), NULL, 0, &rc);
	calibrate = 0;
	CU_ASSERT_EQUAL(ior_test_ok(rc), 0);
	CU_ASSERT_EQUAL(end, IOR_BISECT_FOUND);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "first kernel that does not boot: " KB));
	CU_ASSERT_EQUAL(m.measured[1], 1);
	/* the ends: the 11 calibration rounds and no boot more (m.boot counts the ok boots of all three) */
	CU_ASSERT_EQUAL(m.boot, 22);
	printf("\n  ok boots %u, the candidate's failed %u\n", m.boot, m.measured[1]);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_refusal_names_boots_and_smallest_change),
		IOR_TEST(test_answer_counts_boots),
		IOR_TEST(test_end_that_panics_stops_with_its_head),
		IOR_TEST(test_unbootable_candidate_costs_the_ends_no_boot),
		IOR_TEST_END,
	};
	return ior_test_run("bisect_boots", tests);
}
