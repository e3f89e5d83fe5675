/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results database: one SQLite file (WAL, busy timeout, foreign keys) with a versioned schema,
 * prepared statements, inserts and queries. */
#ifndef IOR_DB_DB_H
#define IOR_DB_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/axis.h"
#include "engines/engine.h"

/* Current schema version, kept in PRAGMA user_version: the last of db/schema.c's upgrade steps, so a
 * new step is a row there and nothing here (db/SCHEMA.md lists the steps). */
int ior_db_schema_latest(void);
#define IOR_DB_SCHEMA_VERSION (ior_db_schema_latest())

/* PRAGMA application_id of every ioregress database ("iorg"): a file with
 * tables and another id is someone else's and is never touched. */
#define IOR_DB_APPLICATION_ID 1768911463   /* 0x696f7267 */

/* How long a writer waits for another process's lock before giving up. */
#define IOR_DB_BUSY_TIMEOUT_MS 30000

struct ior_db;

/* Opens or creates path and upgrades an older schema one step per
 * transaction. A file that is not SQLite, an SQLite file of another
 * application, or one from a newer ioregress is refused (IOR_EINVALID) with
 * a message naming the file, and left unmodified. */
int ior_db_open(struct ior_db **out, const char *path);
/* The same for a file that must exist already (commands that only read): IOR_ENOTFOUND, and
 * nothing created, when it does not. */
int ior_db_open_existing(struct ior_db **out, const char *path);
void ior_db_free(struct ior_db *db);   /* NULL is a no-op */
int ior_db_user_version(struct ior_db *db);
const char *ior_db_path(struct ior_db *db);

/* Explicit transactions (BEGIN IMMEDIATE), for work that must store all or nothing; one begun
 * inside another is a savepoint of it, committed or undone with the outer one. */
int ior_db_begin(struct ior_db *db);
int ior_db_commit(struct ior_db *db);
int ior_db_rollback(struct ior_db *db);

/* --- what a run records --------------------------------------------------- */

struct ior_db_kernel {
	const char *release;      /* uname -r; required */
	const char *version;      /* uname -v; NULL for imported data */
	const char *machine;      /* uname -m */
	const char *cmdline;      /* /proc/cmdline */
	const char *commit;       /* from a -gSHA release suffix */
	const char *config_hash;  /* hash of the kernel config, when found */
	const char *compiler;     /* CONFIG_CC_VERSION_TEXT, when found; not identity: filled in when first known */
};

struct ior_db_device {
	const char *name;         /* the matrix's name, or the CSV's "SSD RAID"; required */
	const char *path;         /* NULL when unknown (imports) */
	const char *model;
	int rotational;           /* -1 unknown */
	uint64_t size;            /* bytes, 0 unknown */
	unsigned logical_block, physical_block;  /* 0 unknown */
};

enum ior_run_status { IOR_RUN_RUNNING, IOR_RUN_COMPLETE, IOR_RUN_INTERRUPTED, IOR_RUN_FAILED, IOR_RUN_IMPORTED };
enum ior_cell_status { IOR_CELL_OK, IOR_CELL_UNAVAILABLE, IOR_CELL_SKIPPED, IOR_CELL_FAILED };

/* The words stored in runs.status and cells.status ("running", "ok", ...). */
const char *ior_run_status_name(enum ior_run_status s);
const char *ior_cell_status_name(enum ior_cell_status s);

/* The *_get functions return the id of the row with exactly these fields,
 * creating it when there is none; safe against a concurrent writer. */
int ior_db_host_get(struct ior_db *db, const char *name, const char *machine, int64_t *id);
int ior_db_kernel_get(struct ior_db *db, const struct ior_db_kernel *k, int64_t *id);
int ior_db_device_get(struct ior_db *db, int64_t host_id, const struct ior_db_device *d, int64_t *id);

int ior_db_run_begin(struct ior_db *db, int64_t host_id, int64_t kernel_id, const char *matrix_file,
		     const char *matrix_text, enum ior_run_status status, int64_t *run_id);
/* The order the run's repetitions are taken in ("interleaved", "sequential", "random") and
 * the seed of a random order (0 otherwise). */
int ior_db_run_set_order(struct ior_db *db, int64_t run_id, const char *order, uint64_t seed);
/* A scratch device (device_id, or 0 for one an engine built) was filled before measuring:
 * with what, how many bytes, in how many seconds. */
