/* Recording a VM boot of `vm run` (outcome, settings, console log) and finding the run a guest stored. */
#include "db/internal.h"

#include "common/error.h"

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
		  ior_db_bind_text(st, 20, b->started_at);
	if (bad)
		return ior_db_fail(db, "cannot record a VM boot in");
	int rc = ior_db_step_done(db, st, "cannot record a VM boot in");
	if (!rc && id)
		*id = sqlite3_last_insert_rowid(ior_db_handle(db));
	return rc;
}

int ior_db_latest_run(struct ior_db *db, int64_t *run_id)
{
	return ior_db_step_id(db, ior_db_stmt(db, IOR_STMT_LATEST_RUN), "cannot read runs of", run_id);
}
