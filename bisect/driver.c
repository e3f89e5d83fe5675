/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bisect loop over a candidate source and a measuring step: builds once per commit, measures as
 * the judge asks, marks, confirms, and stores each step as it goes. */
#include "bisect/driver.h"
#include "bisect/evidence.h"
#include "bisect/plan.h"

#include "common/error.h"
#include "common/stop.h"
#include "stats/paired.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Undecided commits in a row before the bisection stops with the range it has. */
#define IOR_BISECT_MAX_UNDECIDED 3

/* Failed measurements in a row of an end that has measured before, before the bisection stops: one
 * failure (a boot that timed out, a benchmark that crashed once) only re-measures the round. */
#define IOR_BISECT_END_TRIES 3

/* The rounds of the ends the re-planning reads the machine's present noise from. */
#define IOR_BISECT_RECENT_ROUNDS 30

struct run {
	struct ior_bisect_driver *d;
	struct ior_bisect_graph g;
	char **good_ids, *bad_id;
	size_t ngood;
	char current[96];              /* what the source has prepared, "" unknown */
	struct ior_bisect_calibration cal;  /* the ends' gap, noise and drift from their rounds */
	bool boot_failed;              /* the last failed measurement was a kernel that did not boot */
	bool images_blind;             /* both ends built the same artifact: it tells no commit's build apart */
	const char *status;            /* the bisection's status as stored (started, running, ...) */
	size_t cap;                    /* rounds per commit now: --cap, or the budget's plan */
	size_t end_fails[2];           /* failed measurements in a row of the good and the bad end */
	/* the pace as measured in this run: what the plan and the time left are made from */
	struct timespec t0;
	double measure_s, build_s;     /* seconds spent measuring and building */
	size_t measures, builds;
	struct ior_bisect_plan plan;   /* the last plan (need 0 until there is one) */
	double plan_at;                /* elapsed seconds when it was made */
};

static void say(const struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const struct run *r, const char *fmt, ...)
{
	if (!r->d->out)
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(r->d->out, fmt, ap);
	va_end(ap);
	fflush(r->d->out);
}

static const char *shortid(const char *id)
{
	static char buf[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%.*s", ior_bisect_id_width(id), id);
	return buf[k];
}

/* Seconds since this run began. */
static double elapsed(const struct run *r)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - r->t0.tv_sec) + (double)(t.tv_nsec - r->t0.tv_nsec) / 1e9;
}

/* How a commit is named in progress lines: its short id and, from the graph, its subject. */
static const char *named(const struct run *r, const char *id)
{
	static char buf[2][192];
	static int k;
	k = (k + 1) % 2;
	long i = ior_bisect_graph_find(&r->g, id);
	const char *subject = i >= 0 ? r->g.nodes[i].subject : NULL;
	if (subject && subject[0] && strcmp(subject, id))   /* a packaged kernel's subject is its name */
		snprintf(buf[k], sizeof(buf[k]), "%s (%.60s%s)", shortid(id), subject, strlen(subject) > 60 ? "..." : "");
	else
		snprintf(buf[k], sizeof(buf[k]), "%s", shortid(id));
	return buf[k];
}

/* "elapsed 3 min, about 20 min left": the time left from the last plan, as far as one was made. */
static const char *times(const struct run *r)
{
	static char buf[128];
	char a[32], b[32];
	double now = elapsed(r);
	ior_bisect_plan_duration(a, sizeof(a), now);
	if (!r->plan.need) {
		snprintf(buf, sizeof(buf), "elapsed %s", a);
		return buf;
	}
	double left = r->plan.seconds - (now - r->plan_at);
	ior_bisect_plan_duration(b, sizeof(b), left > 0 ? left : 0);
	snprintf(buf, sizeof(buf), "elapsed %s, about %s left", a, b);
	return buf;
}

static int prepare(struct run *r, const char *id)
{
	if (!strcmp(r->current, id))
		return IOR_OK;
	r->current[0] = '\0';
	if (r->d->src->prepare(r->d->src, id))
		return IOR_ERROR;
	snprintf(r->current, sizeof(r->current), "%s", id);
	return IOR_OK;
}

static int stopped(void)
{
	return ior_stop_requested() ? ior_error_set(IOR_EINTERRUPTED, "bisection interrupted by signal %d; "
						    "'ioregress bisect run' resumes it", ior_stop_signal())
				    : IOR_OK;
}

/* Builds id once: *ok false when its build failed (now or in an earlier session). */
static int built(struct run *r, const char *id, bool *ok, char *image, size_t len)
{
	struct ior_bisect_driver *d = r->d;
	bool done;
	if (ior_bisect_build_get(d->db, d->id, id, &done, ok, image, len))
		return IOR_ERROR;
	if (done)
		return IOR_OK;
	if (stopped() || prepare(r, id))
		return IOR_ERROR;
	say(r, "building %s, %s\n", named(r, id), times(r));
	enum ior_step_outcome o;
	d->m->failure[0] = '\0';
	double t = elapsed(r);
	if (d->m->build(d->m, id, &o, image, len))
		return IOR_ERROR;
	r->build_s += elapsed(r) - t;
	r->builds++;
	*ok = o == IOR_STEP_OK;
	char detail[160];
	snprintf(detail, sizeof(detail), "%s%s%s", ior_step_outcome_name(o), *image ? ", image " : "", image);
	if (ior_bisect_build_set(d->db, d->id, id, *ok, image) || ior_bisect_log(d->db, d->id, id, "build", detail))
		return IOR_ERROR;
	/* why it failed (a package name apt does not know, a download that failed), as a kernel
	 * tree's build logs it itself */
	if (!*ok && d->m->failure[0] && ior_bisect_build_error_set(d->db, d->id, id, d->m->failure))
		return IOR_ERROR;
	return IOR_OK;
}

/* Why id's build failed as its log says (this session's or an earlier one's), or "its build failed". */
static int build_failure(struct run *r, const char *id, char *out, size_t len)
{
	bool found;
	char detail[1024];
	if (ior_bisect_build_error_get(r->d->db, r->d->id, id, &found, detail, sizeof(detail)))
		return IOR_ERROR;
	snprintf(out, len, "its build failed%s%s", found ? ": " : "", found ? detail : "");
	return IOR_OK;
}