int ior_db_fill_add(struct ior_db *db, int64_t run_id, int64_t device_id, const char *target, const char *fill,
		    uint64_t bytes, double seconds);
/* Sets the final status and finished_at. */
int ior_db_run_finish(struct ior_db *db, int64_t run_id, enum ior_run_status status);

/* A scheduler the kernel offers on a device (device_id 0 = the whole kernel,
 * as imported offered-lists have it). module_state: "built-in", "loaded",
 * "loadable", "absent" or NULL when unknown. Adding the same (run, device,
 * scheduler) again replaces the earlier row. */
int ior_db_offer_add(struct ior_db *db, int64_t run_id, int64_t device_id, const char *scheduler,
		     bool active, const char *module_state);

/* A cell is identified by (run, device, scheduler, engine, params);
 * scheduler NULL = the device has no scheduler. New cells have status ok. */
int ior_db_cell_get(struct ior_db *db, int64_t run_id, int64_t device_id, const char *scheduler,
		    const char *engine, const char *engine_type, const char *params, int64_t *cell_id);
int ior_db_cell_set_status(struct ior_db *db, int64_t cell_id, enum ior_cell_status status, const char *reason);
/* How many repetitions a cell has stored (for run --resume). */
int ior_db_cell_sample_count(struct ior_db *db, int64_t cell_id, int *count);

/* Commits immediately (outside an explicit transaction): a killed run loses
 * at most the repetition in flight. rep counts from 1 and is stored once per
 * cell (a second add of the same rep is IOR_EINVALID). */
int ior_db_sample_add(struct ior_db *db, int64_t cell_id, int rep, const struct ior_sample *s);

/* --- what reports read ---------------------------------------------------- */

/* One sample with everything that identifies it (a row of the sample_view view). */
struct ior_db_row {
	int64_t run_id, cell_id;
	char *host, *kernel, *device, *scheduler, *engine, *params, *unit;
	int rep;
	double value;
	bool higher_is_better;
	/* the rest of the sample: 0 / false / NULL where the source had none (imports) */
	int64_t sample_id;
	char *engine_type, *run_status, *detail, *measured_at;  /* detail: NULL when empty */
	IOR_MEASURES_MEMBER;              /* flags false where the sample has none */
	char *fill;                       /* scratch device's data: random, zeros, sparse; NULL unknown */
	bool warmup;                      /* a warm-up repetition (matrix warmup = N): not judged */
};

struct ior_db_filter {         /* NULL fields (and run_id 0) match everything */
	const char *host, *kernel, *device, *scheduler, *engine;
	int64_t run_id;
};

/* IOR_OK when each value f names (host, kernel, device, scheduler, engine) has samples, else
 * IOR_ENOTFOUND naming the first that has none, the nearest stored value and the stored ones: a
 * filter that names nothing is a mistake to say, not an empty answer. */
int ior_db_filter_check(struct ior_db *db, const struct ior_db_filter *f);
/* The distinct values of an axis among the samples, sorted (for the check above and completion). */
int ior_db_axis_values(struct ior_db *db, enum ior_axis axis, char ***values, size_t *n);
void ior_db_values_free(char **values, size_t n);

/* All matching samples (f may be NULL), ordered host, kernel, device,
 * scheduler, engine, run, rep. Strings are owned by the rows. */
int ior_db_samples(struct ior_db *db, const struct ior_db_filter *f, struct ior_db_row **rows, size_t *n);
void ior_db_rows_free(struct ior_db_row *rows, size_t n);

/* A cell that did not run as asked: unavailable, skipped or failed, with its reason. */
struct ior_db_cell_problem {
	char *host, *kernel, *device, *scheduler, *engine, *status, *reason;  /* reason may be NULL */
	int64_t run_id;
};
/* Every cell matching f whose status is not ok, ordered host, kernel, run, cell. */
int ior_db_cells_not_ok(struct ior_db *db, const struct ior_db_filter *f, struct ior_db_cell_problem **out,
			size_t *n);
void ior_db_cell_problems_free(struct ior_db_cell_problem *p, size_t n);

/* Distinct (host, kernel) pairs that have samples, ordered by host then
 * kernel text; version order is left to the caller. */
int ior_db_host_kernels(struct ior_db *db, char ***hosts, char ***kernels, size_t *n);
void ior_db_host_kernels_free(char **hosts, char **kernels, size_t n);

/* Schedulers offered on a host and kernel (any device, any run), space
 * separated, sorted by name; *offered is NULL when nothing was recorded.
 * The caller frees it. */
