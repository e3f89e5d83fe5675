/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Recording a VM boot of `vm run` (outcome, settings, console log), finding the run a guest stored,
 * and what a bisection over boots reads back. */
#include "db/internal.h"

#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bind_int_or_null(sqlite3_stmt *st, int i, long long v)
{
	return v < 0 ? sqlite3_bind_null(st, i) : sqlite3_bind_int64(st, i, v);
}

static int bind_real_or_null(sqlite3_stmt *st, int i, double v)
{
	return v < 0 ? sqlite3_bind_null(st, i) : sqlite3_bind_double(st, i, v);
}

int ior_db_vm_boot_add(struct ior_db *db, const struct ior_db_vm_boot *b, int64_t *id)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_VM_BOOT_INSERT);
	int bad = sqlite3_bind_int64(st, 1, b->host_id) | ior_db_bind_id(st, 2, b->run_id) |
		  ior_db_bind_text(st, 3, b->kernel) | ior_db_bind_text(st, 4, b->kernel_release) |
		  ior_db_bind_text(st, 5, b->package_version) | sqlite3_bind_int(st, 6, b->boot_index) |
		  ior_db_bind_text(st, 7, b->outcome) | ior_db_bind_text(st, 8, b->reason) |
		  bind_int_or_null(st, 9, b->guest_status) | ior_db_bind_text(st, 10, b->accelerator) |
		  bind_int_or_null(st, 11, b->cpus) | bind_int_or_null(st, 12, b->memory_mb) |
		  ior_db_bind_text(st, 13, b->cache_mode) | ior_db_bind_text(st, 14, b->pinned_cpus) |
		  ior_db_bind_text(st, 15, b->qemu_version) | ior_db_bind_text(st, 16, b->matrix_file) |
		  bind_real_or_null(st, 17, b->boot_s) | bind_real_or_null(st, 18, b->total_s) |
		  (b->console ? sqlite3_bind_text(st, 19, b->console, (int)b->console_len, SQLITE_TRANSIENT)
			      : sqlite3_bind_null(st, 19)) |
		  ior_db_bind_text(st, 20, b->started_at) | ior_db_bind_text(st, 21, b->vm_run) |
		  ior_db_bind_text(st, 22, b->target) | ior_db_bind_text(st, 23, b->boot_id);
	if (bad)
		return ior_db_fail(db, "cannot record a VM boot in");
	int rc = ior_db_step_done(db, st, "cannot record a VM boot in");
	if (!rc && id)
		*id = sqlite3_last_insert_rowid(db->h);
	return rc;
}

int ior_db_latest_run(struct ior_db *db, int64_t *run_id)
{
	return ior_db_step_id(db, ior_db_stmt(db, IOR_STMT_LATEST_RUN), "cannot read runs of", run_id);
}

int ior_db_offered_states(struct ior_db *db, const char *host, const char *kernel, char **states)
{
	*states = NULL;
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_OFFERED_STATES);
	ior_db_bind_text(st, 1, host);
	ior_db_bind_text(st, 2, kernel);
	size_t len = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0), *state = (const char *)sqlite3_column_text(st, 1);
		size_t add = strlen(name) + strlen(state) + 2;
		char *grown = realloc(*states, len + add + 1);
		if (!grown) {
			sqlite3_reset(st);
			return ior_error_set(IOR_ERROR, "out of memory");
		}
		*states = grown;
		len += (size_t)snprintf(*states + len, add + 1, "%s%s:%s", len ? " " : "", name, state);
	}
	int out = rc == SQLITE_DONE ? IOR_OK : ior_db_fail(db, "cannot read module states from");
	sqlite3_reset(st);
	return out;
}

