/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprit confirmed on fresh rounds of the good end, its parent, itself and the bad end, both
 * judged on them alone: confirmed, overturned (bisect on), or left with its parent as the range. */
#include "bisect/drive.h"

#include "common/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The parent measured to confirm the culprit: its first parent inside the graph, or the good end. */
const char *ior_bisect_confirm_parent(const struct ior_bisect_run *r, size_t culprit)
{
	const struct ior_bisect_node *c = &r->g.nodes[culprit];
	return c->nparents ? r->g.nodes[c->parents[0]].id : r->good_ids[0];
}

/* A confirmation's own rounds: the first round it may use and how many stable ones it needs
 * (o.confirm, then o.step more each time the two are not yet apart), against which parent. Kept
 * on the culprit's row (none once overturned, so a later confirmation of the same commit starts
 * afresh), so a resumed or replayed bisection confirms on the same rounds; nothing measured before
 * it counts, so the verdict rests on fresh rounds only. */
static int confirm_target_get(struct ior_bisect_run *r, const char *c, const char *p,
			      struct ior_bisect_confirm_state *t)
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

static int confirm_rounds_get(struct ior_bisect_run *r, const char *const *ids, size_t k, size_t from, bool p_end,
			      bool c_end,
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
static int same_build(struct ior_bisect_run *r, const char *a, const char *b, bool *same)
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

/* The confirmation's fresh rounds until it has t->need stable ones (ids: the good end, the parent and
 * the culprit unless an end stands in, the bad end), into *cr; *verdict UNDECIDED (cr empty) when
 * they cannot be had: the machine moved within most of them, or the parent or culprit failed. */
static int confirm_measure(struct ior_bisect_run *r, const char *const *ids, size_t k,
			   const struct ior_bisect_confirm_state *t, bool p_end, bool c_end, struct confirm_rounds *cr,
			   enum ior_bisect_confirm_verdict *verdict, char *reason, size_t len)
{
	size_t tries = 0;
	for (;;) {
		if (confirm_rounds_get(r, ids, k, t->from, p_end, c_end, cr))
			return IOR_ERROR;
		if (cr->n >= t->need)
			return IOR_OK;
		confirm_rounds_free(cr);
		size_t failed;
		if (++tries > 3 * t->need) {
			*verdict = IOR_CONFIRM_UNDECIDED;
			snprintf(reason, len, "the machine moved within most of the confirmation's rounds");
			return IOR_OK;
		}
		if (ior_bisect_measure_round(r, ids, k, &failed))
			return IOR_ERROR;
		if (failed == 0 || failed == k - 1) {
			if (ior_bisect_end_retry(r, ids[failed]))
				return IOR_ERROR;
			continue;
		}
		if (failed < k) {
			*verdict = IOR_CONFIRM_UNDECIDED;
			snprintf(reason, len, "%s could not be measured again", ior_bisect_short(ids[failed]));
			return IOR_OK;
		}
	}
}

/* The culprit c and its parent p judged on the confirmation's rounds cr alone (an end standing in for
 * either is taken as that end): confirmed, overturned (the mark changed), again with a larger target
 * while there is room under the cap, or undecided. */
static int confirm_judge(struct ior_bisect_run *r, const char *c, const char *p, bool p_end, bool c_end,
			 struct ior_bisect_confirm_state *t, const struct confirm_rounds *cr,
			 enum ior_bisect_confirm_verdict *verdict, char *reason, size_t len)
{
	struct ior_bisect_driver *d = r->d;
	enum ior_bisect_call cc = IOR_CALL_BAD, pc = IOR_CALL_GOOD;
	char rc_[1024] = "the bad end", rp[1024] = "the good end";
	if (c_end && strcmp(c, r->bad_id))
		snprintf(rc_, sizeof(rc_), "it built the bad end's artifact");
	if (p_end && strcmp(p, r->good_ids[0]))
		snprintf(rp, sizeof(rp), "it built the good end's artifact");
	size_t need, n = cr->n;
	if (!c_end)
		cc = ior_bisect_judge(&r->cal, cr->g, cr->c, cr->b, n, n, &d->o, &need, rc_, sizeof(rc_));
	if (!p_end)
		pc = ior_bisect_judge(&r->cal, cr->g, cr->p, cr->b, n, n, &d->o, &need, rp, sizeof(rp));
	double step_p = ior_bisect_step_p(cr->p, cr->c, n, &d->o);
	if (cc == IOR_CALL_BAD && pc == IOR_CALL_GOOD && step_p < d->o.confirm_alpha) {
		*verdict = IOR_CONFIRM_CONFIRMED;
		snprintf(reason, len, "in %zu fresh rounds %s stays bad (%s) and its parent %s stays good (%s); against its "
			 "parent in the same rounds one-sided paired p = %.3g", n, ior_bisect_short(c), rc_, ior_bisect_short(p),
			 rp, step_p);
		return ior_bisect_log(d->db, d->id, c, "confirmed", reason);
	}
	if (cc == IOR_CALL_GOOD || pc == IOR_CALL_BAD) {
		*verdict = IOR_CONFIRM_OVERTURNED;
		/* a later confirmation of the same commit takes fresh rounds again */
		int rc = ior_bisect_confirm_set(d->db, d->id, c, NULL);
		if (!rc && cc == IOR_CALL_GOOD)
			rc = ior_bisect_mark_as(r, c, IOR_MARK_GOOD, rc_, "overturned");
		if (!rc && pc == IOR_CALL_BAD)
			rc = ior_bisect_mark_as(r, p, IOR_MARK_BAD, rp, "overturned");
		return rc;
	}
	if (t->need + d->o.step <= r->cap) {
		/* not yet apart, or not yet placed: more fresh rounds of all of them */
		t->need += d->o.step;
		*verdict = IOR_CONFIRM_AGAIN;
		return ior_bisect_confirm_set(d->db, d->id, c, t);
	}
	*verdict = IOR_CONFIRM_UNDECIDED;
	snprintf(reason, len, "in %zu fresh rounds %s is %s (%s) and its parent %s is %s (%s); against each other "
		 "one-sided paired p = %.3g", n, ior_bisect_short(c), ior_bisect_call_name(cc), rc_, ior_bisect_short(p),
		 ior_bisect_call_name(pc), rp, step_p);
	return IOR_OK;
}

/* Fresh rounds of the good end, the parent, the culprit and the bad end, then both judged on them
 * alone. */
int ior_bisect_confirm(struct ior_bisect_run *r, size_t culprit, enum ior_bisect_confirm_verdict *verdict, char *reason,
		       size_t len)
{
	struct ior_bisect_driver *d = r->d;
	const char *c = r->g.nodes[culprit].id, *p = ior_bisect_confirm_parent(r, culprit);
	bool p_end = !strcmp(p, r->good_ids[0]), c_end = !strcmp(c, r->bad_id);
	bool ok;
	char image[80];
	if (!p_end && ior_bisect_built(r, p, &ok, image, sizeof(image)))
		return IOR_ERROR;
	if (!p_end && !ok) {
		*verdict = IOR_CONFIRM_UNDECIDED;
		snprintf(reason, len, "the parent %s does not build", ior_bisect_short(p));
		return IOR_OK;
	}
	bool p_same, c_same;
	if (same_build(r, p, r->good_ids[0], &p_same) || same_build(r, c, r->bad_id, &c_same))
		return IOR_ERROR;
	if (p_same && c_same) {
		/* nothing to measure: the two builds are the ends' own, whose gap calibration established */
		*verdict = IOR_CONFIRM_CONFIRMED;
		snprintf(reason, len, "%s builds the bad end's artifact and its parent %s the good end's", ior_bisect_short(c),
			 ior_bisect_short(p));
		return ior_bisect_log(d->db, d->id, c, "confirmed", reason);
	}
	/* A side that built its end's artifact is that end for the measure: the end's column stands in
	 * for it, and the rounds measure three sides instead of four. */
	p_end = p_same, c_end = c_same;
	struct ior_bisect_confirm_state t;
	if (confirm_target_get(r, c, p, &t))
		return IOR_ERROR;
	ior_bisect_say(r, "confirming %s against its parent %s: %zu fresh rounds, up to %zu, %s\n", ior_bisect_named(r, c),
		       ior_bisect_short(p), t.need, r->cap, ior_bisect_times(r));
	const char *ids[4];
	size_t k = 0;
	ids[k++] = r->good_ids[0];
	if (!p_end)
		ids[k++] = p;
	if (!c_end)
		ids[k++] = c;
	ids[k++] = r->bad_id;
	struct confirm_rounds cr = { 0 };
	*verdict = IOR_CONFIRM_AGAIN;   /* none yet: confirm_measure says UNDECIDED when the rounds cannot be had */
	if (confirm_measure(r, ids, k, &t, p_end, c_end, &cr, verdict, reason, len))
		return IOR_ERROR;
	if (*verdict == IOR_CONFIRM_UNDECIDED)
		return IOR_OK;
	int rc = confirm_judge(r, c, p, p_end, c_end, &t, &cr, verdict, reason, len);
	confirm_rounds_free(&cr);
	return rc;
}

/* Clears the marks of commits a confirmation could not bear out (never an end's), so a range
 * answer holds only commits not judged good or bad. */
int ior_bisect_unjudge(struct ior_bisect_run *r, const size_t *nodes, size_t n, const char *why)
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
