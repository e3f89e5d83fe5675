/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report model's raw part: every stored cell (any status) with its context, and its samples, streamed from the database into flat arrays. */
#include "reports/model_internal.h"

#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct loader {
	struct ior_report *r;
	size_t cap;
	size_t cursor;           /* the cell the sample scan is in */
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
	if (r->ncells == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct ior_report_cell *v = realloc(r->cells, cap * sizeof(*v));
		if (!v)
			return ior_error_set(IOR_ERROR, "out of memory");
		r->cells = v;
		l->cap = cap;
	}
	struct ior_intern *in = r->pool;
	struct ior_report_cell *x = &r->cells[r->ncells++];
	*x = (struct ior_report_cell){
		.cell_id = c->cell_id, .run_id = c->run_id, .host = ior_intern(in, c->host, &l->oom),
		.kernel = ior_intern(in, c->kernel, &l->oom), .device = ior_intern(in, c->device, &l->oom),
		.device_model = ior_intern(in, c->device_model, &l->oom),
		.scheduler = ior_intern(in, c->scheduler, &l->oom), .engine = ior_intern(in, c->engine, &l->oom),
		.engine_type = ior_intern(in, c->engine_type, &l->oom), .params = ior_intern(in, c->params, &l->oom),
		.status = ior_intern(in, c->status, &l->oom), .reason = ior_intern(in, c->reason, &l->oom),
		.run_status = ior_intern(in, c->run_status, &l->oom),
		.run_started_at = ior_intern(in, c->run_started_at, &l->oom), .unit = ior_intern(in, c->unit, &l->oom),
		.fill = ior_intern(in, c->fill, &l->oom), .rep_order = ior_intern(in, c->rep_order, &l->oom),
		.higher_is_better = c->higher_is_better, .first = r->nsamples, .n = 0,
	};
	x->in_view = ior_report_cell_matches_view(&r->opts, x->kernel, x->device, x->scheduler, x->engine);
	r->nsamples += c->samples > 0 ? (size_t)c->samples : 0;  /* room reserved; n counts what arrives */
	return l->oom ? ior_error_set(IOR_ERROR, "out of memory") : IOR_OK;
}

static int on_sample(void *ctx, const struct ior_db_sample_row *s)
{
	struct loader *l = ctx;
	struct ior_report *r = l->r;
	while (l->cursor < r->ncells && r->cells[l->cursor].cell_id < s->cell_id)
		l->cursor++;
	if (l->cursor == r->ncells)
		return IOR_OK;
	struct ior_report_cell *c = &r->cells[l->cursor];
	size_t room = (l->cursor + 1 < r->ncells ? r->cells[l->cursor + 1].first : r->nsamples) - c->first;
	if (c->cell_id != s->cell_id || c->n >= room)
		return IOR_OK;  /* a cell the filter left out, or a sample stored after the cells were read */
	size_t at = c->first + c->n++;
	r->values[at] = s->value;
	r->reps[at] = s->rep;
	r->warmup[at] = s->warmup;
	c->nwarmup += s->warmup;
	if (l->detail) {
		struct ior_report_sample_detail *d = &r->detail[at];
		*d = (struct ior_report_sample_detail){ .sample_id = s->sample_id, .bytes = s->bytes, .ios = s->ios,
							.wall_s = s->wall_s, .usr_s = s->usr_s, .sys_s = s->sys_s,
							.has_latency = s->has_latency, .lat_p50_us = s->lat_p50_us,
							.lat_p99_us = s->lat_p99_us, .lat_p999_us = s->lat_p999_us,
							.lat_mean_us = s->lat_mean_us, .has_clat = s->has_clat,
							.clat_p50_us = s->clat_p50_us, .clat_p99_us = s->clat_p99_us,
							.clat_p999_us = s->clat_p999_us, .clat_mean_us = s->clat_mean_us,
							.fill = ior_intern(r->pool, s->fill, &l->oom) };
		snprintf(d->measured_at, sizeof(d->measured_at), "%s", s->measured_at ? s->measured_at : "");
	}
	return l->oom ? ior_error_set(IOR_ERROR, "out of memory") : IOR_OK;
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
	struct loader l = { .r = r, .detail = (r->opts.parts & IOR_REPORT_DETAIL) != 0 };
	int rc = ior_db_scan_cells(db, f, on_cell, &l);
	if (!rc)
		rc = ior_db_scan_fills(db, f, on_fill, &l);
	if (rc)
		return rc;
	size_t n = r->nsamples ? r->nsamples : 1;
	r->values = malloc(n * sizeof(*r->values));
	r->reps = malloc(n * sizeof(*r->reps));
	r->warmup = calloc(n, sizeof(*r->warmup));
	if (l.detail)
		r->detail = calloc(n, sizeof(*r->detail));
	if (!r->values || !r->reps || !r->warmup || (l.detail && !r->detail))
		return ior_error_set(IOR_ERROR, "out of memory");
	if (!r->ncells)
		return IOR_OK;
	return ior_db_scan_samples(db, r->cells[0].cell_id, r->cells[r->ncells - 1].cell_id, l.detail, on_sample, &l);
}

static bool boot_in_view(const struct ior_report_opts *o, const struct ior_report_boot *b)
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
	if (!rc && n && !(r->boots = calloc(n, sizeof(*r->boots))))
		rc = ior_error_set(IOR_ERROR, "out of memory");
	int oom = 0;
	struct ior_intern *in = r->pool;
	for (size_t i = 0; !rc && i < n; i++) {
		const struct ior_db_vm_boot_row *x = &rows[i];
		struct ior_report_boot *b = &r->boots[r->nboots++];
		*b = (struct ior_report_boot){
			.host = ior_intern(in, x->host, &oom), .kernel = ior_intern(in, x->kernel, &oom),
			.release = ior_intern(in, x->release, &oom), .outcome = ior_intern(in, x->outcome, &oom),
			.reason = ior_intern(in, x->reason, &oom), .accel = ior_intern(in, x->accel, &oom),
			.cache_mode = ior_intern(in, x->cache_mode, &oom), .qemu_version = ior_intern(in, x->qemu_version, &oom),
			.pinned = ior_intern(in, x->pinned, &oom), .package_version = ior_intern(in, x->package_version, &oom),
			.boot_index = x->boot_index, .cpus = x->cpus,
			.memory_mb = x->memory_mb, .boot_s = x->boot_s, .total_s = x->total_s };
		b->in_view = boot_in_view(&r->opts, b);
		r->nboots_not_ok += b->in_view && strcmp(b->outcome ? b->outcome : "", "ok");
		r->boots_tcg |= b->in_view && b->accel && !strcmp(b->accel, "tcg");
	}
	ior_db_vm_boots_free(rows, n);
	return rc ? rc : oom ? ior_error_set(IOR_ERROR, "out of memory") : IOR_OK;
}
