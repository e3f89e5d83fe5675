/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What reports read: samples through sample_view, the (host, kernel) pairs, and the schedulers each kernel offered. */
#include "db/internal.h"

#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void row_clear(struct ior_db_row *r)
{
	free(r->host);
	free(r->kernel);
	free(r->device);
	free(r->scheduler);
	free(r->engine);
	free(r->params);
	free(r->unit);
	free(r->engine_type);
	free(r->run_status);
	free(r->detail);
	free(r->fill);
	free(r->measured_at);
}

void ior_db_rows_free(struct ior_db_row *rows, size_t n)
{
	for (size_t i = 0; rows && i < n; i++)
		row_clear(&rows[i]);
	free(rows);
}

/* IOR_STMT_SAMPLES's columns, then the measures. */
enum {
	R_RUN_ID, R_CELL_ID, R_HOST, R_KERNEL, R_DEVICE, R_SCHEDULER, R_ENGINE, R_PARAMS, R_UNIT, R_REP, R_VALUE,
	R_HIGHER, R_SAMPLE_ID, R_ENGINE_TYPE, R_RUN_STATUS, R_DETAIL, R_MEASURED_AT, R_FILL, R_WARMUP, R_MEASURES
};

/* false when out of memory. */
static bool row_read(sqlite3_stmt *st, struct ior_db_row *r)
{
	bool oom = false;
	memset(r, 0, sizeof(*r));
	r->run_id = sqlite3_column_int64(st, R_RUN_ID);
	r->cell_id = sqlite3_column_int64(st, R_CELL_ID);
	r->host = ior_db_column_dup(st, R_HOST, &oom);
	r->kernel = ior_db_column_dup(st, R_KERNEL, &oom);
	r->device = ior_db_column_dup(st, R_DEVICE, &oom);
	r->scheduler = ior_db_column_dup(st, R_SCHEDULER, &oom);
	r->engine = ior_db_column_dup(st, R_ENGINE, &oom);
	r->params = ior_db_column_dup(st, R_PARAMS, &oom);
	r->unit = ior_db_column_dup(st, R_UNIT, &oom);
	r->rep = sqlite3_column_int(st, R_REP);
	r->value = sqlite3_column_double(st, R_VALUE);
	r->higher_is_better = sqlite3_column_int(st, R_HIGHER) != 0;
	r->sample_id = sqlite3_column_int64(st, R_SAMPLE_ID);
	r->engine_type = ior_db_column_dup(st, R_ENGINE_TYPE, &oom);
	r->run_status = ior_db_column_dup(st, R_RUN_STATUS, &oom);
	r->detail = ior_db_column_dup(st, R_DETAIL, &oom);
	r->measured_at = ior_db_column_dup(st, R_MEASURED_AT, &oom);
	r->fill = ior_db_column_dup(st, R_FILL, &oom);
	r->warmup = sqlite3_column_int(st, R_WARMUP) != 0;
	ior_db_read_measures(st, R_MEASURES, &r->m);
	return !oom;
}

static void bind_filter(sqlite3_stmt *st, const struct ior_db_filter *f)
{
	if (!f)
		return;
	ior_db_bind_text(st, 1, f->host);
	ior_db_bind_text(st, 2, f->kernel);
	ior_db_bind_text(st, 3, f->device);
	ior_db_bind_text(st, 4, f->scheduler);
	ior_db_bind_text(st, 5, f->engine);
	ior_db_bind_id(st, 6, f->run_id);
}

/* Grows *v (of elements of size) to hold at least need; false when out of memory. */
static bool grow(void **v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return true;
	size_t n = *cap ? *cap * 2 : 64;
	void *p = realloc(*v, n * size);
	if (!p)
		return false;
	*v = p;
	*cap = n;
	return true;
}

/* Steps st to its end, each row read into a new element of size bytes (zeroed first) by read;
 * on failure every element read so far is cleared with clear and freed. what names the rows
 * in messages ("samples"). */
static int collect(struct ior_db *db, sqlite3_stmt *st, size_t size, bool (*read)(sqlite3_stmt *, void *),
		   void (*clear)(void *), const char *what, void **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	char *v = NULL;
	size_t count = 0, cap = 0;
	int rc, err = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		bool ok = grow((void **)&v, &cap, count + 1, size);
		if (ok) {
			memset(v + count * size, 0, size);
			ok = read(st, v + count++ * size);
		}
		if (!ok) {
			err = ior_error_set(IOR_ERROR, "cannot read %s from '%s': out of memory", what, db->path);
			break;
		}
	}
	if (!err && rc != SQLITE_DONE) {
		char where[64];
		snprintf(where, sizeof(where), "cannot read %s from", what);
		err = ior_db_fail(db, where);
	}
	sqlite3_reset(st);
	if (err) {
		for (size_t i = 0; i < count; i++)
			clear(v + i * size);
		free(v);
		return err;
	}
	*out = v;
	*n = count;
	return 0;
}

