/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bisection tables through SQLite: create, read the current one, builds, marks, samples, counts and the log. */
#include "bisect/state.h"

#include "common/error.h"
#include "stats/stats.h"

#include <math.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sql_fail(struct ior_db *db, const char *what)
{
	return ior_error_set(IOR_ERROR, "cannot %s in '%s': %s", what, ior_db_path(db),
			     sqlite3_errmsg(ior_db_handle(db)));
}

/* Prepares sql and binds the text arguments (NULL binds NULL) after the integer first one. */
static int prepare(struct ior_db *db, sqlite3_stmt **st, const char *sql, int64_t id, const char *const *texts,
		   int ntexts)
{
	if (sqlite3_prepare_v2(ior_db_handle(db), sql, -1, st, NULL) != SQLITE_OK)
		return sql_fail(db, "prepare a bisect statement");
	sqlite3_bind_int64(*st, 1, id);
	for (int i = 0; i < ntexts; i++)
		if (texts[i])
			sqlite3_bind_text(*st, i + 2, texts[i], -1, SQLITE_TRANSIENT);
	return IOR_OK;
}

static int exec(struct ior_db *db, const char *sql, int64_t id, const char *const *texts, int ntexts, const char *what)
{
	sqlite3_stmt *st;
	if (prepare(db, &st, sql, id, texts, ntexts))
		return IOR_ERROR;
	int rc = sqlite3_step(st) == SQLITE_DONE ? IOR_OK : sql_fail(db, what);
	sqlite3_finalize(st);
	return rc;
}

static char *col(sqlite3_stmt *st, int i, int *oom)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	if (!t)
		return NULL;
	char *s = strdup((const char *)t);
	*oom |= !s;
	return s;
}

void ior_bisect_info_free(struct ior_bisect_info *b)
{
	if (!b)
		return;
	free(b->source), free(b->repo), free(b->good), free(b->bad), free(b->orig_head);
	free(b->measure_cmd), free(b->build_cmd), free(b->boot_cmd), free(b->image);
	free(b->status), free(b->result), free(b->started_at), free(b->kernels), free(b->matrix);
	memset(b, 0, sizeof(*b));
}

int ior_bisect_create(struct ior_db *db, const struct ior_bisect_info *b, int64_t *id)
{
	const char *t[] = { b->source, b->repo, b->good, b->bad, b->orig_head, b->kernels };
	if (exec(db, "INSERT INTO bisects (higher_is_better, source, repo, good, bad, orig_head, kernels) "
		 "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", b->higher_is_better, t, 6, "store the bisection"))
		return IOR_ERROR;
	*id = sqlite3_last_insert_rowid(ior_db_handle(db));
	return IOR_OK;
}

int ior_bisect_current(struct ior_db *db, struct ior_bisect_info *out)
{
	memset(out, 0, sizeof(*out));
	sqlite3_stmt *st;
	if (prepare(db, &st, "SELECT id, source, repo, good, bad, orig_head, higher_is_better, measure_cmd, build_cmd, "
		    "boot_cmd, image, status, result, started_at, kernels, matrix FROM bisects WHERE status <> 'reset' AND id > ?1 "
		    "ORDER BY id DESC LIMIT 1", 0, NULL, 0))
		return IOR_ERROR;
	int r = sqlite3_step(st), oom = 0, rc = IOR_OK;
	if (r == SQLITE_ROW) {
		out->id = sqlite3_column_int64(st, 0);
		out->source = col(st, 1, &oom), out->repo = col(st, 2, &oom), out->good = col(st, 3, &oom);
		out->bad = col(st, 4, &oom), out->orig_head = col(st, 5, &oom);
		out->higher_is_better = sqlite3_column_int(st, 6);
		out->measure_cmd = col(st, 7, &oom), out->build_cmd = col(st, 8, &oom), out->boot_cmd = col(st, 9, &oom);
		out->image = col(st, 10, &oom), out->status = col(st, 11, &oom), out->result = col(st, 12, &oom);
		out->started_at = col(st, 13, &oom), out->kernels = col(st, 14, &oom), out->matrix = col(st, 15, &oom);
		if (oom)
			rc = ior_error_set(IOR_ERROR, "out of memory");
	} else if (r == SQLITE_DONE) {
		rc = ior_error_set(IOR_ENOTFOUND, "no bisection in '%s': start one with 'ioregress bisect start'",
				   ior_db_path(db));
	} else {
		rc = sql_fail(db, "read the bisection");
	}
	sqlite3_finalize(st);
	if (rc)
		ior_bisect_info_free(out);
	return rc;
}

