/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Merging another ioregress database into this one: tables in parent-first order, columns by name
 * from the schema, ids remapped, rows matched by identity. */
#include "db/internal.h"
#include "db/accept.h"
#include "db/schema.h"

#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MERGE_MAX_COLS 64

/* The tables a merge copies, parents before children, each with the columns that say two rows
 * are the same (the UNIQUE indexes' columns where there is one). Everything else about a table
 * (its columns, which of them point at which parent) is read from the schema, so a column added
 * by a later schema step is merged without an edit here. */
static const struct merge_table {
	const char *name;
	const char *identity[10];
} merge_tables[] = {
	{ "hosts", { "name" } },
	{ "commits", { "sha" } },
	{ "kernels", { "release", "version", "machine", "cmdline", "git_commit", "config_hash" } },
	{ "devices", { "host_id", "name", "path", "model", "rotational", "size", "logical_block", "physical_block" } },
	/* a run has no natural key; where and when it started, and by which process of which boot, is one */
	{ "runs", { "host_id", "kernel_id", "started_at", "boot_id", "pid" } },
	{ "scheduler_offers", { "run_id", "device_id", "scheduler" } },
	{ "cells", { "run_id", "device_id", "scheduler", "engine", "params" } },
	{ "samples", { "cell_id", "rep" } },
	{ "fills", { "run_id", "device_id", "target", "created_at" } },
	{ "vm_boots", { "host_id", "kernel", "boot_index", "started_at" } },
};
#define NTABLES (sizeof(merge_tables) / sizeof(merge_tables[0]))

/* Columns outside the identity that a row already in the target takes from the source when it
 * has none: a kernel's commit (and its compiler) is known to one database and not yet to another,
 * and a commit's repository and branch to the one whose run read them. */
#define FILL_INS_MAX 2
static const struct {
	const char *table, *columns[FILL_INS_MAX];
} fill_ins[] = {
	{ "kernels", { "commit_id", "compiler" } },
	{ "commits", { "repository_url", "branch" } },
};

/* The table's fill-in columns (NULL-ended), or NULL when it has none. */
static const char *const *fill_in_columns(const char *table)
{
	for (size_t i = 0; i < sizeof(fill_ins) / sizeof(fill_ins[0]); i++)
		if (strcmp(fill_ins[i].table, table) == 0)
			return fill_ins[i].columns;
	return NULL;
}

/* Tables that describe one machine and are never carried to another: the undo journal of
 * changes to that machine's devices would have `recover` undo them here; a bisection drives a
 * work tree on its machine (its checkouts, its original HEAD), so its state stays there too; so do
 * a vm run's plan on a target and the kernels it installed there, which its controller removes. */
static const char *const local_tables[] = { "undo_log", "bisects", "bisect_commits", "bisect_samples", "bisect_log",
					    "bisect_kernels", "bisect_fragments",
					    /* a controller's plan of boots on a target, and what it installed there */
					    "target_plans", "target_steps", "target_installs" };

/* Source id -> id in the target, appended in source id order (the SELECT is ORDER BY id). */
struct id_map {
	int64_t *src, *dst;
	size_t n, cap;
};

static int map_add(struct id_map *m, int64_t src, int64_t dst)
{
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 256;
		int64_t *s = realloc(m->src, cap * sizeof(*s));
		if (s)
			m->src = s;
		int64_t *d = s ? realloc(m->dst, cap * sizeof(*d)) : NULL;
		if (!d)
			return ior_error_set(IOR_ERROR, "merge: out of memory");
		m->dst = d;
		m->cap = cap;
	}
	m->src[m->n] = src;
	m->dst[m->n++] = dst;
	return IOR_OK;
}

static bool map_get(const struct id_map *m, int64_t src, int64_t *dst)
{
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->src[mid] < src)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->n && m->src[lo] == src) {
		*dst = m->dst[lo];
		return true;
	}
	return false;
}

