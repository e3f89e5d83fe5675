/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bisect loop over a candidate source and a measuring step: builds once per commit, measures as the judge asks, marks, confirms, and stores each step as it goes. */
#include "bisect/driver.h"
#include "bisect/evidence.h"

#include "common/error.h"
#include "common/stop.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Undecided commits in a row before the bisection stops with the range it has. */
#define IOR_BISECT_MAX_UNDECIDED 3

struct run {
	struct ior_bisect_driver *d;
	struct ior_bisect_graph g;
	char **good_ids, *bad_id;
	size_t ngood;
	char current[96];              /* what the source has prepared, "" unknown */
	double *good, *bad;            /* the ends' samples */
	size_t ng, nb;
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
	static char buf[4][16];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%.12s", id);
	return buf[k];
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
	say(r, "building %s\n", shortid(id));
	enum ior_step_outcome o;
	if (d->m->build(d->m, id, &o, image, len))
		return IOR_ERROR;
	*ok = o == IOR_STEP_OK;
	char detail[160];
	snprintf(detail, sizeof(detail), "%s%s%s", ior_step_outcome_name(o), *image ? ", image " : "", image);
	if (ior_bisect_build_set(d->db, d->id, id, *ok, image) || ior_bisect_log(d->db, d->id, id, "build", detail))
		return IOR_ERROR;
	return IOR_OK;
}

/* One measurement of a built commit, its samples stored and logged; *ok false when it failed. */
static int measure(struct run *r, const char *id, bool *ok)
{
	struct ior_bisect_driver *d = r->d;
	if (stopped() || prepare(r, id))
		return IOR_ERROR;
	double *x = NULL;
	size_t n = 0;
	enum ior_step_outcome o;
	int rc = d->m->measure(d->m, id, &x, &n, &o);
	*ok = !rc && o == IOR_STEP_OK;
	char detail[2048];
	size_t len = 0;
	detail[0] = '\0';
	for (size_t i = 0; i < n && len < sizeof(detail) - 32; i++)
		len += (size_t)snprintf(detail + len, sizeof(detail) - len, "%s%.17g", i ? " " : "", x[i]);
	if (!rc && *ok)
		rc = ior_bisect_samples_add(d->db, d->id, id, x, n);
	if (!rc)
		rc = ior_bisect_log(d->db, d->id, id, "measure", *ok ? detail : ior_step_outcome_name(o));
	free(x);
	return rc;
}

static int reload_ends(struct run *r)
{
	free(r->good), free(r->bad);
	r->good = r->bad = NULL;
	return ior_bisect_samples_get(r->d->db, r->d->id, r->good_ids[0], &r->good, &r->ng) ||
	       ior_bisect_samples_get(r->d->db, r->d->id, r->bad_id, &r->bad, &r->nb);
}

