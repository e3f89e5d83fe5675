/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One candidate of the bisect loop: built, reused from an identical artifact, or measured in rounds
 * with the ends until the judge calls it; then marked. */
#include "bisect/drive.h"
#include "bisect/evidence.h"

#include "common/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ior_bisect_mark_as(struct ior_bisect_run *r, const char *id, enum ior_bisect_mark m, const char *reason,
		       const char *event)
{
	struct ior_bisect_driver *d = r->d;
	char detail[1024];
	snprintf(detail, sizeof(detail), "%s: %s", ior_bisect_mark_name(m), reason);
	ior_bisect_say(r, "%s %s: %s\n", ior_bisect_short(id), ior_bisect_mark_name(m), reason);
	return ior_bisect_mark_set(d->db, d->id, id, m, reason) || ior_bisect_log(d->db, d->id, id, event, detail);
}

/* Unstable rounds of one commit before it is skipped: at least this many, and as many as it has
 * stable ones (a step change now and then is re-measured; a machine that keeps moving is not). */
#define IOR_BISECT_MAX_UNSTABLE 6

/* Rounds of the good end, id and the bad end (from round `from` on) until the judge calls id
 * (cap: the judge's cap, in stable rounds); *call gets the call and reason the words. A round the
 * machine moved in (ior_bisect_round_unstable) is measured again, not judged. The judge looks only
 * at the counts it asked for (5, 10, 15 ... rounds): each look spends some of the error rate. */
static int judge_until(struct ior_bisect_run *r, const char *id, size_t from, size_t at_least, size_t cap,
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
		if (ior_bisect_ends_noise(r, &recent, &r->cal.floor)) {
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
		/* a line per look (the sequential test looks every round: a line per o.step of them): the
		 * commit, its rounds of those planned, the phase, the time */
		if (*call == IOR_CALL_MORE && ((looked && (!d->o.sequential || n % d->o.step == 0)) || !said)) {
			ior_bisect_say(r, "  %s: round %zu of up to %zu, measuring, %s\n", ior_bisect_named(r, id), n, cap,
				       ior_bisect_times(r));
			said = true;
		}
		if (*call != IOR_CALL_MORE) {
			if (unstable && strlen(reason) + 64 < len)
				snprintf(reason + strlen(reason), len - strlen(reason), "; %zu round(s) measured again", unstable);
			return IOR_OK;
		}
		size_t failed;
		if (ior_bisect_measure_round(r, ids, 3, &failed))
			return IOR_ERROR;
		if (failed == 1) {
			*call = IOR_CALL_SKIP;
			if (r->boot_failed)
				snprintf(reason, len, "it does not boot: %s", d->m->failure[0] ? d->m->failure : "boot-failed");
			else
				snprintf(reason, len, "its measurement failed");
			return IOR_OK;
		}
		if (failed < 3 && ior_bisect_end_retry(r, ids[failed]))
			return IOR_ERROR;
	}
}

/* One candidate: built, reused from an identical image, or measured and judged; then marked.
 * *undecided: it was skipped because the samples could not tell (not for a failed build). */
int ior_bisect_step(struct ior_bisect_run *r, size_t node, bool *undecided)
{
	struct ior_bisect_driver *d = r->d;
	const char *id = r->g.nodes[node].id;
	bool ok, same;
	char image[80], other[96], reason[1024];
	enum ior_bisect_mark m;
	if (ior_bisect_built(r, id, &ok, image, sizeof(image)) ||
	    (!ok && ior_bisect_build_failure(r, id, reason, sizeof(reason))))
		return IOR_ERROR;
	if (!ok)
		return ior_bisect_mark_as(r, id, IOR_MARK_SKIP, reason, "mark");
	if (r->images_blind)
		same = false;
	else if (ior_bisect_same_image(d->db, d->id, id, image, &same, other, sizeof(other), &m))
		return IOR_ERROR;
	if (same) {
		bool end = !strcmp(other, r->good_ids[0]) || !strcmp(other, r->bad_id);
		snprintf(reason, sizeof(reason), "its build artifact is identical to %s's (%s), %s %s" IOR_BISECT_UNMEASURED,
			 end ? (m == IOR_MARK_GOOD ? "the good end" : "the bad end") : ior_bisect_short(other), ior_bisect_short(image),
			 end ? "so it takes that end's verdict," : "which was", ior_bisect_mark_name(m));
		return ior_bisect_mark_as(r, id, m, reason, "mark");
	}
	enum ior_bisect_call c;
	r->boot_failed = false;
	if (judge_until(r, id, 1, 0, r->cap, &c, reason, sizeof(reason)))
		return IOR_ERROR;
	/* a kernel that does not boot was not left undecided by the noise: it is skipped, and named
	 * when its neighbours cannot decide without it */
	*undecided = c == IOR_CALL_SKIP && !r->boot_failed;
	m = c == IOR_CALL_GOOD ? IOR_MARK_GOOD : c == IOR_CALL_BAD ? IOR_MARK_BAD : IOR_MARK_SKIP;
	return ior_bisect_mark_as(r, id, m, reason, "mark");
}
