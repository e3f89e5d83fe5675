/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The undo journal and run ownership: what a run changes on the machine, written before the change, for `recover`. */
#include "common/error.h"
#include "db/internal.h"

#include <stdlib.h>
#include <string.h>

int ior_db_undo_add(struct ior_db *db, int64_t run_id, const char *kind, const char *target,
		    const char *original, int64_t *undo_id)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_UNDO_INSERT);
	sqlite3_bind_int64(st, 1, run_id);
	ior_db_bind_text(st, 2, kind);
	ior_db_bind_text(st, 3, target);
	ior_db_bind_text(st, 4, original);
	int rc = ior_db_step_done(db, st, "cannot journal a change in");
	if (rc == IOR_OK)
		*undo_id = sqlite3_last_insert_rowid(db->h);
	return rc;
}

int ior_db_undo_add_owned(struct ior_db *db, int64_t host_id, int pid, const char *boot_id, const char *kind,
			  const char *target, const char *original, int64_t *undo_id)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_UNDO_INSERT_OWNED);
	sqlite3_bind_int64(st, 1, host_id);
	sqlite3_bind_int(st, 2, pid);
	ior_db_bind_text(st, 3, boot_id && *boot_id ? boot_id : NULL);
	ior_db_bind_text(st, 4, kind);
	ior_db_bind_text(st, 5, target);
	ior_db_bind_text(st, 6, original);
	int rc = ior_db_step_done(db, st, "cannot journal a change in");
	if (rc == IOR_OK)
		*undo_id = sqlite3_last_insert_rowid(db->h);
	return rc;
}

int ior_db_undo_done(struct ior_db *db, int64_t undo_id)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_UNDO_DONE);
	sqlite3_bind_int64(st, 1, undo_id);
	return ior_db_step_done(db, st, "cannot close a journal entry in");
}

int ior_db_undo_kind_done(struct ior_db *db, int64_t run_id, const char *kind)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_UNDO_KIND_DONE);
	sqlite3_bind_int64(st, 1, run_id);
	ior_db_bind_text(st, 2, kind);
	return ior_db_step_done(db, st, "cannot close journal entries in");
}

int ior_db_run_set_owner(struct ior_db *db, int64_t run_id, int pid, const char *boot_id)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_RUN_SET_OWNER);
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int(st, 2, pid);
	ior_db_bind_text(st, 3, boot_id);
	return ior_db_step_done(db, st, "cannot record the run's process in");
}

void ior_db_undo_free(struct ior_db_undo *u, size_t n)
{
	for (size_t i = 0; u && i < n; i++) {
		free(u[i].kind);
		free(u[i].target);
		free(u[i].original);
		free(u[i].boot_id);
	}
	free(u);
}

int ior_db_undo_pending(struct ior_db *db, const char *host, struct ior_db_undo **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_UNDO_PENDING);
	ior_db_bind_text(st, 1, host);
	size_t cap = 0;
	bool oom = false;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			struct ior_db_undo *grown = realloc(*out, cap * sizeof(**out));
			if (!grown) {
				oom = true;
				break;
			}
			*out = grown;
		}
		struct ior_db_undo *u = &(*out)[(*n)++];
		memset(u, 0, sizeof(*u));
		u->id = sqlite3_column_int64(st, 0);
		u->run_id = sqlite3_column_int64(st, 1);
		u->kind = ior_db_column_dup(st, 2, &oom);
		u->target = ior_db_column_dup(st, 3, &oom);
		u->original = ior_db_column_dup(st, 4, &oom);
		u->pid = sqlite3_column_int(st, 5);
		u->boot_id = ior_db_column_dup(st, 6, &oom);
	}
	int out_rc = IOR_OK;
	if (oom)
		out_rc = ior_error_set(IOR_ERROR, "out of memory");
	else if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		out_rc = ior_db_fail(db, "cannot read the journal of");
	sqlite3_reset(st);
	if (out_rc) {
		ior_db_undo_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return out_rc;
}

int ior_db_runs_running(struct ior_db *db, const char *host, int64_t **run_ids, int **pids, char ***boot_ids,
			size_t *n)
{
	*run_ids = NULL;
	*pids = NULL;
	*boot_ids = NULL;
	*n = 0;
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_RUNS_RUNNING);
	ior_db_bind_text(st, 1, host);
	size_t cap = 0;
	bool oom = false;
	int rc;
	while (!oom && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			int64_t *r = realloc(*run_ids, cap * sizeof(**run_ids));
			if (r)
				*run_ids = r;
			int *p = realloc(*pids, cap * sizeof(**pids));
			if (p)
				*pids = p;
			char **b = realloc(*boot_ids, cap * sizeof(**boot_ids));
			if (b)
				*boot_ids = b;
			if (!r || !p || !b) {
				oom = true;
				break;
			}
		}
		(*run_ids)[*n] = sqlite3_column_int64(st, 0);
		(*pids)[*n] = sqlite3_column_int(st, 1);
		(*boot_ids)[*n] = ior_db_column_dup(st, 2, &oom);
		(*n)++;
	}
	sqlite3_reset(st);
	if (oom || (rc != SQLITE_ROW && rc != SQLITE_DONE)) {
		for (size_t i = 0; i < *n; i++)
			free((*boot_ids)[i]);
		free(*run_ids);
		free(*pids);
		free(*boot_ids);
		*run_ids = NULL;
		*pids = NULL;
		*boot_ids = NULL;
		*n = 0;
		return oom ? ior_error_set(IOR_ERROR, "out of memory") : ior_db_fail(db, "cannot list running runs in");
	}
	return IOR_OK;
}