/* What merging one table needs: its copied columns, and for each the parent it points to. */
struct table_plan {
	const struct merge_table *t;
	size_t ncols;
	char *cols[MERGE_MAX_COLS];
	bool notnull[MERGE_MAX_COLS];
	int parent[MERGE_MAX_COLS];   /* index into merge_tables, or -1 */
	bool identity[MERGE_MAX_COLS];
};

struct merge {
	struct ior_db *db;
	sqlite3 *src;
	const char *path;
	struct id_map maps[NTABLES];
	struct ior_db_merge_stats *stats;
};

static int table_index(const char *name)
{
	for (size_t i = 0; i < NTABLES; i++)
		if (strcmp(merge_tables[i].name, name) == 0)
			return (int)i;
	return -1;
}

static bool table_exists(sqlite3 *h, const char *name)
{
	sqlite3_stmt *st = NULL;
	bool found = sqlite3_prepare_v2(h, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1", -1, &st,
					NULL) == SQLITE_OK &&
		     sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

static void plan_free(struct table_plan *p)
{
	for (size_t i = 0; i < p->ncols; i++)
		free(p->cols[i]);
	p->ncols = 0;
}

static int plan_foreign_keys(struct merge *m, struct table_plan *p)
{
	char sql[128];
	snprintf(sql, sizeof(sql), "PRAGMA foreign_key_list(\"%s\")", p->t->name);
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(m->db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return ior_db_fail(m->db, "cannot read the schema of");
	int rc = IOR_OK;
	while (rc == IOR_OK && sqlite3_step(st) == SQLITE_ROW) {
		const char *parent = (const char *)sqlite3_column_text(st, 2), *from = (const char *)sqlite3_column_text(st, 3);
		int pi = table_index(parent);
		for (size_t c = 0; c < p->ncols; c++)
			if (strcmp(p->cols[c], from) == 0)
				p->parent[c] = pi;
		if (pi < 0 || pi >= p->t - merge_tables)
			rc = ior_error_set(IOR_ERROR, "merge: %s.%s points to '%s', which is not merged before it",
					   p->t->name, from, parent);
	}
	sqlite3_finalize(st);
	return rc;
}

/* The target's columns (all but id), each of which the source must have: both are at the
 * current schema version, so a difference means a damaged file, not an old one. */
static int plan_table(struct merge *m, const struct merge_table *t, struct table_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->t = t;
	char sql[128];
	snprintf(sql, sizeof(sql), "PRAGMA table_info(\"%s\")", t->name);
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(m->db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return ior_db_fail(m->db, "cannot read the schema of");
	int rc = IOR_OK;
	while (rc == IOR_OK && sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);
		if (strcmp(name, "id") == 0)
			continue;
		if (p->ncols == MERGE_MAX_COLS) {
			rc = ior_error_set(IOR_ERROR, "merge: table '%s' has more than %d columns", t->name, MERGE_MAX_COLS);
			break;
		}
		size_t c = p->ncols++;
		p->notnull[c] = sqlite3_column_int(st, 3) != 0;
		p->parent[c] = -1;
		if (!(p->cols[c] = strdup(name)))
			rc = ior_error_set(IOR_ERROR, "merge: out of memory");
		for (size_t k = 0; !rc && k < sizeof(t->identity) / sizeof(t->identity[0]) && t->identity[k]; k++)
			p->identity[c] |= strcmp(t->identity[k], name) == 0;
	}
	sqlite3_finalize(st);
	return rc ? rc : plan_foreign_keys(m, p);
}

/* "SELECT id, c1, ... FROM t ORDER BY id", "INSERT INTO t (c1, ...) VALUES (?1, ...)" and
 * "SELECT id FROM t WHERE <identity>", the identity's parameters numbered as the insert's. */
static int plan_sql(const struct table_plan *p, char *select, char *insert, char *lookup, size_t len)
{
	size_t ns = (size_t)snprintf(select, len, "SELECT id");
	size_t ni = (size_t)snprintf(insert, len, "INSERT INTO \"%s\" (", p->t->name);
	size_t nl = (size_t)snprintf(lookup, len, "SELECT id FROM \"%s\" WHERE 1", p->t->name);
	char values[4096];
	size_t nv = 0;
	for (size_t c = 0; c < p->ncols && ns < len && ni < len && nl < len && nv < sizeof(values); c++) {
		ns += (size_t)snprintf(select + ns, len - ns, ", \"%s\"", p->cols[c]);
		ni += (size_t)snprintf(insert + ni, len - ni, "%s\"%s\"", c ? ", " : "", p->cols[c]);
		nv += (size_t)snprintf(values + nv, sizeof(values) - nv, "%s?%zu", c ? ", " : "", c + 1);
		if (!p->identity[c])
			continue;
		/* NULL and '' are one value to the UNIQUE indexes (ifnull(x, '')), so they are here */
		if (p->notnull[c])
			nl += (size_t)snprintf(lookup + nl, len - nl, " AND \"%s\" = ?%zu", p->cols[c], c + 1);
		else
			nl += (size_t)snprintf(lookup + nl, len - nl, " AND ifnull(\"%s\", '') = ifnull(?%zu, '')",
					       p->cols[c], c + 1);
	}
	if (ns < len)
		ns += (size_t)snprintf(select + ns, len - ns, " FROM \"%s\" ORDER BY id", p->t->name);
	if (ni < len)
		ni += (size_t)snprintf(insert + ni, len - ni, ") VALUES (%s)", values);
	if (ns >= len || ni >= len || nl >= len || nv >= sizeof(values))
		return ior_error_set(IOR_ERROR, "merge: the SQL for table '%s' is too long", p->t->name);
	return IOR_OK;
}

/* Binds source row `row` (column 0 is its id) to st's parameters, parents' ids translated. */
static int bind_row(struct merge *m, const struct table_plan *p, sqlite3_stmt *row, sqlite3_stmt *st)
{
	size_t nparams = (size_t)sqlite3_bind_parameter_count(st); /* the lookup uses only the identity's */
	for (size_t c = 0; c < p->ncols && c < nparams; c++) {
		sqlite3_value *v = sqlite3_column_value(row, (int)c + 1);
		int rc;
		if (p->parent[c] >= 0 && sqlite3_value_type(v) != SQLITE_NULL) {
			int64_t dst;
			if (!map_get(&m->maps[p->parent[c]], sqlite3_value_int64(v), &dst))
				return ior_error_set(IOR_EINVALID, "'%s': %s row %lld points to %s id %lld, which does not exist",
						     m->path, p->t->name, (long long)sqlite3_column_int64(row, 0),
						     merge_tables[p->parent[c]].name, (long long)sqlite3_value_int64(v));
			rc = sqlite3_bind_int64(st, (int)c + 1, dst);
		} else {
			rc = sqlite3_bind_value(st, (int)c + 1, v);
		}
		if (rc != SQLITE_OK)
			return ior_db_fail(m->db, "cannot merge into");
	}
	return IOR_OK;
}

/* The index of column name in the plan (the source row holds it at index + 1), or -1. */
static int plan_column(const struct table_plan *p, const char *name)
{
	for (size_t c = 0; c < p->ncols; c++)
		if (strcmp(p->cols[c], name) == 0)
			return (int)c;
	return -1;
}

/* A run merged while it was still running (a guest's database copied mid-run) is finished by a
 * later merge of the finished source: its status and finish time are taken, nothing else. */
static int finish_run(struct merge *m, const struct table_plan *p, sqlite3_stmt *row, sqlite3_stmt *up, int64_t id,
		      size_t *updated)
{
	int status = plan_column(p, "status"), finished = plan_column(p, "finished_at");
	if (status < 0 || finished < 0)
		return IOR_OK;
	sqlite3_reset(up);
	sqlite3_bind_int64(up, 1, id);
	sqlite3_bind_value(up, 2, sqlite3_column_value(row, status + 1));
	sqlite3_bind_value(up, 3, sqlite3_column_value(row, finished + 1));
	int rc = ior_db_step_done(m->db, up, "cannot merge into");
	if (!rc && sqlite3_changes(m->db->h) > 0)
		(*updated)++;
	return rc;
}

/* A repetition both databases hold must be the same measurement: one whose value, unit or warm-up
 * mark differs is refused (as import refuses it), not dropped without a word. */
static int same_sample(struct merge *m, const struct table_plan *p, sqlite3_stmt *row, sqlite3_stmt *stored, int64_t id)
{
	int value = plan_column(p, "value"), unit = plan_column(p, "unit"), warmup = plan_column(p, "warmup"),
	    rep = plan_column(p, "rep");
	if (value < 0 || unit < 0 || warmup < 0 || rep < 0)
		return IOR_OK;
	sqlite3_reset(stored);
	sqlite3_bind_int64(stored, 1, id);
	if (sqlite3_step(stored) != SQLITE_ROW)
		return ior_db_fail(m->db, "cannot merge into");
	double v_in = sqlite3_column_double(row, value + 1), v_here = sqlite3_column_double(stored, 0);
	const char *u_in = (const char *)sqlite3_column_text(row, unit + 1), *u_here = (const char *)sqlite3_column_text(stored, 1);
	int w_in = sqlite3_column_int(row, warmup + 1), w_here = sqlite3_column_int(stored, 2);
	if (v_in == v_here && u_in && u_here && strcmp(u_in, u_here) == 0 && w_in == w_here)
		return IOR_OK;
	return ior_error_set(IOR_EINVALID, "cannot merge '%s': its sample %lld (rep %d) is %.15g %s%s, the stored one is "
			     "%.15g %s%s: the same run, cell and repetition cannot hold two measurements", m->path,
			     (long long)sqlite3_column_int64(row, 0), sqlite3_column_int(row, rep + 1), v_in, u_in ? u_in : "",
			     w_in ? " (warm-up)" : "", v_here, u_here ? u_here : "", w_here ? " (warm-up)" : "");
}

/* What import refuses, merge refuses too (db/accept.h): a name (an identity column, or a unit) that
 * would act on a terminal or reorder a report's line, and a sample value that is no finite,
 * non-negative number (text, a blob, Inf). */
static int acceptable_row(struct merge *m, const struct table_plan *p, sqlite3_stmt *row)
{
	long long id = sqlite3_column_int64(row, 0);
	char why[128];
	for (size_t c = 0; c < p->ncols; c++) {
		if (!p->identity[c] && strcmp(p->cols[c], "unit") != 0)
			continue;
		sqlite3_value *v = sqlite3_column_value(row, (int)c + 1);
		if (sqlite3_value_type(v) == SQLITE_BLOB)
			return ior_error_set(IOR_EINVALID, "cannot merge '%s': %s row %lld: %s is a blob, not text", m->path,
					     p->t->name, id, p->cols[c]);
		if (sqlite3_value_type(v) == SQLITE_TEXT && !ior_db_name_ok((const char *)sqlite3_value_text(v), why, sizeof(why)))
			return ior_error_set(IOR_EINVALID, "cannot merge '%s': %s row %lld: %s has a %s (refused in names: "
					     "they reach terminals and reports)", m->path, p->t->name, id, p->cols[c], why);
	}
	int value = strcmp(p->t->name, "samples") == 0 ? plan_column(p, "value") : -1;
	if (value < 0)
		return IOR_OK;
	sqlite3_value *v = sqlite3_column_value(row, value + 1);
	int type = sqlite3_value_type(v);
	const char *problem = type == SQLITE_BLOB ? "is a blob, not a number"
			      : type != SQLITE_FLOAT && type != SQLITE_INTEGER ? "is not a number"
			      : ior_db_value_problem(sqlite3_value_double(v));
	if (!problem)
		return IOR_OK;
	return ior_error_set(IOR_EINVALID, "cannot merge '%s': samples row %lld: value '%s' %s", m->path, id,
			     type == SQLITE_BLOB ? "(blob)" : type == SQLITE_NULL ? "NULL" : (const char *)sqlite3_value_text(v),
			     problem);
}

/* One source row: its id in the target, found by identity or inserted. */
static int merge_row(struct merge *m, const struct table_plan *p, sqlite3_stmt *row, sqlite3_stmt *lookup,
		     sqlite3_stmt *insert, int64_t *id, bool *added)
{
	int rc = acceptable_row(m, p, row);
	if (rc)
		return rc;
	sqlite3_reset(lookup);
	sqlite3_clear_bindings(lookup);
	rc = bind_row(m, p, row, lookup);
	if (rc)
		return rc;
	rc = ior_db_step_id(m->db, lookup, "cannot merge into", id);
	*added = rc == IOR_ENOTFOUND;
	if (rc != IOR_ENOTFOUND)
		return rc;
	sqlite3_reset(insert);
	sqlite3_clear_bindings(insert);
	if ((rc = bind_row(m, p, row, insert)) || (rc = ior_db_step_done(m->db, insert, "cannot merge into")))
		return rc;
	*id = sqlite3_last_insert_rowid(m->db->h);
	return IOR_OK;
}

/* A row that was already there gains the source's fill-in value where it had none (a parent's
 * id translated); a value it has is kept, whatever the source says. */
static int fill_in_row(struct merge *m, const struct table_plan *p, sqlite3_stmt *row, sqlite3_stmt *up,
		       const char *column, int64_t id)
{
	size_t c = 0;
	while (c < p->ncols && strcmp(p->cols[c], column))
		c++;
	sqlite3_value *v = c < p->ncols ? sqlite3_column_value(row, (int)c + 1) : NULL;
	if (!v || sqlite3_value_type(v) == SQLITE_NULL)
		return IOR_OK;
	sqlite3_reset(up);
	sqlite3_bind_int64(up, 1, id);
	if (p->parent[c] < 0) {
		sqlite3_bind_value(up, 2, v);
		return ior_db_step_done(m->db, up, "cannot merge into");
	}
	int64_t value = sqlite3_value_int64(v);
	if (!map_get(&m->maps[p->parent[c]], value, &value))
		return ior_error_set(IOR_EINVALID, "'%s': %s row %lld points to %s id %lld, which does not exist", m->path,
				     p->t->name, (long long)sqlite3_column_int64(row, 0), merge_tables[p->parent[c]].name,
				     (long long)value);
	sqlite3_bind_int64(up, 2, value);
	return ior_db_step_done(m->db, up, "cannot merge into");
}

static int merge_table(struct merge *m, const struct merge_table *t)
{
	size_t ti = (size_t)(t - merge_tables);
	struct table_plan p;
	int rc = plan_table(m, t, &p);
	enum { SQL_LEN = 8192 };
	char *sql = malloc(3 * SQL_LEN);
	sqlite3_stmt *row = NULL, *lookup = NULL, *insert = NULL, *fill[FILL_INS_MAX] = { NULL };
	if (!rc && !sql)
		rc = ior_error_set(IOR_ERROR, "merge: out of memory");
	if (!rc)
		rc = plan_sql(&p, sql, sql + SQL_LEN, sql + 2 * SQL_LEN, SQL_LEN);
	if (!rc && sqlite3_prepare_v2(m->src, sql, -1, &row, NULL) != SQLITE_OK)
		rc = ior_error_set(IOR_EINVALID, "cannot read table '%s' of '%s': %s", t->name, m->path,
				   sqlite3_errmsg(m->src));
	if (!rc && (sqlite3_prepare_v2(m->db->h, sql + SQL_LEN, -1, &insert, NULL) != SQLITE_OK ||
		    sqlite3_prepare_v2(m->db->h, sql + 2 * SQL_LEN, -1, &lookup, NULL) != SQLITE_OK))
		rc = ior_db_fail(m->db, "cannot prepare the merge into");
	const char *const *fill_cols = fill_in_columns(t->name);
	for (size_t f = 0; !rc && fill_cols && f < FILL_INS_MAX && fill_cols[f]; f++) {
		char up[256];
		snprintf(up, sizeof(up), "UPDATE \"%s\" SET \"%s\" = ?2 WHERE id = ?1 AND \"%s\" IS NULL", t->name,
			 fill_cols[f], fill_cols[f]);
		if (sqlite3_prepare_v2(m->db->h, up, -1, &fill[f], NULL) != SQLITE_OK)
			rc = ior_db_fail(m->db, "cannot prepare the merge into");
	}
	/* every run added is marked with where it came from, whatever the source said (NULL there
	 * would pass it off as this database's own run, whose stored matrix resume runs) */
	sqlite3_stmt *mark = NULL;
	if (!rc && strcmp(t->name, "runs") == 0 &&
	    (sqlite3_prepare_v2(m->db->h, "UPDATE runs SET merged_from = coalesce(merged_from, ?2) WHERE id = ?1", -1,
				&mark, NULL) != SQLITE_OK))
		rc = ior_db_fail(m->db, "cannot prepare the merge into");
	sqlite3_stmt *finish = NULL, *stored = NULL;
	if (!rc && strcmp(t->name, "runs") == 0 &&
	    sqlite3_prepare_v2(m->db->h, "UPDATE runs SET status = ?2, finished_at = ?3 WHERE id = ?1 AND status = 'running' "
				"AND ?2 <> 'running'", -1, &finish, NULL) != SQLITE_OK)
		rc = ior_db_fail(m->db, "cannot prepare the merge into");
	if (!rc && strcmp(t->name, "samples") == 0 &&
	    sqlite3_prepare_v2(m->db->h, "SELECT value, unit, warmup FROM samples WHERE id = ?1", -1, &stored, NULL) != SQLITE_OK)
		rc = ior_db_fail(m->db, "cannot prepare the merge into");
	size_t added = 0, present = 0, updated = 0;
	int step = SQLITE_DONE;
	while (!rc && (step = sqlite3_step(row)) == SQLITE_ROW) {
		int64_t id;
		bool is_new;
		if ((rc = merge_row(m, &p, row, lookup, insert, &id, &is_new)))
			break;
		is_new ? added++ : present++;
		for (size_t f = 0; !rc && !is_new && f < FILL_INS_MAX && fill[f]; f++)
			rc = fill_in_row(m, &p, row, fill[f], fill_cols[f], id);
		if (rc)
			break;
		if (!is_new && finish && (rc = finish_run(m, &p, row, finish, id, &updated)))
			break;
		if (!is_new && stored && (rc = same_sample(m, &p, row, stored, id)))
			break;
		if (is_new && mark) {
			sqlite3_reset(mark);
			sqlite3_bind_int64(mark, 1, id);
			sqlite3_bind_text(mark, 2, m->path, -1, SQLITE_TRANSIENT);
			if ((rc = ior_db_step_done(m->db, mark, "cannot merge into")))
				break;
		}
		rc = map_add(&m->maps[ti], sqlite3_column_int64(row, 0), id);
	}
	if (!rc && step != SQLITE_DONE)
		rc = ior_error_set(IOR_EINVALID, "cannot read table '%s' of '%s': %s", t->name, m->path,
				   sqlite3_errmsg(m->src));
	if (!rc && m->stats->ntables < sizeof(m->stats->t) / sizeof(m->stats->t[0])) {
		size_t k = m->stats->ntables++;
		m->stats->t[k].table = t->name;
		m->stats->t[k].added = added;
		m->stats->t[k].present = present;
		m->stats->t[k].updated = updated;
	}
	sqlite3_finalize(row);
	sqlite3_finalize(lookup);
	sqlite3_finalize(insert);
	for (size_t f = 0; f < FILL_INS_MAX; f++)
		sqlite3_finalize(fill[f]);
	sqlite3_finalize(mark);
	sqlite3_finalize(finish);
	sqlite3_finalize(stored);
	free(sql);
	plan_free(&p);
	return rc;
}

/* A table the source has that merge does not know would be lost without a word. */
static int check_known_tables(struct merge *m)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(m->src, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
			       -1, &st, NULL) != SQLITE_OK)
		return ior_error_set(IOR_EINVALID, "cannot read the schema of '%s': %s", m->path, sqlite3_errmsg(m->src));
	int rc = IOR_OK;
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		bool known = table_index(name) >= 0;
		for (size_t i = 0; i < sizeof(local_tables) / sizeof(local_tables[0]); i++)
			known |= strcmp(local_tables[i], name) == 0;
		if (!known)
			rc = ior_error_set(IOR_ERROR, "merge does not know table '%s' of '%s': nothing merged", name, m->path);
	}
	sqlite3_finalize(st);
	return rc;
}

