/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The budget planner against the judge it plans for: the rounds a sequential look is expected to
 * take, checked on the judge itself over simulated rounds, and a budget that affords the sequential
 * looks though not the fixed ones (issue 38 §1). */
#include "bisect/judge.h"
#include "bisect/plan.h"
#include "common/rng.h"
#include "tests/suite.h"

#include <math.h>
#include <stdio.h>

#define CAP 2000

/* The rounds the judge takes to decide a commit at level (log units; the good end at 0, the bad at
 * gap), every measurement with independent noise of sd noise. */
static size_t rounds_to_decide(struct ior_rng *rng, const struct ior_bisect_calibration *cal, double level,
			       double noise, const struct ior_bisect_judge_opts *o, bool *right)
{
	static double good[CAP], x[CAP], bad[CAP];
	char reason[512];
	for (size_t n = 1; n <= CAP; n++) {
		good[n - 1] = exp(noise * ior_rng_normal(rng));
		x[n - 1] = exp(level + noise * ior_rng_normal(rng));
		bad[n - 1] = exp(cal->gap + noise * ior_rng_normal(rng));
		size_t need;
		enum ior_bisect_call c = ior_bisect_judge(cal, good, x, bad, n, CAP, o, &need, reason, sizeof(reason));
		if (c == IOR_CALL_GOOD || c == IOR_CALL_BAD) {
			*right = (c == IOR_CALL_BAD) == (level != 0);
			return n;
		}
		if (c != IOR_CALL_MORE)
			break;
	}
	*right = false;
	return CAP;
}

/* Wald's expected sample number, as the planner takes it, beside the judge's own rounds: the mean over
 * 300 commits (half at each end) within a third of the estimate, at three noises and gaps. */
static void test_sequential_look_rounds_match_the_judge(void)
{
	static const struct {
		double noise, drop;
	} cases[] = { { 0.03, 0.10 }, { 0.05, 0.10 }, { 0.05, 0.05 } };
	struct ior_bisect_judge_opts o;
	ior_bisect_judge_opts_default(&o);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ior_bisect_calibration cal = { .rounds = 60, .gap = log(1 - cases[i].drop), .noise = cases[i].noise };
		struct ior_bisect_plan_in in = { .noise = cal.noise, .gap = cal.gap, .cal_rounds = cal.rounds,
						 .alpha = o.alpha, .sequential = true, .first = o.first };
		double expect = ior_bisect_plan_look_rounds(&in, CAP);
		struct ior_rng rng;
		ior_rng_seed(&rng, 38 + i);
		size_t total = 0, wrong = 0, n = 300;
		for (size_t k = 0; k < n; k++) {
			bool right;
			total += rounds_to_decide(&rng, &cal, k % 2 ? cal.gap : 0, cal.noise, &o, &right);
			wrong += !right;
		}
		double mean = (double)total / (double)n;
		printf("\n  noise %.0f%%, gap -%.0f%%: %.1f rounds a look planned, %.1f taken, %zu wrong of %zu",
		       cal.noise * 100, cases[i].drop * 100, expect, mean, wrong, n);
		CU_ASSERT_TRUE(mean > expect / 1.33 && mean < expect * 1.33);
		CU_ASSERT_EQUAL(wrong, 0);
		/* the looks' test takes its cap into the plan, as before */
		in.sequential = false;
		CU_ASSERT_DOUBLE_EQUAL(ior_bisect_plan_look_rounds(&in, 60), 60, 1e-9);
	}
}

/* A budget between the two plans: the sequential looks fit it, the fixed ones would be refused; the
 * rounds that find the gap (95% power) are the same, only the time they are expected to take is not. */
static void test_budget_plans_for_sequential_looks(void)
{
	struct ior_bisect_plan_in in = { .noise = 0.05, .gap = log(0.9), .cal_rounds = 60, .alpha = 0.001, .looks = 6,
					 .confirm = 10, .left_s = INFINITY, .measure_s = 10, .build_s = 60,
					 .cap_floor = 60, .first = 5 };
	struct ior_bisect_plan fixed, seq;
	ior_bisect_plan_make(&fixed, &in);
	in.sequential = true;
	ior_bisect_plan_make(&seq, &in);
	CU_ASSERT_TRUE_FATAL(fixed.ok && seq.ok);
	CU_ASSERT_EQUAL(seq.need, fixed.need);
	CU_ASSERT_TRUE(seq.need_s < fixed.need_s * 0.75);
	printf("\n  need %zu rounds: %.0f s to an answer planned for the sequential looks, %.0f s for fixed ones", seq.need,
	       seq.need_s, fixed.need_s);
	in.left_s = (seq.need_s + fixed.need_s) / 2;
	ior_bisect_plan_make(&seq, &in);
	in.sequential = false;
	ior_bisect_plan_make(&fixed, &in);
	CU_ASSERT_TRUE(seq.ok);
	CU_ASSERT_TRUE(seq.cap >= seq.need);
	CU_ASSERT_FALSE(fixed.ok);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_sequential_look_rounds_match_the_judge),
		IOR_TEST(test_budget_plans_for_sequential_looks),
		IOR_TEST_END,
	};
	return ior_test_run("bisect_plan", tests);
}