int ior_bisect_set_commands(struct ior_db *db, int64_t id, const char *measure, const char *build, const char *boot,
			    const char *image)
{
	const char *t[] = { measure, build, boot, image };
	return exec(db, "UPDATE bisects SET measure_cmd = ?2, build_cmd = ?3, boot_cmd = ?4, image = ?5 WHERE id = ?1", id,
		    t, 4, "store the bisection's commands");
}

int ior_bisect_set_matrix(struct ior_db *db, int64_t id, const char *matrix)
{
	const char *t[] = { matrix };
	return exec(db, "UPDATE bisects SET matrix = ?2 WHERE id = ?1", id, t, 1, "store the bisection's matrix");
}

int ior_bisect_set_status(struct ior_db *db, int64_t id, const char *status, const char *result)
{
	const char *t[] = { status, result };
	return exec(db, "UPDATE bisects SET status = ?2, result = ?3 WHERE id = ?1", id, t, 2, "store the bisection's status");
}

int ior_bisect_log(struct ior_db *db, int64_t id, const char *commit, const char *event, const char *detail)
{
	const char *t[] = { commit, event, detail };
	return exec(db, "INSERT INTO bisect_log (bisect_id, commit_id, event, detail) VALUES (?1, ?2, ?3, ?4)", id, t, 3,
		    "log the bisection");
}

static int ensure_commit(struct ior_db *db, int64_t id, const char *commit)
{
	const char *t[] = { commit };
	return exec(db, "INSERT OR IGNORE INTO bisect_commits (bisect_id, commit_id) VALUES (?1, ?2)", id, t, 1,
		    "store a commit of the bisection");
}

int ior_bisect_build_get(struct ior_db *db, int64_t id, const char *commit, bool *built, bool *ok, char *image,
			 size_t len)
{
	sqlite3_stmt *st;
	const char *t[] = { commit };
	*built = *ok = false;
	image[0] = '\0';
	if (prepare(db, &st, "SELECT build, image FROM bisect_commits WHERE bisect_id = ?1 AND commit_id = ?2 AND build IS NOT NULL",
		    id, t, 1))
		return IOR_ERROR;
	int r = sqlite3_step(st);
	if (r == SQLITE_ROW) {
		*built = true;
		*ok = !strcmp((const char *)sqlite3_column_text(st, 0), "ok");
		const unsigned char *im = sqlite3_column_text(st, 1);
		snprintf(image, len, "%s", im ? (const char *)im : "");
	}
	sqlite3_finalize(st);
	return r == SQLITE_ROW || r == SQLITE_DONE ? IOR_OK : sql_fail(db, "read a build");
}

int ior_bisect_build_set(struct ior_db *db, int64_t id, const char *commit, bool ok, const char *image)
{
	const char *t[] = { commit, ok ? "ok" : "build failed", image && *image ? image : NULL };
	if (ensure_commit(db, id, commit))
		return IOR_ERROR;
	return exec(db, "UPDATE bisect_commits SET build = ?3, image = ?4 WHERE bisect_id = ?1 AND commit_id = ?2", id, t, 3,
		    "store a build");
}

int ior_bisect_same_image(struct ior_db *db, int64_t id, const char *commit, const char *image, bool *found,
			  char *other, size_t len, enum ior_bisect_mark *mark)
{
	sqlite3_stmt *st;
	const char *t[] = { commit, image };
	*found = false;
	if (!image || !*image)
		return IOR_OK;
	if (prepare(db, &st, "SELECT commit_id, mark FROM bisect_commits WHERE bisect_id = ?1 AND commit_id <> ?2 AND "
		    "image = ?3 AND mark IN ('good', 'bad') LIMIT 1", id, t, 2))
		return IOR_ERROR;
	int r = sqlite3_step(st), rc = IOR_OK;
	if (r == SQLITE_ROW) {
		*found = true;
		snprintf(other, len, "%s", (const char *)sqlite3_column_text(st, 0));
		rc = ior_bisect_mark_parse((const char *)sqlite3_column_text(st, 1), mark);
	} else if (r != SQLITE_DONE) {
		rc = sql_fail(db, "look up an image");
	}
	sqlite3_finalize(st);
	return rc;
}

int ior_bisect_mark_set(struct ior_db *db, int64_t id, const char *commit, enum ior_bisect_mark m, const char *reason)
{
	const char *t[] = { commit, m == IOR_MARK_NONE ? NULL : ior_bisect_mark_name(m), reason };
	if (ensure_commit(db, id, commit))
		return IOR_ERROR;
	return exec(db, "UPDATE bisect_commits SET mark = ?3, reason = ?4 WHERE bisect_id = ?1 AND commit_id = ?2", id, t, 3,
		    "store a mark");
}

