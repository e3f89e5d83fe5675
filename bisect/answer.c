/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bisection's answer stored and said: the culprit or the range with the ends' evidence, or a
 * kernel among the candidates that does not boot. */
#include "bisect/drive.h"
#include "bisect/evidence.h"

#include "common/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The rounds end was measured in and its samples. */
static int end_count(struct ior_bisect_run *r, const char *end, size_t *rounds, size_t *samples)
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
int ior_bisect_ends_evidence(struct ior_bisect_run *r, char *buf, size_t len)
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

int ior_bisect_finish(struct ior_bisect_run *r, struct ior_bisect_result *res, const struct ior_bisect_left *left,
		      size_t culprit,
		  const char *why)
{
	struct ior_bisect_driver *d = r->d;
	char *text = NULL, full[3072], ends[512];
	/* every answer says how noisy and how drifting the machine was, and a range what to do next */
	struct ior_bisect_counts n;
	if (ior_bisect_counts_get(d->db, d->id, &n) || ior_bisect_ends_evidence(r, ends, sizeof(ends)))
		return IOR_ERROR;
	snprintf(full, sizeof(full), "%s; the ends: noise %.1f%%, drift %.1f%% over %zu rounds, %s, %zu samples in all%s",
		 why, r->cal.noise * 100, r->cal.drift * 100, r->cal.rounds, ends, n.samples,
		 res->end == IOR_BISECT_FOUND ? ""
					      : "; next: test the commits listed by hand, or run again with a larger --budget "
						"(or --cap, rounds per commit) when the machine is quieter");
	why = full;
	int rc = res->end == IOR_BISECT_FOUND
			 ? ior_bisect_evidence_culprit(&text, d->db, d->id, d->src, &r->g, culprit, ior_bisect_confirm_parent(r, culprit),
						       r->good_ids[0], r->bad_id, why)
			 : ior_bisect_evidence_range(&text, d->db, d->id, d->src, &r->g, left, r->good_ids[0], r->bad_id, why);
	if (!rc)
		rc = ior_bisect_set_status(d->db, d->id, res->end == IOR_BISECT_FOUND ? "found" : "range", text);
	if (!rc)
		rc = ior_bisect_log(d->db, d->id, res->end == IOR_BISECT_FOUND ? r->g.nodes[culprit].id : NULL,
				    res->end == IOR_BISECT_FOUND ? "found" : "range", why);
	if (!rc)
		ior_bisect_say(r, "%s", text);
	free(text);
	return rc;
}

/* Skipped candidates leave a range, and one of them did not boot: the first of those (in the
 * list's order) is the answer, a kernel that does not boot (or panics), with its outcome and
 * console head; the throughput regression hunted cannot be placed past it, as its neighbours do
 * not decide. *found false when none of the candidates failed to boot. */
int ior_bisect_unbootable_answer(struct ior_bisect_run *r, struct ior_bisect_result *res,
				 const struct ior_bisect_left *left,
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
		ior_bisect_say(r, "%s", text);
	free(text);
	return rc;
}
