/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report model's raw part: every stored cell (any status) with its context, and its samples,
 * streamed from the database into flat arrays. */
#include "reports/model_internal.h"

#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct loader {
	struct ior_report *r;
	size_t cap;              /* of r->stored.cells */
	size_t scap;             /* of r->stored.values, reps, warmup, detail and of cell */
	uint32_t *cell;          /* per sample as it arrived: its cell's index */
	int *first_rep;          /* per cell: the lowest repetition seen, whose unit, direction and fill it takes */
	size_t cursor;           /* the cell the last sample belonged to */
	bool sorted;             /* the samples so far arrived cell by cell, repetitions ascending */
	bool detail;
	int oom;
};

static bool matches(const char *want, const char *have)
{
	return !want || (have && !strcmp(want, have));
}

bool ior_report_cell_matches_view(const struct ior_report_opts *o, const char *kernel, const char *device,
				  const char *scheduler, const char *engine)
{
	return matches(o->kernel, kernel) && matches(o->device, device) && matches(o->scheduler, scheduler) &&
	       matches(o->engine, engine);
}

static int on_cell(void *ctx, const struct ior_db_cell_row *c)
{
	struct loader *l = ctx;
	struct ior_report *r = l->r;
	if (r->stored.ncells == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct ior_stored_cell *v = realloc(r->stored.cells, cap * sizeof(*v));
		if (!v)
			return ior_error_set(IOR_ERROR, "out of memory");
		r->stored.cells = v;
		l->cap = cap;
	}
	struct ior_intern *in = r->pool;
	struct ior_stored_cell *x = &r->stored.cells[r->stored.ncells++];
	*x = (struct ior_stored_cell){
		.cell_id = c->cell_id, .run_id = c->run_id, .host = ior_intern(in, c->host, &l->oom),
		.kernel = ior_intern(in, c->kernel, &l->oom), .device = ior_intern(in, c->device, &l->oom),
		.device_model = ior_intern(in, c->device_model, &l->oom),
		.scheduler = ior_intern(in, c->scheduler, &l->oom), .engine = ior_intern(in, c->engine, &l->oom),
		.engine_type = ior_intern(in, c->engine_type, &l->oom), .params = ior_intern(in, c->params, &l->oom),
		.status = ior_intern(in, c->status, &l->oom), .reason = ior_intern(in, c->reason, &l->oom),
		.run_status = ior_intern(in, c->run_status, &l->oom),
		.run_started_at = ior_intern(in, c->run_started_at, &l->oom),
		.rep_order = ior_intern(in, c->rep_order, &l->oom),
	};
	x->in_view = ior_report_cell_matches_view(&r->opts, x->kernel, x->device, x->scheduler, x->engine);
	return l->oom ? ior_error_set(IOR_ERROR, "out of memory") : IOR_OK;
}

/* The index of the cell with this id, or ncells: the last sample's cell or the next one (storage
 * order is mostly cell order), else a binary search of the cells (id order). */
static size_t find_cell(const struct loader *l, int64_t id)
{
	const struct ior_stored_cell *c = l->r->stored.cells;
	size_t n = l->r->stored.ncells, at = l->cursor;
	if (at < n && c[at].cell_id == id)
		return at;
	if (at + 1 < n && c[at + 1].cell_id == id)
		return at + 1;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c[mid].cell_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && c[lo].cell_id == id ? lo : n;
}

/* Room for cap samples: twice as many as now while the scan learns how many there are, then
 * (trim) exactly as many, so a report's memory is the samples' and not up to twice that. */
static int resize_samples(struct loader *l, size_t cap)
{
	struct ior_report *r = l->r;
	double *values = realloc(r->stored.values, cap * sizeof(*values));
	if (values)
		r->stored.values = values;
	int *reps = realloc(r->stored.reps, cap * sizeof(*reps));
	if (reps)
		r->stored.reps = reps;
	bool *warmup = realloc(r->stored.warmup, cap * sizeof(*warmup));
	if (warmup)
		r->stored.warmup = warmup;
	uint32_t *cell = realloc(l->cell, cap * sizeof(*cell));
	if (cell)
		l->cell = cell;
	struct ior_report_sample_detail *detail = l->detail ? realloc(r->detail, cap * sizeof(*detail)) : NULL;
	if (detail)
		r->detail = detail;
	if (!values || !reps || !warmup || !cell || (l->detail && !detail))
		return ior_error_set(IOR_ERROR, "out of memory");
	l->scap = cap;
	return IOR_OK;
}

