/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The round of each repetition of an interleaved run: numbered per run, stored with the sample,
 * read back to pair two cells measured in the same rounds. */
#include "common/error.h"
#include "db/internal.h"

#include <stdlib.h>
#include <string.h>

int ior_db_round_base(struct ior_db *db, int64_t cell_id, int64_t *base)
{
	sqlite3_stmt *st;
	*base = 0;
	if (sqlite3_prepare_v2(db->h,
			       "SELECT ifnull(max(s.round), 0) FROM samples s JOIN cells c ON c.id = s.cell_id "
			       "WHERE c.run_id = (SELECT run_id FROM cells WHERE id = ?1)", -1, &st, NULL) != SQLITE_OK)
		return ior_db_fail(db, "cannot read the rounds of");
	sqlite3_bind_int64(st, 1, cell_id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*base = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? IOR_OK : ior_db_fail(db, "cannot read the rounds of");
}

int ior_db_cell_rounds(struct ior_db *db, int64_t cell_id, struct ior_db_rounds *out)
{
	memset(out, 0, sizeof(*out));
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db->h,
			       "SELECT c.run_id, s.round, s.value FROM samples s JOIN cells c ON c.id = s.cell_id "
			       "WHERE s.cell_id = ?1 AND s.warmup = 0 ORDER BY s.rep", -1, &st, NULL) != SQLITE_OK)
		return ior_db_fail(db, "cannot read the rounds of");
	sqlite3_bind_int64(st, 1, cell_id);
	int rc;
	size_t cap = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (out->n == cap) {
			cap = cap ? cap * 2 : 16;
			int64_t *r = realloc(out->round, cap * sizeof(*r));
			if (r)
				out->round = r;
			double *v = realloc(out->value, cap * sizeof(*v));
			if (v)
				out->value = v;
			if (!r || !v) {
				sqlite3_finalize(st);
				ior_db_rounds_free(out);
				return ior_error_set(IOR_ERROR, "out of memory");
			}
		}
		out->run_id = sqlite3_column_int64(st, 0);
		out->round[out->n] = sqlite3_column_type(st, 1) == SQLITE_NULL ? 0 : sqlite3_column_int64(st, 1);
		out->value[out->n++] = sqlite3_column_double(st, 2);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		ior_db_rounds_free(out);
		return ior_db_fail(db, "cannot read the rounds of");
	}
	return IOR_OK;
}

void ior_db_rounds_free(struct ior_db_rounds *r)
{
	free(r->round), free(r->value);
	memset(r, 0, sizeof(*r));
}
