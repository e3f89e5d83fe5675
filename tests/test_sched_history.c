/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for kernel/sched_history: the upstream table, explanations of scheduler changes on the
 * field report's kernels, common sets and the deadline alias. */
#include "common/error.h"
#include "kernel/sched_history.h"
#include "kernel/version.h"
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- the seed data: host,kernel,offered --- */
#define SEED_MAX 16
static char seed_kernel[SEED_MAX][64], seed_offered[SEED_MAX][256];
static size_t seed_n;

static void load_seed(void)
{
	const char *path = ior_test_source_path("tests/data/hdparm-2.6-schedulers.csv");
	FILE *f = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	char line[512];
	seed_n = 0;
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), f)); /* header */
	while (fgets(line, sizeof(line), f) && seed_n < SEED_MAX) {
		line[strcspn(line, "\r\n")] = '\0';
		char *k = strchr(line, ',');
		char *o = k ? strchr(k + 1, ',') : NULL;
		CU_ASSERT_PTR_NOT_NULL_FATAL(o);
		*o = '\0';
		snprintf(seed_kernel[seed_n], sizeof(seed_kernel[0]), "%s", k + 1);
		snprintf(seed_offered[seed_n], sizeof(seed_offered[0]), "%s", o + 1);
		seed_n++;
	}
	fclose(f);
	CU_ASSERT_EQUAL(seed_n, 4);
}

static void test_table_has_every_scheduler_with_its_span(void)
{
	static const struct {
		const char *name, *module, *first, *removed;
		enum ior_queue_type queue;
	} want[] = {
		{ "anticipatory", "as-iosched", "2.6.0", "2.6.33", IOR_QUEUE_LEGACY },
		{ "noop", "noop-iosched", "2.6.0", "5.0", IOR_QUEUE_LEGACY },
		{ "deadline", "deadline-iosched", "2.6.0", "5.0", IOR_QUEUE_LEGACY },
		{ "cfq", "cfq-iosched", "2.6.6", "5.0", IOR_QUEUE_LEGACY },
		{ "mq-deadline", "mq-deadline", "4.11", NULL, IOR_QUEUE_BLK_MQ },
		{ "kyber", "kyber-iosched", "4.12", NULL, IOR_QUEUE_BLK_MQ },
		{ "bfq", "bfq", "4.12", NULL, IOR_QUEUE_BLK_MQ },
		{ "none", NULL, "3.13", NULL, IOR_QUEUE_BLK_MQ },
	};
	size_t n;
	ior_sched_history(&n);
	CU_ASSERT_EQUAL(n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct ior_sched_info *s = ior_sched_lookup(want[i].name);
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		CU_ASSERT((s->module == NULL) == (want[i].module == NULL));
		if (s->module && want[i].module)
			CU_ASSERT_STRING_EQUAL(s->module, want[i].module);
		CU_ASSERT_STRING_EQUAL(s->first, want[i].first);
		CU_ASSERT((s->removed == NULL) == (want[i].removed == NULL));
		if (s->removed && want[i].removed)
			CU_ASSERT_STRING_EQUAL(s->removed, want[i].removed);
		CU_ASSERT_EQUAL(s->queue, want[i].queue);
	}
	const struct ior_sched_info *cfq = ior_sched_lookup("cfq");
	CU_ASSERT_STRING_EQUAL(cfq->default_from, "2.6.18");
	CU_ASSERT_STRING_EQUAL(ior_sched_lookup("anticipatory")->default_until, "2.6.18");
	CU_ASSERT_PTR_NULL(ior_sched_lookup("bfq-sq"));
}

static void test_upstream_by_series(void)
{
	const struct ior_sched_info *as = ior_sched_lookup("anticipatory");
	CU_ASSERT_TRUE(ior_sched_upstream(as, "2.6.32"));
	CU_ASSERT_TRUE(ior_sched_upstream(as, "2.6.32.71"));
	CU_ASSERT_TRUE(ior_sched_upstream(as, "2.6.30-2"));
	CU_ASSERT_FALSE(ior_sched_upstream(as, "2.6.33-rc5"));
	CU_ASSERT_FALSE(ior_sched_upstream(as, "2.6.33"));
	const struct ior_sched_info *cfq = ior_sched_lookup("cfq");
	CU_ASSERT_TRUE(ior_sched_upstream(cfq, "4.19.0-17-amd64"));
	CU_ASSERT_FALSE(ior_sched_upstream(cfq, "5.0.0-rc1"));
	CU_ASSERT_FALSE(ior_sched_upstream(ior_sched_lookup("bfq"), "4.11.12"));
	CU_ASSERT_TRUE(ior_sched_upstream(ior_sched_lookup("bfq"), "6.1.0-47-cloud-amd64"));
	CU_ASSERT_FALSE(ior_sched_upstream(ior_sched_lookup("bfq"), "not-a-kernel"));
}

