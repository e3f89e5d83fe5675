/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The budget planner: rounds per commit chosen from the measured noise and the measured pace, so a
 * tester states a time ("an hour") instead of guessing a cap. */
#include "bisect/plan.h"
#include "bisect/judge.h"

#include <math.h>
#include <stdio.h>

/* The most rounds per commit a plan takes (as --cap's own limit). */
#define PLAN_MAX 100000

/*
 * The sequential test (judge.c's sprt_decides) adds delta * c / sigma^2 per round, c the round's
 * contrast (mean gap / 2 toward the commit's end), delta the gap over its margin and sigma the
 * contrast's sd, noise * sqrt(1.5); it stops at log((1 - alpha) / alpha). Wald's approximation of the
 * rounds that takes, overshoot left out: bound / (delta * gap / 2 / sigma^2) =
 * 3 * bound * margin * noise^2 / gap^2. The guard (midpoint p < 0.05) is met by then at about this
 * ratio (its t is sqrt(bound / 2), 1.9), so it adds nothing to the estimate.
 */
double ior_bisect_plan_look_rounds(const struct ior_bisect_plan_in *in, size_t rounds)
{
	if (!in->sequential || !(fabs(in->gap) > 0) || !(in->noise > 0))
		return (double)rounds;
	double bound = log((1 - in->alpha) / in->alpha);
	double asn = 3.0 * bound * ior_bisect_margin(in->cal_rounds) * in->noise * in->noise / (in->gap * in->gap);
	if (asn < (double)in->first)
		asn = (double)in->first;
	return asn < (double)rounds ? ceil(asn) : (double)rounds;
}

double ior_bisect_plan_seconds(const struct ior_bisect_plan_in *in, size_t rounds)
{
	size_t confirm = in->confirm > rounds ? in->confirm : rounds;
	return (double)in->looks * (in->build_s + 3.0 * ior_bisect_plan_look_rounds(in, rounds) * in->measure_s) +
	       in->build_s + 4.0 * (double)confirm * in->measure_s;
}

size_t ior_bisect_plan_afford(const struct ior_bisect_plan_in *in)
{
	if (in->measure_s <= 0)
		return PLAN_MAX;
	/* plan_seconds grows with rounds: the largest that fits, by bisection on the count */
	size_t lo = 0, hi = PLAN_MAX;
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;
		if (ior_bisect_plan_seconds(in, mid) <= in->left_s)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo < 5 ? 0 : lo;
}

/* Looks happen every 5 rounds from the fifth: the rounds a commit decided at need takes. */
static size_t look_rounds(size_t need)
{
	return need < 5 ? 5 : (need + 4) / 5 * 5;
}

void ior_bisect_plan_make(struct ior_bisect_plan *out, const struct ior_bisect_plan_in *in)
{
	*out = (struct ior_bisect_plan){ 0 };
	out->need = ior_bisect_cap_needed(in->noise, in->gap, in->cal_rounds, in->alpha);
	out->afford = ior_bisect_plan_afford(in);
	if (in->cap_max && out->afford > in->cap_max)
		out->afford = in->cap_max;
	if (!out->need)
		return;
	size_t need = look_rounds(out->need);
	out->need_s = ior_bisect_plan_seconds(in, need);
	if (out->afford < need)
		return;
	/* Half again the rounds that reach 95% power leave few candidates undecided (power near 99.9%);
	 * more only spend time on commits the noise cannot place, as the default cap of 60 did. */
	size_t want = (size_t)ceil(1.5 * (double)need);
	if (want < in->cap_floor)
		want = in->cap_floor;
	out->ok = true;
	out->cap = want < out->afford ? want : out->afford;
	out->seconds = out->need_s;
}

void ior_bisect_plan_duration(char *buf, size_t len, double s)
{
	if (s < 90)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 90 * 60)
		snprintf(buf, len, "%.0f min", s / 60);
	else
		snprintf(buf, len, "%.0f h %02.0f min", floor(s / 3600), fmod(floor(s / 60), 60));
}