/* An end that cannot be built or measured stops the bisection, as nothing can be judged against it:
 * which end, what it does (does not build, does not boot, panics, hangs) and why (the outcome, the
 * tries, the reason and console head) become the bisection's result, which status shows, and a
 * "stopped" line of its log; everything measured is kept, and run again tries it again. */
static int end_stopped(struct run *r, const char *end, const char *what, const char *failure)
{
	struct ior_bisect_driver *d = r->d;
	bool bad = !strcmp(end, r->bad_id);
	struct ior_bisect_counts n;
	char *text = NULL, detail[2048];
	int rc = ior_bisect_counts_get(d->db, d->id, &n);
	if (!rc)
		rc = ior_bisect_evidence_end(&text, bad, end, what, failure, n.samples);
	/* a finished bisection run again keeps its answer as its result: the log has the stop */
	if (!rc && strcmp(r->status, "found") && strcmp(r->status, "range"))
		rc = ior_bisect_set_status(d->db, d->id, r->status, text);
	snprintf(detail, sizeof(detail), "the %s end %s %s: %s", bad ? "bad" : "good", end, what, failure);
	if (!rc)
		rc = ior_bisect_log(d->db, d->id, NULL, "stopped", detail);
	if (!rc)
		say(r, "%s", text);
	free(text);
	if (rc)
		return rc;
	return ior_error_set(IOR_ERROR, "the bisection cannot go on: the %s end '%s' %s ('bisect status' and 'bisect log' "
			     "keep why; 'bisect run' tries it again)", bad ? "bad" : "good", end, what);
}

/* The end whose measurement just failed: by its boot's outcome when it did not boot. */
static int end_not_measured(struct run *r, const char *end)
{
	const char *f = r->d->m->failure;
	if (r->boot_failed)
		return end_stopped(r, end, ior_bisect_failure_verb(f), f[0] ? f : "its boot failed");
	return end_stopped(r, end, "cannot be measured", f[0] ? f : "its measurement failed");
}

/* A sample as the measure printed it, as far as a double tells: the shortest text that reads back
 * to the same value (325.999, not %.17g's 325.99900000000002). */