static bool read_row(sqlite3_stmt *st, void *out)
{
	return row_read(st, out);
}

static void clear_row(void *r)
{
	row_clear(r);
}

int ior_db_samples(struct ior_db *db, const struct ior_db_filter *f, struct ior_db_row **rows, size_t *n)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_SAMPLES);
	bind_filter(st, f);
	return collect(db, st, sizeof(**rows), read_row, clear_row, "samples", (void **)rows, n);
}

void ior_db_host_kernels_free(char **hosts, char **kernels, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(hosts ? hosts[i] : NULL);
		free(kernels ? kernels[i] : NULL);
	}
	free(hosts);
	free(kernels);
}

int ior_db_host_kernels(struct ior_db *db, char ***hosts, char ***kernels, size_t *n)
{
	*hosts = *kernels = NULL;
	*n = 0;
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_HOST_KERNELS);
	char **h = NULL, **k = NULL;
	size_t count = 0, hcap = 0, kcap = 0;
	int rc, out = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		bool oom = false;
		if (!grow((void **)&h, &hcap, count + 1, sizeof(*h)) || !grow((void **)&k, &kcap, count + 1, sizeof(*k))) {
			oom = true;
		} else {
			h[count] = ior_db_column_dup(st, 0, &oom);
			k[count] = ior_db_column_dup(st, 1, &oom);
			count++;
		}
		if (oom) {
			out = ior_error_set(IOR_ERROR, "cannot read kernels from '%s': out of memory", db->path);
			break;
		}
	}
	if (!out && rc != SQLITE_DONE)
		out = ior_db_fail(db, "cannot read kernels from");
	sqlite3_reset(st);
	if (out) {
		ior_db_host_kernels_free(h, k, count);
		return out;
	}
	*hosts = h;
	*kernels = k;
	*n = count;
	return 0;
}

/* Appends word to *text with a space; false when out of memory. */
static bool append_word(char **text, size_t *len, const char *word)
{
	size_t w = strlen(word);
	char *p = realloc(*text, *len + w + 2);
	if (!p)
		return false;
	if (*len)
		p[(*len)++] = ' ';
	memcpy(p + *len, word, w + 1);
	*len += w;
	*text = p;
	return true;
}

int ior_db_offered(struct ior_db *db, const char *host, const char *kernel, char **offered)
{
	*offered = NULL;
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_OFFERED);
	ior_db_bind_text(st, 1, host);
	ior_db_bind_text(st, 2, kernel);
	char *text = NULL;
	size_t len = 0;
	int rc, out = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!append_word(&text, &len, (const char *)sqlite3_column_text(st, 0))) {
			out = ior_error_set(IOR_ERROR, "cannot read schedulers from '%s': out of memory", db->path);
			break;
		}
	}
	if (!out && rc != SQLITE_DONE)
		out = ior_db_fail(db, "cannot read schedulers from");
	sqlite3_reset(st);
	if (out) {
		free(text);
		return out;
	}
	*offered = text;
	return 0;
}

static void clear_problem(void *v)
{
	struct ior_db_cell_problem *p = v;
	free(p->host);
	free(p->kernel);
	free(p->device);
	free(p->scheduler);
	free(p->engine);
	free(p->status);
	free(p->reason);
}

void ior_db_cell_problems_free(struct ior_db_cell_problem *p, size_t n)
{
	for (size_t i = 0; p && i < n; i++)
		clear_problem(&p[i]);
	free(p);
}

static bool read_problem(sqlite3_stmt *st, void *v)
{
	struct ior_db_cell_problem *p = v;
	bool oom = false;
	p->host = ior_db_column_dup(st, 0, &oom);
	p->kernel = ior_db_column_dup(st, 1, &oom);
	p->device = ior_db_column_dup(st, 2, &oom);
	p->scheduler = ior_db_column_dup(st, 3, &oom);
	p->engine = ior_db_column_dup(st, 4, &oom);
	p->status = ior_db_column_dup(st, 5, &oom);
	p->reason = ior_db_column_dup(st, 6, &oom);
	p->run_id = sqlite3_column_int64(st, 7);
	return !oom;
}

int ior_db_cells_not_ok(struct ior_db *db, const struct ior_db_filter *f, struct ior_db_cell_problem **out,
			size_t *n)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_CELLS_NOT_OK);
	bind_filter(st, f);
	return collect(db, st, sizeof(**out), read_problem, clear_problem, "cells", (void **)out, n);
}
