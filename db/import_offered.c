/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Import of the schedulers each kernel offered, CSV "host,kernel,offered" (offered =
 * space-separated names), all or nothing. */
#include "db/import.h"

#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { C_HOST, C_KERNEL, C_OFFERED, C_COUNT };

static const char *const columns[C_COUNT] = { "host", "kernel", "offered" };

struct row {
	size_t line;
	char *host, *kernel;
	char *offered;      /* sorted, single spaces: the form ior_db_offered returns */
};

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Splits copy into names (pointers into it), recording each bad one; false when any is bad. */
static bool split_names(struct ior_import *im, char *copy, char **names, size_t *n)
{
	const char *allowed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
	bool ok = true;
	char *save = NULL;
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (strspn(w, allowed) != strlen(w)) {
			ior_import_problem(im, ior_import_line(im), "offered", "'%s' is not a scheduler name", w);
			ok = false;
		}
		names[(*n)++] = w;
	}
	if (ok && *n == 0) {
		ior_import_problem(im, ior_import_line(im), "offered", "no scheduler names");
		ok = false;
	}
	return ok;
}

/* Sorted and checked for repeats; false after recording a problem. */
static bool sort_names(struct ior_import *im, char **names, size_t n)
{
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 1; i < n; i++) {
		if (strcmp(names[i - 1], names[i]) == 0) {
			ior_import_problem(im, ior_import_line(im), "offered", "'%s' listed twice", names[i]);
			return false;
		}
	}
	return true;
}

/* The list in the form ior_db_offered returns: sorted, single spaces. NULL
 * after recording a problem or running out of memory. */
static char *normalise(struct ior_import *im, const char *text)
{
	char *copy = strdup(text);
	char **names = calloc(strlen(text) / 2 + 1, sizeof(*names));   /* at most this many words */
	char *out = NULL;
	size_t n = 0;
	if (!copy || !names || !(out = malloc(strlen(text) + 1))) {
		im->oom = true;
	} else if (split_names(im, copy, names, &n) && sort_names(im, names, n)) {
		out[0] = '\0';
		for (size_t i = 0; i < n; i++) {
			if (i)
				strcat(out, " ");
			strcat(out, names[i]);
		}
	} else {
		free(out);
		out = NULL;
	}
	free(names);
	free(copy);
	return out;
}

static void row_free(void *row)
{
	struct row *r = row;
	free(r->host);
	free(r->kernel);
	free(r->offered);
}

static bool parse_row(struct ior_import *im, const char **v, void *row)
{
	struct row *r = row;
	bool ok = true;
	for (int k = 0; k < C_COUNT; k++)
		ok &= ior_import_require(im, columns[k], v[k]);
	if (!ok || !(r->offered = normalise(im, v[C_OFFERED])))
		return false;
	r->host = strdup(v[C_HOST]);
	r->kernel = strdup(v[C_KERNEL]);
	r->line = ior_import_line(im);
	if (!r->host || !r->kernel) {
		im->oom = true;
		row_free(r);
		return false;
	}
	return true;
}

/* One list per (host, kernel): a second row would say something else or nothing new. */
static int check_duplicates(struct ior_import *im, void *all, size_t n)
{
	const struct row *rows = all;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(rows[i].host, rows[j].host) == 0 && strcmp(rows[i].kernel, rows[j].kernel) == 0) {
				ior_import_problem(im, rows[i].line, "kernel", "duplicate of line %zu (same host and kernel)",
						   rows[j].line);
				break;
			}
	return 0;
}

/* The imported run's kernel-wide list as text ("" when none). */
static int stored_list(struct ior_db *db, int64_t run_id, char **text)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_OFFER_KERNEL_WIDE);
	sqlite3_bind_int64(st, 1, run_id);
	size_t len = 0;
	FILE *f = open_memstream(text, &len);
	if (!f)
		return ior_error_set(IOR_ERROR, "cannot import into '%s': out of memory", db->path);
	int rc;
	for (bool first = true; (rc = sqlite3_step(st)) == SQLITE_ROW; first = false)
		fprintf(f, "%s%s", first ? "" : " ", (const char *)sqlite3_column_text(st, 0));
	fclose(f);
	int out = rc == SQLITE_DONE ? 0 : ior_db_fail(db, "cannot import into");
	sqlite3_reset(st);
	return out;
}

static int store_row(struct ior_import *im, const void *row, size_t *imported)
{
	const struct row *r = row;
	int64_t host_id, run_id;
	int rc = ior_db_imported_run(im->db, r->host, r->kernel, im->path, &host_id, &run_id);
	char *stored = NULL;
	if (!rc)
		rc = stored_list(im->db, run_id, &stored);
	if (!rc && *stored && strcmp(stored, r->offered) != 0)
		ior_import_problem(im, r->line, "offered", "'%s' contradicts the stored '%s'", r->offered, stored);
	if (!rc && !*stored) {
		char *copy = strdup(r->offered), *save = NULL;
		if (!copy)
			rc = ior_error_set(IOR_ERROR, "cannot import '%s': out of memory", im->path);
		for (char *w = copy ? strtok_r(copy, " ", &save) : NULL; w && !rc; w = strtok_r(NULL, " ", &save))
			rc = ior_db_offer_add(im->db, run_id, 0, w, false, NULL);
		free(copy);
		if (!rc)
			(*imported)++;
	}
	free(stored);
	return rc;
}

int ior_db_import_offered_csv(struct ior_db *db, const char *path, size_t *imported)
{
	static const struct ior_import_kind kind = {
		.columns = columns, .ncolumns = C_COUNT, .row_size = sizeof(struct row),
		.parse = parse_row, .check = check_duplicates, .store = store_row, .row_free = row_free,
	};
	return ior_import_csv(db, path, &kind, imported);
}
