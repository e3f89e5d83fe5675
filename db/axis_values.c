/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The values an axis has among the stored samples (the kernels, the devices, ...): for a filter that
 * names nothing stored, said with the nearest value, and for completion. */
#include "common/error.h"
#include "common/suggest.h"
#include "db/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ior_db_values_free(char **values, size_t n)
{
	for (size_t i = 0; i < n && values; i++)
		free(values[i]);
	free(values);
}

int ior_db_axis_values(struct ior_db *db, enum ior_axis axis, char ***values, size_t *n)
{
	/* the column of sample_view each axis is; never user text in the SQL */
	static const char *const sql[IOR_AXIS_COUNT] = {
		[IOR_AXIS_KERNEL] = "SELECT DISTINCT kernel FROM sample_view ORDER BY kernel",
		[IOR_AXIS_SCHEDULER] = "SELECT DISTINCT scheduler FROM sample_view ORDER BY scheduler",
		[IOR_AXIS_DEVICE] = "SELECT DISTINCT device FROM sample_view ORDER BY device",
		[IOR_AXIS_ENGINE] = "SELECT DISTINCT engine FROM sample_view ORDER BY engine",
		[IOR_AXIS_HOST] = "SELECT DISTINCT host FROM sample_view ORDER BY host",
	};
	*values = NULL;
	*n = 0;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db->h, sql[axis], -1, &st, NULL) != SQLITE_OK)
		return ior_db_fail(db, "cannot read the stored values from");
	char **v = NULL;
	size_t count = 0;
	int rc, out = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		bool oom = false;
		char **more = realloc(v, (count + 1) * sizeof(*v));
		if (more) {
			v = more;
			v[count] = ior_db_column_dup(st, 0, &oom);
			count += !oom;
		}
		if (!more || oom) {
			out = ior_error_set(IOR_ERROR, "cannot read the stored %ss from '%s': out of memory",
					    ior_axis_name(axis), db->path);
			break;
		}
	}
	if (!out && rc != SQLITE_DONE)
		out = ior_db_fail(db, "cannot read the stored values from");
	sqlite3_finalize(st);
	if (out) {
		ior_db_values_free(v, count);
		return out;
	}
	*values = v;
	*n = count;
	return IOR_OK;
}

/* name is one of the axis's stored values, or IOR_ENOTFOUND saying which exist. */
static int check_one(struct ior_db *db, enum ior_axis axis, const char *name)
{
	char **v;
	size_t n;
	int rc = ior_db_axis_values(db, axis, &v, &n);
	if (rc || !name)
		return rc;
	struct ior_suggestion s;
	ior_suggest_init(&s);
	bool found = false;
	const char *prefixed = NULL; /* a stored value name is the start of, as 2.6.3 of 2.6.33 */
	for (size_t i = 0; i < n && !found; i++) {
		found = strcmp(v[i], name) == 0;
		ior_suggest_consider(&s, name, v[i]);
		if (!prefixed && strncmp(v[i], name, strlen(name)) == 0)
			prefixed = v[i];
	}
	if (!found) {
		const char *near = s.best ? s.best : prefixed;
		char some[512] = "";
		size_t len = 0;
		for (size_t i = 0; i < n && len < sizeof(some) - 64; i++)
			len += (size_t)snprintf(some + len, sizeof(some) - len, "%s%s", i ? ", " : "", v[i]);
		if (n == 0)
			rc = ior_error_set(IOR_ENOTFOUND, "no %s '%s' in '%s': it holds no samples", ior_axis_name(axis), name,
					   db->path);
		else
			rc = ior_error_set(IOR_ENOTFOUND, "no %s '%s' in '%s' (%s%s%s%zu stored: %s%s)", ior_axis_name(axis),
					   name, db->path, near ? "did you mean '" : "", near ? near : "", near ? "'? " : "",
					   n, some, len >= sizeof(some) - 64 ? ", ..." : "");
	}
	ior_db_values_free(v, n);
	return rc;
}

int ior_db_filter_check(struct ior_db *db, const struct ior_db_filter *f)
{
	const char *by_axis[IOR_AXIS_COUNT] = {
		[IOR_AXIS_HOST] = f->host, [IOR_AXIS_KERNEL] = f->kernel, [IOR_AXIS_DEVICE] = f->device,
		[IOR_AXIS_SCHEDULER] = f->scheduler, [IOR_AXIS_ENGINE] = f->engine,
	};
	for (int a = 0; a < IOR_AXIS_COUNT; a++) {
		int rc = by_axis[a] ? check_one(db, (enum ior_axis)a, by_axis[a]) : IOR_OK;
		if (rc)
			return rc;
	}
	return IOR_OK;
}
