/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ends calibrated in rounds until the judge is satisfied or refuses, and the rounds per commit
 * planned from their noise and gap and the budget, re-planned as the machine moves. */
#include "bisect/drive.h"
#include "stats/paired.h"

#include "common/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The rounds of the ends the re-planning reads the machine's present noise from. */
#define IOR_BISECT_RECENT_ROUNDS 30

/* Both ends built the same artifact: it cannot be what differs between them, so either it names
 * something the build does not write (every step would then measure the last build: a -50% history
 * was refused as "not worse") or the difference lies outside it. Said loudly and logged; no commit
 * takes a verdict from an identical artifact, and the step builds each commit again before its
 * measurements. */
static int ends_alike(struct ior_bisect_run *r, const char *image)
{
	char text[600];
	snprintf(text, sizeof(text), "the good and the bad end built the same artifact (%.12s): it cannot hold the "
		 "difference between them, so no commit takes a verdict from its artifact and each is built again before "
		 "it is measured; if the artifact named is not what the build writes, stop and name the build output", image);
	fprintf(stderr, "warning: %s\n", text);
	r->images_blind = true;
	r->d->m->artifact_blind = true;
	return ior_bisect_log(r->d->db, r->d->id, NULL, "warning", text);
}

/* Commits left to judge: about log2 of the candidates left. */
int ior_bisect_looks_left(struct ior_bisect_run *r, size_t *looks)
{
	enum ior_bisect_mark *marks = calloc(r->g.n ? r->g.n : 1, sizeof(*marks));
	if (!marks)
		return ior_error_set(IOR_ERROR, "out of memory");
	struct ior_bisect_left left;
	int rc = ior_bisect_marks_get(r->d->db, r->d->id, &r->g, marks);
	if (!rc)
		rc = ior_bisect_left(&left, &r->g, marks);
	free(marks);
	if (rc)
		return rc;
	size_t k = 0;
	while (((size_t)1 << k) < left.count)
		k++;
	*looks = k;
	ior_bisect_left_free(&left);
	return IOR_OK;
}

/* The ends' noise over their last IOR_BISECT_RECENT_ROUNDS rounds (the machine as it is now: what
 * the plan buys rounds with) and over every round of the bisection (what a quiet calibration cannot
 * shrink: the judge's floor); the calibration's while too few rounds tell. */