static const char *shortest(double v)
{
	static char buf[32];
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

/* One measurement of a built commit in a round, its samples stored and logged; *ok false when it failed. */
static int measure(struct run *r, const char *id, size_t round, bool *ok)
{
	struct ior_bisect_driver *d = r->d;
	if (stopped() || prepare(r, id))
		return IOR_ERROR;
	double *x = NULL;
	size_t n = 0;
	enum ior_step_outcome o;
	d->m->failure[0] = '\0';
	double t = elapsed(r);
	int rc = d->m->measure(d->m, id, &x, &n, &o);
	double took = elapsed(r) - t;
	r->measure_s += took;
	r->measures++;
	*ok = !rc && o == IOR_STEP_OK;
	r->boot_failed = !rc && o == IOR_STEP_BOOT_FAILED;
	if (*ok && (!strcmp(id, r->good_ids[0]) || !strcmp(id, r->bad_id)))
		r->end_fails[!strcmp(id, r->bad_id)] = 0;
	/* a boot is named by the commit it boots, not by its image's path */
	if (!rc && d->m->per_boot)
		say(r, "  boot of %s, round %zu: %s, %.1f s%s%s\n", named(r, id), round, *ok ? "ok" : ior_step_outcome_name(o),
		    took, !*ok && d->m->failure[0] ? ": " : "", !*ok ? d->m->failure : "");
	char detail[2048];
	size_t len = (size_t)snprintf(detail, sizeof(detail), "round=%zu ", round);
	for (size_t i = 0; i < n && len < sizeof(detail) - 32; i++)
		len += (size_t)snprintf(detail + len, sizeof(detail) - len, "%s%s", i ? " " : "", shortest(x[i]));
	if (len && detail[len - 1] == ' ')
		detail[len - 1] = '\0';
	if (!rc && *ok)
		rc = ior_bisect_samples_add_round(d->db, d->id, id, x, n, round);
	if (!rc)
		rc = ior_bisect_log(d->db, d->id, id, "measure", *ok ? detail : ior_step_outcome_name(o));
	/* a kernel that keeps failing to boot is a finding: its outcome and console head are kept */
	if (!rc && r->boot_failed)
		rc = ior_bisect_boot_failure_set(d->db, d->id, id, d->m->failure[0] ? d->m->failure : "boot-failed");
	free(x);
	return rc;
}

/* An end's measurement failed in a round: the round is left out and measured again, as a failed
 * boot of a candidate is tried again, unless the end has never been measured (it does not work at
 * all) or has failed IOR_BISECT_END_TRIES times in a row: then the bisection stops at it. */
static int end_retry(struct run *r, const char *end)
{
	struct ior_bisect_driver *d = r->d;
	bool bad = !strcmp(end, r->bad_id);
	size_t samples;
	if (ior_bisect_samples_count(d->db, d->id, end, &samples))
		return IOR_ERROR;
	if (!samples || ++r->end_fails[bad] >= IOR_BISECT_END_TRIES)
		return end_not_measured(r, end);
	char detail[1400];
	snprintf(detail, sizeof(detail), "the %s end's measurement failed (%zu in a row, %d stop the bisection)%s%s; the "
		 "round is measured again", bad ? "bad" : "good", r->end_fails[bad], IOR_BISECT_END_TRIES,
		 d->m->failure[0] ? ": " : "", d->m->failure);
	say(r, "%s: %s\n", shortid(end), detail);
	return ior_bisect_log(d->db, d->id, end, "end-failed", detail);
}

/* One round: each of ids measured once, one after another, the order rotated with the round
 * number (and reversed every other cycle) so no commit is always first or last. *failed gets the
 * index of a commit whose measurement failed, or k. */
static int measure_round(struct run *r, const char *const *ids, size_t k, size_t *failed)
{
	size_t round;
	*failed = k;
	if (ior_bisect_round_next(r->d->db, r->d->id, &round))
		return IOR_ERROR;
	for (size_t j = 0; j < k; j++) {
		size_t at = (round + ((round / k) % 2 ? k - 1 - j : j)) % k;
		bool ok;
		if (measure(r, ids[at], round, &ok))
			return IOR_ERROR;
		if (!ok) {
			*failed = at;
			return IOR_OK;
		}
	}
	return IOR_OK;
}

/* A round of both ends, or the bisection stopped at the end that cannot be measured. */
static int ends_round(struct run *r, const char *const *ends)
{
	size_t failed;
	if (measure_round(r, ends, 2, &failed))
		return IOR_ERROR;
	return failed < 2 ? end_retry(r, ends[failed]) : IOR_OK;
}

/* Both ends built the same artifact: it cannot be what differs between them, so either it names
 * something the build does not write (every step would then measure the last build: a -50% history
 * was refused as "not worse") or the difference lies outside it. Said loudly and logged; no commit
 * takes a verdict from an identical artifact, and the step builds each commit again before its
 * measurements. */
static int ends_alike(struct run *r, const char *image)
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
static int looks_left(struct run *r, size_t *looks)
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
static int ends_noise(struct run *r, double *recent, double *all)
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
static void plan_input(const struct run *r, struct ior_bisect_plan_in *in, double noise, size_t looks)
{
	const struct ior_bisect_driver *d = r->d;
	struct ior_bisect_judge_opts def;
	ior_bisect_judge_opts_default(&def);
	*in = (struct ior_bisect_plan_in){
		.noise = noise, .gap = r->cal.gap, .cal_rounds = r->cal.rounds, .alpha = d->o.alpha, .looks = looks,
		.confirm = d->o.confirm, .left_s = d->budget_s > 0 ? d->budget_s - elapsed(r) : INFINITY,
		.measure_s = r->measures ? r->measure_s / (double)r->measures : 0,
		.build_s = r->builds ? r->build_s / (double)r->builds : 0,
		.cap_max = d->o.cap, .cap_floor = d->budget_s > 0 ? def.cap : d->o.cap,
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
static void budget_refusal(struct run *r, size_t looks, char *reason, size_t len)
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
	budget_words(more, sizeof(more), elapsed(r) + p.need_s);
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
static int replan(struct run *r, size_t looks, bool initial)
{
	struct ior_bisect_driver *d = r->d;
	double recent, all;
	if (ends_noise(r, &recent, &all))
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
	r->plan_at = elapsed(r);
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
	say(r, "%s: %s\n", initial ? "plan" : "re-planned", text);
	return ior_bisect_log(d->db, d->id, NULL, "plan", text);
}

/* Both ends in rounds until the judge is satisfied or refuses; every round of both ends so far
 * counts (a resumed bisection recalibrates on all of them). Under a budget the rounds per commit the
 * judge weighs the gap against are the ones the budget affords at the pace measured so far. */
static int calibrate(struct run *r, bool *refused, char *reason, size_t len)
{
	struct ior_bisect_driver *d = r->d;
	const char *ends[2] = { r->good_ids[0], r->bad_id };
	char image[2][80];
	for (int e = 0; e < 2; e++) {
		bool ok;
		char why[1100];
		if (built(r, ends[e], &ok, image[e], sizeof(image[e])) ||
		    (!ok && build_failure(r, ends[e], why, sizeof(why))))
			return IOR_ERROR;
		if (!ok)
			return end_stopped(r, ends[e], "does not build", why);
	}
	if (image[0][0] && !strcmp(image[0], image[1]) && ends_alike(r, image[0]))
		return IOR_ERROR;
	size_t looks = 0;
	if (looks_left(r, &looks))
		return IOR_ERROR;
	for (;;) {
		struct ior_bisect_rounds rd;
		if (ior_bisect_rounds_get(d->db, d->id, ends, 2, 1, &rd))
			return IOR_ERROR;
		struct ior_bisect_judge_opts o = d->o;
		if (d->budget_s > 0 && rd.n >= o.calibrate && !r->measures) {
			/* a resumed run has not measured its pace yet: one more round of the ends does */
			ior_bisect_rounds_free(&rd);
			if (ends_round(r, ends))
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
			if (elapsed(r) > d->budget_s / 2)
				o.calibrate_cap = rd.n / IOR_BISECT_CALIBRATE_MORE;
		}
		double g[rd.n ? rd.n : 1], b[rd.n ? rd.n : 1];
		for (size_t i = 0; i < rd.n; i++)
			g[i] = rd.v[2 * i], b[i] = rd.v[2 * i + 1];
		size_t n = rd.n;
		enum ior_bisect_call c = ior_bisect_calibrated(&r->cal, g, b, n, &o, reason, len);
		ior_bisect_rounds_free(&rd);
		if (c == IOR_CALL_SKIP)
			budget_refusal(r, looks, reason, len);
		if (c != IOR_CALL_MORE) {
			*refused = c == IOR_CALL_SKIP;
			return IOR_OK;
		}
		if (n && n % 5 == 0)
			say(r, "calibrating: round %zu of at least %zu, both ends, %s\n", n, o.calibrate, times(r));
		if (ends_round(r, ends))
			return IOR_ERROR;
	}
}

static int mark(struct run *r, const char *id, enum ior_bisect_mark m, const char *reason, const char *event)
{
	struct ior_bisect_driver *d = r->d;
	char detail[1024];
	snprintf(detail, sizeof(detail), "%s: %s", ior_bisect_mark_name(m), reason);
	say(r, "%s %s: %s\n", shortid(id), ior_bisect_mark_name(m), reason);
	return ior_bisect_mark_set(d->db, d->id, id, m, reason) || ior_bisect_log(d->db, d->id, id, event, detail);
}

/* Unstable rounds of one commit before it is skipped: at least this many, and as many as it has
 * stable ones (a step change now and then is re-measured; a machine that keeps moving is not). */
#define IOR_BISECT_MAX_UNSTABLE 6

/* Rounds of the good end, id and the bad end (from round `from` on) until the judge calls id
 * (cap: the judge's cap, in stable rounds); *call gets the call and reason the words. A round the
 * machine moved in (ior_bisect_round_unstable) is measured again, not judged. The judge looks only
 * at the counts it asked for (5, 10, 15 ... rounds): each look spends some of the error rate. */
static int judge_until(struct run *r, const char *id, size_t from, size_t at_least, size_t cap,
		       enum ior_bisect_call *call, char *reason, size_t len)
{
	struct ior_bisect_driver *d = r->d;
	const char *ids[3] = { r->good_ids[0], id, r->bad_id };
	size_t need = at_least;
	bool said = false;
	for (;;) {
		struct ior_bisect_rounds rd;
		if (ior_bisect_rounds_get(d->db, d->id, ids, 3, from, &rd))
			return IOR_ERROR;
		double g[rd.n ? rd.n : 1], x[rd.n ? rd.n : 1], b[rd.n ? rd.n : 1], recent;
		size_t n = 0, unstable = 0;
		char why[256] = "";
		/* the noise seen across the whole bisection: a quiet calibration's alone would call ordinary
		 * rounds of a busier minute unstable */
		if (ends_noise(r, &recent, &r->cal.floor)) {
			ior_bisect_rounds_free(&rd);
			return IOR_ERROR;
		}
		for (size_t i = 0; i < rd.n; i++) {
			const double *v = rd.v + 3 * i;
			if (ior_bisect_round_unstable(&r->cal, v[0], v[1], v[2], why, sizeof(why))) {
				unstable++;
				continue;
			}
			g[n] = v[0], x[n] = v[1], b[n++] = v[2];
		}
		ior_bisect_rounds_free(&rd);
		if (unstable >= IOR_BISECT_MAX_UNSTABLE && unstable >= n) {
			*call = IOR_CALL_SKIP;
			snprintf(reason, len, "unstable: the machine moved within %zu of its %zu rounds (last: %s), so its "
				 "position between the ends cannot be trusted", unstable, unstable + n, why);
			return IOR_OK;
		}
		bool looked = n >= need;
		if (looked) {
			*call = ior_bisect_judge(&r->cal, g, x, b, n, cap, &d->o, &need, reason, len);
			if (n >= need && *call == IOR_CALL_MORE)
				need = n + 1;
		} else {
			*call = IOR_CALL_MORE;
		}
		/* a line per look: the commit, its rounds of those planned, the phase, the time */
		if (*call == IOR_CALL_MORE && (looked || !said)) {
			say(r, "  %s: round %zu of up to %zu, measuring, %s\n", named(r, id), n, cap, times(r));
			said = true;
		}
		if (*call != IOR_CALL_MORE) {
			if (unstable && strlen(reason) + 64 < len)
				snprintf(reason + strlen(reason), len - strlen(reason), "; %zu round(s) measured again", unstable);
			return IOR_OK;
		}
		size_t failed;
		if (measure_round(r, ids, 3, &failed))
			return IOR_ERROR;
		if (failed == 1) {
			*call = IOR_CALL_SKIP;
			if (r->boot_failed)
				snprintf(reason, len, "it does not boot: %s", d->m->failure[0] ? d->m->failure : "boot-failed");
			else
				snprintf(reason, len, "its measurement failed");
			return IOR_OK;
		}
		if (failed < 3 && end_retry(r, ids[failed]))
			return IOR_ERROR;
	}
}

/* One candidate: built, reused from an identical image, or measured and judged; then marked.
 * *undecided: it was skipped because the samples could not tell (not for a failed build). */
static int step(struct run *r, size_t node, bool *undecided)
{
	struct ior_bisect_driver *d = r->d;
	const char *id = r->g.nodes[node].id;
	bool ok, same;
	char image[80], other[96], reason[1024];
	enum ior_bisect_mark m;
	if (built(r, id, &ok, image, sizeof(image)) || (!ok && build_failure(r, id, reason, sizeof(reason))))
		return IOR_ERROR;
	if (!ok)
		return mark(r, id, IOR_MARK_SKIP, reason, "mark");
	if (r->images_blind)
		same = false;
	else if (ior_bisect_same_image(d->db, d->id, id, image, &same, other, sizeof(other), &m))
		return IOR_ERROR;
	if (same) {
		bool end = !strcmp(other, r->good_ids[0]) || !strcmp(other, r->bad_id);
		snprintf(reason, sizeof(reason), "its build artifact is identical to %s's (%s), %s %s" IOR_BISECT_UNMEASURED,
			 end ? (m == IOR_MARK_GOOD ? "the good end" : "the bad end") : shortid(other), shortid(image),
			 end ? "so it takes that end's verdict," : "which was", ior_bisect_mark_name(m));
		return mark(r, id, m, reason, "mark");
	}
	enum ior_bisect_call c;
	r->boot_failed = false;
	if (judge_until(r, id, 1, 0, r->cap, &c, reason, sizeof(reason)))
		return IOR_ERROR;
	/* a kernel that does not boot was not left undecided by the noise: it is skipped, and named
	 * when its neighbours cannot decide without it */
	*undecided = c == IOR_CALL_SKIP && !r->boot_failed;
	m = c == IOR_CALL_GOOD ? IOR_MARK_GOOD : c == IOR_CALL_BAD ? IOR_MARK_BAD : IOR_MARK_SKIP;
	return mark(r, id, m, reason, "mark");
}

/* The parent measured to confirm the culprit: its first parent inside the graph, or the good end. */
static const char *confirm_parent(const struct run *r, size_t culprit)
{
	const struct ior_bisect_node *c = &r->g.nodes[culprit];
	return c->nparents ? r->g.nodes[c->parents[0]].id : r->good_ids[0];
}

/* How a confirmation ended. */
enum confirm_verdict {
	CONFIRM_CONFIRMED,   /* the culprit stays bad and its parent good, apart from each other */
	CONFIRM_OVERTURNED,  /* one of the two was judged the other way: its mark changed, bisect on */
	CONFIRM_UNDECIDED,   /* the two are the range */
	CONFIRM_AGAIN,       /* not yet apart: a larger target was logged, confirm again */
};

/* A confirmation's own rounds: the first round it may use and how many stable ones it needs
 * (o.confirm, then o.step more each time the two are not yet apart), against which parent. Kept
 * on the culprit's row (none once overturned, so a later confirmation of the same commit starts
 * afresh), so a resumed or replayed bisection confirms on the same rounds; nothing measured before
 * it counts, so the verdict rests on fresh rounds only. */
static int confirm_target_get(struct run *r, const char *c, const char *p, struct ior_bisect_confirm_state *t)
{
	struct ior_bisect_driver *d = r->d;
	bool found;
	if (ior_bisect_confirm_get(d->db, d->id, c, &found, t))
		return IOR_ERROR;
	if (found && !strcmp(t->parent, p))
		return IOR_OK;
	*t = (struct ior_bisect_confirm_state){ .need = d->o.confirm };
	snprintf(t->parent, sizeof(t->parent), "%s", p);
	if (ior_bisect_round_next(d->db, d->id, &t->from))
		return IOR_ERROR;
	return ior_bisect_confirm_set(d->db, d->id, c, t);
}

/* The confirmation's stable rounds, as columns good, parent, culprit, bad (an end stands in for
 * the parent or the culprit when it is one): *n of them. */
struct confirm_rounds {
	size_t n;
	double *g, *p, *c, *b;
};

static void confirm_rounds_free(struct confirm_rounds *cr)
{
	free(cr->g), free(cr->p), free(cr->c), free(cr->b);
	memset(cr, 0, sizeof(*cr));
}

static int confirm_rounds_get(struct run *r, const char *const *ids, size_t k, size_t from, bool p_end, bool c_end,
			      struct confirm_rounds *cr)
{
	struct ior_bisect_rounds rd;
	memset(cr, 0, sizeof(*cr));
	if (ior_bisect_rounds_get(r->d->db, r->d->id, ids, k, from, &rd))
		return IOR_ERROR;
	size_t m = rd.n ? rd.n : 1;
	cr->g = calloc(m, sizeof(double)), cr->p = calloc(m, sizeof(double));
	cr->c = calloc(m, sizeof(double)), cr->b = calloc(m, sizeof(double));
	if (!cr->g || !cr->p || !cr->c || !cr->b) {
		ior_bisect_rounds_free(&rd);
		confirm_rounds_free(cr);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	for (size_t i = 0; i < rd.n; i++) {
		const double *v = rd.v + k * i;
		double g = v[0], b = v[k - 1], pv = p_end ? g : v[1], cv = c_end ? b : v[k - 2];
		char why[256];
		if ((!p_end && ior_bisect_round_unstable(&r->cal, g, pv, b, why, sizeof(why))) ||
		    (!c_end && ior_bisect_round_unstable(&r->cal, g, cv, b, why, sizeof(why))))
			continue;
		cr->g[cr->n] = g, cr->p[cr->n] = pv, cr->c[cr->n] = cv, cr->b[cr->n++] = b;
	}
	ior_bisect_rounds_free(&rd);
	return IOR_OK;
}

/* Whether commits a and b both built an artifact and it is the same one (a commit is its own). */
static int same_build(struct run *r, const char *a, const char *b, bool *same)
{
	char h[2][80];
	const char *ids[2] = { a, b };
	*same = !strcmp(a, b);
	for (int i = 0; i < 2 && !*same && !r->images_blind; i++) {
		bool done, ok;
		if (ior_bisect_build_get(r->d->db, r->d->id, ids[i], &done, &ok, h[i], sizeof(h[i])))
			return IOR_ERROR;
		if (!done || !ok || !h[i][0])
			return IOR_OK;
	}
	*same = *same || (!r->images_blind && !strcmp(h[0], h[1]));
	return IOR_OK;
}

/* Fresh rounds of the good end, the parent, the culprit and the bad end, then both judged on them
 * alone. */
static int confirm(struct run *r, size_t culprit, enum confirm_verdict *verdict, char *reason, size_t len)
{
	struct ior_bisect_driver *d = r->d;
	const char *c = r->g.nodes[culprit].id, *p = confirm_parent(r, culprit);
	bool p_end = !strcmp(p, r->good_ids[0]), c_end = !strcmp(c, r->bad_id);
	bool ok;
	char image[80];
	if (!p_end && built(r, p, &ok, image, sizeof(image)))
		return IOR_ERROR;
	if (!p_end && !ok) {
		*verdict = CONFIRM_UNDECIDED;
		snprintf(reason, len, "the parent %s does not build", shortid(p));
		return IOR_OK;
	}
	bool p_same, c_same;
	if (same_build(r, p, r->good_ids[0], &p_same) || same_build(r, c, r->bad_id, &c_same))
		return IOR_ERROR;
	if (p_same && c_same) {
		/* nothing to measure: the two builds are the ends' own, whose gap calibration established */
		*verdict = CONFIRM_CONFIRMED;
		snprintf(reason, len, "%s builds the bad end's artifact and its parent %s the good end's", shortid(c),
			 shortid(p));
		return ior_bisect_log(d->db, d->id, c, "confirmed", reason);
	}
	/* A side that built its end's artifact is that end for the measure: the end's column stands in
	 * for it, and the rounds measure three sides instead of four. */
	p_end = p_same, c_end = c_same;
	struct ior_bisect_confirm_state t;
	if (confirm_target_get(r, c, p, &t))
		return IOR_ERROR;
	say(r, "confirming %s against its parent %s: %zu fresh rounds, up to %zu, %s\n", named(r, c), shortid(p), t.need,
	    r->cap, times(r));
	const char *ids[4];
	size_t k = 0;
	ids[k++] = r->good_ids[0];
	if (!p_end)
		ids[k++] = p;
	if (!c_end)
		ids[k++] = c;
	ids[k++] = r->bad_id;
	struct confirm_rounds cr;
	size_t tries = 0;
	for (;;) {
		if (confirm_rounds_get(r, ids, k, t.from, p_end, c_end, &cr))
			return IOR_ERROR;
		if (cr.n >= t.need)
			break;
		confirm_rounds_free(&cr);
		size_t failed;
		if (++tries > 3 * t.need) {
			*verdict = CONFIRM_UNDECIDED;
			snprintf(reason, len, "the machine moved within most of the confirmation's rounds");
			return IOR_OK;
		}
		if (measure_round(r, ids, k, &failed))
			return IOR_ERROR;
		if (failed == 0 || failed == k - 1) {
			if (end_retry(r, ids[failed]))
				return IOR_ERROR;
			continue;
		}
		if (failed < k) {
			*verdict = CONFIRM_UNDECIDED;
			snprintf(reason, len, "%s could not be measured again", shortid(ids[failed]));
			return IOR_OK;
		}
	}
	enum ior_bisect_call cc = IOR_CALL_BAD, pc = IOR_CALL_GOOD;
	char rc_[1024] = "the bad end", rp[1024] = "the good end";
	if (c_end && strcmp(c, r->bad_id))
		snprintf(rc_, sizeof(rc_), "it built the bad end's artifact");
	if (p_end && strcmp(p, r->good_ids[0]))
		snprintf(rp, sizeof(rp), "it built the good end's artifact");
	size_t need;
	if (!c_end)
		cc = ior_bisect_judge(&r->cal, cr.g, cr.c, cr.b, cr.n, cr.n, &d->o, &need, rc_, sizeof(rc_));
	if (!p_end)
		pc = ior_bisect_judge(&r->cal, cr.g, cr.p, cr.b, cr.n, cr.n, &d->o, &need, rp, sizeof(rp));
	double step_p = ior_bisect_step_p(cr.p, cr.c, cr.n, &d->o);
	size_t n = cr.n;
	confirm_rounds_free(&cr);
	bool room = t.need + d->o.step <= r->cap;
	if (cc == IOR_CALL_BAD && pc == IOR_CALL_GOOD && step_p < d->o.confirm_alpha) {
		*verdict = CONFIRM_CONFIRMED;
		snprintf(reason, len, "in %zu fresh rounds %s stays bad (%s) and its parent %s stays good (%s); against its "
			 "parent in the same rounds one-sided paired p = %.3g", n, shortid(c), rc_, shortid(p), rp, step_p);
		return ior_bisect_log(d->db, d->id, c, "confirmed", reason);
	}
	if (cc == IOR_CALL_GOOD || pc == IOR_CALL_BAD) {
		*verdict = CONFIRM_OVERTURNED;
		/* a later confirmation of the same commit takes fresh rounds again */
		int rc = ior_bisect_confirm_set(d->db, d->id, c, NULL);
		if (!rc && cc == IOR_CALL_GOOD)
			rc = mark(r, c, IOR_MARK_GOOD, rc_, "overturned");
		if (!rc && pc == IOR_CALL_BAD)
			rc = mark(r, p, IOR_MARK_BAD, rp, "overturned");
		return rc;
	}
	if (room) {
		/* not yet apart, or not yet placed: more fresh rounds of all of them */
		t.need += d->o.step;
		*verdict = CONFIRM_AGAIN;
		return ior_bisect_confirm_set(d->db, d->id, c, &t);
	}
	*verdict = CONFIRM_UNDECIDED;
	snprintf(reason, len, "in %zu fresh rounds %s is %s (%s) and its parent %s is %s (%s); against each other "
		 "one-sided paired p = %.3g", n, shortid(c), ior_bisect_call_name(cc), rc_, shortid(p),
		 ior_bisect_call_name(pc), rp, step_p);
	return IOR_OK;
}

/* Clears the marks of commits a confirmation could not bear out (never an end's), so a range
 * answer holds only commits not judged good or bad. */
static int unjudge(struct run *r, const size_t *nodes, size_t n, const char *why)
{
	for (size_t i = 0; i < n; i++) {
		const char *id = r->g.nodes[nodes[i]].id;
		if (!strcmp(id, r->bad_id) || !strcmp(id, r->good_ids[0]))
			continue;
		if (ior_bisect_mark_set(r->d->db, r->d->id, id, IOR_MARK_NONE, why) ||
		    ior_bisect_log(r->d->db, r->d->id, id, "unjudged", why))
			return IOR_ERROR;
	}
	return IOR_OK;
}

/* The rounds end was measured in and its samples. */
static int end_count(struct run *r, const char *end, size_t *rounds, size_t *samples)
{
	struct ior_bisect_rounds rd;
	if (ior_bisect_samples_count(r->d->db, r->d->id, end, samples) ||
	    ior_bisect_rounds_get(r->d->db, r->d->id, &end, 1, 1, &rd))
		return IOR_ERROR;
	*rounds = rd.n;
	ior_bisect_rounds_free(&rd);
	return IOR_OK;
}

/* What the ends' evidence was, per side: samples and rounds (with a measure that boots, boots: one
 * a round, each boot's median one observation), and the smallest change findable at the cap. */
static int ends_evidence(struct run *r, char *buf, size_t len)
{
	size_t gr = 0, gs = 0, br = 0, bs = 0;
	if (end_count(r, r->good_ids[0], &gr, &gs) || end_count(r, r->bad_id, &br, &bs))
		return IOR_ERROR;
	const char *unit = r->d->m->per_boot ? "boots" : "rounds";
	size_t cap = r->cap ? r->cap : r->d->o.cap;
	size_t at = (size_t)snprintf(buf, len, "%zu samples of the good end in %zu %s and %zu of the bad end in %zu %s%s", gs,
				     gr, unit, bs, br, unit,
				     r->d->m->per_boot ? " (one boot of each per round, each boot's median one observation)" : "");
	if (cap && at < len)   /* a budget's refusal has said what its rounds can find */
		snprintf(buf + at, len - at, "; the smallest change findable at %s%zu%s is %.1f%%",
			 r->d->budget_s > 0 ? "" : "--cap ", cap, r->d->budget_s > 0 ? " rounds per commit" : "",
			 expm1(ior_bisect_smallest(r->cal.noise, cap, r->cal.rounds, r->d->o.alpha)) * 100);
	return IOR_OK;
}

static int finish(struct run *r, struct ior_bisect_result *res, const struct ior_bisect_left *left, size_t culprit,
		  const char *why)
{
	struct ior_bisect_driver *d = r->d;
	char *text = NULL, full[3072], ends[512];
	/* every answer says how noisy and how drifting the machine was, and a range what to do next */
	struct ior_bisect_counts n;
	if (ior_bisect_counts_get(d->db, d->id, &n) || ends_evidence(r, ends, sizeof(ends)))
		return IOR_ERROR;
	snprintf(full, sizeof(full), "%s; the ends: noise %.1f%%, drift %.1f%% over %zu rounds, %s, %zu samples in all%s",
		 why, r->cal.noise * 100, r->cal.drift * 100, r->cal.rounds, ends, n.samples,
		 res->end == IOR_BISECT_FOUND ? ""
					      : "; next: test the commits listed by hand, or run again with a larger --budget "
						"(or --cap, rounds per commit) when the machine is quieter");
	why = full;
	int rc = res->end == IOR_BISECT_FOUND
			 ? ior_bisect_evidence_culprit(&text, d->db, d->id, d->src, &r->g, culprit, confirm_parent(r, culprit),
						       r->good_ids[0], r->bad_id, why)
			 : ior_bisect_evidence_range(&text, d->db, d->id, d->src, &r->g, left, r->good_ids[0], r->bad_id, why);
	if (!rc)
		rc = ior_bisect_set_status(d->db, d->id, res->end == IOR_BISECT_FOUND ? "found" : "range", text);
	if (!rc)
		rc = ior_bisect_log(d->db, d->id, res->end == IOR_BISECT_FOUND ? r->g.nodes[culprit].id : NULL,
				    res->end == IOR_BISECT_FOUND ? "found" : "range", why);
	if (!rc)
		say(r, "%s", text);
	free(text);
	return rc;
}

/* Skipped candidates leave a range, and one of them did not boot: the first of those (in the
 * list's order) is the answer, a kernel that does not boot (or panics), with its outcome and
 * console head; the throughput regression hunted cannot be placed past it, as its neighbours do
 * not decide. *found false when none of the candidates failed to boot. */
static int unbootable_answer(struct run *r, struct ior_bisect_result *res, const struct ior_bisect_left *left,
			     bool *found)
{
	struct ior_bisect_driver *d = r->d;
	char failure[1024] = "";
	size_t first = 0;
	*found = false;
	for (size_t k = 0; k < left->count; k++) {
		size_t node = left->cand[k];
		bool logged;
		char detail[1024];
		if ((*found && node > first) || !strcmp(r->g.nodes[node].id, r->bad_id))
			continue;   /* an end that once did not boot and boots now is no finding */
		if (ior_bisect_boot_failure_get(d->db, d->id, r->g.nodes[node].id, &logged, detail, sizeof(detail)))
			return IOR_ERROR;
		if (logged) {
			*found = true;
			first = node;
			snprintf(failure, sizeof(failure), "%s", detail);
		}
	}
	if (!*found)
		return IOR_OK;
	const char *id = r->g.nodes[first].id;
	res->end = IOR_BISECT_FOUND;
	res->nrange = left->count;
	snprintf(res->culprit, sizeof(res->culprit), "%s", id);
	struct ior_bisect_counts n;
	char *text = NULL, why[2048];
	if (ior_bisect_counts_get(d->db, d->id, &n))
		return IOR_ERROR;
	snprintf(why, sizeof(why), "the regression hunted lies in one of %zu candidates that its neighbours cannot tell "
		 "apart without it; the ends: noise %.1f%%, drift %.1f%% over %zu rounds, %zu samples in all", left->count,
		 r->cal.noise * 100, r->cal.drift * 100, r->cal.rounds, n.samples);
	int rc = ior_bisect_evidence_unbootable(&text, d->db, d->id, &r->g, left, first, failure, r->good_ids[0],
						r->bad_id, why);
	if (!rc)
		rc = ior_bisect_set_status(d->db, d->id, "found", text);
	if (!rc)
		rc = ior_bisect_log(d->db, d->id, id, "found", failure);
	if (!rc)
		say(r, "%s", text);
	free(text);
	return rc;
}

static int loop(struct run *r, struct ior_bisect_result *res)
{
	struct ior_bisect_driver *d = r->d;
	enum ior_bisect_mark *marks = calloc(r->g.n, sizeof(*marks));
	if (!marks)
		return ior_error_set(IOR_ERROR, "out of memory");
	int rc = IOR_OK, overturns = 0, undecided_run = 0;
	for (;;) {
		struct ior_bisect_left left;
		if ((rc = ior_bisect_marks_get(d->db, d->id, &r->g, marks)) || (rc = ior_bisect_left(&left, &r->g, marks)))
			break;
		char why[2048] = "";
		if (left.done) {
			enum confirm_verdict verdict = CONFIRM_CONFIRMED;
			rc = confirm(r, left.bad, &verdict, why, sizeof(why));
			while (!rc && verdict == CONFIRM_AGAIN)
				rc = confirm(r, left.bad, &verdict, why, sizeof(why));
			if (!rc && verdict == CONFIRM_OVERTURNED && ++overturns <= 3) {
				ior_bisect_left_free(&left);
				continue;
			}
			if (!rc && verdict == CONFIRM_CONFIRMED) {
				res->end = IOR_BISECT_FOUND;
				snprintf(res->culprit, sizeof(res->culprit), "%s", r->g.nodes[left.bad].id);
			} else if (!rc) {
				/* undecided, or the noise keeps overturning: the culprit and its parent are the range,
				 * and neither keeps a mark the confirmation did not bear out */
				res->end = IOR_BISECT_RANGE;
				long p = ior_bisect_graph_find(&r->g, confirm_parent(r, left.bad));
				left.cand[0] = left.bad;
				left.count = 1;
				if (p >= 0)
					left.cand[left.count++] = (size_t)p;
				if (verdict == CONFIRM_OVERTURNED)
					snprintf(why, sizeof(why), "the confirmation overturned the result %d times", overturns - 1);
				rc = unjudge(r, left.cand, left.count, why);
			}
			if (!rc) {
				res->nrange = left.count;
				rc = finish(r, res, &left, left.bad, why);
			}
			ior_bisect_left_free(&left);
			break;
		}
		if (left.range) {   /* a kernel among them that does not boot is the answer */
			bool found = false;
			rc = unbootable_answer(r, res, &left, &found);
			if (rc || found) {
				ior_bisect_left_free(&left);
				break;
			}
		}
		/* commits the samples cannot place, one after another: the noise is too large for this
		 * regression at this cap, and testing every commit would only spend builds (the bench
		 * saw one bisection build 329 commits before this rule) */
		if (left.range || undecided_run >= IOR_BISECT_MAX_UNDECIDED) {
			res->end = IOR_BISECT_RANGE;
			res->nrange = left.count;
			if (left.range)
				snprintf(why, sizeof(why), "skipped commits leave %zu candidates", left.count);
			else
				snprintf(why, sizeof(why), "%d commits in a row could not be told apart from either end at %zu "
					 "rounds, so the noise is too large for this difference; %zu candidates are left",
					 undecided_run, r->cap, left.count);
			rc = finish(r, res, &left, left.bad, why);
			ior_bisect_left_free(&left);
			break;
		}
		size_t looks = 0;
		while (((size_t)1 << looks) < left.count)
			looks++;
		if ((rc = replan(r, looks, false))) {
			ior_bisect_left_free(&left);
			break;
		}
		say(r, "%zu candidate(s) left, %s next, %s\n", left.count, named(r, r->g.nodes[left.next].id), times(r));
		bool undecided = false;
		rc = step(r, (size_t)left.next, &undecided);
		undecided_run = undecided ? undecided_run + 1 : 0;
		ior_bisect_left_free(&left);
		if (rc)
			break;
	}
	free(marks);
	return rc;
}

static int split_ids(const char *text, char ***ids, size_t *n)
{
	*ids = NULL, *n = 0;
	char *copy = strdup(text), *save = NULL;
	if (!copy)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char **g = realloc(*ids, (*n + 1) * sizeof(*g));
		if (!g || !(g[*n] = strdup(t))) {
			free(copy);
			if (g)
				*ids = g;
			return ior_error_set(IOR_ERROR, "out of memory");
		}
		*ids = g;
		(*n)++;
	}
	free(copy);
	return IOR_OK;
}

int ior_bisect_drive(struct ior_bisect_driver *d, struct ior_bisect_result *res)
{
	memset(res, 0, sizeof(*res));
	struct ior_bisect_info b;
	if (ior_bisect_current(d->db, &b))
		return IOR_ERROR;
	d->id = b.id;
	d->o.higher_is_better = b.higher_is_better;
	struct run r = { .d = d, .status = b.status, .cap = d->o.cap };
	clock_gettime(CLOCK_MONOTONIC, &r.t0);
	char **given = NULL, reason[1536];
	size_t ngiven = 0;
	int rc = split_ids(b.good, &given, &ngiven);
	if (!rc)
		rc = d->src->load(d->src, (const char *const *)given, ngiven, b.bad, &r.g, &r.good_ids, &r.bad_id);
	r.ngood = ngiven;
	bool refused = false;
	/* a result on a bisection still going is why it stopped (an end that could not be measured):
	 * this run tries again, the log keeps it */
	if (!rc && b.result && (!strcmp(b.status, "started") || !strcmp(b.status, "running")))
		rc = ior_bisect_set_status(d->db, d->id, b.status, NULL);
	if (!rc)
		rc = ior_bisect_mark_set(d->db, d->id, r.bad_id, IOR_MARK_BAD, "the bad end");
	/* the good end marked too, so a commit whose artifact equals it takes the end's verdict */
	if (!rc)
		rc = ior_bisect_mark_set(d->db, d->id, r.good_ids[0], IOR_MARK_GOOD, "the good end");
	if (!rc)
		rc = calibrate(&r, &refused, reason, sizeof(reason));
	if (!rc && refused && r.cal.rounds >= 2) {   /* the refusal names the evidence per side too */
		char ends[512];
		rc = ends_evidence(&r, ends, sizeof(ends));
		size_t at = strlen(reason);
		if (!rc)
			snprintf(reason + at, sizeof(reason) - at, "; %s", ends);
	}
	if (!rc && refused) {
		res->end = IOR_BISECT_REFUSED;
		char text[1600];
		snprintf(text, sizeof(text), "refused: %s\n", reason);   /* the reason itself never starts "refused:" */
		say(&r, "%s", text);
		rc = ior_bisect_set_status(d->db, d->id, "refused", text);
		if (!rc)
			rc = ior_bisect_log(d->db, d->id, NULL, "refused", reason);
	} else if (!rc) {
		bool again = !strcmp(b.status, "refused");   /* run again after a refusal, e.g. with a larger --cap */
		if (!strcmp(b.status, "started") || again) {
			char text[1600];
			snprintf(text, sizeof(text), "%s%s", again ? "recalibrated after the refusal, on every round of the ends so "
						       "far and the --cap given now: " : "", reason);
			say(&r, "calibrated: %s\n", text);
			rc = ior_bisect_log(d->db, d->id, NULL, "calibrated", text);
			if (!rc)
				rc = ior_bisect_set_status(d->db, d->id, "running", NULL);
			r.status = "running";
		}
		/* the plan, from the calibration and the pace so far: every run says it, a resumed one too */
		size_t looks = 0;
		if (!rc)
			rc = looks_left(&r, &looks);
		if (!rc)
			rc = replan(&r, looks, true);
		if (!rc)
			rc = loop(&r, res);
	}
	if (!rc)
		rc = ior_bisect_counts_get(d->db, d->id, &res->counts);
	ior_bisect_ids_free(given, ngiven);
	ior_bisect_ids_free(r.good_ids, r.ngood);
	free(r.bad_id);
	ior_bisect_graph_free(&r.g);
	ior_bisect_info_free(&b);
	return rc;
}