int ior_db_vm_boots(struct ior_db *db, struct ior_db_vm_boot_row **rows, size_t *n)
{
	*rows = NULL;
	*n = 0;
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_VM_BOOTS);
	size_t cap = 0;
	int rc = SQLITE_DONE, out = IOR_OK;
	bool oom = false;
	while (!out && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			struct ior_db_vm_boot_row *grown = realloc(*rows, cap * sizeof(**rows));
			if (!grown) {
				out = ior_error_set(IOR_ERROR, "out of memory");
				break;
			}
			*rows = grown;
		}
		struct ior_db_vm_boot_row *r = &(*rows)[(*n)++];
		r->kernel = ior_db_column_dup(st, 0, &oom);
		r->release = ior_db_column_dup(st, 1, &oom);
		r->boot_index = sqlite3_column_int(st, 2);
		r->outcome = ior_db_column_dup(st, 3, &oom);
		r->reason = ior_db_column_dup(st, 4, &oom);
		r->accel = ior_db_column_dup(st, 5, &oom);
		r->cpus = sqlite3_column_int(st, 6);
		r->memory_mb = sqlite3_column_int(st, 7);
		r->cache_mode = ior_db_column_dup(st, 8, &oom);
		r->qemu_version = ior_db_column_dup(st, 9, &oom);
		r->boot_s = sqlite3_column_double(st, 10);
		r->total_s = sqlite3_column_double(st, 11);
		r->host = ior_db_column_dup(st, 12, &oom);
		r->pinned = ior_db_column_dup(st, 13, &oom);
		r->package_version = ior_db_column_dup(st, 14, &oom);
		r->run_id = sqlite3_column_int64(st, 15);
		r->vm_run = ior_db_column_dup(st, 16, &oom);
		r->started_at = ior_db_column_dup(st, 17, &oom);
		if (oom)
			out = ior_error_set(IOR_ERROR, "out of memory");
	}
	if (!out && rc != SQLITE_DONE)
		out = ior_db_fail(db, "cannot read VM boots from");
	sqlite3_reset(st);
	if (out) {
		ior_db_vm_boots_free(*rows, *n);
		*rows = NULL;
		*n = 0;
	}
	return out;
}

void ior_db_vm_boots_free(struct ior_db_vm_boot_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct ior_db_vm_boot_row *r = &rows[i];
		free(r->kernel);
		free(r->release);
		free(r->outcome);
		free(r->reason);
		free(r->accel);
		free(r->cache_mode);
		free(r->qemu_version);
		free(r->host);
		free(r->pinned);
		free(r->vm_run);
		free(r->started_at);
		free(r->package_version);
	}
	free(rows);
}

int ior_db_vm_boot_last(struct ior_db *db, const char *kernel, struct ior_db_vm_boot_last *out)
{
	memset(out, 0, sizeof(*out));
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_VM_BOOT_LAST);
	ior_db_bind_text(st, 1, kernel);
	int r = sqlite3_step(st);
	bool oom = false;
	if (r == SQLITE_ROW) {
		out->outcome = ior_db_column_dup(st, 0, &oom);
		out->reason = ior_db_column_dup(st, 1, &oom);
		out->console = ior_db_column_dup(st, 2, &oom);
	}
	int rc = r == SQLITE_ROW || r == SQLITE_DONE ? IOR_OK : ior_db_fail(db, "cannot read the VM boots of");
	sqlite3_reset(st);
	if (!rc && oom)
		rc = ior_error_set(IOR_ERROR, "out of memory");
	if (rc)
		ior_db_vm_boot_last_free(out);
	return rc;
}

void ior_db_vm_boot_last_free(struct ior_db_vm_boot_last *b)
{
	free(b->outcome), free(b->reason), free(b->console);
	memset(b, 0, sizeof(*b));
}

int ior_db_vm_kernel_samples(struct ior_db *db, const char *kernel, double **x, size_t *n)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_VM_KERNEL_SAMPLES);
	ior_db_bind_text(st, 1, kernel);
	int r, rc = IOR_OK;
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		double *g = realloc(*x, (*n + 1) * sizeof(*g));
		if (!g) {
			rc = ior_error_set(IOR_ERROR, "out of memory");
			break;
		}
		*x = g;
		(*x)[(*n)++] = sqlite3_column_double(st, 0);
	}
	if (!rc && r != SQLITE_DONE)
		rc = ior_db_fail(db, "cannot read the guest's samples from");
	sqlite3_reset(st);
	return rc;
}

int ior_db_vm_kernel_ids(struct ior_db *db, const char *kernel, int (*fn)(void *ctx, int64_t kernel_id), void *ctx)
{
	sqlite3_stmt *st = ior_db_stmt(db, IOR_STMT_VM_KERNEL_IDS);
	ior_db_bind_text(st, 1, kernel);
	int r, rc = IOR_OK;
	while (!rc && (r = sqlite3_step(st)) == SQLITE_ROW)
		rc = fn(ctx, sqlite3_column_int64(st, 0));
	if (!rc && r != SQLITE_DONE)
		rc = ior_db_fail(db, "cannot read the boots' kernels from");
	sqlite3_reset(st);
	return rc;
}

int ior_db_sample_total(struct ior_db *db, int64_t *n)
{
	return ior_db_step_id(db, ior_db_stmt(db, IOR_STMT_SAMPLE_TOTAL), "cannot count the samples of", n);
}

int ior_db_checkpoint(struct ior_db *db)
{
	int rc = sqlite3_wal_checkpoint_v2(db->h, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
	return rc == SQLITE_OK ? IOR_OK : ior_db_fail(db, "cannot checkpoint");
}
