/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a run writes: hosts, kernels, devices, runs, scheduler offers, cells and samples. */
#include "db/internal.h"

#include "common/error.h"
#include "common/stop.h"

#include <math.h>
#include <stdint.h>

static const char *const run_status_names[] = {
	[IOR_RUN_RUNNING] = "running",
	[IOR_RUN_COMPLETE] = "complete",
	[IOR_RUN_INTERRUPTED] = "interrupted",
	[IOR_RUN_FAILED] = "failed",
	[IOR_RUN_IMPORTED] = "imported",
};

static const char *const cell_status_names[] = {
	[IOR_CELL_OK] = "ok",
	[IOR_CELL_UNAVAILABLE] = "unavailable",
	[IOR_CELL_SKIPPED] = "skipped",
	[IOR_CELL_FAILED] = "failed",
};

const char *ior_run_status_name(enum ior_run_status s)
{
	return (unsigned)s < sizeof(run_status_names) / sizeof(run_status_names[0]) ? run_status_names[s] : NULL;
}

const char *ior_cell_status_name(enum ior_cell_status s)
{
	return (unsigned)s < sizeof(cell_status_names) / sizeof(cell_status_names[0]) ? cell_status_names[s] : NULL;
}

/* INSERT OR IGNORE then SELECT: whichever of two concurrent writers inserts
 * first, both get the same id. */
static int insert_then_select(struct ior_db *db, sqlite3_stmt *ins, sqlite3_stmt *sel, const char *what, int64_t *id)
{
	int rc = ior_db_step_done(db, ins, what);
	if (rc)
		return rc;
	rc = ior_db_step_id(db, sel, what, id);
	if (rc == IOR_ENOTFOUND)
		return ior_error_set(IOR_ERROR, "%s '%s': row vanished after insert", what, db->path);
	return rc;
}

int ior_db_host_get(struct ior_db *db, const char *name, const char *machine, int64_t *id)
{
	if (!name || !*name)
		return ior_error_set(IOR_EINVALID, "cannot add host to '%s': empty host name", db->path);
	sqlite3_stmt *ins = ior_db_stmt(db, IOR_STMT_HOST_INSERT);
	ior_db_bind_text(ins, 1, name);
	ior_db_bind_text(ins, 2, machine);
	sqlite3_stmt *sel = ior_db_stmt(db, IOR_STMT_HOST_SELECT);
	ior_db_bind_text(sel, 1, name);
	int rc = insert_then_select(db, ins, sel, "cannot add host to", id);
	if (rc || !machine)
		return rc;
	/* A host first seen through an import has no machine yet. */
	sqlite3_stmt *up = ior_db_stmt(db, IOR_STMT_HOST_SET_MACHINE);
	sqlite3_bind_int64(up, 1, *id);
	ior_db_bind_text(up, 2, machine);
	return ior_db_step_done(db, up, "cannot update host in");
}

static void bind_kernel(sqlite3_stmt *st, const struct ior_db_kernel *k)
{
	ior_db_bind_text(st, 1, k->release);
	ior_db_bind_text(st, 2, k->version);
	ior_db_bind_text(st, 3, k->machine);
	ior_db_bind_text(st, 4, k->cmdline);
	ior_db_bind_text(st, 5, k->commit);
	ior_db_bind_text(st, 6, k->config_hash);
}

int ior_db_kernel_get(struct ior_db *db, const struct ior_db_kernel *k, int64_t *id)
{
	if (!k->release || !*k->release)
		return ior_error_set(IOR_EINVALID, "cannot add kernel to '%s': empty release", db->path);
	sqlite3_stmt *ins = ior_db_stmt(db, IOR_STMT_KERNEL_INSERT);
	bind_kernel(ins, k);
	sqlite3_stmt *sel = ior_db_stmt(db, IOR_STMT_KERNEL_SELECT);
	bind_kernel(sel, k);
	int rc = insert_then_select(db, ins, sel, "cannot add kernel to", id);
	if (rc || !k->compiler || !*k->compiler)
		return rc;
	/* the compiler follows from the config (identity), so it is filled in, never compared */
	sqlite3_stmt *up = ior_db_stmt(db, IOR_STMT_KERNEL_SET_COMPILER);
	sqlite3_bind_int64(up, 1, *id);
	ior_db_bind_text(up, 2, k->compiler);
	return ior_db_step_done(db, up, "cannot update kernel in");
}