int ior_db_offered(struct ior_db *db, const char *host, const char *kernel, char **offered);

/* --- the undo journal (crash recovery) ------------------------------------ */

/* What a run changes on the machine, written before the change: "scheduler" (target a
 * device, original the scheduler before), "loop" (target /dev/loopN, original its backing
 * file), "file" (a scratch file), "mount" (a mount point), "module" (a module loaded). */
int ior_db_undo_add(struct ior_db *db, int64_t run_id, const char *kind, const char *target,
		    const char *original, int64_t *undo_id);
/* The change was undone (or never happened). */
/* The same for a process that is not a run (vm run, bisect): the entry names the host and its
 * owner (pid in boot boot_id), so recover leaves it while that process lives. */
int ior_db_undo_add_owned(struct ior_db *db, int64_t host_id, int pid, const char *boot_id, const char *kind,
			  const char *target, const char *original, int64_t *undo_id);
int ior_db_undo_done(struct ior_db *db, int64_t undo_id);
/* Every open entry of one kind in a run was undone. */
int ior_db_undo_kind_done(struct ior_db *db, int64_t run_id, const char *kind);

/* The process and boot that own a run, so recover can tell a live run from a dead one. */
int ior_db_run_set_owner(struct ior_db *db, int64_t run_id, int pid, const char *boot_id);

struct ior_db_undo {
	int64_t id, run_id;   /* run_id 0: an entry of a process that is not a run */
	char *kind, *target, *original;
	int pid;          /* the run's process (or the entry's own owner) */
	char *boot_id;    /* the boot it ran in */
};

/* Pending entries of runs on host, newest first (undo in reverse order). */
int ior_db_undo_pending(struct ior_db *db, const char *host, struct ior_db_undo **out, size_t *n);
void ior_db_undo_free(struct ior_db_undo *u, size_t n);

/* Runs on host still marked running (killed ones, or live ones: check the pid). */
int ior_db_runs_running(struct ior_db *db, const char *host, int64_t **run_ids, int **pids, char ***boot_ids,
			size_t *n);

/* --- resume ---------------------------------------------------------------- */

struct ior_db_run_info {
	int64_t id;
	char *host, *kernel, *status, *matrix_file, *matrix_text;
	char *merged_from;          /* the database merge brought it from; NULL when this one ran it */
};
int ior_db_run_info(struct ior_db *db, int64_t run_id, struct ior_db_run_info *out);
void ior_db_run_info_free(struct ior_db_run_info *r);
/* The device the run's cells of the matrix's device name are on (run --resume of a scratch device,
 * whose /dev/loopN changes from one attach to the next); IOR_ENOTFOUND when the run has none yet. */
int ior_db_run_device_by_name(struct ior_db *db, int64_t run_id, const char *name, int64_t *device_id);
/* Marks a run running again, for run --resume. */
int ior_db_run_reopen(struct ior_db *db, int64_t run_id);
/* Whether a repetition of a cell is stored, and its value when it is. */
int ior_db_sample_at(struct ior_db *db, int64_t cell_id, int rep, bool *exists, double *value);

/* --- rounds of an interleaved run (db/rounds.c) ------------------------------ */

/* The highest round stored in the run of cell_id (0: none): a device's rounds, and a resumed
 * run's, are numbered after it, so one round number never spans two devices or two sessions. */
int ior_db_round_base(struct ior_db *db, int64_t cell_id, int64_t *base);
/* A cell's measured (not warm-up) samples in repetition order with their rounds (0: none). */
struct ior_db_rounds {
	int64_t run_id;
	size_t n;
	int64_t *round;
	double *value;
};
int ior_db_cell_rounds(struct ior_db *db, int64_t cell_id, struct ior_db_rounds *out);
void ior_db_rounds_free(struct ior_db_rounds *r);

/* --- the git commit a kernel was built from (db/commits.c) ------------------ */

struct ior_db_commit {
	const char *sha;            /* 40 lowercase hex digits; required */
	const char *describe;       /* git describe; NULL or "" when no tag is below it */
	const char *subject, *author_name, *author_email;
	const char *author_date;    /* ISO 8601 with the author's offset */
	const char *repository_url; /* the remote the tree fetched it from; NULL or "" unknown */
	const char *branch;         /* the branch it was checked out from; NULL or "" unknown */
};

/* Stores the commit (one row per sha: a stored one keeps its fields, and gains a describe it
 * lacked) and points the kernel at it. IOR_EINVALID, naming both shas and changing nothing,
 * when the kernel already points at another commit. One transaction (or part of the caller's). */