/* Both ends, interleaved (good, bad, good, bad ...) until the judge is satisfied or refuses. */
static int calibrate(struct run *r, bool *refused, char *reason, size_t len)
{
	struct ior_bisect_driver *d = r->d;
	const char *ends[2] = { r->good_ids[0], r->bad_id };
	for (int e = 0; e < 2; e++) {
		bool ok;
		char image[80];
		if (built(r, ends[e], &ok, image, sizeof(image)))
			return IOR_ERROR;
		if (!ok)
			return ior_error_set(IOR_EINVALID, "the %s end '%s' does not build", e ? "bad" : "good", ends[e]);
	}
	for (;;) {
		if (reload_ends(r))
			return IOR_ERROR;
		enum ior_bisect_call c = ior_bisect_calibrated(r->good, r->ng, r->bad, r->nb, &d->o, reason, len);
		if (c != IOR_CALL_MORE) {
			*refused = c == IOR_CALL_SKIP;
			return IOR_OK;
		}
		for (int e = 0; e < 2; e++) {
			bool ok;
			if (measure(r, ends[e], &ok))
				return IOR_ERROR;
			if (!ok)
				return ior_error_set(IOR_EINVALID, "the %s end '%s' cannot be measured", e ? "bad" : "good",
						     ends[e]);
		}
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

/* The ends get as many samples as the candidate judged against them (up to calibrate_cap),
 * interleaved: with 10 samples an end's estimate can sit 2 standard errors off, and a candidate
 * measured 30 or 60 times would be judged against that error rather than the end. */
static int grow_ends(struct run *r, size_t n)
{
	struct ior_bisect_driver *d = r->d;
	size_t target = n < d->o.calibrate_cap ? n : d->o.calibrate_cap;
	while (r->ng < target || r->nb < target) {
		const char *ends[2] = { r->good_ids[0], r->bad_id };
		for (int e = 0; e < 2; e++) {
			bool ok;
			if (measure(r, ends[e], &ok))
				return IOR_ERROR;
			if (!ok)
				return ior_error_set(IOR_EINVALID, "the %s end '%s' cannot be measured", e ? "bad" : "good", ends[e]);
		}
		if (reload_ends(r))
			return IOR_ERROR;
	}
	return IOR_OK;
}

/* Samples of id until the judge calls it (cap: the judge's cap); *call gets the call. The judge
 * looks only at the counts it asked for (5, 10, 15 ...), not after every sample: each look spends
 * some of the error rate. */
static int judge_until(struct run *r, const char *id, size_t at_least, size_t cap, enum ior_bisect_call *call,
		       char *reason, size_t len)
{
	struct ior_bisect_driver *d = r->d;
	size_t need = at_least;
	for (;;) {
		double *x = NULL;
		size_t n = 0;
		if (ior_bisect_samples_get(d->db, d->id, id, &x, &n))
			return IOR_ERROR;
		bool end = !strcmp(id, r->good_ids[0]) || !strcmp(id, r->bad_id);
		if (n >= need && !end && grow_ends(r, n)) {
			free(x);
			return IOR_ERROR;
		}
		if (n >= need) {
			*call = ior_bisect_judge(r->good, r->ng, r->bad, r->nb, x, n, cap, &d->o, &need, NULL, reason, len);
			if (n >= need && *call == IOR_CALL_MORE)
				need = n + 1;
		} else {
			*call = IOR_CALL_MORE;
		}
		free(x);
		if (*call != IOR_CALL_MORE)
			return IOR_OK;
		bool ok;
		if (measure(r, id, &ok))
			return IOR_ERROR;
		if (!ok) {
			*call = IOR_CALL_SKIP;
			snprintf(reason, len, "its measurement failed");
			return IOR_OK;
		}
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
	if (built(r, id, &ok, image, sizeof(image)))
		return IOR_ERROR;
	if (!ok)
		return mark(r, id, IOR_MARK_SKIP, "its build failed", "mark");
	if (ior_bisect_same_image(d->db, d->id, id, image, &same, other, sizeof(other), &m))
		return IOR_ERROR;
	if (same) {
		snprintf(reason, sizeof(reason), "its kernel image is identical to %s's, which was %s", shortid(other),
			 ior_bisect_mark_name(m));
		return mark(r, id, m, reason, "mark");
	}
	enum ior_bisect_call c;
	if (judge_until(r, id, 0, d->o.cap, &c, reason, sizeof(reason)))
		return IOR_ERROR;
	*undecided = c == IOR_CALL_SKIP;
	m = c == IOR_CALL_GOOD ? IOR_MARK_GOOD : c == IOR_CALL_BAD ? IOR_MARK_BAD : IOR_MARK_SKIP;
	return mark(r, id, m, reason, "mark");
}

/* The parent measured to confirm the culprit: its first parent inside the graph, or the good end. */
static const char *confirm_parent(const struct run *r, size_t culprit)
{
	const struct ior_bisect_node *c = &r->g.nodes[culprit];
	return c->nparents ? r->g.nodes[c->parents[0]].id : r->good_ids[0];
}

/* How many samples the culprit and its parent need for the confirmation: at least o.step more
 * than the judgement that marked each saw, and o.confirm in all. Stored in the log when first
 * set, so a resumed or replayed bisection confirms against the same counts. */
static int confirm_targets(struct run *r, const char *c, const char *p, size_t *tc, size_t *tp)
{
	struct ior_bisect_driver *d = r->d;
	char detail[256];
	bool found;
	if (ior_bisect_log_last(d->db, d->id, c, "confirming", &found, detail, sizeof(detail)))
		return IOR_ERROR;
	char parent[96];
	if (found && sscanf(detail, "%zu %95s %zu", tc, parent, tp) == 3 && !strcmp(parent, p))
		return IOR_OK;
	size_t nx, ny;
	if (ior_bisect_samples_count(d->db, d->id, c, &nx) || ior_bisect_samples_count(d->db, d->id, p, &ny))
		return IOR_ERROR;
	*tc = nx + d->o.step > d->o.confirm ? nx + d->o.step : d->o.confirm;
	*tp = ny + d->o.step > d->o.confirm ? ny + d->o.step : d->o.confirm;
	snprintf(detail, sizeof(detail), "%zu %s %zu", *tc, p, *tp);
	return ior_bisect_log(d->db, d->id, c, "confirming", detail);
}

/* More samples on the culprit and its parent, alternating, then both judged again. *verdict:
 * 0 confirmed, 1 overturned (marks changed: bisect on), 2 undecided (the two are the range),
 * 3 not yet apart from each other (new targets logged: confirm again). */
static int confirm(struct run *r, size_t culprit, int *verdict, char *reason, size_t len)
{
	struct ior_bisect_driver *d = r->d;
	const char *c = r->g.nodes[culprit].id, *p = confirm_parent(r, culprit);
	bool p_end = !strcmp(p, r->good_ids[0]), c_end = !strcmp(c, r->bad_id);
	say(r, "confirming %s against its parent %s\n", shortid(c), shortid(p));
	bool ok;
	char image[80];
	if (!p_end && built(r, p, &ok, image, sizeof(image)))
		return IOR_ERROR;
	if (!p_end && !ok) {
		*verdict = 2;
		snprintf(reason, len, "the parent %s does not build", shortid(p));
		return IOR_OK;
	}
	/* at least o.step new samples on each (more than the judgement that marked it saw), and
	 * o.confirm in all, taken alternately so drift lands on both: c, p, c, p ... */
	size_t tc, tp;
	if (confirm_targets(r, c, p, &tc, &tp))
		return IOR_ERROR;
	for (;;) {
		size_t nx, ny;
		if (ior_bisect_samples_count(d->db, d->id, c, &nx) || ior_bisect_samples_count(d->db, d->id, p, &ny))
			return IOR_ERROR;
		if (nx >= tc && ny >= tp)
			break;
		const char *next = nx < tc && (ny >= tp || nx * tp <= ny * tc) ? c : p;
		if (measure(r, next, &ok))
			return IOR_ERROR;
		if (!ok) {
			*verdict = 2;
			snprintf(reason, len, "%s could not be measured again", shortid(next));
			return IOR_OK;
		}
	}
	if (reload_ends(r))
		return IOR_ERROR;
	size_t cap = d->o.cap + d->o.confirm;
	enum ior_bisect_call cc = IOR_CALL_BAD, pc = IOR_CALL_GOOD;
	char rc_[1024] = "the bad end", rp[1024] = "the good end";
	if (!c_end && judge_until(r, c, tc, cap > tc ? cap : tc, &cc, rc_, sizeof(rc_)))
		return IOR_ERROR;
	if (!p_end && judge_until(r, p, tp, cap > tp ? cap : tp, &pc, rp, sizeof(rp)))
		return IOR_ERROR;
	if (cc == IOR_CALL_BAD && pc == IOR_CALL_GOOD) {
		double *x = NULL, *y = NULL;
		size_t nx = 0, ny = 0;
		if (ior_bisect_samples_get(d->db, d->id, c, &x, &nx) || ior_bisect_samples_get(d->db, d->id, p, &y, &ny)) {
			free(x);
			return IOR_ERROR;
		}
		double step_p = ior_bisect_step_p(y, ny, x, nx, r->bad, r->nb, &d->o);
		free(x), free(y);
		if (step_p < d->o.confirm_alpha) {
			*verdict = 0;
			snprintf(reason, len, "%s stays bad (%s) and its parent %s stays good (%s); against its parent directly "
				 "one-sided Welch p = %.3g", shortid(c), rc_, shortid(p), rp, step_p);
			return ior_bisect_log(d->db, d->id, c, "confirmed", reason);
		}
		/* both judged as before, yet not apart from each other: more samples on both, or the range */
		if (tc + d->o.step > cap || tp + d->o.step > cap) {
			*verdict = 2;
			snprintf(reason, len, "%s and its parent %s do not differ from each other (one-sided Welch p = %.3g) at "
				 "%zu and %zu samples", shortid(c), shortid(p), step_p, tc, tp);
			return IOR_OK;
		}
		char detail[256];
		snprintf(detail, sizeof(detail), "%zu %s %zu", tc + d->o.step, p, tp + d->o.step);
		*verdict = 3;
		return ior_bisect_log(d->db, d->id, c, "confirming", detail);
	}
	if (cc == IOR_CALL_GOOD || pc == IOR_CALL_BAD) {
		*verdict = 1;
		/* a later confirmation of the same commit takes new samples again */
		int rc = ior_bisect_log(d->db, d->id, c, "confirming", "done");
		if (!rc && cc == IOR_CALL_GOOD)
			rc = mark(r, c, IOR_MARK_GOOD, rc_, "overturned");
		if (!rc && pc == IOR_CALL_BAD)
			rc = mark(r, p, IOR_MARK_BAD, rp, "overturned");
		return rc;
	}
	*verdict = 2;
	snprintf(reason, len, "with more samples %s is %s and its parent %s is %s", shortid(c), ior_bisect_call_name(cc),
		 shortid(p), ior_bisect_call_name(pc));
	return IOR_OK;
}

static int finish(struct run *r, struct ior_bisect_result *res, const struct ior_bisect_left *left, size_t culprit,
		  const char *why)
{
	struct ior_bisect_driver *d = r->d;
	char *text = NULL;
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
			int verdict = 0;
			rc = confirm(r, left.bad, &verdict, why, sizeof(why));
			while (!rc && verdict == 3)
				rc = confirm(r, left.bad, &verdict, why, sizeof(why));
			if (!rc && verdict == 1 && ++overturns <= 3) {
				ior_bisect_left_free(&left);
				continue;
			}
			if (!rc && verdict == 0) {
				res->end = IOR_BISECT_FOUND;
				snprintf(res->culprit, sizeof(res->culprit), "%s", r->g.nodes[left.bad].id);
			} else if (!rc) {
				/* undecided, or the noise keeps overturning: the culprit and its parent are the range */
				res->end = IOR_BISECT_RANGE;
				long p = ior_bisect_graph_find(&r->g, confirm_parent(r, left.bad));
				left.cand[0] = left.bad;
				left.count = 1;
				if (p >= 0)
					left.cand[left.count++] = (size_t)p;
				if (verdict == 1)
					snprintf(why, sizeof(why), "the confirmation overturned the result %d times", overturns - 1);
			}
			if (!rc) {
				res->nrange = left.count;
				rc = finish(r, res, &left, left.bad, why);
			}
			ior_bisect_left_free(&left);
			break;
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
					 "samples, so the noise is too large for this difference; %zu candidates are left",
					 undecided_run, d->o.cap, left.count);
			rc = finish(r, res, &left, left.bad, why);
			ior_bisect_left_free(&left);
			break;
		}
		say(r, "%zu candidate(s) left, %s next\n", left.count, shortid(r->g.nodes[left.next].id));
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
	struct run r = { .d = d };
	char **given = NULL, reason[1024];
	size_t ngiven = 0;
	int rc = split_ids(b.good, &given, &ngiven);
	if (!rc)
		rc = d->src->load(d->src, (const char *const *)given, ngiven, b.bad, &r.g, &r.good_ids, &r.bad_id);
	r.ngood = ngiven;
	bool refused = false;
	if (!rc)
		rc = ior_bisect_mark_set(d->db, d->id, r.bad_id, IOR_MARK_BAD, "the bad end");
	if (!rc)
		rc = calibrate(&r, &refused, reason, sizeof(reason));
	if (!rc && refused) {
		res->end = IOR_BISECT_REFUSED;
		say(&r, "%s\n", reason);
		rc = ior_bisect_set_status(d->db, d->id, "refused", reason);
		if (!rc)
			rc = ior_bisect_log(d->db, d->id, NULL, "refused", reason);
	} else if (!rc) {
		if (!strcmp(b.status, "started")) {
			say(&r, "calibrated: %s\n", reason);
			rc = ior_bisect_log(d->db, d->id, NULL, "calibrated", reason);
			if (!rc)
				rc = ior_bisect_set_status(d->db, d->id, "running", NULL);
		}
		if (!rc)
			rc = loop(&r, res);
	}
	if (!rc)
		rc = ior_bisect_counts_get(d->db, d->id, &res->counts);
	ior_bisect_ids_free(given, ngiven);
	ior_bisect_ids_free(r.good_ids, r.ngood);
	free(r.bad_id), free(r.good), free(r.bad);
	ior_bisect_graph_free(&r.g);
	ior_bisect_info_free(&b);
	return rc;
}