static void bind_device(sqlite3_stmt *st, int64_t host_id, const struct ior_db_device *d)
{
	sqlite3_bind_int64(st, 1, host_id);
	ior_db_bind_text(st, 2, d->name);
	ior_db_bind_text(st, 3, d->path);
	ior_db_bind_text(st, 4, d->model);
	sqlite3_bind_int(st, 5, d->rotational < 0 ? -1 : d->rotational > 0);
	sqlite3_bind_int64(st, 6, d->size > INT64_MAX ? INT64_MAX : (int64_t)d->size);
	sqlite3_bind_int64(st, 7, d->logical_block);
	sqlite3_bind_int64(st, 8, d->physical_block);
}

int ior_db_device_get(struct ior_db *db, int64_t host_id, const struct ior_db_device *d, int64_t *id)
{
	if (!d->name || !*d->name)
		return ior_error_set(IOR_EINVALID, "cannot add device to '%s': empty device name", db->path);
	sqlite3_stmt *ins = ior_db_stmt(db, IOR_STMT_DEVICE_INSERT);
	bind_device(ins, host_id, d);
	sqlite3_stmt *sel = ior_db_stmt(db, IOR_STMT_DEVICE_SELECT);
	bind_device(sel, host_id, d);
	return insert_then_select(db, ins, sel, "cannot add device to", id);
}

int ior_db_run_begin(struct ior_db *db, int64_t host_id, int64_t kernel_id, const char *matrix_file,
		     const char *matrix_text, enum ior_run_status status, int64_t *run_id)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_RUN_INSERT);
	sqlite3_bind_int64(st, 1, host_id);
	sqlite3_bind_int64(st, 2, kernel_id);
	ior_db_bind_text(st, 3, ior_run_status_name(status));
	ior_db_bind_text(st, 4, matrix_file);
	ior_db_bind_text(st, 5, matrix_text);
	ior_db_bind_text(st, 6, IOR_VERSION);
	int rc = ior_db_step_done(db, st, "cannot add run to");
	if (!rc)
		*run_id = sqlite3_last_insert_rowid(db->h);
	return rc;
}

int ior_db_run_finish(struct ior_db *db, int64_t run_id, enum ior_run_status status)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_RUN_FINISH);
	sqlite3_bind_int64(st, 1, run_id);
	ior_db_bind_text(st, 2, ior_run_status_name(status));
	int rc = ior_db_step_done(db, st, "cannot finish run in");
	if (!rc && sqlite3_changes(db->h) == 0)
		return ior_error_set(IOR_ENOTFOUND, "cannot finish run %lld in '%s': no such run", (long long)run_id,
				     db->path);
	return rc;
}

int ior_db_run_set_order(struct ior_db *db, int64_t run_id, const char *order, uint64_t seed)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_RUN_SET_ORDER);
	sqlite3_bind_int64(st, 1, run_id);
	ior_db_bind_text(st, 2, order);
	if (seed)
		sqlite3_bind_int64(st, 3, (int64_t)(seed & INT64_MAX));
	return ior_db_step_done(db, st, "cannot record the repetition order in");
}

int ior_db_fill_add(struct ior_db *db, int64_t run_id, int64_t device_id, const char *target, const char *fill,
		    uint64_t bytes, double seconds)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_FILL_INSERT);
	sqlite3_bind_int64(st, 1, run_id);
	ior_db_bind_id(st, 2, device_id);
	ior_db_bind_text(st, 3, target);
	ior_db_bind_text(st, 4, fill);
	sqlite3_bind_int64(st, 5, bytes > INT64_MAX ? INT64_MAX : (int64_t)bytes);
	sqlite3_bind_double(st, 6, seconds);
	return ior_db_step_done(db, st, "cannot record a scratch fill in");
}

int ior_db_offer_add(struct ior_db *db, int64_t run_id, int64_t device_id, const char *scheduler,
		     bool active, const char *module_state)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_OFFER_INSERT);
	sqlite3_bind_int64(st, 1, run_id);
	ior_db_bind_id(st, 2, device_id);
	ior_db_bind_text(st, 3, scheduler);
	sqlite3_bind_int(st, 4, active);
	ior_db_bind_text(st, 5, module_state);
	return ior_db_step_done(db, st, "cannot add scheduler offer to");
}