int ior_db_kernel_set_commit(struct ior_db *db, int64_t kernel_id, const struct ior_db_commit *c);

/* A commit as read back; strings are NULL when unknown, owned by the row. */
struct ior_db_commit_row {
	char *sha, *describe, *subject, *author_name, *author_email, *author_date, *repository_url, *branch;
};
/* The commits recorded for a release on a host (kernel rows of one release may be several:
 * another command line, another build), oldest recorded first. *n is 0 when none. */
int ior_db_kernel_commits(struct ior_db *db, const char *host, const char *release, struct ior_db_commit_row **rows,
			  size_t *n);
void ior_db_commit_rows_free(struct ior_db_commit_row *rows, size_t n);

/* The distinct matrices (file name, text) that runs of host (NULL: any) were made from, oldest
 * first; imports have none. */
int ior_db_run_matrices(struct ior_db *db, const char *host, char ***files, char ***texts, size_t *n);
void ior_db_run_matrices_free(char **files, char **texts, size_t n);

/* --- import ---------------------------------------------------------------- */

/* CSV "host,kernel,device,scheduler,engine,rep,value,unit" and
 * "host,kernel,offered" (offered = space-separated names). All or nothing:
 * every bad row (up to 20) is reported as "file:line: column: problem" and
 * nothing from the file is stored. Importing the same rows again is a no-op
 * (idempotent): rows already stored with the same value are skipped, a row
 * that contradicts a stored one is bad. *imported counts new rows stored. */
int ior_db_import_samples_csv(struct ior_db *db, const char *path, size_t *imported);
int ior_db_import_offered_csv(struct ior_db *db, const char *path, size_t *imported);

/* The full list of problems from the last failed import, one per line ("" when
 * none). ior_error_last() holds the same list, cut to fit its buffer. */
const char *ior_db_import_problems(struct ior_db *db);

/* How many samples the file holds (a guest's results disk: what it committed before it died). */
int ior_db_sample_total(struct ior_db *db, int64_t *n);
/* Moves the WAL's frames into the database file, so the file alone is the whole database (a
 * guest's results disk is copied out as one file). */
int ior_db_checkpoint(struct ior_db *db);

#ifdef IOR_TEST_HOOKS
/* The raw SQLite handle, for tests only (tests/CMakeLists.txt defines IOR_TEST_HOOKS): every
 * other module goes through the functions above, so db/ holds all the SQL. */
struct sqlite3 *ior_db_handle(struct ior_db *db);
#endif

/* --- VM boots (db/vm_boots.c) ------------------------------------------------ */

/* One boot of `vm run`, the vm_boots row (db/SCHEMA.md). NULL text and negative numbers are
 * stored as NULL. */
struct ior_db_vm_boot {
	int64_t host_id, run_id;          /* run_id 0: the guest stored no run */
	const char *kernel, *kernel_release, *package_version;
	int boot_index;
	const char *outcome, *reason;
	int guest_status;
	const char *accelerator;
	int cpus, memory_mb;
	const char *cache_mode, *pinned_cpus, *qemu_version, *matrix_file;
	double boot_s, total_s;
	const char *console;
	size_t console_len;
	const char *started_at;           /* NULL: now */
	const char *vm_run;               /* the vm run it belongs to (its boots are rounds); NULL: none */
	const char *target;               /* where it booted (vm/target.h's name): NULL a qemu guest */
	const char *boot_id;              /* the target's boot id after the boot; NULL for qemu */
};
int ior_db_vm_boot_add(struct ior_db *db, const struct ior_db_vm_boot *b, int64_t *id);
/* The newest run's id (a guest's database holds one), IOR_ENOTFOUND when there is none. */
int ior_db_latest_run(struct ior_db *db, int64_t *run_id);

/* The newest boot of kernel (as `vm run` was given it): its outcome, reason and console log (NULL
 * when not recorded); outcome NULL when the kernel never booted. */
struct ior_db_vm_boot_last {
	char *outcome, *reason, *console;
};
int ior_db_vm_boot_last(struct ior_db *db, const char *kernel, struct ior_db_vm_boot_last *out);
void ior_db_vm_boot_last_free(struct ior_db_vm_boot_last *b);
/* The measured (not warm-up) samples of the first ok cell of the run kernel's newest ok boot
 * stored, in repetition order, appended to *x (grown with realloc; *n counts them). */
