/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A bisection's rows through db's prepared statements: create, read the current one, builds, marks,
 * samples, counts and the log. */
#include "db/bisect_state.h"
#include "db/internal.h"

#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The statement with the bisection as ?1 and texts as ?2, ?3, ... (NULL binds NULL). */
static sqlite3_stmt *bisect_stmt(struct ior_db *db, enum ior_stmt which, int64_t id, const char *const *texts,
				 int ntexts)
{
	sqlite3_stmt *st = ior_db_stmt(db, which);
	sqlite3_bind_int64(st, 1, id);
	for (int i = 0; i < ntexts; i++)
		ior_db_bind_text(st, i + 2, texts[i]);
	return st;
}

static int exec(struct ior_db *db, enum ior_stmt which, int64_t id, const char *const *texts, int ntexts,
		const char *what)
{
	return ior_db_step_done(db, bisect_stmt(db, which, id, texts, ntexts), what);
}

/* A statement's one number (a count, a next number) as a size. */
static int number(struct ior_db *db, enum ior_stmt which, int64_t id, const char *const *texts, int ntexts,
		  size_t *out)
{
	int64_t v = 0;
	int rc = ior_db_step_id(db, bisect_stmt(db, which, id, texts, ntexts), "cannot count the bisection's work in", &v);
	*out = rc ? 0 : (size_t)v;
	return rc;
}

/* Copies the text of a row's column (NULL: none, or "" when empty) into buf. */
static void text_into(sqlite3_stmt *st, int col, char *buf, size_t len)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	snprintf(buf, len, "%s", t ? (const char *)t : "");
}

/* Steps a one-row read: true with a row (read it, then reset), false at the end or on an error (*rc set). */
static bool one_row(struct ior_db *db, sqlite3_stmt *st, const char *what, int *rc)
{
	int r = sqlite3_step(st);
	*rc = r == SQLITE_ROW || r == SQLITE_DONE ? IOR_OK : ior_db_fail(db, what);
	if (r != SQLITE_ROW)
		sqlite3_reset(st);
	return r == SQLITE_ROW;
}

/* A one-row read of one text: *found and buf ("" without a row, or for NULL). */
static int first_text(struct ior_db *db, sqlite3_stmt *st, const char *what, bool *found, char *buf, size_t len)
{
	int rc;
	buf[0] = '\0';
	*found = one_row(db, st, what, &rc);
	if (*found) {
		text_into(st, 0, buf, len);
		sqlite3_reset(st);
	}
	return rc;
}

void ior_bisect_info_free(struct ior_bisect_info *b)
{
	if (!b)
		return;
	free(b->source), free(b->repo), free(b->good), free(b->bad), free(b->orig_head);
	free(b->measure_cmd), free(b->build_cmd), free(b->boot_cmd), free(b->image);
	free(b->status), free(b->result), free(b->started_at), free(b->kernels), free(b->matrix);
	free(b->target), free(b->target_default);
	memset(b, 0, sizeof(*b));
}

int ior_bisect_create(struct ior_db *db, const struct ior_bisect_info *b, int64_t *id)
{
	const char *t[] = { b->source, b->repo, b->good, b->bad, b->orig_head, b->kernels };
	int rc = exec(db, IOR_STMT_BISECT_INSERT, b->higher_is_better, t, 6, "cannot store the bisection in");
	if (!rc)
		*id = sqlite3_last_insert_rowid(db->h);
	return rc;
}

