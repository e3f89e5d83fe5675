/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The matrices runs were made from (their file names and texts), for what a matrix declares beyond
 * its cells: the comparisons a report answers first. */
#include "db/internal.h"

#include "common/error.h"

#include <stdlib.h>
#include <string.h>

void ior_db_run_matrices_free(char **files, char **texts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(files ? files[i] : NULL);
		free(texts ? texts[i] : NULL);
	}
	free(files);
	free(texts);
}

int ior_db_run_matrices(struct ior_db *db, const char *host, char ***files, char ***texts, size_t *n)
{
	*files = *texts = NULL;
	*n = 0;
	static const char sql[] =
		"SELECT r.matrix_file, r.matrix_text FROM runs r JOIN hosts h ON h.id = r.host_id "
		"WHERE r.matrix_text IS NOT NULL AND r.status <> 'imported' AND (?1 IS NULL OR h.name = ?1) "
		"GROUP BY r.matrix_text ORDER BY min(r.id)";
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return ior_db_fail(db, "cannot read runs from");
	ior_db_bind_text(st, 1, host);
	char **f = NULL, **t = NULL;
	size_t count = 0;
	int rc, out = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char **nf = realloc(f, (count + 1) * sizeof(*nf));
		if (nf)
			f = nf;
		char **nt = nf ? realloc(t, (count + 1) * sizeof(*nt)) : NULL;
		if (nt)
			t = nt;
		bool oom = !nf || !nt;
		if (!oom) {
			f[count] = ior_db_column_dup(st, 0, &oom);
			t[count] = ior_db_column_dup(st, 1, &oom);
			count++;
		}
		if (oom) {
			out = ior_error_set(IOR_ERROR, "cannot read runs from '%s': out of memory", db->path);
			break;
		}
	}
	if (!out && rc != SQLITE_DONE)
		out = ior_db_fail(db, "cannot read runs from");
	sqlite3_finalize(st);
	if (out) {
		ior_db_run_matrices_free(f, t, count);
		return out;
	}
	*files = f;
	*texts = t;
	*n = count;
	return IOR_OK;
}
