/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to db/: the handle, the prepared-statement table and small helpers shared by the db files. */
#ifndef IOR_DB_INTERNAL_H
#define IOR_DB_INTERNAL_H

#include <sqlite3.h>

#include "db/db.h"

/* Every statement the module runs after open, prepared once (db/stmt.c holds the SQL). */
enum ior_stmt {
	IOR_STMT_BEGIN,
	IOR_STMT_COMMIT,
	IOR_STMT_ROLLBACK,
	IOR_STMT_SAVEPOINT,
	IOR_STMT_RELEASE,
	IOR_STMT_ROLLBACK_TO,
	IOR_STMT_HOST_INSERT,
	IOR_STMT_HOST_SELECT,
	IOR_STMT_HOST_SET_MACHINE,
	IOR_STMT_KERNEL_INSERT,
	IOR_STMT_KERNEL_SELECT,
	IOR_STMT_DEVICE_INSERT,
	IOR_STMT_DEVICE_SELECT,
	IOR_STMT_RUN_INSERT,
	IOR_STMT_RUN_FINISH,
	IOR_STMT_RUN_IMPORTED,
	IOR_STMT_OFFER_INSERT,
	IOR_STMT_OFFER_KERNEL_WIDE,
	IOR_STMT_CELL_INSERT,
	IOR_STMT_CELL_SELECT,
	IOR_STMT_CELL_SET_STATUS,
	IOR_STMT_CELL_SAMPLE_COUNT,
	IOR_STMT_SAMPLE_INSERT,
	IOR_STMT_SAMPLE_AT_REP,
	IOR_STMT_SAMPLES,
	IOR_STMT_CELLS_NOT_OK,
	IOR_STMT_HOST_KERNELS,
	IOR_STMT_OFFERED,
	IOR_STMT_UNDO_INSERT,
	IOR_STMT_UNDO_INSERT_OWNED,
	IOR_STMT_UNDO_DONE,
	IOR_STMT_UNDO_KIND_DONE,
	IOR_STMT_UNDO_PENDING,
	IOR_STMT_RUN_SET_OWNER,
	IOR_STMT_RUNS_RUNNING,
	IOR_STMT_RUN_INFO,
	IOR_STMT_RUN_DEVICE_BY_NAME,
	IOR_STMT_RUN_SET_ORDER,
	IOR_STMT_FILL_INSERT,
	IOR_STMT_RUN_REOPEN,
	IOR_STMT_VM_BOOT_INSERT,
	IOR_STMT_LATEST_RUN,
	IOR_STMT_OFFERED_STATES,
	IOR_STMT_VM_BOOTS,
	IOR_STMT_COMMIT_UPSERT,
	IOR_STMT_COMMIT_SELECT,
	IOR_STMT_KERNEL_COMMIT_OF,
	IOR_STMT_KERNEL_SET_COMMIT,
	IOR_STMT_KERNEL_SET_COMPILER,
	IOR_STMT_KERNEL_COMMITS,
	IOR_STMT_BISECT_INSERT,
	IOR_STMT_BISECT_CURRENT,
	IOR_STMT_BISECT_SET_COMMANDS,
	IOR_STMT_BISECT_SET_MATRIX,
	IOR_STMT_BISECT_SET_TARGET_DEFAULT,
	IOR_STMT_BISECT_SET_STATUS,
	IOR_STMT_BISECT_LOG,
	IOR_STMT_BISECT_COMMIT_ENSURE,
	IOR_STMT_BISECT_BUILD_GET,
	IOR_STMT_BISECT_BUILD_SET,
	IOR_STMT_BISECT_SAME_IMAGE,
	IOR_STMT_BISECT_MARK_SET,
	IOR_STMT_BISECT_MARKS,
	IOR_STMT_BISECT_REASON,
	IOR_STMT_BISECT_MEASUREMENT_NEXT,
	IOR_STMT_BISECT_SAMPLE_INSERT,
	IOR_STMT_BISECT_SAMPLES,
	IOR_STMT_BISECT_SAMPLES_COUNT,
	IOR_STMT_BISECT_ROUND_NEXT,
	IOR_STMT_BISECT_ROUND_SAMPLES,
	IOR_STMT_BISECT_BUILDS_COUNT,
	IOR_STMT_BISECT_MEASUREMENTS_COUNT,
	IOR_STMT_BISECT_ALL_SAMPLES_COUNT,
	IOR_STMT_BISECT_LOG_ALL,
	IOR_STMT_BISECT_LOG_LAST,
	IOR_STMT_BISECT_BUILD_ERROR_SET,
	IOR_STMT_BISECT_BOOT_FAILURE_SET,
	IOR_STMT_BISECT_CONFIG_SET,
	IOR_STMT_BISECT_COMMIT_STATE,
	IOR_STMT_BISECT_CONFIRM_SET,
	IOR_STMT_BISECT_KCONFIG_SET,
	IOR_STMT_BISECT_KCONFIG_GET,
	IOR_STMT_BISECT_FRAGMENTS_CLEAR,
	IOR_STMT_BISECT_FRAGMENT_ADD,
	IOR_STMT_BISECT_FRAGMENTS,
	IOR_STMT_VM_BOOT_LAST,
	IOR_STMT_VM_KERNEL_SAMPLES,
	IOR_STMT_VM_KERNEL_IDS,
	IOR_STMT_SAMPLE_TOTAL,
	IOR_STMT_COUNT
};