static int merge_all(struct merge *m)
{
	int rc = check_known_tables(m);
	for (size_t i = 0; !rc && i < NTABLES; i++)
		if (table_exists(m->src, merge_tables[i].name))
			rc = merge_table(m, &merge_tables[i]);
	return rc;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The source, opened read-only, checked as open.c checks a database, then upgraded in memory. */
static int open_source(const char *path, sqlite3 **mem)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
		return ior_error_set(IOR_EINVALID, "cannot merge '%s': %s", path,
				     stat(path, &st) != 0 ? "no such file" : "not an ioregress database");
	sqlite3 *h = NULL;
	int rc = ior_db_open_input(path, &h);
	if (!rc)
		rc = ior_db_check_identity(h, path);
	if (!rc && ior_db_schema_version(h, path) < 1)
		rc = ior_error_set(IOR_EINVALID, "cannot merge '%s': not an ioregress database (no schema)", path);
	if (!rc)
		rc = ior_db_upgraded_copy(h, path, mem);
	sqlite3_close(h);
	return rc;
}

int ior_db_merge(struct ior_db *db, const char *path, struct ior_db_merge_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	if (same_file(path, db->path))
		return ior_error_set(IOR_EINVALID, "cannot merge '%s' into itself", path);
	struct merge m = { .db = db, .path = path, .stats = stats };
	int rc = open_source(path, &m.src);
	if (rc)
		return rc;
	if (!(rc = ior_db_begin(db))) {
		rc = merge_all(&m);
		if (!rc)
			rc = ior_db_commit(db);
		if (rc) {
			/* the cause is what the caller must see (a full disk): SQLite may have rolled the
			 * transaction back itself, and the rollback's own message would replace it */
			struct ior_error_state cause;
			ior_error_save(&cause, rc);
			if (!sqlite3_get_autocommit(db->h))
				ior_db_rollback(db);
			ior_error_restore(&cause, rc);
			memset(stats, 0, sizeof(*stats));
		}
	}
	for (size_t i = 0; i < NTABLES; i++) {
		free(m.maps[i].src);
		free(m.maps[i].dst);
	}
	sqlite3_close(m.src);
	return rc;
}

static int merge_entry(const struct ior_db_merge_stats *s, const char *table)
{
	for (size_t i = 0; i < s->ntables; i++)
		if (strcmp(s->t[i].table, table) == 0)
			return (int)i;
	return -1;
}

size_t ior_db_merge_added(const struct ior_db_merge_stats *stats, const char *table)
{
	int i = merge_entry(stats, table);
	return i < 0 ? 0 : stats->t[i].added;
}

size_t ior_db_merge_present(const struct ior_db_merge_stats *stats, const char *table)
{
	int i = merge_entry(stats, table);
	return i < 0 ? 0 : stats->t[i].present;
}

size_t ior_db_merge_updated(const struct ior_db_merge_stats *stats, const char *table)
{
	int i = merge_entry(stats, table);
	return i < 0 ? 0 : stats->t[i].updated;
}