int ior_bisect_current(struct ior_db *db, struct ior_bisect_info *out)
{
	memset(out, 0, sizeof(*out));
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_BISECT_CURRENT);
	int rc;
	if (!one_row(db, st, "cannot read the bisection in", &rc))
		return rc ? rc : ior_error_set(IOR_ENOTFOUND, "no bisection in '%s': start one with 'ioregress bisect start'",
					       db->path);
	bool oom = false;
	out->id = sqlite3_column_int64(st, 0);
	out->source = ior_db_column_dup(st, 1, &oom), out->repo = ior_db_column_dup(st, 2, &oom);
	out->good = ior_db_column_dup(st, 3, &oom), out->bad = ior_db_column_dup(st, 4, &oom);
	out->orig_head = ior_db_column_dup(st, 5, &oom);
	out->higher_is_better = sqlite3_column_int(st, 6);
	out->measure_cmd = ior_db_column_dup(st, 7, &oom), out->build_cmd = ior_db_column_dup(st, 8, &oom);
	out->boot_cmd = ior_db_column_dup(st, 9, &oom), out->image = ior_db_column_dup(st, 10, &oom);
	out->status = ior_db_column_dup(st, 11, &oom), out->result = ior_db_column_dup(st, 12, &oom);
	out->started_at = ior_db_column_dup(st, 13, &oom), out->kernels = ior_db_column_dup(st, 14, &oom);
	out->matrix = ior_db_column_dup(st, 15, &oom);
	out->target = ior_db_column_dup(st, 16, &oom), out->target_default = ior_db_column_dup(st, 17, &oom);
	sqlite3_reset(st);
	if (!oom)
		return IOR_OK;
	ior_bisect_info_free(out);
	return ior_error_set(IOR_ERROR, "out of memory");
}

int ior_bisect_set_commands(struct ior_db *db, int64_t id, const char *measure, const char *build, const char *boot,
			    const char *image)
{
	const char *t[] = { measure, build, boot, image };
	return exec(db, IOR_STMT_BISECT_SET_COMMANDS, id, t, 4, "cannot store the bisection's commands in");
}

int ior_bisect_set_matrix(struct ior_db *db, int64_t id, const char *matrix)
{
	return exec(db, IOR_STMT_BISECT_SET_MATRIX, id, &matrix, 1, "cannot store the bisection's matrix in");
}

int ior_bisect_set_target_default(struct ior_db *db, int64_t id, const char *target, const char *release)
{
	const char *t[] = { target, release };
	int rc = exec(db, IOR_STMT_BISECT_SET_TARGET_DEFAULT, id, t, 2, "cannot store the bisection's target in");
	if (rc)
		return rc;
	char detail[600];
	snprintf(detail, sizeof(detail), "%s %s", target, release);
	return ior_bisect_log(db, id, NULL, "target-default", detail);
}

int ior_bisect_set_status(struct ior_db *db, int64_t id, const char *status, const char *result)
{
	const char *t[] = { status, result };
	return exec(db, IOR_STMT_BISECT_SET_STATUS, id, t, 2, "cannot store the bisection's status in");
}

int ior_bisect_log(struct ior_db *db, int64_t id, const char *commit, const char *event, const char *detail)
{
	const char *t[] = { commit, event, detail };
	return exec(db, IOR_STMT_BISECT_LOG, id, t, 3, "cannot log the bisection in");
}

static int ensure_commit(struct ior_db *db, int64_t id, const char *commit)
{
	return exec(db, IOR_STMT_BISECT_COMMIT_ENSURE, id, &commit, 1, "cannot store a commit of the bisection in");
}

int ior_bisect_build_get(struct ior_db *db, int64_t id, const char *commit, bool *built, bool *ok, char *image,
			 size_t len)
{
	*built = *ok = false;
	image[0] = '\0';
	sqlite3_stmt *st = bisect_stmt(db, IOR_STMT_BISECT_BUILD_GET, id, &commit, 1);
	int rc;
	if (one_row(db, st, "cannot read a build in", &rc)) {
		*built = true;
		*ok = !strcmp((const char *)sqlite3_column_text(st, 0), "ok");
		text_into(st, 1, image, len);
		sqlite3_reset(st);
	}
	return rc;
}

int ior_bisect_build_set(struct ior_db *db, int64_t id, const char *commit, bool ok, const char *image)
{
	const char *t[] = { commit, ok ? "ok" : "build failed", image && *image ? image : NULL };
	if (ensure_commit(db, id, commit))
		return IOR_ERROR;
	return exec(db, IOR_STMT_BISECT_BUILD_SET, id, t, 3, "cannot store a build in");
}