int ior_bisect_ends_noise(struct ior_bisect_run *r, double *recent, double *all)
{
	const char *ends[2] = { r->good_ids[0], r->bad_id };
	struct ior_bisect_rounds rd;
	*recent = *all = r->cal.noise;
	if (ior_bisect_rounds_get(r->d->db, r->d->id, ends, 2, 1, &rd))
		return IOR_ERROR;
	size_t n = rd.n;
	double *g = malloc((n ? n : 1) * sizeof(double)), *b = malloc((n ? n : 1) * sizeof(double));
	if (!g || !b) {
		free(g), free(b);
		ior_bisect_rounds_free(&rd);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		g[i] = rd.v[2 * i], b[i] = rd.v[2 * i + 1];
	ior_bisect_rounds_free(&rd);
	struct ior_paired p;
	if (n >= 10 && !ior_paired_ratio(&p, g, b, n, 0.95) && isfinite(p.sd))
		*all = p.sd / sqrt(2);
	size_t k = n < IOR_BISECT_RECENT_ROUNDS ? n : IOR_BISECT_RECENT_ROUNDS;
	if (k >= 10 && !ior_paired_ratio(&p, g + n - k, b + n - k, k, 0.95) && isfinite(p.sd))
		*recent = p.sd / sqrt(2);
	free(g), free(b);
	return IOR_OK;
}

/* What a plan is made from: the ends as calibrated, this noise, the pace of this run so far. */
static void plan_input(const struct ior_bisect_run *r, struct ior_bisect_plan_in *in, double noise, size_t looks)
{
	const struct ior_bisect_driver *d = r->d;
	struct ior_bisect_judge_opts def;
	ior_bisect_judge_opts_default(&def);
	*in = (struct ior_bisect_plan_in){
		.noise = noise, .gap = r->cal.gap, .cal_rounds = r->cal.rounds, .alpha = d->o.alpha, .looks = looks,
		.confirm = d->o.confirm, .left_s = d->budget_s > 0 ? d->budget_s - ior_bisect_elapsed(r) : INFINITY,
		.measure_s = r->measures ? r->measure_s / (double)r->measures : 0,
		.build_s = r->builds ? r->build_s / (double)r->builds : 0,
		.cap_max = d->o.cap, .cap_floor = d->budget_s > 0 ? def.cap : d->o.cap,
		.sequential = d->o.sequential, .first = d->o.first,
	};
}

/* A --budget to suggest: the time an answer needs, from now, with a tenth to spare, rounded up. */
static void budget_words(char *buf, size_t len, double seconds)
{
	double s = seconds * 1.1;
	if (s < 90)
		snprintf(buf, len, "%.0fs", ceil(s));
	else if (s < 90 * 60)
		snprintf(buf, len, "%.0fm", ceil(s / 60));
	else
		snprintf(buf, len, "%.0fh", ceil(s / 3600));
}

/* A refusal under a budget says what finding the gap would take, in time: the judge's words about
 * --cap are replaced. An end that is not worse keeps the judge's words. */
static void budget_refusal(struct ior_bisect_run *r, size_t looks, char *reason, size_t len)
{
	const struct ior_bisect_driver *d = r->d;
	double worse = d->o.higher_is_better ? -r->cal.gap : r->cal.gap;
	if (d->budget_s <= 0 || r->cal.rounds < 2 || !(worse > 0))
		return;
	struct ior_bisect_plan_in in;
	struct ior_bisect_plan p;
	plan_input(r, &in, r->cal.noise, looks);
	ior_bisect_plan_make(&p, &in);
	char budget[32], left[32], need[32], more[32], seen[400];
	ior_bisect_plan_duration(budget, sizeof(budget), d->budget_s);
	ior_bisect_plan_duration(left, sizeof(left), in.left_s > 0 ? in.left_s : 0);
	ior_bisect_plan_duration(need, sizeof(need), p.need_s);
	budget_words(more, sizeof(more), ior_bisect_elapsed(r) + p.need_s);
	size_t afford = p.afford > 5 ? p.afford : 5;
	snprintf(seen, sizeof(seen), "the ends differ by %+.1f%% (noise %.1f%%, drift %.1f%% over %zu rounds, one-sided "
		 "paired p = %.2g); at the %zu rounds per commit the budget affords, the smallest difference that can be "
		 "found is %.1f%%", expm1(r->cal.gap) * 100, r->cal.noise * 100, r->cal.drift * 100, r->cal.rounds, r->cal.p,
		 afford, expm1(ior_bisect_smallest(r->cal.noise, afford, r->cal.rounds, d->o.alpha)) * 100);
	if (!p.need)
		snprintf(reason, len, "%s; no number of rounds per commit up to 10000 finds a gap this small at this noise, so "
			 "any answer would be a guess", seen);
	else if (d->o.cap && p.need > d->o.cap)
		snprintf(reason, len, "%s; finding it needs %zu rounds per commit (95%% power, with the margin for a noise "
			 "estimated from %zu rounds), more than --cap %zu: about %s to an answer", seen, p.need, r->cal.rounds,
			 d->o.cap, need);
	else
		snprintf(reason, len, "%s; finding it needs %zu rounds per commit (95%% power, with the margin for a noise "
			 "estimated from %zu rounds): about %s to an answer at %.2f s a measurement (%zu look(s) and a "
			 "confirmation), more than the %s left of the %s budget; --budget %s would find it", seen, p.need,
			 r->cal.rounds, need, in.measure_s, looks, left, budget, more);
}

/* Rounds per commit from the budget, at the ends' present noise, said when first made and whenever
 * they move by a fifth or more; without a budget --cap's, with the time it should take. */
int ior_bisect_replan(struct ior_bisect_run *r, size_t looks, bool initial)
{
	struct ior_bisect_driver *d = r->d;
	double recent, all;
	if (ior_bisect_ends_noise(r, &recent, &all))
		return IOR_ERROR;
	struct ior_bisect_plan_in in;
	struct ior_bisect_plan p;
	plan_input(r, &in, recent, looks);
	ior_bisect_plan_make(&p, &in);
	size_t was = r->cap;
	bool over = d->budget_s > 0 && !p.ok && p.need;
	if (d->budget_s <= 0)
		r->cap = d->o.cap;
	else if (p.ok)
		r->cap = p.cap;
	else if (p.need)   /* over the budget: on at the fewest rounds that find the gap, and said */
		r->cap = p.need < 5 ? 5 : (p.need + 4) / 5 * 5;
	if (d->budget_s > 0 && d->o.cap && r->cap > d->o.cap)
		r->cap = d->o.cap;
	if (!r->cap)   /* no plan could be made (the noise hides the gap now): the default's rounds */
		r->cap = in.cap_floor;
	r->plan = p;
	if (d->budget_s <= 0 || over)
		r->plan.seconds = ior_bisect_plan_seconds(&in, p.need && p.need < r->cap ? p.need : r->cap);
	r->plan_at = ior_bisect_elapsed(r);
	if (!initial && was && 5 * (r->cap > was ? r->cap - was : was - r->cap) < was)
		return IOR_OK;
	char text[640], took[32], left[32];
	ior_bisect_plan_duration(took, sizeof(took), r->plan.seconds);
	ior_bisect_plan_duration(left, sizeof(left), in.left_s > 0 ? in.left_s : 0);
	char why[320];
	snprintf(why, sizeof(why), "noise %.1f%%, gap %+.1f%%: %zu rounds find it with 95%% power; %.2f s a measurement, "
		 "%zu look(s) and a confirmation to go", recent * 100, expm1(r->cal.gap) * 100, p.need, in.measure_s, looks);
	if (d->budget_s <= 0)
		snprintf(text, sizeof(text), "about %s to an answer at this noise: up to %zu rounds per commit (--cap; %s)", took,
			 r->cap, why);
	else if (over)
		snprintf(text, sizeof(text), "over the budget: about %s more at %zu rounds per commit, the fewest that find the "
			 "gap at this noise (%s)", took, r->cap, why);
	else
		snprintf(text, sizeof(text), "about %s to an answer at this noise: up to %zu rounds per commit (%s; %s of the "
			 "budget left)", took, r->cap, why, left);
	ior_bisect_say(r, "%s: %s\n", initial ? "plan" : "re-planned", text);
	return ior_bisect_log(d->db, d->id, NULL, "plan", text);
}

/* The judge's call on the ends' rounds (good, bad by round), r->cal filled. */
static enum ior_bisect_call ends_call(struct ior_bisect_run *r, const struct ior_bisect_rounds *rd,
				      const struct ior_bisect_judge_opts *o, char *reason, size_t len)
{
	double g[rd->n ? rd->n : 1], b[rd->n ? rd->n : 1];
	for (size_t i = 0; i < rd->n; i++)
		g[i] = rd->v[2 * i], b[i] = rd->v[2 * i + 1];
	return ior_bisect_calibrated(&r->cal, g, b, rd->n, o, reason, len);
}

/* Both ends in rounds until the judge is satisfied or refuses; every round of both ends so far
 * counts (a resumed bisection recalibrates on all of them). Under a budget the rounds per commit the
 * judge weighs the gap against are the ones the budget affords at the pace measured so far. */
int ior_bisect_calibrate(struct ior_bisect_run *r, bool *refused, char *reason, size_t len)
{
	struct ior_bisect_driver *d = r->d;
	const char *ends[2] = { r->good_ids[0], r->bad_id };
	char image[2][80];
	for (int e = 0; e < 2; e++) {
		bool ok;
		char why[1100];
		if (ior_bisect_built(r, ends[e], &ok, image[e], sizeof(image[e])) ||
		    (!ok && ior_bisect_build_failure(r, ends[e], why, sizeof(why))))
			return IOR_ERROR;
		if (!ok)
			return ior_bisect_end_stopped(r, ends[e], "does not build", why);
	}
	if (image[0][0] && !strcmp(image[0], image[1]) && ends_alike(r, image[0]))
		return IOR_ERROR;
	size_t looks = 0;
	if (ior_bisect_looks_left(r, &looks))
		return IOR_ERROR;
	for (;;) {
		struct ior_bisect_rounds rd;
		if (ior_bisect_rounds_get(d->db, d->id, ends, 2, 1, &rd))
			return IOR_ERROR;
		struct ior_bisect_judge_opts o = d->o;
		if (d->budget_s > 0 && rd.n >= o.calibrate && !r->measures) {
			/* A resumed run has not measured its pace yet. Ends whose gap is clear at the rounds per commit
			 * of a run without a budget need no pace to go on: the plan is made again before each commit,
			 * from the time its own rounds take. Only a gap not yet clear costs a round more of the ends,
			 * whose time then tells what the budget affords (and a refusal how long an answer needs). */
			struct ior_bisect_judge_opts def;
			ior_bisect_judge_opts_default(&def);
			o.cap = o.cap ? o.cap : def.cap;
			enum ior_bisect_call c = ends_call(r, &rd, &o, reason, len);
			ior_bisect_rounds_free(&rd);
			if (c == IOR_CALL_GOOD) {
				*refused = false;
				return IOR_OK;
			}
			if (ior_bisect_ends_round(r, ends))
				return IOR_ERROR;
			continue;
		}
		if (d->budget_s > 0) {
			struct ior_bisect_plan_in in;
			plan_input(r, &in, r->cal.noise, looks);
			size_t afford = ior_bisect_plan_afford(&in);
			if (o.cap && afford > o.cap)
				afford = o.cap;
			o.cap = afford > 5 ? afford : 5;
			/* the ends may take half the budget: past it the judge decides on the rounds it has (neither
			 * of its more-rounds rules applies below twice the cap) */
			if (ior_bisect_elapsed(r) > d->budget_s / 2)
				o.calibrate_cap = rd.n / IOR_BISECT_CALIBRATE_MORE;
		}
		size_t n = rd.n;
		enum ior_bisect_call c = ends_call(r, &rd, &o, reason, len);
		ior_bisect_rounds_free(&rd);
		if (c == IOR_CALL_SKIP)
			budget_refusal(r, looks, reason, len);
		if (c != IOR_CALL_MORE) {
			*refused = c == IOR_CALL_SKIP;
			return IOR_OK;
		}
		if (n && n % 5 == 0)
			ior_bisect_say(r, "calibrating: round %zu of at least %zu, both ends, %s\n", n, o.calibrate, ior_bisect_times(r));
		if (ior_bisect_ends_round(r, ends))
			return IOR_ERROR;
	}
}