int ior_bisect_marks_get(struct ior_db *db, int64_t id, const struct ior_bisect_graph *g, enum ior_bisect_mark *marks)
{
	for (size_t i = 0; i < g->n; i++)
		marks[i] = IOR_MARK_NONE;
	sqlite3_stmt *st;
	if (prepare(db, &st, "SELECT commit_id, mark FROM bisect_commits WHERE bisect_id = ?1 AND mark IS NOT NULL", id,
		    NULL, 0))
		return IOR_ERROR;
	int r;
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		long i = ior_bisect_graph_find(g, (const char *)sqlite3_column_text(st, 0));
		if (i >= 0)
			ior_bisect_mark_parse((const char *)sqlite3_column_text(st, 1), &marks[i]);
	}
	sqlite3_finalize(st);
	return r == SQLITE_DONE ? IOR_OK : sql_fail(db, "read the marks");
}

int ior_bisect_reason_get(struct ior_db *db, int64_t id, const char *commit, char *buf, size_t len)
{
	sqlite3_stmt *st;
	const char *t[] = { commit };
	buf[0] = '\0';
	if (prepare(db, &st, "SELECT reason FROM bisect_commits WHERE bisect_id = ?1 AND commit_id = ?2", id, t, 1))
		return IOR_ERROR;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return IOR_OK;
}

static int count(struct ior_db *db, const char *sql, int64_t id, size_t *out)
{
	sqlite3_stmt *st;
	if (prepare(db, &st, sql, id, NULL, 0))
		return IOR_ERROR;
	int r = sqlite3_step(st);
	*out = r == SQLITE_ROW ? (size_t)sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return r == SQLITE_ROW ? IOR_OK : sql_fail(db, "count the bisection's work");
}

int ior_bisect_samples_add(struct ior_db *db, int64_t id, const char *commit, const double *x, size_t n)
{
	return ior_bisect_samples_add_round(db, id, commit, x, n, 0);
}

int ior_bisect_samples_add_round(struct ior_db *db, int64_t id, const char *commit, const double *x, size_t n,
				 size_t round)
{
	if (ior_db_begin(db))
		return IOR_ERROR;
	const char *t[] = { commit };
	size_t measurement = 0;
	sqlite3_stmt *st = NULL;
	int rc = ensure_commit(db, id, commit);
	if (!rc)
		rc = count(db, "SELECT ifnull(max(measurement), 0) + 1 FROM bisect_samples WHERE bisect_id = ?1", id,
			   &measurement);
	if (!rc)
		rc = prepare(db, &st, "INSERT INTO bisect_samples (bisect_id, commit_id, measurement, value, round) "
			     "VALUES (?1, ?2, ?3, ?4, ?5)", id, t, 1);
	for (size_t i = 0; !rc && i < n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 3, (int64_t)measurement);
		if (round)
			sqlite3_bind_int64(st, 5, (int64_t)round);
		sqlite3_bind_double(st, 4, x[i]);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = sql_fail(db, "store a sample");
	}
	sqlite3_finalize(st);
	if (rc) {
		ior_db_rollback(db);
		return rc;
	}
	return ior_db_commit(db);
}

int ior_bisect_samples_get(struct ior_db *db, int64_t id, const char *commit, double **x, size_t *n)
{
	*x = NULL, *n = 0;
	sqlite3_stmt *st;
	const char *t[] = { commit };
	if (prepare(db, &st, "SELECT value FROM bisect_samples WHERE bisect_id = ?1 AND commit_id = ?2 ORDER BY id", id, t, 1))
		return IOR_ERROR;
	int r, rc = IOR_OK;
	size_t cap = 0;
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 32;
			double *g = realloc(*x, cap * sizeof(*g));
			if (!g) {
				rc = ior_error_set(IOR_ERROR, "out of memory");
				break;
			}
			*x = g;
		}
		(*x)[(*n)++] = sqlite3_column_double(st, 0);
	}
	if (!rc && r != SQLITE_DONE)
		rc = sql_fail(db, "read samples");
	sqlite3_finalize(st);
	if (rc)
		free(*x), *x = NULL, *n = 0;
	return rc;
}

int ior_bisect_samples_count(struct ior_db *db, int64_t id, const char *commit, size_t *n)
{
	*n = 0;
	sqlite3_stmt *st;
	const char *t[] = { commit };
	if (prepare(db, &st, "SELECT count(*) FROM bisect_samples WHERE bisect_id = ?1 AND commit_id = ?2", id, t, 1))
		return IOR_ERROR;
	int rc = sqlite3_step(st) == SQLITE_ROW ? IOR_OK : sql_fail(db, "count samples");
	if (!rc)
		*n = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc;
}

