/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bisections as reports read them: each bisection with its commits, their marks, builds and
 * samples, and the culprit it named. */
#include "db/db.h"
#include "db/internal.h"

#include "common/error.h"

#include <stdlib.h>
#include <string.h>

/* Read once per report, so prepared here rather than at open (db/stmt.c). */
static const char bisects_sql[] =
	"SELECT b.id, b.source, b.repo, b.good, b.bad, b.status, b.result, b.started_at, b.higher_is_better, "
	"(SELECT l.commit_id FROM bisect_log l WHERE l.bisect_id = b.id AND l.event = 'found' ORDER BY l.id DESC LIMIT 1) "
	"FROM bisects b ORDER BY b.id";
/* A commit may have samples and no bisect_commits row (a measure killed before its mark): both count. */
static const char commits_sql[] =
	"SELECT k.bisect_id, k.commit_id, c.build, c.image, c.mark FROM "
	"(SELECT bisect_id, commit_id FROM bisect_commits UNION SELECT bisect_id, commit_id FROM bisect_samples) k "
	"LEFT JOIN bisect_commits c ON c.bisect_id = k.bisect_id AND c.commit_id = k.commit_id "
	"ORDER BY k.bisect_id, k.commit_id";
static const char samples_sql[] =
	"SELECT bisect_id, commit_id, value FROM bisect_samples ORDER BY bisect_id, commit_id, id";

static int prepare(struct ior_db *db, sqlite3_stmt **st, const char *sql)
{
	if (sqlite3_prepare_v2(db->h, sql, -1, st, NULL) != SQLITE_OK)
		return ior_db_fail(db, "cannot read the bisections from");
	return IOR_OK;
}

/* Ends a read: out of memory, a failed step, or done; the statement is finalized either way. */
static int finish(struct ior_db *db, sqlite3_stmt *st, int rc, bool oom)
{
	int out = oom ? ior_error_set(IOR_ERROR, "out of memory")
		      : rc != SQLITE_DONE && rc != SQLITE_ROW ? ior_db_fail(db, "cannot read the bisections from") : IOR_OK;
	sqlite3_finalize(st);
	return out;
}

static struct ior_db_bisect_row *find_bisect(struct ior_db_bisect_row *rows, size_t n, int64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].id == id)
			return &rows[i];
	return NULL;
}

static struct ior_db_bisect_commit_row *find_commit(struct ior_db_bisect_row *b, const char *commit)
{
	for (size_t i = 0; b && commit && i < b->ncommits; i++)
		if (!strcmp(b->commits[i].commit, commit))
			return &b->commits[i];
	return NULL;
}

static int read_bisects(struct ior_db *db, struct ior_db_bisect_row **rows, size_t *n)
{
	sqlite3_stmt *st;
	if (prepare(db, &st, bisects_sql))
		return IOR_ERROR;
	size_t cap = 0;
	bool oom = false;
	int rc = SQLITE_DONE;
	while (!oom && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 4;
			struct ior_db_bisect_row *grown = realloc(*rows, cap * sizeof(**rows));
			if (!grown) {
				oom = true;
				break;
			}
			*rows = grown;
		}
		struct ior_db_bisect_row *b = &(*rows)[(*n)++];
		*b = (struct ior_db_bisect_row){ .id = sqlite3_column_int64(st, 0) };
		b->source = ior_db_column_dup(st, 1, &oom);
		b->repo = ior_db_column_dup(st, 2, &oom);
		b->good = ior_db_column_dup(st, 3, &oom);
		b->bad = ior_db_column_dup(st, 4, &oom);
		b->status = ior_db_column_dup(st, 5, &oom);
		b->result = ior_db_column_dup(st, 6, &oom);
		b->started_at = ior_db_column_dup(st, 7, &oom);
		b->higher_is_better = sqlite3_column_int(st, 8) != 0;
		b->culprit = ior_db_column_dup(st, 9, &oom);
	}
	return finish(db, st, rc, oom);
}

static int read_commits(struct ior_db *db, struct ior_db_bisect_row *rows, size_t n)
{
	sqlite3_stmt *st;
	if (prepare(db, &st, commits_sql))
		return IOR_ERROR;
	bool oom = false;
	int rc = SQLITE_DONE;
	while (!oom && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ior_db_bisect_row *b = find_bisect(rows, n, sqlite3_column_int64(st, 0));
		if (!b)
			continue;
		struct ior_db_bisect_commit_row *grown = realloc(b->commits, (b->ncommits + 1) * sizeof(*grown));
		if (!grown) {
			oom = true;
			break;
		}
		b->commits = grown;
		struct ior_db_bisect_commit_row *c = &grown[b->ncommits++];
		*c = (struct ior_db_bisect_commit_row){ 0 };
		c->commit = ior_db_column_dup(st, 1, &oom);
		c->build = ior_db_column_dup(st, 2, &oom);
		c->image = ior_db_column_dup(st, 3, &oom);
		c->mark = ior_db_column_dup(st, 4, &oom);
		if (!c->commit)
			oom = true;
	}
	return finish(db, st, rc, oom);
}

static int read_samples(struct ior_db *db, struct ior_db_bisect_row *rows, size_t n)
{
	sqlite3_stmt *st;
	if (prepare(db, &st, samples_sql))
		return IOR_ERROR;
	bool oom = false;
	int rc = SQLITE_DONE;
	while (!oom && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ior_db_bisect_commit_row *c =
			find_commit(find_bisect(rows, n, sqlite3_column_int64(st, 0)), (const char *)sqlite3_column_text(st, 1));
		if (!c)
			continue;
		double *grown = realloc(c->values, (c->n + 1) * sizeof(*grown));
		if (!grown) {
			oom = true;
			break;
		}
		c->values = grown;
		c->values[c->n++] = sqlite3_column_double(st, 2);
	}
	return finish(db, st, rc, oom);
}

int ior_db_bisect_results(struct ior_db *db, struct ior_db_bisect_row **rows, size_t *n)
{
	*rows = NULL;
	*n = 0;
	int rc = read_bisects(db, rows, n);
	if (!rc)
		rc = read_commits(db, *rows, *n);
	if (!rc)
		rc = read_samples(db, *rows, *n);
	if (rc) {
		ior_db_bisect_results_free(*rows, *n);
		*rows = NULL;
		*n = 0;
	}
	return rc;
}

void ior_db_bisect_results_free(struct ior_db_bisect_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct ior_db_bisect_row *b = &rows[i];
		for (size_t k = 0; k < b->ncommits; k++) {
			free(b->commits[k].commit);
			free(b->commits[k].build);
			free(b->commits[k].image);
			free(b->commits[k].mark);
			free(b->commits[k].values);
		}
		free(b->commits);
		free(b->source);
		free(b->repo);
		free(b->good);
		free(b->bad);
		free(b->status);
		free(b->result);
		free(b->started_at);
		free(b->culprit);
	}
	free(rows);
}