static int on_sample(void *ctx, const struct ior_db_sample_row *s)
{
	struct loader *l = ctx;
	struct ior_report *r = l->r;
	size_t ci = find_cell(l, s->cell_id);
	if (ci == r->stored.ncells)
		return IOR_OK;  /* a cell the filter left out */
	if (r->stored.nsamples == l->scap && resize_samples(l, l->scap * 2))
		return IOR_ERROR;
	struct ior_stored_cell *c = &r->stored.cells[ci];
	size_t at = r->stored.nsamples++;
	if (at && (ci < l->cursor || (ci == l->cursor && s->rep <= r->stored.reps[at - 1])))
		l->sorted = false;
	l->cursor = ci;
	l->cell[at] = (uint32_t)ci;
	r->stored.values[at] = s->value;
	r->stored.reps[at] = s->rep;
	r->stored.warmup[at] = s->warmup;
	c->n++;
	c->nwarmup += s->warmup;
	if (c->n == 1 || s->rep < l->first_rep[ci]) {
		l->first_rep[ci] = s->rep;
		c->unit = ior_intern(r->pool, s->unit, &l->oom);
		c->fill = ior_intern(r->pool, s->fill, &l->oom);
		c->higher_is_better = s->higher_is_better;
	}
	if (l->detail) {
		struct ior_report_sample_detail *d = &r->detail[at];
		*d = (struct ior_report_sample_detail){ .sample_id = s->sample_id, .m = s->m,
							.fill = ior_intern(r->pool, s->fill, &l->oom) };
		snprintf(d->measured_at, sizeof(d->measured_at), "%s", s->measured_at ? s->measured_at : "");
	}
	return l->oom ? ior_error_set(IOR_ERROR, "out of memory") : IOR_OK;
}

static const int *by_rep_of;

static int by_rep(const void *x, const void *y)
{
	int a = by_rep_of[*(const size_t *)x], b = by_rep_of[*(const size_t *)y];
	return (a > b) - (a < b);
}

/* Samples that arrived out of order (rows stored out of cell order, a resumed run's repetitions):
 * placed cell by cell, repetitions ascending, as every reader of the model takes them. */
static int order_samples(struct loader *l)
{
	struct ior_report *r = l->r;
	size_t n = r->stored.nsamples, *order = malloc(n * sizeof(*order)), *next = calloc(r->stored.ncells + 1, sizeof(*next));
	double *values = malloc(n * sizeof(*values));
	int *reps = malloc(n * sizeof(*reps));
	bool *warmup = malloc(n * sizeof(*warmup));
	struct ior_report_sample_detail *detail = l->detail ? malloc(n * sizeof(*detail)) : NULL;
	if (!order || !next || !values || !reps || !warmup || (l->detail && !detail)) {
		free(order), free(next), free(values), free(reps), free(warmup), free(detail);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	for (size_t i = 0; i < r->stored.ncells; i++)
		next[i + 1] = next[i] + r->stored.cells[i].n;  /* a counting sort by cell keeps arrival order within */
	for (size_t i = 0; i < n; i++)
		order[next[l->cell[i]]++] = i;
	by_rep_of = r->stored.reps;
	for (size_t i = 0; i < r->stored.ncells; i++)
		qsort(order + r->stored.cells[i].first, r->stored.cells[i].n, sizeof(*order), by_rep);
	for (size_t k = 0; k < n; k++) {
		values[k] = r->stored.values[order[k]];
		reps[k] = r->stored.reps[order[k]];
		warmup[k] = r->stored.warmup[order[k]];
		if (detail)
			detail[k] = r->detail[order[k]];
	}
	free(r->stored.values), free(r->stored.reps), free(r->stored.warmup), free(r->detail);
	r->stored.values = values, r->stored.reps = reps, r->stored.warmup = warmup, r->detail = detail;
	free(order), free(next);
	return IOR_OK;
}

static int on_fill(void *ctx, const struct ior_db_fill_row *f)
{
	struct loader *l = ctx;
	struct ior_report *r = l->r;
	struct ior_report_fill *v = realloc(r->fills, (r->nfills + 1) * sizeof(*v));
	if (!v)
		return ior_error_set(IOR_ERROR, "out of memory");
	r->fills = v;
	struct ior_intern *in = r->pool;
	v[r->nfills++] = (struct ior_report_fill){
		.run_id = f->run_id, .host = ior_intern(in, f->host, &l->oom), .kernel = ior_intern(in, f->kernel, &l->oom),
		.device = ior_intern(in, f->device, &l->oom), .target = ior_intern(in, f->target, &l->oom),
		.fill = ior_intern(in, f->fill, &l->oom), .bytes = f->bytes, .seconds = f->seconds,
		.in_view = (!r->opts.kernel || !strcmp(r->opts.kernel, f->kernel)) &&
			   (!r->opts.device || (f->device && !strcmp(r->opts.device, f->device))) };
	return l->oom ? ior_error_set(IOR_ERROR, "out of memory") : IOR_OK;
}

int ior_report_load(struct ior_report *r, struct ior_db *db, const struct ior_db_scan_filter *f)
{
	struct loader l = { .r = r, .sorted = true, .detail = (r->opts.parts & IOR_REPORT_DETAIL) != 0 };
	int rc = ior_db_scan_cells(db, f, on_cell, &l);
	if (!rc)
		rc = ior_db_scan_fills(db, f, on_fill, &l);
	if (rc)
		return rc;
	int64_t *ids = malloc((r->stored.ncells ? r->stored.ncells : 1) * sizeof(*ids));
	l.first_rep = calloc(r->stored.ncells ? r->stored.ncells : 1, sizeof(*l.first_rep));
	if (!ids || !l.first_rep || resize_samples(&l, 1024))
		rc = ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; !rc && i < r->stored.ncells; i++)
		ids[i] = r->stored.cells[i].cell_id;
	if (!rc && r->stored.ncells)
		rc = ior_db_scan_samples(db, ids, r->stored.ncells, l.detail, on_sample, &l);
	if (!rc && r->stored.nsamples > 0 && r->stored.nsamples < l.scap)
		rc = resize_samples(&l, r->stored.nsamples);
	for (size_t i = 0, first = 0; !rc && i < r->stored.ncells; i++) {
		r->stored.cells[i].first = first;
		first += r->stored.cells[i].n;
	}
	if (!rc && !l.sorted)
		rc = order_samples(&l);
	free(ids), free(l.cell), free(l.first_rep);
	return rc;
}