int ior_db_bisect_same_image(struct ior_db *db, int64_t id, const char *commit, const char *image, bool *found,
			     char *other, size_t len, char *mark, size_t mark_len)
{
	const char *t[] = { commit, image };
	*found = false;
	if (!image || !*image)
		return IOR_OK;
	sqlite3_stmt *st = bisect_stmt(db, IOR_STMT_BISECT_SAME_IMAGE, id, t, 2);
	int rc;
	if (one_row(db, st, "cannot look up an image in", &rc)) {
		*found = true;
		text_into(st, 0, other, len);
		text_into(st, 1, mark, mark_len);
		sqlite3_reset(st);
	}
	return rc;
}

int ior_db_bisect_mark_set(struct ior_db *db, int64_t id, const char *commit, const char *mark, const char *reason)
{
	const char *t[] = { commit, mark, reason };
	if (ensure_commit(db, id, commit))
		return IOR_ERROR;
	return exec(db, IOR_STMT_BISECT_MARK_SET, id, t, 3, "cannot store a mark in");
}

/* Steps st to its end, fn on each row; what names the rows in an error. */
static int each_row(struct ior_db *db, sqlite3_stmt *st, const char *what, int (*row)(sqlite3_stmt *st, void *arg),
		    void *arg)
{
	int r, rc = IOR_OK;
	while (!rc && (r = sqlite3_step(st)) == SQLITE_ROW)
		rc = row(st, arg);
	if (!rc && r != SQLITE_DONE)
		rc = ior_db_fail(db, what);
	sqlite3_reset(st);
	return rc;
}

struct marks_call {
	int (*fn)(void *ctx, const char *commit, const char *mark);
	void *ctx;
};

static int mark_row(sqlite3_stmt *st, void *arg)
{
	struct marks_call *c = arg;
	return c->fn(c->ctx, (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1));
}

int ior_db_bisect_marks(struct ior_db *db, int64_t id, int (*fn)(void *ctx, const char *commit, const char *mark),
			void *ctx)
{
	struct marks_call c = { fn, ctx };
	return each_row(db, bisect_stmt(db, IOR_STMT_BISECT_MARKS, id, NULL, 0), "cannot read the marks in", mark_row, &c);
}

int ior_bisect_reason_get(struct ior_db *db, int64_t id, const char *commit, char *buf, size_t len)
{
	bool found;
	return first_text(db, bisect_stmt(db, IOR_STMT_BISECT_REASON, id, &commit, 1), "cannot read a mark's reason in",
			  &found, buf, len);
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
	size_t measurement = 0;
	int rc = ensure_commit(db, id, commit);
	if (!rc)
		rc = number(db, IOR_STMT_BISECT_MEASUREMENT_NEXT, id, NULL, 0, &measurement);
	sqlite3_stmt *st = bisect_stmt(db, IOR_STMT_BISECT_SAMPLE_INSERT, id, &commit, 1);
	sqlite3_bind_int64(st, 3, (int64_t)measurement);
	if (round)
		sqlite3_bind_int64(st, 5, (int64_t)round);
	for (size_t i = 0; !rc && i < n; i++) {
		sqlite3_bind_double(st, 4, x[i]);
		rc = ior_db_step_done(db, st, "cannot store a sample in");
	}
	if (rc) {
		ior_db_rollback(db);
		return rc;
	}
	return ior_db_commit(db);
}

struct values {
	double *x;
	size_t n, cap;
};

static int value_row(sqlite3_stmt *st, void *arg)
{
	struct values *v = arg;
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 32;
		double *g = realloc(v->x, cap * sizeof(*g));
		if (!g)
			return ior_error_set(IOR_ERROR, "out of memory");
		v->x = g, v->cap = cap;
	}
	v->x[v->n++] = sqlite3_column_double(st, 0);
	return IOR_OK;
}

