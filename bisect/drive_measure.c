/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bisect loop's builds and measurements: each commit built once, measured in rounds with the
 * ends, every sample and failure stored; an end that cannot be built or measured stops the bisection. */
#include "bisect/drive.h"
#include "bisect/evidence.h"

#include "common/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Failed measurements in a row of an end that has measured before, before the bisection stops: one
 * failure (a boot that timed out, a benchmark that crashed once) only re-measures the round. */
#define IOR_BISECT_END_TRIES 3

/* Builds id once: *ok false when its build failed (now or in an earlier session). */
int ior_bisect_built(struct ior_bisect_run *r, const char *id, bool *ok, char *image, size_t len)
{
	struct ior_bisect_driver *d = r->d;
	bool done;
	if (ior_bisect_build_get(d->db, d->id, id, &done, ok, image, len))
		return IOR_ERROR;
	if (done)
		return IOR_OK;
	if (ior_bisect_stopped() || ior_bisect_prepare(r, id))
		return IOR_ERROR;
	ior_bisect_say(r, "building %s, %s\n", ior_bisect_named(r, id), ior_bisect_times(r));
	enum ior_step_outcome o;
	d->m->failure[0] = '\0';
	double t = ior_bisect_elapsed(r);
	if (d->m->build(d->m, id, &o, image, len))
		return IOR_ERROR;
	r->build_s += ior_bisect_elapsed(r) - t;
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
int ior_bisect_build_failure(struct ior_bisect_run *r, const char *id, char *out, size_t len)
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
int ior_bisect_end_stopped(struct ior_bisect_run *r, const char *end, const char *what, const char *failure)
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
		ior_bisect_say(r, "%s", text);
	free(text);
	if (rc)
		return rc;
	return ior_error_set(IOR_ERROR, "the bisection cannot go on: the %s end '%s' %s ('bisect status' and 'bisect log' "
			     "keep why; 'bisect run' tries it again)", bad ? "bad" : "good", end, what);
}

/* The end whose measurement just failed: by its boot's outcome when it did not boot. */
static int end_not_measured(struct ior_bisect_run *r, const char *end)
{
	const char *f = r->d->m->failure;
	if (r->boot_failed)
		return ior_bisect_end_stopped(r, end, ior_bisect_failure_verb(f), f[0] ? f : "its boot failed");
	return ior_bisect_end_stopped(r, end, "cannot be measured", f[0] ? f : "its measurement failed");
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
int ior_bisect_measure_once(struct ior_bisect_run *r, const char *id, size_t round, bool *ok)
{
	struct ior_bisect_driver *d = r->d;
	if (ior_bisect_stopped() || ior_bisect_prepare(r, id))
		return IOR_ERROR;
	double *x = NULL;
	size_t n = 0;
	enum ior_step_outcome o;
	d->m->failure[0] = '\0';
	double t = ior_bisect_elapsed(r);
	int rc = d->m->measure(d->m, id, &x, &n, &o);
	double took = ior_bisect_elapsed(r) - t;
	r->measure_s += took;
	r->measures++;
	*ok = !rc && o == IOR_STEP_OK;
	r->boot_failed = !rc && o == IOR_STEP_BOOT_FAILED;
	if (*ok && (!strcmp(id, r->good_ids[0]) || !strcmp(id, r->bad_id)))
		r->end_fails[!strcmp(id, r->bad_id)] = 0;
	/* a boot is named by the commit it boots, not by its image's path */
	if (!rc && d->m->per_boot)
		ior_bisect_say(r, "  boot of %s, round %zu: %s, %.1f s%s%s\n", ior_bisect_named(r, id), round,
			       *ok ? "ok" : ior_step_outcome_name(o),
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
int ior_bisect_end_retry(struct ior_bisect_run *r, const char *end)
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
	ior_bisect_say(r, "%s: %s\n", ior_bisect_short(end), detail);
	return ior_bisect_log(d->db, d->id, end, "end-failed", detail);
}

/* One round: each of ids measured once, one after another, the order rotated with the round
 * number (and reversed every other cycle) so no commit is always first or last; but a commit never
 * measured goes first, so one that does not boot (or cannot be measured) costs the ends nothing in
 * the round it leaves incomplete. *failed gets the index of a commit whose measurement failed, or k. */
int ior_bisect_measure_round(struct ior_bisect_run *r, const char *const *ids, size_t k, size_t *failed)
{
	size_t round, order[8], fresh = k;
	*failed = k;
	if (k > 8 || ior_bisect_round_next(r->d->db, r->d->id, &round))
		return k > 8 ? ior_error_set(IOR_ERROR, "a round of %zu commits", k) : IOR_ERROR;
	for (size_t j = 0; j < k && fresh == k; j++) {
		size_t n;
		if (!strcmp(ids[j], r->good_ids[0]) || !strcmp(ids[j], r->bad_id))
			continue;
		if (ior_bisect_samples_count(r->d->db, r->d->id, ids[j], &n))
			return IOR_ERROR;
		fresh = n ? k : j;
	}
	for (size_t j = 0, o = fresh < k; j < k; j++) {
		size_t at = (round + ((round / k) % 2 ? k - 1 - j : j)) % k;
		if (at != fresh)
			order[o++] = at;
	}
	if (fresh < k)
		order[0] = fresh;
	for (size_t j = 0; j < k; j++) {
		bool ok;
		if (ior_bisect_measure_once(r, ids[order[j]], round, &ok))
			return IOR_ERROR;
		if (!ok) {
			*failed = order[j];
			return IOR_OK;
		}
	}
	return IOR_OK;
}

/* A round of both ends, or the bisection stopped at the end that cannot be measured. */
int ior_bisect_ends_round(struct ior_bisect_run *r, const char *const *ends)
{
	size_t failed;
	if (ior_bisect_measure_round(r, ends, 2, &failed))
		return IOR_ERROR;
	return failed < 2 ? ior_bisect_end_retry(r, ends[failed]) : IOR_OK;
}
