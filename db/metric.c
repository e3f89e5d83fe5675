/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The stored measures in SQL (binding, reading, the column lists, from measure/measures.h's table)
 * and reading one metric of a stored cell (see metric.h). */
#include "db/metric.h"

#include "common/error.h"
#include "db/internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCOLUMNS ior_measure_column_count()

void ior_db_bind_measures(sqlite3_stmt *st, int first, const struct ior_measures *m)
{
	for (size_t i = 0; i < NCOLUMNS; i++) {
		const struct ior_measure_column *c = ior_measure_column_at(i);
		int at = first + (int)i;
		if (c->group != IOR_MEASURE_TIMED && !ior_measures_known(m, c->group))
			sqlite3_bind_null(st, at);
		else if (c->integer)
			sqlite3_bind_int64(st, at, ior_measures_u64(m, c) > INT64_MAX ? INT64_MAX :
						   (int64_t)ior_measures_u64(m, c));
		else
			sqlite3_bind_double(st, at, ior_measures_real(m, c));
	}
}

void ior_db_read_measures(sqlite3_stmt *st, int first, struct ior_measures *m)
{
	memset(m, 0, sizeof(*m));
	bool seen[IOR_MEASURE_BLKSTAT + 1] = { false };
	for (size_t i = 0; i < NCOLUMNS; i++) {
		const struct ior_measure_column *c = ior_measure_column_at(i);
		int at = first + (int)i;
		bool *flag = ior_measures_group_flag(m, c->group);
		/* a group is there when its first column is (an import's metric row may fill in a later
		 * one alone: the sample still has no latency figures as a whole) */
		if (flag && !seen[c->group])
			*flag = sqlite3_column_type(st, at) != SQLITE_NULL;
		seen[c->group] = true;
		if (c->integer) {
			int64_t v = sqlite3_column_int64(st, at);
			ior_measures_set_u64(m, c, v > 0 ? (uint64_t)v : 0);
		} else {
			ior_measures_set_real(m, c, sqlite3_column_double(st, at));
		}
	}
}

char *ior_db_measures_sql(const char *tmpl, int first_param)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	if (!f)
		return NULL;
	for (const char *p = tmpl; *p;) {
		bool names = !strncmp(p, IOR_SQL_MEASURES, strlen(IOR_SQL_MEASURES));
		bool params = !strncmp(p, IOR_SQL_MEASURE_PARAMS, strlen(IOR_SQL_MEASURE_PARAMS));
		if (!names && !params) {
			fputc(*p++, f);
			continue;
		}
		for (size_t i = 0; i < NCOLUMNS; i++)
			if (names)
				fprintf(f, "%s%s", i ? ", " : "", ior_measure_column_at(i)->name);
			else
				fprintf(f, "%s?%d", i ? ", " : "", first_param + (int)i);
		p += strlen(names ? IOR_SQL_MEASURES : IOR_SQL_MEASURE_PARAMS);
	}
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

struct ior_metric_reader {
	struct ior_db *db;
	sqlite3_stmt *st;
};

int ior_metric_reader_open(struct ior_metric_reader **out, struct ior_db *db, enum ior_metric m)
{
	*out = NULL;
	const struct ior_metric_info *mi = ior_metric_info(m);
	char sql[1536];
	/* where keeps a derived figure from dividing by nothing (a cell that moved no bytes); warm-ups
	 * are never judged */
	snprintf(sql, sizeof(sql),
		 "SELECT %s FROM samples WHERE cell_id = ?1 AND warmup = 0 AND (%s) IS NOT NULL AND (%s) ORDER BY rep",
		 mi->column, mi->column, mi->where ? mi->where : "1");
	struct ior_metric_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return ior_error_set(IOR_ERROR, "out of memory");
	r->db = db;
	if (sqlite3_prepare_v2(db->h, sql, -1, &r->st, NULL) != SQLITE_OK) {
		free(r);
		return ior_db_fail(db, "cannot read metrics from");
	}
	*out = r;
	return IOR_OK;
}

int ior_metric_reader_read(struct ior_metric_reader *r, int64_t cell_id, double **values, size_t *n)
{
	sqlite3_reset(r->st);
	sqlite3_bind_int64(r->st, 1, cell_id);
	int rc;
	while ((rc = sqlite3_step(r->st)) == SQLITE_ROW) {
		double *v = realloc(*values, (*n + 1) * sizeof(*v));
		if (!v)
			return ior_error_set(IOR_ERROR, "out of memory");
		v[(*n)++] = sqlite3_column_double(r->st, 0);
		*values = v;
	}
	return rc == SQLITE_DONE ? IOR_OK : ior_db_fail(r->db, "cannot read samples from");
}

void ior_metric_reader_close(struct ior_metric_reader *r)
{
	if (!r)
		return;
	sqlite3_finalize(r->st);
	free(r);
}
