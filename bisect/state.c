/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A bisection's state read as the driver needs it: marks by graph node, samples by round (the rows
 * and their SQL are db/bisect_state.c's). */
#include "bisect/state.h"

#include "common/error.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int ior_bisect_same_image(struct ior_db *db, int64_t id, const char *commit, const char *image, bool *found,
			  char *other, size_t len, enum ior_bisect_mark *mark)
{
	char text[16];
	int rc = ior_db_bisect_same_image(db, id, commit, image, found, other, len, text, sizeof(text));
	return rc || !*found ? rc : ior_bisect_mark_parse(text, mark);
}

int ior_bisect_mark_set(struct ior_db *db, int64_t id, const char *commit, enum ior_bisect_mark m, const char *reason)
{
	return ior_db_bisect_mark_set(db, id, commit, m == IOR_MARK_NONE ? NULL : ior_bisect_mark_name(m), reason);
}

struct marks {
	const struct ior_bisect_graph *g;
	enum ior_bisect_mark *marks;
};

static int mark_of(void *ctx, const char *commit, const char *mark)
{
	struct marks *m = ctx;
	long i = ior_bisect_graph_find(m->g, commit);
	if (i >= 0)
		ior_bisect_mark_parse(mark, &m->marks[i]);
	return IOR_OK;
}

int ior_bisect_marks_get(struct ior_db *db, int64_t id, const struct ior_bisect_graph *g, enum ior_bisect_mark *marks)
{
	for (size_t i = 0; i < g->n; i++)
		marks[i] = IOR_MARK_NONE;
	struct marks m = { g, marks };
	return ior_db_bisect_marks(db, id, mark_of, &m);
}

/* Grows the rounds table by one row of k values, NAN until filled. */
static int round_row(struct ior_bisect_rounds *r, size_t round)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 16;
		double *v = realloc(r->v, cap * r->k * sizeof(*v));
		size_t *no = realloc(r->round, cap * sizeof(*no));
		if (v)
			r->v = v;
		if (no)
			r->round = no;
		if (!v || !no)
			return ior_error_set(IOR_ERROR, "out of memory");
		r->cap = cap;
	}
	for (size_t j = 0; j < r->k; j++)
		r->v[r->n * r->k + j] = NAN;
	r->round[r->n++] = round;
	return IOR_OK;
}

/* The median of one commit's samples in one round (a measurement may print several). */
static double round_value(const double *x, size_t n)
{
	return ior_median(x, n);
}

/* Reads rounds: one (round, commit) group's samples at a time, its median into the row. */
struct round_reader {
	struct ior_bisect_rounds *out;
	const char *const *commits;
	double vals[256];
	size_t nv, round;
	long col;
};

/* A (round, commit) group ends: its median goes into the row. */
static void group_end(struct round_reader *g)
{
	if (g->nv)
		g->out->v[(g->out->n - 1) * g->out->k + (size_t)g->col] = round_value(g->vals, g->nv);
	g->nv = 0;
}

static int round_sample(void *ctx, size_t round, const char *commit, double value)
{
	struct round_reader *g = ctx;
	struct ior_bisect_rounds *out = g->out;
	long col = -1;
	for (size_t j = 0; j < out->k; j++)
		if (!strcmp(commit, g->commits[j]))
			col = (long)j;
	if (round != g->round || col != g->col)
		group_end(g);
	if (col < 0)
		return IOR_OK;
	if (!out->n || out->round[out->n - 1] != round) {
		int rc = round_row(out, round);
		if (rc)
			return rc;
	}
	g->round = round, g->col = col;
	if (g->nv < sizeof(g->vals) / sizeof(g->vals[0]))
		g->vals[g->nv++] = value;
	return IOR_OK;
}

int ior_bisect_rounds_get(struct ior_db *db, int64_t id, const char *const *commits, size_t k, size_t from,
			  struct ior_bisect_rounds *out)
{
	memset(out, 0, sizeof(*out));
	out->k = k;
	struct round_reader g = { .out = out, .commits = commits, .col = -1 };
	int rc = ior_db_bisect_round_samples(db, id, from, round_sample, &g);
	if (!rc)
		group_end(&g);
	/* only the rounds that hold every commit asked for */
	size_t kept = 0;
	for (size_t i = 0; !rc && i < out->n; i++) {
		bool full = true;
		for (size_t j = 0; j < k; j++)
			full &= !isnan(out->v[i * k + j]);
		if (!full)
			continue;
		memmove(out->v + kept * k, out->v + i * k, k * sizeof(*out->v));
		out->round[kept++] = out->round[i];
	}
	out->n = kept;
	if (rc)
		ior_bisect_rounds_free(out);
	return rc;
}

void ior_bisect_rounds_free(struct ior_bisect_rounds *r)
{
	free(r->v), free(r->round);
	memset(r, 0, sizeof(*r));
}