/* Every change between consecutive seed kernels, explained: only anticipatory changes. */
static void test_seed_changes_are_explained(void)
{
	load_seed();
	char *order[SEED_MAX];
	for (size_t i = 0; i < seed_n; i++)
		order[i] = seed_kernel[i];
	ior_kver_sort(order, seed_n);
	CU_ASSERT_STRING_EQUAL(order[0], "2.6.30-2");
	CU_ASSERT_STRING_EQUAL(order[3], "2.6.33-rc5");
	size_t changes = 0;
	static const char *const names[] = { "noop", "anticipatory", "deadline", "cfq" };
	for (size_t i = 0; i + 1 < seed_n; i++) {
		const char *a = NULL, *b = NULL;
		for (size_t k = 0; k < seed_n; k++) {
			if (seed_kernel[k] == order[i])
				a = seed_offered[k];
			if (seed_kernel[k] == order[i + 1])
				b = seed_offered[k];
		}
		for (size_t s = 0; s < 4; s++) {
			char buf[512];
			enum ior_sched_change kind = ior_sched_explain(buf, sizeof(buf), names[s], order[i], order[i + 1],
								       ior_sched_list_has(a, names[s]),
								       ior_sched_list_has(b, names[s]));
			if (kind == IOR_SCHED_UNCHANGED) {
				CU_ASSERT_STRING_EQUAL(buf, "");
				continue;
			}
			changes++;
			CU_ASSERT_EQUAL(kind, IOR_SCHED_UPSTREAM);
			CU_ASSERT_STRING_EQUAL(buf, "anticipatory: offered on 2.6.32, absent on 2.6.33-rc5 — "
						    "removed upstream in 2.6.33");
		}
	}
	CU_ASSERT_EQUAL(changes, 1);
}

static void test_seed_common_set_leaves_out_anticipatory(void)
{
	load_seed();
	const char *kernels[SEED_MAX], *offered[SEED_MAX];
	for (size_t i = 0; i < seed_n; i++) {
		kernels[i] = seed_kernel[i];
		offered[i] = seed_offered[i];
	}
	struct ior_sched_common c;
	CU_ASSERT_EQUAL_FATAL(ior_sched_common_set(&c, kernels, offered, seed_n), IOR_OK);
	CU_ASSERT_STRING_EQUAL(c.common, "noop deadline cfq");
	CU_ASSERT_EQUAL_FATAL(c.n_left_out, 1);
	CU_ASSERT_STRING_EQUAL(c.left_out[0].name, "anticipatory");
	CU_ASSERT_EQUAL(c.left_out[0].kind, IOR_SCHED_UPSTREAM);
	CU_ASSERT_STRING_EQUAL(c.left_out[0].reason, "not offered on 2.6.33-rc5 — removed upstream in 2.6.33");
}

static void test_unexplained_disappearance(void)
{
	char buf[512];
	/* cfq was upstream in 2.6.33: its absence there is a config change */
	CU_ASSERT_EQUAL(ior_sched_explain(buf, sizeof(buf), "cfq", "2.6.32", "2.6.33-rc5", true, false),
			IOR_SCHED_UNEXPLAINED);
	CU_ASSERT_STRING_EQUAL(buf, "cfq: offered on 2.6.32, absent on 2.6.33-rc5 — not explained by upstream "
				    "history (config or module packaging change)");
	CU_ASSERT_EQUAL(ior_sched_explain(buf, sizeof(buf), "bfq", "5.10.0-28-amd64", "6.1.0-47-amd64", true, false),
			IOR_SCHED_UNEXPLAINED);
	/* a name the history does not know is never explained by it */
	CU_ASSERT_EQUAL(ior_sched_explain(buf, sizeof(buf), "sio", "4.9.0-8-amd64", "4.19.0-17-amd64", true, false),
			IOR_SCHED_UNEXPLAINED);
}

static void test_appearance_and_queue_type(void)
{
	char buf[512];
	CU_ASSERT_EQUAL(ior_sched_explain(buf, sizeof(buf), "bfq", "4.11.12", "4.12.14", false, true),
			IOR_SCHED_UPSTREAM);
	CU_ASSERT_STRING_EQUAL(buf, "bfq: absent on 4.11.12, offered on 4.12.14 — added upstream in 4.12");
	/* 4.19 had mq-deadline, but only for devices on blk-mq */
	CU_ASSERT_EQUAL(ior_sched_explain(buf, sizeof(buf), "mq-deadline", "4.19.0-17-amd64", "5.10.0-28-amd64",
					  false, true), IOR_SCHED_QUEUE_TYPE);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "a blk-mq scheduler, which legacy-queue devices do not offer"));
	CU_ASSERT_EQUAL(ior_sched_explain(buf, sizeof(buf), "cfq", "2.6.32", "2.6.32", true, true), IOR_SCHED_UNCHANGED);
	CU_ASSERT_STRING_EQUAL(buf, "");
}