int ior_bisect_round_next(struct ior_db *db, int64_t id, size_t *round)
{
	return count(db, "SELECT ifnull(max(round), 0) + 1 FROM bisect_samples WHERE bisect_id = ?1", id, round);
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

int ior_bisect_rounds_get(struct ior_db *db, int64_t id, const char *const *commits, size_t k, size_t from,
			  struct ior_bisect_rounds *out)
{
	memset(out, 0, sizeof(*out));
	out->k = k;
	sqlite3_stmt *st;
	if (prepare(db, &st, "SELECT round, commit_id, value FROM bisect_samples WHERE bisect_id = ?1 AND round >= ?2 "
		    "ORDER BY round, commit_id, id", id, NULL, 0))
		return IOR_ERROR;
	sqlite3_bind_int64(st, 2, (int64_t)from);
	int r, rc = IOR_OK;
	double vals[256];
	size_t nv = 0, cur_round = 0;
	long cur_col = -1;
	for (;;) {
		r = sqlite3_step(st);
		size_t rd = r == SQLITE_ROW ? (size_t)sqlite3_column_int64(st, 0) : 0;
		const char *c = r == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 1) : "";
		long col = -1;
		for (size_t j = 0; j < k && r == SQLITE_ROW; j++)
			if (!strcmp(c, commits[j]))
				col = (long)j;
		/* a (round, commit) group ends: its median goes into the row */
		if (nv && (r != SQLITE_ROW || rd != cur_round || col != cur_col)) {
			out->v[(out->n - 1) * k + (size_t)cur_col] = round_value(vals, nv);
			nv = 0;
		}
		if (r != SQLITE_ROW)
			break;
		if (col < 0)
			continue;
		if (!out->n || out->round[out->n - 1] != rd) {
			if ((rc = round_row(out, rd)))
				break;
		}
		cur_round = rd, cur_col = col;
		if (nv < sizeof(vals) / sizeof(vals[0]))
			vals[nv++] = sqlite3_column_double(st, 2);
	}
	if (!rc && r != SQLITE_DONE)
		rc = sql_fail(db, "read rounds");
	sqlite3_finalize(st);
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

int ior_bisect_counts_get(struct ior_db *db, int64_t id, struct ior_bisect_counts *c)
{
	memset(c, 0, sizeof(*c));
	if (count(db, "SELECT count(*) FROM bisect_log WHERE bisect_id = ?1 AND event = 'build'", id, &c->builds) ||
	    count(db, "SELECT count(DISTINCT measurement) FROM bisect_samples WHERE bisect_id = ?1", id, &c->measurements) ||
	    count(db, "SELECT count(*) FROM bisect_samples WHERE bisect_id = ?1", id, &c->samples))
		return IOR_ERROR;
	return IOR_OK;
}

int ior_bisect_log_each(struct ior_db *db, int64_t id,
			int (*fn)(void *ctx, const char *commit, const char *event, const char *detail, const char *at),
			void *ctx)
{
	sqlite3_stmt *st;
	if (prepare(db, &st, "SELECT commit_id, event, detail, at FROM bisect_log WHERE bisect_id = ?1 ORDER BY id", id,
		    NULL, 0))
		return IOR_ERROR;
	int r, rc = IOR_OK;
	while (!rc && (r = sqlite3_step(st)) == SQLITE_ROW)
		rc = fn(ctx, (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1),
			(const char *)sqlite3_column_text(st, 2), (const char *)sqlite3_column_text(st, 3));
	if (!rc && r != SQLITE_DONE)
		rc = sql_fail(db, "read the log");
	sqlite3_finalize(st);
	return rc;
}

int ior_bisect_log_last(struct ior_db *db, int64_t id, const char *commit, const char *event, bool *found, char *detail,
			size_t len)
{
	sqlite3_stmt *st;
	const char *t[] = { commit, event };
	*found = false;
	detail[0] = '\0';
	if (prepare(db, &st, "SELECT detail FROM bisect_log WHERE bisect_id = ?1 AND commit_id IS ?2 AND event = ?3 "
		    "ORDER BY id DESC LIMIT 1", id, t, 2))
		return IOR_ERROR;
	int r = sqlite3_step(st);
	if (r == SQLITE_ROW) {
		*found = true;
		snprintf(detail, len, "%s", sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0) : "");
	}
	sqlite3_finalize(st);
	return r == SQLITE_ROW || r == SQLITE_DONE ? IOR_OK : sql_fail(db, "read the log");
}
