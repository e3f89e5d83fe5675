/* The results database: one SQLite file (WAL, busy timeout, foreign keys) with a versioned schema, prepared statements, inserts and queries. */
#ifndef IOR_DB_DB_H
#define IOR_DB_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/engine.h"

/* Current schema version, kept in PRAGMA user_version. */
#define IOR_DB_SCHEMA_VERSION 1

struct ior_db;

/* Opens or creates path and upgrades an older schema one step per
 * transaction. A file from a newer ioregress, or one that is not an
 * ioregress database, is refused with a message naming the file. */
int ior_db_open(struct ior_db **out, const char *path);
void ior_db_free(struct ior_db *db);   /* NULL is a no-op */
int ior_db_user_version(struct ior_db *db);

/* Explicit transactions, for imports that must store all or nothing. */
int ior_db_begin(struct ior_db *db);
int ior_db_commit(struct ior_db *db);
int ior_db_rollback(struct ior_db *db);

/* --- what a run records --------------------------------------------------- */

struct ior_db_kernel {
	const char *release;      /* uname -r */
	const char *version;      /* uname -v; NULL for imported data */
	const char *machine;      /* uname -m */
	const char *cmdline;      /* /proc/cmdline */
	const char *commit;       /* from a -gSHA release suffix */
	const char *config_hash;  /* hash of the kernel config, when found */
};

struct ior_db_device {
	const char *name;         /* the matrix's name, or the CSV's "SSD RAID" */
	const char *path;
	const char *model;
	int rotational;           /* -1 unknown */
	uint64_t size;
	unsigned logical_block, physical_block;
};

enum ior_run_status { IOR_RUN_RUNNING, IOR_RUN_COMPLETE, IOR_RUN_INTERRUPTED, IOR_RUN_FAILED, IOR_RUN_IMPORTED };
enum ior_cell_status { IOR_CELL_OK, IOR_CELL_UNAVAILABLE, IOR_CELL_SKIPPED, IOR_CELL_FAILED };

int ior_db_host_get(struct ior_db *db, const char *name, const char *machine, int64_t *id);
int ior_db_kernel_get(struct ior_db *db, const struct ior_db_kernel *k, int64_t *id);
int ior_db_device_get(struct ior_db *db, int64_t host_id, const struct ior_db_device *d, int64_t *id);

int ior_db_run_begin(struct ior_db *db, int64_t host_id, int64_t kernel_id, const char *matrix_file,
		     const char *matrix_text, enum ior_run_status status, int64_t *run_id);
int ior_db_run_finish(struct ior_db *db, int64_t run_id, enum ior_run_status status);

/* A scheduler the kernel offers on a device (device_id 0 = the whole kernel,
 * as imported offered-lists have it). module_state: "built-in", "loaded",
 * "loadable", "absent" or NULL when unknown. */
int ior_db_offer_add(struct ior_db *db, int64_t run_id, int64_t device_id, const char *scheduler,
		     bool active, const char *module_state);

int ior_db_cell_get(struct ior_db *db, int64_t run_id, int64_t device_id, const char *scheduler,
		    const char *engine, const char *engine_type, const char *params, int64_t *cell_id);
int ior_db_cell_set_status(struct ior_db *db, int64_t cell_id, enum ior_cell_status status, const char *reason);

/* Commits immediately (outside an explicit transaction): a killed run loses
 * at most the repetition in flight. */
int ior_db_sample_add(struct ior_db *db, int64_t cell_id, int rep, const struct ior_sample *s);

/* --- what reports read ---------------------------------------------------- */

/* One sample with everything that identifies it (a row of the sample_view view). */
struct ior_db_row {
	int64_t run_id, cell_id;
	char *host, *kernel, *device, *scheduler, *engine, *params, *unit;
	int rep;
	double value;
	bool higher_is_better;
};

struct ior_db_filter {         /* NULL fields match everything */
	const char *host, *kernel, *device, *scheduler, *engine;
};

/* All matching samples, ordered host, kernel, device, scheduler, engine, rep. */
int ior_db_samples(struct ior_db *db, const struct ior_db_filter *f, struct ior_db_row **rows, size_t *n);
void ior_db_rows_free(struct ior_db_row *rows, size_t n);

/* Distinct (host, kernel) pairs that have samples; kernel order is left to the caller. */
int ior_db_host_kernels(struct ior_db *db, char ***hosts, char ***kernels, size_t *n);

/* Schedulers offered per host and kernel, space separated, sorted. */
int ior_db_offered(struct ior_db *db, const char *host, const char *kernel, char **offered);

/* --- import ---------------------------------------------------------------- */

/* CSV "host,kernel,device,scheduler,engine,rep,value,unit" (and optionally
 * "host,kernel,offered"). All or nothing: an error names "file:line: column:
 * problem" and nothing from the file is stored. */
int ior_db_import_samples_csv(struct ior_db *db, const char *path, size_t *imported);
int ior_db_import_offered_csv(struct ior_db *db, const char *path, size_t *imported);

/* Raw handle for tests and ad-hoc inspection; reports go through the functions above. */
struct sqlite3 *ior_db_handle(struct ior_db *db);

#endif