static void test_deadline_alias_on_blk_mq(void)
{
	CU_ASSERT_STRING_EQUAL(ior_sched_resolve("deadline", "6.1.0-47-amd64"), "mq-deadline");
	CU_ASSERT_STRING_EQUAL(ior_sched_resolve("deadline", "4.12.0"), "mq-deadline");
	CU_ASSERT_STRING_EQUAL(ior_sched_resolve("deadline", "2.6.32"), "deadline");
	CU_ASSERT_STRING_EQUAL(ior_sched_resolve("cfq", "6.1.0-47-amd64"), "cfq");
	char buf[512];
	CU_ASSERT_EQUAL(ior_sched_explain(buf, sizeof(buf), "deadline", "4.19.0-17-amd64", "5.10.0-28-amd64", true,
					  false), IOR_SCHED_UPSTREAM);
	CU_ASSERT_STRING_EQUAL(buf, "deadline: offered on 4.19.0-17-amd64, absent on 5.10.0-28-amd64 — removed "
				    "upstream in 5.0; 'deadline' now selects mq-deadline");
}

static void test_sysfs_lists_are_tokens(void)
{
	CU_ASSERT_TRUE(ior_sched_list_has("[mq-deadline] none", "none"));
	CU_ASSERT_TRUE(ior_sched_list_has("[mq-deadline] none", "mq-deadline"));
	CU_ASSERT_FALSE(ior_sched_list_has("[mq-deadline] none", "deadline"));
	CU_ASSERT_TRUE(ior_sched_list_has("none [mq-deadline] kyber bfq\n", "bfq"));
	CU_ASSERT_TRUE(ior_sched_list_has("[none]", "none"));
	CU_ASSERT_FALSE(ior_sched_list_has("", "none"));
	CU_ASSERT_FALSE(ior_sched_list_has(NULL, "none"));
}

/* Across the legacy/blk-mq boundary: mixed reasons are listed per kernel. */
static void test_common_set_across_queue_types(void)
{
	const char *kernels[] = { "4.19.0-17-amd64", "5.10.0-28-amd64", "6.1.0-47-amd64" };
	const char *offered[] = { "noop deadline [cfq] mq-deadline", "[mq-deadline] none",
				  "[mq-deadline] kyber bfq none" };
	struct ior_sched_common c;
	CU_ASSERT_EQUAL_FATAL(ior_sched_common_set(&c, kernels, offered, 3), IOR_OK);
	CU_ASSERT_STRING_EQUAL(c.common, "mq-deadline");
	CU_ASSERT_EQUAL_FATAL(c.n_left_out, 6);
	CU_ASSERT_STRING_EQUAL(c.left_out[0].name, "noop");
	CU_ASSERT_STRING_EQUAL(c.left_out[0].reason,
			       "not offered on 5.10.0-28-amd64, 6.1.0-47-amd64 — removed upstream in 5.0");
	CU_ASSERT_STRING_EQUAL(c.left_out[3].name, "none");
	CU_ASSERT_EQUAL(c.left_out[3].kind, IOR_SCHED_QUEUE_TYPE);
	CU_ASSERT_STRING_EQUAL(c.left_out[4].name, "kyber");
	CU_ASSERT_EQUAL(c.left_out[4].kind, IOR_SCHED_UNEXPLAINED);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.left_out[4].reason, "not offered on 4.19.0-17-amd64 — a blk-mq scheduler"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.left_out[4].reason, "; not offered on 5.10.0-28-amd64 — not explained"));
}

static void test_too_many_names_is_invalid(void)
{
	char list[2048] = "";
	for (int i = 0; i < IOR_SCHED_MAX + 1; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "s%d ", i);
	const char *kernels[] = { "6.1.0" }, *offered[] = { list };
	struct ior_sched_common c;
	CU_ASSERT_EQUAL(ior_sched_common_set(&c, kernels, offered, 1), IOR_EINVALID);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_table_has_every_scheduler_with_its_span),
		IOR_TEST(test_upstream_by_series),
		IOR_TEST(test_seed_changes_are_explained),
		IOR_TEST(test_seed_common_set_leaves_out_anticipatory),
		IOR_TEST(test_unexplained_disappearance),
		IOR_TEST(test_appearance_and_queue_type),
		IOR_TEST(test_deadline_alias_on_blk_mq),
		IOR_TEST(test_sysfs_lists_are_tokens),
		IOR_TEST(test_common_set_across_queue_types),
		IOR_TEST(test_too_many_names_is_invalid),
		IOR_TEST_END,
	};
	return ior_test_run("sched_history", tests);
}
