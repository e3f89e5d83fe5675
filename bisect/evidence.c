/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The culprit or the range as text: one row per commit with its samples' count, median, noise,
 * change against the good end and its mark. */
#include "bisect/evidence.h"
#include "bisect/state.h"

#include "common/error.h"
#include "stats/paired.h"
#include "stats/stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct text {
	char *buf;
	size_t len, cap;
	bool oom;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || t->oom)
		return;
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = (t->len + (size_t)n + 1) * 2;
		char *b = realloc(t->buf, cap);
		if (!b) {
			t->oom = true;
			return;
		}
		t->buf = b, t->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

/* The commit against the good end as the verdicts weigh it: the geometric mean of its per-round ratio
 * to the good end measured in the same rounds (a median of all its samples against the good end's
 * mixes rounds minutes apart on a drifting machine, and once showed a culprit "+7.4%" beside "bad").
 * NAN when no round holds both. */
static double vs_good(struct ior_db *db, int64_t id, const char *commit, const char *good)
{
	if (!strcmp(commit, good))
		return 0;
	const char *ids[2] = { good, commit };
	struct ior_bisect_rounds rd;
	if (ior_bisect_rounds_get(db, id, ids, 2, 1, &rd)) {
		ior_error_clear();
		return NAN;
	}
	double *g = malloc((rd.n ? rd.n : 1) * sizeof(double)), *x = malloc((rd.n ? rd.n : 1) * sizeof(double));
	double v = NAN;
	struct ior_paired p;
	for (size_t i = 0; g && x && i < rd.n; i++)
		g[i] = rd.v[2 * i], x[i] = rd.v[2 * i + 1];
	if (g && x && rd.n && !ior_paired_ratio(&p, g, x, rd.n, 0.95))
		v = p.ratio - 1;
	free(g), free(x);
	ior_bisect_rounds_free(&rd);
	return v;
}

static int row(struct text *t, struct ior_db *db, int64_t id, const char *commit, const char *role, const char *good)
{
	double *x = NULL;
	size_t n = 0;
	char reason[1024];
	if (ior_bisect_samples_get(db, id, commit, &x, &n) || ior_bisect_reason_get(db, id, commit, reason, sizeof(reason))) {
		free(x);
		return IOR_ERROR;
	}
	size_t len = strlen(reason), tail = strlen(IOR_BISECT_UNMEASURED);
	if (n && len >= tail && !strcmp(reason + len - tail, IOR_BISECT_UNMEASURED))
		snprintf(reason + len - tail, sizeof(reason) - (len - tail), ": not measured while searching; its %zu samples "
			 "are the confirmation's", n);
	struct ior_stats st = { 0 };
	if (n)
		ior_stats_compute(&st, x, n);
	free(x);
	if (n)
		add(t, "  %-12.*s %-10s %4zu %12.6g %6.1f%% %+7.1f%%  %s\n", ior_bisect_id_width(commit), commit, role, n, st.median, st.cov * 100,
		    vs_good(db, id, commit, good) * 100, reason);
	else
		add(t, "  %-12.*s %-10s %4s %12s %7s %8s  %s\n", ior_bisect_id_width(commit), commit, role, "0", "-", "-", "-", reason);
	return IOR_OK;
}

static bool measured(struct ior_db *db, int64_t id, const char *commit)
{
	char reason[8];
	double *x = NULL;
	size_t n = 0;
	ior_bisect_samples_get(db, id, commit, &x, &n);
	free(x);
	if (n)
		return true;
	ior_bisect_reason_get(db, id, commit, reason, sizeof(reason));
	return reason[0] != '\0';   /* marked without samples: a failed build, a shared image */
}

static void header(struct text *t)
{
	add(t, "  %-12s %-10s %4s %12s %7s %8s  %s\n", "commit", "role", "n", "median", "noise", "vs good", "judgement");
	add(t, "  (vs good: the mean per-round ratio to the good end measured in the same rounds, as the verdicts weigh it)\n");
}