int ior_db_cell_get(struct ior_db *db, int64_t run_id, int64_t device_id, const char *scheduler,
		    const char *engine, const char *engine_type, const char *params, int64_t *cell_id)
{
	sqlite3_stmt *ins = ior_db_stmt(db, IOR_STMT_CELL_INSERT);
	sqlite3_bind_int64(ins, 1, run_id);
	sqlite3_bind_int64(ins, 2, device_id);
	ior_db_bind_text(ins, 3, scheduler);
	ior_db_bind_text(ins, 4, engine);
	ior_db_bind_text(ins, 5, engine_type);
	ior_db_bind_text(ins, 6, params);
	sqlite3_stmt *sel = ior_db_stmt(db, IOR_STMT_CELL_SELECT);
	sqlite3_bind_int64(sel, 1, run_id);
	sqlite3_bind_int64(sel, 2, device_id);
	ior_db_bind_text(sel, 3, scheduler);
	ior_db_bind_text(sel, 4, engine);
	ior_db_bind_text(sel, 5, params);
	return insert_then_select(db, ins, sel, "cannot add cell to", cell_id);
}

int ior_db_cell_set_status(struct ior_db *db, int64_t cell_id, enum ior_cell_status status, const char *reason)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_CELL_SET_STATUS);
	sqlite3_bind_int64(st, 1, cell_id);
	ior_db_bind_text(st, 2, ior_cell_status_name(status));
	ior_db_bind_text(st, 3, reason);
	int rc = ior_db_step_done(db, st, "cannot set cell status in");
	if (!rc && sqlite3_changes(db->h) == 0)
		return ior_error_set(IOR_ENOTFOUND, "cannot set status of cell %lld in '%s': no such cell",
				     (long long)cell_id, db->path);
	return rc;
}

int ior_db_cell_sample_count(struct ior_db *db, int64_t cell_id, int *count)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_CELL_SAMPLE_COUNT);
	sqlite3_bind_int64(st, 1, cell_id);
	int64_t n = 0;
	int rc = ior_db_step_id(db, st, "cannot count samples in", &n);
	*count = (int)n;
	return rc;
}

int ior_db_sample_add(struct ior_db *db, int64_t cell_id, int rep, const struct ior_sample *s)
{
	if (!isfinite(s->value) || rep < 1 || !s->unit || !*s->unit)
		return ior_error_set(IOR_EINVALID, "cannot add sample to '%s': cell %lld rep %d: %s", db->path,
				     (long long)cell_id, rep,
				     !isfinite(s->value) ? "value is not a finite number" :
				     rep < 1 ? "repetitions count from 1" : "no unit");
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_SAMPLE_INSERT);
	sqlite3_bind_int64(st, IOR_SAMPLE_CELL, cell_id);
	sqlite3_bind_int(st, IOR_SAMPLE_REP, rep);
	sqlite3_bind_double(st, IOR_SAMPLE_VALUE, s->value);
	ior_db_bind_text(st, IOR_SAMPLE_UNIT, s->unit);
	sqlite3_bind_int(st, IOR_SAMPLE_HIGHER, s->higher_is_better);
	ior_db_bind_text(st, IOR_SAMPLE_DETAIL, s->detail[0] ? s->detail : NULL);
	ior_db_bind_text(st, IOR_SAMPLE_FILL, s->fill);
	sqlite3_bind_int(st, IOR_SAMPLE_WARMUP, s->warmup);
	ior_db_bind_id(st, IOR_SAMPLE_ROUND, s->round > 0 ? s->round : 0);
	ior_db_bind_measures(st, IOR_SAMPLE_MEASURES, &s->m);
	/* A writer that holds the file past the busy timeout (a merge of millions of samples) must not
	 * cost the sample just measured, nor end the run: the insert waits on, bindings kept, until
	 * the file is free or a stop is asked for. */
	int rc;
	while ((rc = ior_db_step_done(db, st, "cannot add sample to")) == IOR_EBUSY && sqlite3_get_autocommit(db->h) &&
	       !ior_stop_requested())
		;
	return rc;
}

int ior_db_imported_run(struct ior_db *db, const char *host, const char *kernel, const char *source,
			int64_t *host_id, int64_t *run_id)
{
	struct ior_db_kernel k = { .release = kernel };
	int64_t kernel_id;
	int rc;
	if ((rc = ior_db_host_get(db, host, NULL, host_id)) || (rc = ior_db_kernel_get(db, &k, &kernel_id)))
		return rc;
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_RUN_IMPORTED);
	sqlite3_bind_int64(st, 1, *host_id);
	sqlite3_bind_int64(st, 2, kernel_id);
	rc = ior_db_step_id(db, st, "cannot find imported run in", run_id);
	if (rc != IOR_ENOTFOUND)
		return rc;
	return ior_db_run_begin(db, *host_id, kernel_id, source, NULL, IOR_RUN_IMPORTED, run_id);
}