/* Appends the first column of st's rows to *x (*n counts them); on failure *x is freed. */
static int read_values(struct ior_db *db, sqlite3_stmt *st, const char *what, double **x, size_t *n)
{
	struct values v = { *x, *n, *n };
	int rc = each_row(db, st, what, value_row, &v);
	if (rc) {
		free(v.x);
		v.x = NULL, v.n = 0;
	}
	*x = v.x, *n = v.n;
	return rc;
}

int ior_bisect_samples_get(struct ior_db *db, int64_t id, const char *commit, double **x, size_t *n)
{
	*x = NULL, *n = 0;
	return read_values(db, bisect_stmt(db, IOR_STMT_BISECT_SAMPLES, id, &commit, 1), "cannot read samples in", x, n);
}

int ior_bisect_samples_count(struct ior_db *db, int64_t id, const char *commit, size_t *n)
{
	return number(db, IOR_STMT_BISECT_SAMPLES_COUNT, id, &commit, 1, n);
}

int ior_bisect_round_next(struct ior_db *db, int64_t id, size_t *round)
{
	return number(db, IOR_STMT_BISECT_ROUND_NEXT, id, NULL, 0, round);
}

struct round_call {
	int (*fn)(void *ctx, size_t round, const char *commit, double value);
	void *ctx;
};

static int round_row(sqlite3_stmt *st, void *arg)
{
	struct round_call *c = arg;
	return c->fn(c->ctx, (size_t)sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1),
		     sqlite3_column_double(st, 2));
}

int ior_db_bisect_round_samples(struct ior_db *db, int64_t id, size_t from,
				int (*fn)(void *ctx, size_t round, const char *commit, double value), void *ctx)
{
	sqlite3_stmt *st = bisect_stmt(db, IOR_STMT_BISECT_ROUND_SAMPLES, id, NULL, 0);
	sqlite3_bind_int64(st, 2, (int64_t)from);
	struct round_call c = { fn, ctx };
	return each_row(db, st, "cannot read rounds in", round_row, &c);
}

int ior_bisect_counts_get(struct ior_db *db, int64_t id, struct ior_bisect_counts *c)
{
	memset(c, 0, sizeof(*c));
	if (number(db, IOR_STMT_BISECT_BUILDS_COUNT, id, NULL, 0, &c->builds) ||
	    number(db, IOR_STMT_BISECT_MEASUREMENTS_COUNT, id, NULL, 0, &c->measurements) ||
	    number(db, IOR_STMT_BISECT_ALL_SAMPLES_COUNT, id, NULL, 0, &c->samples))
		return IOR_ERROR;
	return IOR_OK;
}

struct log_call {
	int (*fn)(void *ctx, const char *commit, const char *event, const char *detail, const char *at);
	void *ctx;
};

static int log_row(sqlite3_stmt *st, void *arg)
{
	struct log_call *c = arg;
	return c->fn(c->ctx, (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1),
		     (const char *)sqlite3_column_text(st, 2), (const char *)sqlite3_column_text(st, 3));
}

int ior_bisect_log_each(struct ior_db *db, int64_t id,
			int (*fn)(void *ctx, const char *commit, const char *event, const char *detail, const char *at),
			void *ctx)
{
	struct log_call c = { fn, ctx };
	return each_row(db, bisect_stmt(db, IOR_STMT_BISECT_LOG_ALL, id, NULL, 0), "cannot read the log in", log_row, &c);
}

int ior_bisect_log_last(struct ior_db *db, int64_t id, const char *commit, const char *event, bool *found, char *detail,
			size_t len)
{
	const char *t[] = { commit, event };
	return first_text(db, bisect_stmt(db, IOR_STMT_BISECT_LOG_LAST, id, t, 2), "cannot read the log in", found, detail,
			  len);
}