static bool boot_in_view(const struct ior_report_opts *o, const struct ior_stored_boot *b)
{
	return (!o->host || !strcmp(o->host, b->host ? b->host : "")) &&
	       (!o->kernel || !strcmp(o->kernel, b->kernel ? b->kernel : "") ||
		!strcmp(o->kernel, b->release ? b->release : ""));
}

int ior_report_load_boots(struct ior_report *r, struct ior_db *db)
{
	struct ior_db_vm_boot_row *rows = NULL;
	size_t n = 0;
	int rc = ior_db_vm_boots(db, &rows, &n);
	if (!rc && n && !(r->stored.boots = calloc(n, sizeof(*r->stored.boots))))
		rc = ior_error_set(IOR_ERROR, "out of memory");
	int oom = 0;
	struct ior_intern *in = r->pool;
	for (size_t i = 0; !rc && i < n; i++) {
		const struct ior_db_vm_boot_row *x = &rows[i];
		struct ior_stored_boot *b = &r->stored.boots[r->stored.nboots++];
		*b = (struct ior_stored_boot){
			.host = ior_intern(in, x->host, &oom), .kernel = ior_intern(in, x->kernel, &oom),
			.release = ior_intern(in, x->release, &oom), .outcome = ior_intern(in, x->outcome, &oom),
			.reason = ior_intern(in, x->reason, &oom), .accel = ior_intern(in, x->accel, &oom),
			.cache_mode = ior_intern(in, x->cache_mode, &oom), .qemu_version = ior_intern(in, x->qemu_version, &oom),
			.pinned = ior_intern(in, x->pinned, &oom), .package_version = ior_intern(in, x->package_version, &oom),
			.boot_index = x->boot_index, .cpus = x->cpus,
			.memory_mb = x->memory_mb, .boot_s = x->boot_s, .total_s = x->total_s, .run_id = x->run_id,
			.vm_run = ior_intern(in, x->vm_run, &oom),
			.started_at = ior_intern(in, x->started_at, &oom) };
		b->in_view = boot_in_view(&r->opts, b);
		r->nboots_not_ok += b->in_view && strcmp(b->outcome ? b->outcome : "", "ok");
		r->boots_tcg |= b->in_view && b->accel && !strcmp(b->accel, "tcg");
	}
	ior_db_vm_boots_free(rows, n);
	return rc ? rc : oom ? ior_error_set(IOR_ERROR, "out of memory") : IOR_OK;
}