static int finish(struct text *t, char **out)
{
	if (t->oom) {
		free(t->buf);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	*out = t->buf;
	return IOR_OK;
}

int ior_bisect_evidence_culprit(char **out, struct ior_db *db, int64_t id, struct ior_bisect_source *src,
				const struct ior_bisect_graph *g, size_t culprit, const char *parent, const char *good,
				const char *bad, const char *why)
{
	struct text t = { 0 };
	const struct ior_bisect_node *c = &g->nodes[culprit];
	add(&t, "first bad commit: %s\n", c->id);
	add(&t, "  subject: %s\n  author:  %s\n  date:    %s\n", c->subject ? c->subject : "-",
	    c->author ? c->author : "-", c->date ? c->date : "-");
	add(&t, "confirmed: %s\n", why);
	(void)src;
	header(&t);
	const char *ids[] = { good, parent, c->id, bad };
	const char *roles[] = { "good end", "parent", "culprit", "bad end" };
	for (int i = 0; i < 4; i++) {
		bool dup = false;
		for (int j = 0; j < i; j++)
			dup |= !strcmp(ids[i], ids[j]);
		if (!dup && row(&t, db, id, ids[i], roles[i], good)) {
			free(t.buf);
			return IOR_ERROR;
		}
	}
	return finish(&t, out);
}

/* The candidates left, then the evidence rows of the ends and of those measured. */
static int candidates(struct text *t, struct ior_db *db, int64_t id, const struct ior_bisect_graph *g,
		      const struct ior_bisect_left *left, const char *good, const char *bad)
{
	for (size_t k = 0; k < left->count && k < 20; k++) {
		const struct ior_bisect_node *c = &g->nodes[left->cand[k]];
		add(t, "  %s %s (%s)\n", c->id, c->subject ? c->subject : "-", c->author ? c->author : "-");
	}
	if (left->count > 20)
		add(t, "  ... and %zu more ('ioregress bisect status' and the log list them)\n", left->count - 20);
	header(t);
	if (row(t, db, id, good, "good end", good))
		return IOR_ERROR;
	/* the evidence of the candidates that were measured (the others have none) */
	for (size_t k = 0; k < left->count; k++)
		if (strcmp(g->nodes[left->cand[k]].id, bad) && measured(db, id, g->nodes[left->cand[k]].id) &&
		    row(t, db, id, g->nodes[left->cand[k]].id, "candidate", good))
			return IOR_ERROR;
	return row(t, db, id, bad, "bad end", good);
}

int ior_bisect_evidence_range(char **out, struct ior_db *db, int64_t id, struct ior_bisect_source *src,
			      const struct ior_bisect_graph *g, const struct ior_bisect_left *left, const char *good,
			      const char *bad, const char *why)
{
	struct text t = { 0 };
	(void)src;
	add(&t, "no single culprit: %s; the first bad commit could be any of these %zu:\n", why, left->count);
	if (candidates(&t, db, id, g, left, good, bad)) {
		free(t.buf);
		return IOR_ERROR;
	}
	return finish(&t, out);
}

const char *ior_bisect_failure_verb(const char *failure)
{
	if (!strncmp(failure, "panic", 5))
		return "panics";
	if (!strncmp(failure, "hang", 4))
		return "hangs";
	if (!strncmp(failure, "boot-failed", 11) || !strncmp(failure, "boot failed", 11) || !failure[0])
		return "does not boot";
	return "cannot be measured";   /* test-failed, infra-error: it booted, or the harness failed */
}

int ior_bisect_evidence_unbootable(char **out, struct ior_db *db, int64_t id, const struct ior_bisect_graph *g,
				   const struct ior_bisect_left *left, size_t node, const char *failure, const char *good,
				   const char *bad, const char *why)
{
	struct text t = { 0 };
	add(&t, "first kernel that %s: %s\n", ior_bisect_failure_verb(failure), g->nodes[node].id);
	add(&t, "  %s\n", failure);
	add(&t, "named as the answer: %s; they are:\n", why);
	if (candidates(&t, db, id, g, left, good, bad)) {
		free(t.buf);
		return IOR_ERROR;
	}
	return finish(&t, out);
}

int ior_bisect_evidence_end(char **out, bool bad_end, const char *end, const char *what, const char *failure,
			    size_t samples)
{
	struct text t = { 0 };
	add(&t, "stopped: the %s end %s %s\n  %s\n", bad_end ? "bad" : "good", end, what, failure);
	add(&t, "  nothing can be judged against an end that cannot be measured: the bisection stops here, with the "
	    "%zu sample(s) measured so far kept\n", samples);
	add(&t, "  next: start again with %s end that builds and boots, or run 'ioregress bisect run' again to try it "
	    "again\n", bad_end ? "an earlier bad" : "a good");
	return finish(&t, out);
}
