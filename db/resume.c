/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What `run --resume` needs from the database: the run's matrix and identity, reopening it, and
 * which repetitions exist. */
#include "common/error.h"
#include "db/internal.h"

#include <stdlib.h>
#include <string.h>

void ior_db_run_info_free(struct ior_db_run_info *r)
{
	if (!r)
		return;
	free(r->host);
	free(r->kernel);
	free(r->status);
	free(r->matrix_file);
	free(r->matrix_text);
	free(r->merged_from);
	memset(r, 0, sizeof(*r));
}

int ior_db_run_info(struct ior_db *db, int64_t run_id, struct ior_db_run_info *out)
{
	memset(out, 0, sizeof(*out));
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_RUN_INFO);
	sqlite3_bind_int64(st, 1, run_id);
	int rc = sqlite3_step(st);
	bool oom = false;
	int out_rc = IOR_OK;
	if (rc == SQLITE_ROW) {
		out->id = sqlite3_column_int64(st, 0);
		out->host = ior_db_column_dup(st, 1, &oom);
		out->kernel = ior_db_column_dup(st, 2, &oom);
		out->status = ior_db_column_dup(st, 3, &oom);
		out->matrix_file = ior_db_column_dup(st, 4, &oom);
		out->matrix_text = ior_db_column_dup(st, 5, &oom);
		out->merged_from = ior_db_column_dup(st, 6, &oom);
		if (oom)
			out_rc = ior_error_set(IOR_ERROR, "out of memory");
	} else if (rc == SQLITE_DONE) {
		out_rc = ior_error_set(IOR_ENOTFOUND, "no run %lld in '%s'", (long long)run_id, db->path);
	} else {
		out_rc = ior_db_fail(db, "cannot read a run from");
	}
	sqlite3_reset(st);
	if (out_rc)
		ior_db_run_info_free(out);
	return out_rc;
}

int ior_db_run_reopen(struct ior_db *db, int64_t run_id)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_RUN_REOPEN);
	sqlite3_bind_int64(st, 1, run_id);
	return ior_db_step_done(db, st, "cannot reopen a run in");
}

int ior_db_sample_at(struct ior_db *db, int64_t cell_id, int rep, bool *exists, double *value)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_SAMPLE_AT_REP);
	sqlite3_bind_int64(st, 1, cell_id);
	sqlite3_bind_int(st, 2, rep);
	int rc = sqlite3_step(st);
	*exists = rc == SQLITE_ROW;
	if (*exists)
		*value = sqlite3_column_double(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return ior_db_fail(db, "cannot look up a sample in");
	return IOR_OK;
}

int ior_db_run_device_by_name(struct ior_db *db, int64_t run_id, const char *name, int64_t *device_id)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_RUN_DEVICE_BY_NAME);
	sqlite3_bind_int64(st, 1, run_id);
	ior_db_bind_text(st, 2, name);
	return ior_db_step_id(db, st, "cannot look up a device in", device_id);
}
