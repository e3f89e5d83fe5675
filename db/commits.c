/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The git commits kernels were built from: stored once per sha, pointed at by kernels, read back
 * per host and release. */
#include "db/internal.h"

#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *or_null(const char *s)
{
	return s && *s ? s : NULL;
}

/* The kernel's commit now: 0 and "" when it has none. */
static int commit_of(struct ior_db *db, int64_t kernel_id, int64_t *commit_id, char sha[41])
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_KERNEL_COMMIT_OF);
	sqlite3_bind_int64(st, 1, kernel_id);
	int rc = sqlite3_step(st);
	int out = IOR_OK;
	*commit_id = 0;
	sha[0] = '\0';
	if (rc == SQLITE_ROW) {
		*commit_id = sqlite3_column_int64(st, 0);
		const unsigned char *s = sqlite3_column_text(st, 1);
		snprintf(sha, 41, "%s", s ? (const char *)s : "");
	} else if (rc == SQLITE_DONE) {
		out = ior_error_set(IOR_ENOTFOUND, "cannot set the commit of kernel %lld in '%s': no such kernel",
				    (long long)kernel_id, db->path);
	} else {
		out = ior_db_fail(db, "cannot read kernel from");
	}
	sqlite3_reset(st);
	return out;
}

static int set_commit(struct ior_db *db, int64_t kernel_id, const struct ior_db_commit *c)
{
	int64_t current;
	char current_sha[41];
	int rc = commit_of(db, kernel_id, &current, current_sha);
	if (rc)
		return rc;
	if (current && strcmp(current_sha, c->sha) != 0)
		return ior_error_set(IOR_EINVALID, "kernel %lld in '%s' is recorded as built from commit %s, not %s",
				     (long long)kernel_id, db->path, current_sha, c->sha);
	sqlite3_stmt *up = ior_db_stmt(db, IOR_STMT_COMMIT_UPSERT);
	ior_db_bind_text(up, 1, c->sha);
	ior_db_bind_text(up, 2, or_null(c->describe));
	ior_db_bind_text(up, 3, or_null(c->subject));
	ior_db_bind_text(up, 4, or_null(c->author_name));
	ior_db_bind_text(up, 5, or_null(c->author_email));
	ior_db_bind_text(up, 6, or_null(c->author_date));
	ior_db_bind_text(up, 7, or_null(c->repository_url));
	ior_db_bind_text(up, 8, or_null(c->branch));
	if ((rc = ior_db_step_done(db, up, "cannot add commit to")))
		return rc;
	int64_t id;
	sqlite3_stmt *sel = ior_db_stmt(db, IOR_STMT_COMMIT_SELECT);
	ior_db_bind_text(sel, 1, c->sha);
	if ((rc = ior_db_step_id(db, sel, "cannot add commit to", &id)))
		return rc == IOR_ENOTFOUND ? ior_error_set(IOR_ERROR, "commit %s vanished from '%s'", c->sha, db->path) : rc;
	if (current)
		return IOR_OK;
	sqlite3_stmt *set = ior_db_stmt(db, IOR_STMT_KERNEL_SET_COMMIT);
	sqlite3_bind_int64(set, 1, kernel_id);
	sqlite3_bind_int64(set, 2, id);
	return ior_db_step_done(db, set, "cannot set the commit of a kernel in");
}

int ior_db_kernel_set_commit(struct ior_db *db, int64_t kernel_id, const struct ior_db_commit *c)
{
	if (!c->sha || strlen(c->sha) != 40)
		return ior_error_set(IOR_EINVALID, "cannot add commit to '%s': '%s' is not a full sha", db->path,
				     c->sha ? c->sha : "");
	/* inside the caller's transaction, or in one of its own (the check and the update are one) */
	bool own = sqlite3_get_autocommit(db->h) != 0;
	int rc = own ? ior_db_begin(db) : IOR_OK;
	if (rc)
		return rc;
	rc = set_commit(db, kernel_id, c);
	if (own) {
		if (rc == IOR_OK)
			rc = ior_db_commit(db);
		if (rc) {
			struct ior_error_state failed;
			ior_error_save(&failed, rc);
			ior_db_rollback(db);
			ior_error_restore(&failed, rc);
		}
	}
	return rc;
}

int ior_db_kernel_commits(struct ior_db *db, const char *host, const char *release, struct ior_db_commit_row **rows,
			  size_t *n)
{
	*rows = NULL;
	*n = 0;
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_KERNEL_COMMITS);
	ior_db_bind_text(st, 1, host);
	ior_db_bind_text(st, 2, release);
	int rc = SQLITE_DONE, out = IOR_OK;
	bool oom = false;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ior_db_commit_row *grown = realloc(*rows, (*n + 1) * sizeof(**rows));
		if (!grown) {
			oom = true;
			break;
		}
		*rows = grown;
		struct ior_db_commit_row *r = &(*rows)[(*n)++];
		r->sha = ior_db_column_dup(st, 1, &oom);
		r->describe = ior_db_column_dup(st, 2, &oom);
		r->subject = ior_db_column_dup(st, 3, &oom);
		r->author_name = ior_db_column_dup(st, 4, &oom);
		r->author_email = ior_db_column_dup(st, 5, &oom);
		r->author_date = ior_db_column_dup(st, 6, &oom);
		r->repository_url = ior_db_column_dup(st, 7, &oom);
		r->branch = ior_db_column_dup(st, 8, &oom);
	}
	if (oom)
		out = ior_error_set(IOR_ERROR, "out of memory");
	else if (rc != SQLITE_DONE)
		out = ior_db_fail(db, "cannot read commits from");
	sqlite3_reset(st);
	if (out) {
		ior_db_commit_rows_free(*rows, *n);
		*rows = NULL;
		*n = 0;
	}
	return out;
}

void ior_db_commit_rows_free(struct ior_db_commit_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].sha);
		free(rows[i].describe);
		free(rows[i].subject);
		free(rows[i].author_name);
		free(rows[i].author_email);
		free(rows[i].author_date);
		free(rows[i].repository_url);
		free(rows[i].branch);
	}
	free(rows);
}
