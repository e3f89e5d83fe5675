/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bisect loop over a candidate source and a measuring step: calibrates the ends, judges the
 * candidate git would pick until one is left, confirms it, and stores each step as it goes. The
 * steps live in drive_measure.c, calibrate.c, step.c, confirm.c and answer.c (bisect/drive.h). */
#include "bisect/drive.h"
#include "bisect/evidence.h"

#include "common/error.h"
#include "common/stop.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Undecided commits in a row before the bisection stops with the range it has. */
#define IOR_BISECT_MAX_UNDECIDED 3

void ior_bisect_say(const struct ior_bisect_run *r, const char *fmt, ...)
{
	if (!r->d->out)
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(r->d->out, fmt, ap);
	va_end(ap);
	fflush(r->d->out);
}

const char *ior_bisect_short(const char *id)
{
	static char buf[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%.*s", ior_bisect_id_width(id), id);
	return buf[k];
}

/* Seconds since this run began. */
double ior_bisect_elapsed(const struct ior_bisect_run *r)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - r->t0.tv_sec) + (double)(t.tv_nsec - r->t0.tv_nsec) / 1e9;
}

/* How a commit is named in progress lines: its short id and, from the graph, its subject. */
const char *ior_bisect_named(const struct ior_bisect_run *r, const char *id)
{
	static char buf[2][192];
	static int k;
	k = (k + 1) % 2;
	long i = ior_bisect_graph_find(&r->g, id);
	const char *subject = i >= 0 ? r->g.nodes[i].subject : NULL;
	if (subject && subject[0] && strcmp(subject, id))   /* a packaged kernel's subject is its name */
		snprintf(buf[k], sizeof(buf[k]), "%s (%.60s%s)", ior_bisect_short(id), subject, strlen(subject) > 60 ? "..." : "");
	else
		snprintf(buf[k], sizeof(buf[k]), "%s", ior_bisect_short(id));
	return buf[k];
}

/* "elapsed 3 min, about 20 min left": the time left from the last plan, as far as one was made. */
const char *ior_bisect_times(const struct ior_bisect_run *r)
{
	static char buf[128];
	char a[32], b[32];
	double now = ior_bisect_elapsed(r);
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

int ior_bisect_prepare(struct ior_bisect_run *r, const char *id)
{
	if (!strcmp(r->current, id))
		return IOR_OK;
	r->current[0] = '\0';
	if (r->d->src->prepare(r->d->src, id))
		return IOR_ERROR;
	snprintf(r->current, sizeof(r->current), "%s", id);
	return IOR_OK;
}

int ior_bisect_stopped(void)
{
	return ior_stop_requested() ? ior_error_set(IOR_EINTERRUPTED, "bisection interrupted by signal %d; "
						    "'ioregress bisect run' resumes it", ior_stop_signal())
				    : IOR_OK;
}

static int loop(struct ior_bisect_run *r, struct ior_bisect_result *res)
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
			enum ior_bisect_confirm_verdict verdict = IOR_CONFIRM_CONFIRMED;
			rc = ior_bisect_confirm(r, left.bad, &verdict, why, sizeof(why));
			while (!rc && verdict == IOR_CONFIRM_AGAIN)
				rc = ior_bisect_confirm(r, left.bad, &verdict, why, sizeof(why));
			if (!rc && verdict == IOR_CONFIRM_OVERTURNED && ++overturns <= 3) {
				ior_bisect_left_free(&left);
				continue;
			}
			if (!rc && verdict == IOR_CONFIRM_CONFIRMED) {
				res->end = IOR_BISECT_FOUND;
				snprintf(res->culprit, sizeof(res->culprit), "%s", r->g.nodes[left.bad].id);
			} else if (!rc) {
				/* undecided, or the noise keeps overturning: the culprit and its parent are the range,
				 * and neither keeps a mark the confirmation did not bear out */
				res->end = IOR_BISECT_RANGE;
				long p = ior_bisect_graph_find(&r->g, ior_bisect_confirm_parent(r, left.bad));
				left.cand[0] = left.bad;
				left.count = 1;
				if (p >= 0)
					left.cand[left.count++] = (size_t)p;
				if (verdict == IOR_CONFIRM_OVERTURNED)
					snprintf(why, sizeof(why), "the confirmation overturned the result %d times", overturns - 1);
				rc = ior_bisect_unjudge(r, left.cand, left.count, why);
			}
			if (!rc) {
				res->nrange = left.count;
				rc = ior_bisect_finish(r, res, &left, left.bad, why);
			}
			ior_bisect_left_free(&left);
			break;
		}
		if (left.range) {   /* a kernel among them that does not boot is the answer */
			bool found = false;
			rc = ior_bisect_unbootable_answer(r, res, &left, &found);
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
			rc = ior_bisect_finish(r, res, &left, left.bad, why);
			ior_bisect_left_free(&left);
			break;
		}
		size_t looks = 0;
		while (((size_t)1 << looks) < left.count)
			looks++;
		if ((rc = ior_bisect_replan(r, looks, false))) {
			ior_bisect_left_free(&left);
			break;
		}
		ior_bisect_say(r, "%zu candidate(s) left, %s next, %s\n", left.count, ior_bisect_named(r, r->g.nodes[left.next].id),
			       ior_bisect_times(r));
		bool undecided = false;
		rc = ior_bisect_step(r, (size_t)left.next, &undecided);
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
	struct ior_bisect_run r = { .d = d, .status = b.status, .cap = d->o.cap };
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
		rc = ior_bisect_calibrate(&r, &refused, reason, sizeof(reason));
	if (!rc && refused && r.cal.rounds >= 2) {   /* the refusal names the evidence per side too */
		char ends[512];
		rc = ior_bisect_ends_evidence(&r, ends, sizeof(ends));
		size_t at = strlen(reason);
		if (!rc)
			snprintf(reason + at, sizeof(reason) - at, "; %s", ends);
	}
	if (!rc && refused) {
		res->end = IOR_BISECT_REFUSED;
		char text[1600];
		snprintf(text, sizeof(text), "refused: %s\n", reason);   /* the reason itself never starts "refused:" */
		ior_bisect_say(&r, "%s", text);
		rc = ior_bisect_set_status(d->db, d->id, "refused", text);
		if (!rc)
			rc = ior_bisect_log(d->db, d->id, NULL, "refused", reason);
	} else if (!rc) {
		bool again = !strcmp(b.status, "refused");   /* run again after a refusal, e.g. with a larger --cap */
		if (!strcmp(b.status, "started") || again) {
			char text[1600];
			snprintf(text, sizeof(text), "%s%s", again ? "recalibrated after the refusal, on every round of the ends so "
						       "far and the --cap given now: " : "", reason);
			ior_bisect_say(&r, "calibrated: %s\n", text);
			rc = ior_bisect_log(d->db, d->id, NULL, "calibrated", text);
			if (!rc)
				rc = ior_bisect_set_status(d->db, d->id, "running", NULL);
			r.status = "running";
		}
		/* the plan, from the calibration and the pace so far: every run says it, a resumed one too */
		size_t looks = 0;
		if (!rc)
			rc = ior_bisect_looks_left(&r, &looks);
		if (!rc)
			rc = ior_bisect_replan(&r, looks, true);
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
