/* What reports read: samples through sample_view, the (host, kernel) pairs, and the schedulers each kernel offered. */
#include "db/internal.h"

#include "common/error.h"

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

static uint64_t column_u64(sqlite3_stmt *st, int col)
{
	int64_t v = sqlite3_column_int64(st, col);
	return v > 0 ? (uint64_t)v : 0;
}

/* Columns in the order of IOR_STMT_SAMPLES; false when out of memory. */
static bool row_read(sqlite3_stmt *st, struct ior_db_row *r)
{
	bool oom = false;
	memset(r, 0, sizeof(*r));
	r->run_id = sqlite3_column_int64(st, 0);
	r->cell_id = sqlite3_column_int64(st, 1);
	r->host = ior_db_column_dup(st, 2, &oom);
	r->kernel = ior_db_column_dup(st, 3, &oom);
	r->device = ior_db_column_dup(st, 4, &oom);
	r->scheduler = ior_db_column_dup(st, 5, &oom);
	r->engine = ior_db_column_dup(st, 6, &oom);
	r->params = ior_db_column_dup(st, 7, &oom);
	r->unit = ior_db_column_dup(st, 8, &oom);
	r->rep = sqlite3_column_int(st, 9);
	r->value = sqlite3_column_double(st, 10);
	r->higher_is_better = sqlite3_column_int(st, 11) != 0;
	r->sample_id = sqlite3_column_int64(st, 12);
	r->engine_type = ior_db_column_dup(st, 13, &oom);
	r->run_status = ior_db_column_dup(st, 14, &oom);
	r->detail = ior_db_column_dup(st, 15, &oom);
	r->measured_at = ior_db_column_dup(st, 16, &oom);
	r->bytes = column_u64(st, 17);
	r->ios = column_u64(st, 18);
	r->wall_s = sqlite3_column_double(st, 19);
	r->usr_s = sqlite3_column_double(st, 20);
	r->sys_s = sqlite3_column_double(st, 21);
	r->has_latency = sqlite3_column_type(st, 22) != SQLITE_NULL;
	r->lat_p50_us = sqlite3_column_double(st, 22);
	r->lat_p99_us = sqlite3_column_double(st, 23);
	r->lat_p999_us = sqlite3_column_double(st, 24);
	r->lat_mean_us = sqlite3_column_double(st, 25);
	r->has_clat = sqlite3_column_type(st, 26) != SQLITE_NULL;
	r->clat_p50_us = sqlite3_column_double(st, 26);
	r->clat_p99_us = sqlite3_column_double(st, 27);
	r->clat_p999_us = sqlite3_column_double(st, 28);
	r->clat_mean_us = sqlite3_column_double(st, 29);
	r->fill = ior_db_column_dup(st, 30, &oom);
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

int ior_db_samples(struct ior_db *db, const struct ior_db_filter *f, struct ior_db_row **rows, size_t *n)
{
	*rows = NULL;
	*n = 0;
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_SAMPLES);
	bind_filter(st, f);
	struct ior_db_row *v = NULL;
	size_t count = 0, cap = 0;
	int rc, out = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!grow((void **)&v, &cap, count + 1, sizeof(*v))) {
			out = ior_error_set(IOR_ERROR, "cannot read samples from '%s': out of memory", db->path);
			break;
		}
		if (!row_read(st, &v[count++])) {
			out = ior_error_set(IOR_ERROR, "cannot read samples from '%s': out of memory", db->path);
			break;
		}
	}
	if (!out && rc != SQLITE_DONE)
		out = ior_db_fail(db, "cannot read samples from");
	sqlite3_reset(st);
	if (out) {
		ior_db_rows_free(v, count);
		return out;
	}
	*rows = v;
	*n = count;
	return 0;
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

void ior_db_cell_problems_free(struct ior_db_cell_problem *p, size_t n)
{
	for (size_t i = 0; p && i < n; i++) {
		free(p[i].host);
		free(p[i].kernel);
		free(p[i].device);
		free(p[i].scheduler);
		free(p[i].engine);
		free(p[i].status);
		free(p[i].reason);
	}
	free(p);
}

int ior_db_cells_not_ok(struct ior_db *db, const struct ior_db_filter *f, struct ior_db_cell_problem **out,
			size_t *n)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_CELLS_NOT_OK);
	bind_filter(st, f);
	struct ior_db_cell_problem *v = NULL;
	size_t count = 0, cap = 0;
	int rc, err = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		bool oom = !grow((void **)&v, &cap, count + 1, sizeof(*v));
		if (!oom) {
			struct ior_db_cell_problem *p = &v[count++];
			memset(p, 0, sizeof(*p));
			p->host = ior_db_column_dup(st, 0, &oom);
			p->kernel = ior_db_column_dup(st, 1, &oom);
			p->device = ior_db_column_dup(st, 2, &oom);
			p->scheduler = ior_db_column_dup(st, 3, &oom);
			p->engine = ior_db_column_dup(st, 4, &oom);
			p->status = ior_db_column_dup(st, 5, &oom);
			p->reason = ior_db_column_dup(st, 6, &oom);
			p->run_id = sqlite3_column_int64(st, 7);
		}
		if (oom) {
			err = ior_error_set(IOR_ERROR, "cannot read cells from '%s': out of memory", db->path);
			break;
		}
	}
	if (!err && rc != SQLITE_DONE)
		err = ior_db_fail(db, "cannot read cells from");
	sqlite3_reset(st);
	if (err) {
		ior_db_cell_problems_free(v, count);
		return err;
	}
	*out = v;
	*n = count;
	return IOR_OK;
}