/* A column of the commit's state row into buf: *found false when the row or the value is missing. */
static int state_text(struct ior_db *db, int64_t id, const char *commit, int col, bool *found, char *buf, size_t len)
{
	sqlite3_stmt *st = bisect_stmt(db, IOR_STMT_BISECT_COMMIT_STATE, id, &commit, 1);
	int rc;
	buf[0] = '\0';
	*found = false;
	if (one_row(db, st, "cannot read a commit's state in", &rc)) {
		*found = sqlite3_column_type(st, col) != SQLITE_NULL;
		text_into(st, col, buf, len);
		sqlite3_reset(st);
	}
	return rc;
}

/* The column set by which, then the log row of event. */
static int state_set(struct ior_db *db, int64_t id, const char *commit, enum ior_stmt which, const char *event,
		     const char *detail)
{
	const char *t[] = { commit, detail };
	if (ensure_commit(db, id, commit) || exec(db, which, id, t, 2, "cannot store a commit's state in"))
		return IOR_ERROR;
	return ior_bisect_log(db, id, commit, event, detail);
}

int ior_bisect_build_error_set(struct ior_db *db, int64_t id, const char *commit, const char *why)
{
	return state_set(db, id, commit, IOR_STMT_BISECT_BUILD_ERROR_SET, "build-error", why);
}

int ior_bisect_boot_failure_set(struct ior_db *db, int64_t id, const char *commit, const char *failure)
{
	return state_set(db, id, commit, IOR_STMT_BISECT_BOOT_FAILURE_SET, "boot-failed", failure);
}

int ior_bisect_config_set(struct ior_db *db, int64_t id, const char *commit, const char *detail)
{
	return state_set(db, id, commit, IOR_STMT_BISECT_CONFIG_SET, "config", detail);
}

int ior_bisect_build_error_get(struct ior_db *db, int64_t id, const char *commit, bool *found, char *buf, size_t len)
{
	return state_text(db, id, commit, 0, found, buf, len);
}

int ior_bisect_boot_failure_get(struct ior_db *db, int64_t id, const char *commit, bool *found, char *buf, size_t len)
{
	return state_text(db, id, commit, 1, found, buf, len);
}

int ior_bisect_config_hash_get(struct ior_db *db, int64_t id, const char *commit, bool *found, char *buf, size_t len)
{
	return state_text(db, id, commit, 2, found, buf, len);
}

int ior_bisect_confirm_set(struct ior_db *db, int64_t id, const char *commit, const struct ior_bisect_confirm_state *c)
{
	char text[256] = "done";
	if (c)
		snprintf(text, sizeof(text), "%zu %s %zu", c->from, c->parent, c->need);
	if (ensure_commit(db, id, commit))
		return IOR_ERROR;
	sqlite3_stmt *st = bisect_stmt(db, IOR_STMT_BISECT_CONFIRM_SET, id,
				       (const char *const[]){ commit, c ? c->parent : NULL }, 2);
	if (c)
		sqlite3_bind_int64(st, 4, (int64_t)c->from), sqlite3_bind_int64(st, 5, (int64_t)c->need);
	else   /* a statement keeps its bindings across runs */
		sqlite3_bind_null(st, 4), sqlite3_bind_null(st, 5);
	if (ior_db_step_done(db, st, "cannot store a confirmation in"))
		return IOR_ERROR;
	return ior_bisect_log(db, id, commit, "confirming", text);
}

int ior_bisect_confirm_get(struct ior_db *db, int64_t id, const char *commit, bool *found,
			   struct ior_bisect_confirm_state *c)
{
	sqlite3_stmt *st = bisect_stmt(db, IOR_STMT_BISECT_COMMIT_STATE, id, &commit, 1);
	int rc;
	memset(c, 0, sizeof(*c));
	*found = false;
	if (one_row(db, st, "cannot read a confirmation in", &rc)) {
		*found = sqlite3_column_type(st, 4) != SQLITE_NULL;
		c->from = (size_t)sqlite3_column_int64(st, 3);
		text_into(st, 4, c->parent, sizeof(c->parent));
		c->need = (size_t)sqlite3_column_int64(st, 5);
		sqlite3_reset(st);
	}
	return rc;
}