struct ior_db {
	sqlite3 *h;
	char *path;
	sqlite3_stmt *stmt[IOR_STMT_COUNT];
	char *problems;   /* the last import's full problem list */
	bool readonly;    /* opened only to read (read-only media, another's file): h may be a copy in memory */
	unsigned depth;   /* ior_db_begin calls not yet committed or rolled back: inner ones are savepoints */
};

int ior_db_stmt_prepare_all(struct ior_db *db);
void ior_db_stmt_finalize_all(struct ior_db *db);

/* The statement, reset and with its bindings cleared, ready to bind. */
sqlite3_stmt *ior_db_stmt(struct ior_db *db, enum ior_stmt which);

/* Sets the error from SQLite's message: "what 'path': sqlite message";
 * IOR_EBUSY for a lock that outlasted the busy timeout, IOR_EINVALID for a
 * constraint, IOR_ERROR otherwise. */
int ior_db_fail(struct ior_db *db, const char *what);

/* Binds text, or NULL for a NULL pointer. */
int ior_db_bind_text(sqlite3_stmt *st, int i, const char *s);
/* Binds id, or NULL for 0 (the "none" of the API). */
int ior_db_bind_id(sqlite3_stmt *st, int i, int64_t id);

/* Runs a statement that returns no row (or ignores its rows); 0 or ior_db_fail(what). */
int ior_db_step_done(struct ior_db *db, sqlite3_stmt *st, const char *what);
/* Runs a statement that returns at most one row whose first column is an
 * id: 0 with *id set, IOR_ENOTFOUND without a row. */
int ior_db_step_id(struct ior_db *db, sqlite3_stmt *st, const char *what, int64_t *id);

/* strdup of a column, NULL for SQL NULL; sets *oom on allocation failure. */
char *ior_db_column_dup(sqlite3_stmt *st, int col, bool *oom);

/* The stored measures (db/metric.c's column table) in SQL. A statement names the columns as
 * IOR_SQL_MEASURES and their parameters as IOR_SQL_MEASURE_PARAMS; ior_db_measures_sql writes them
 * out ("bytes, ios, ...", "?first, ?first+1, ...") into a string to free(), NULL when out of memory. */
#define IOR_SQL_MEASURES "{measures}"
#define IOR_SQL_MEASURE_PARAMS "{measure_params}"
char *ior_db_measures_sql(const char *tmpl, int first_param);
/* Binds m as the parameters first, first+1, ...: NULL for a group m does not hold (latency, clat,
 * block-layer counters), the timed ones always. */
void ior_db_bind_measures(sqlite3_stmt *st, int first, const struct ior_measures *m);
/* Reads m from the columns first, first+1, ... (NULL is 0); a group's flag is set when its first
 * column is not NULL. */
void ior_db_read_measures(sqlite3_stmt *st, int first, struct ior_measures *m);

/* IOR_STMT_SAMPLE_INSERT's parameters: the sample's own, then its measures. */
enum ior_sample_param {
	IOR_SAMPLE_CELL = 1,
	IOR_SAMPLE_REP,
	IOR_SAMPLE_VALUE,
	IOR_SAMPLE_UNIT,
	IOR_SAMPLE_HIGHER,
	IOR_SAMPLE_DETAIL,
	IOR_SAMPLE_FILL,
	IOR_SAMPLE_WARMUP,
	IOR_SAMPLE_ROUND,
	IOR_SAMPLE_MEASURES,
};

/* Refuses what is not ours to change: another application's database (its own
 * application_id, or tables without ours) and a newer schema. Only reads. */
int ior_db_check_identity(sqlite3 *h, const char *path);

/* A copy in memory of the database open on from, upgraded to the current schema (*copy is
 * closed with sqlite3_close). path names the file in messages. */
int ior_db_upgraded_copy(sqlite3 *from, const char *path, sqlite3 **copy);

/* Imported runs: the run with status imported for (host, kernel), created on first use. */
int ior_db_imported_run(struct ior_db *db, const char *host, const char *kernel, const char *source,
			int64_t *host_id, int64_t *run_id);

/* Whether path lies on a file system mounted read-only. */
bool ior_db_on_readonly_media(const char *path);
/* Opens another database only to read it (a merge's input, a report's file this process may not
 * write): on read-only media as immutable, since a WAL file's -shm cannot be made there. */
int ior_db_open_input(const char *path, sqlite3 **h);

#endif