int ior_db_vm_kernel_samples(struct ior_db *db, const char *kernel, double **x, size_t *n);
/* fn on each kernel (its kernels.id) that the runs of kernel's boots were stored under; fn returns 0
 * to go on. */
int ior_db_vm_kernel_ids(struct ior_db *db, const char *kernel, int (*fn)(void *ctx, int64_t kernel_id), void *ctx);

/* The module state of each scheduler (host, kernel) offered, "mq-deadline:built-in kyber:loaded",
 * NULL when none was recorded (imports); free() it. */
int ior_db_offered_states(struct ior_db *db, const char *host, const char *kernel, char **states);

/* Every VM boot, oldest first, as a report shows it. */
struct ior_db_vm_boot_row {
	char *kernel, *release, *outcome, *reason, *accel, *cache_mode, *qemu_version, *host, *pinned;
	char *package_version;    /* the kernel package's version, NULL for an image given directly */
	int boot_index, cpus, memory_mb;
	double boot_s, total_s;   /* -1: not known */
	int64_t run_id;           /* the guest's run, 0 when none */
	char *vm_run;             /* the vm run it was a round of, NULL before schema 12 */
	char *started_at;         /* UTC text */
};
int ior_db_vm_boots(struct ior_db *db, struct ior_db_vm_boot_row **rows, size_t *n);
void ior_db_vm_boots_free(struct ior_db_vm_boot_row *rows, size_t n);

/* The config hash (kernels.config_hash) of release's first run on host with one recorded, or
 * *hash NULL; free() it. */
int ior_db_kernel_config_hash(struct ior_db *db, const char *host, const char *release, char **hash);
/* The machine (kernels.machine, `uname -m`) of release's first run on host with one recorded, or
 * *machine NULL; free() it. */
int ior_db_kernel_machine(struct ior_db *db, const char *host, const char *release, char **machine);
/* The compiler (kernels.compiler) of release's first run on host with one recorded, or *compiler
 * NULL; free() it. */
int ior_db_kernel_compiler(struct ior_db *db, const char *host, const char *release, char **compiler);

/* --- bisections as reports show them (db/bisect_results.c) -------------------- */

/* One commit (or packaged kernel) a bisection built, marked or measured, with its samples. */
struct ior_db_bisect_commit_row {
	char *commit, *build, *image, *mark;   /* build "ok"/"build failed", mark good/bad/skip; NULL unknown */
	double *values;                        /* the samples measured on it, in measuring order */
	size_t n;
};
/* One bisection: the bisects row, its commits (first seen first) and the culprit it named. */
struct ior_db_bisect_row {
	int64_t id;
	char *source, *repo, *good, *bad, *status, *result, *started_at;
	char *culprit;                         /* the commit of its "found" log row, NULL when none */
	bool higher_is_better;
	struct ior_db_bisect_commit_row *commits;
	size_t ncommits;
};
/* Every bisection but those reset, oldest first. */
int ior_db_bisect_results(struct ior_db *db, struct ior_db_bisect_row **rows, size_t *n);
void ior_db_bisect_results_free(struct ior_db_bisect_row *rows, size_t n);

/* --- merging other databases (db/merge.c) ------------------------------------ */

/* What one merge added and found already present, per table. */
struct ior_db_merge_stats {
	size_t ntables;
	struct {
		const char *table;
		size_t added, present;
		size_t updated;   /* present rows a merge changed: runs it saw running and now finished */
	} t[16];
};

/* Merges every run of the ioregress database at path into db, with each run's host, kernel,
 * devices, offers, cells, samples and VM boots: rows already in db (the same identity) are not
 * added again, so merging a file twice adds nothing. All or nothing: an error leaves db as it
 * was. A file of an older schema is upgraded in memory first (the file is only read); one of a
 * newer schema, another application's database or db's own file is refused (IOR_EINVALID). A run
 * db holds as running (merged mid-run) takes the source's status and finish time once the source's
 * has finished; a repetition both hold with another value, unit or warm-up mark refuses the file. */
int ior_db_merge(struct ior_db *db, const char *path, struct ior_db_merge_stats *stats);
/* The rows of table that the merge added (0 for a table it did not touch). */
size_t ior_db_merge_added(const struct ior_db_merge_stats *stats, const char *table);
size_t ior_db_merge_present(const struct ior_db_merge_stats *stats, const char *table);
size_t ior_db_merge_updated(const struct ior_db_merge_stats *stats, const char *table);

#endif
