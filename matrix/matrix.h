/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The test matrix: an INI file (fio-style) of [matrix], [device NAME] and [engine NAME] sections,
 * parsed, validated and expanded to cells. */
#ifndef IOR_MATRIX_MATRIX_H
#define IOR_MATRIX_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/axis.h"
#include "engines/engine.h"

struct ior_ini;

/* [matrix] section: the run's axes and policies. Filled from ior_matrix_options(). */
struct ior_matrix_settings {
	uint64_t repetitions;      /* fixed count per cell; default 3 */
	char *schedulers;          /* "all" or a space/comma separated list */
	bool drop_caches;          /* write 3 to /proc/sys/vm/drop_caches before each repetition */
	double alert_spread;       /* fraction; flag a cell whose (max-min)/min exceeds it */
	bool load_modules;         /* load scheduler modules the matrix asks for (issue: kernels) */
	uint64_t max_repetitions;  /* adaptive repetitions cap; 0 = off (fixed count) */
	double target_cov;         /* adaptive: stop when CoV falls below this */
	int order;                 /* enum ior_matrix_order: how repetitions of a device's cells follow each other */
	uint64_t order_seed;       /* order = random: the seed; 0 = one chosen at run time (and recorded) */
	uint64_t max_cells;        /* a matrix that expands past this many cells is refused (sweeps multiply) */
	uint64_t warmup;           /* warm-up repetitions per cell before the measured ones; an engine's own wins */
	char *compare;             /* the comparisons the matrix exists for, "AXIS: A B[, AXIS: A B...]"; NULL none */
	bool decide_schedulers;    /* adaptive: a device's cells of one engine stop together once the best is decided */
	double deadline;           /* seconds a repetition may overrun its expected end before its cell fails */
};

/* One comparison a matrix declares (compare = engine: plain nested): the report answers it first. */
struct ior_matrix_comparison {
	enum ior_axis axis;
	char *a, *b;
	char *where;               /* "file:line" of the compare key */
};

/* Keys every [engine NAME] section (and [defaults], [defaults TYPE]) takes beside its type's
 * own: how the harness runs the cell, not how the engine measures, so not in the cell's params. */
struct ior_matrix_job {
	uint64_t warmup;           /* warm-up repetitions: measured, stored marked, never judged */
	bool warmup_set;           /* given for this engine (else [matrix] warmup applies) */
};

/* Repetition order. interleaved (the default): repetition 1 of every cell of a device, then
 * repetition 2, ..., so slow drift of the host (thermal, other tenants, a filling cache) lands
 * on every cell alike instead of on whichever cell ran during it. sequential: each cell's
 * repetitions back to back. random: interleaved rounds, each in a fresh seeded random order. */
enum ior_matrix_order { IOR_ORDER_INTERLEAVED, IOR_ORDER_SEQUENTIAL, IOR_ORDER_RANDOM, IOR_ORDER_COUNT };
extern const char *const ior_matrix_order_names[IOR_ORDER_COUNT + 1];

/* [device NAME]: an existing block device (path) or a scratch loop device (loop = SIZE). */
struct ior_matrix_device_opts {
	char *path;                /* existing block device */
	uint64_t loop;             /* scratch loop device of this size; 0 = not a loop device */
	char *backing_dir;         /* where the loop device's backing file goes; default /tmp */
	bool direct_io;            /* losetup --direct-io=on */
	bool destructive;          /* write engines allowed */
	int fill;                  /* enum ior_fill: what a scratch device's file holds before measuring */
};

struct ior_matrix_device {
	char *name;
	const char *file;          /* the file of the section header (owned by the matrix's ini) */
	int line;                  /* line of the section header */
	struct ior_matrix_device_opts opts;
};

struct ior_matrix_engine {
	char *name;                /* the section's name, or for a sweep "name[key=value,...]" */
	char *section;             /* the [engine NAME] it comes from */
	const char *file;          /* where that section's header is */
	int line;
	const struct ior_engine_ops *ops;
	void *opts;                /* ops->options_size bytes, filled from ops->options */
	char *params;              /* canonical ior_options_format() text, stored with each cell */
	struct ior_matrix_job job;
};

struct ior_matrix {
	char *file;                /* as given, for messages; "(built-in default)" for the default */
	int schedulers_line;       /* line of [matrix]'s schedulers key, 0 when defaulted or set on the command line */
	char *schedulers_file;     /* the file it is in (an included one, maybe), or the override's label */
	bool schedulers_overridden; /* --set matrix.schedulers=... gave the list */
	char *warnings;            /* one per line, "" when none: keys that parse but do nothing */
	struct ior_ini *ini;       /* the sections as parsed, kept so overrides can rebuild what depends on them */
	char *text;                /* the whole source text, stored with the run */
	struct ior_matrix_settings settings;
	struct ior_matrix_device *devices;
	size_t ndevices;
	struct ior_matrix_engine *engines;
	size_t nengines;
	struct ior_matrix_comparison *comparisons;
	size_t ncomparisons;
};

/* Row tables, exposed so the command line and --help use the same data. */
const struct ior_option *ior_matrix_settings_options(void);
const struct ior_option *ior_matrix_device_options(void);
const struct ior_option *ior_matrix_job_options(void);

/* Bytes of file the run creates besides the devices it measures: the scratch loop devices' files (all
 * of them, for the whole run) and the most one cell creates for itself while it runs (a loop stack). */
void ior_matrix_file_bytes(const struct ior_matrix *m, uint64_t *devices, uint64_t *largest_cell);

/* An engine's warm-up repetitions: its own (or its [defaults]'), else [matrix] warmup. */
uint64_t ior_matrix_warmup(const struct ior_matrix *m, const struct ior_matrix_engine *e);

/* Parses and validates. Every error names "file:line: key: problem" and
 * nothing is returned from an invalid matrix. */
int ior_matrix_parse_file(struct ior_matrix **out, const char *path);
int ior_matrix_parse_string(struct ior_matrix **out, const char *name, const char *text);
/* The file with command-line overrides (as ior_matrix_set takes them) written into its sections
 * before anything is checked or built: `--set matrix.max_cells=N` lifts the file's own limit. */
int ior_matrix_parse_file_set(struct ior_matrix **out, const char *path, const char *const *sets, size_t nsets);

/* The built-in default: a 1 GiB scratch loop device, every scheduler, hdparm
 * direct, one warm-up, 5 to 10 repetitions until the best scheduler is decided. */
int ior_matrix_default(struct ior_matrix **out);

/* Command-line override, same rows and checks as the file:
 * "matrix.repetitions=5", "engine.seqread.direct=yes", "device.scratch.loop=2G".
 * Setting a device's path drops its loop size and vice versa; an engine's type
 * cannot be overridden. "defaults.KEY=V" and "defaults.TYPE.KEY=V" reach [defaults] and
 * [defaults TYPE] (made when missing), and a swept key takes several values
 * ("engine.r.bs=4k 1M"). On failure the matrix is unchanged and the message is
 * "override 'ASSIGNMENT': key: problem". After an override m->text is the matrix as it now
 * reads (sections and keys, comments gone), which is what a run stores. */
int ior_matrix_set(struct ior_matrix *m, const char *assignment);

/* The scheduler list for a device: "all" gives every offered scheduler;
 * a list gives itself, offered or not (the run records the missing ones as
 * unavailable). offered may be NULL. Returns a NULL-terminated malloc'd array
 * of malloc'd strings (free with ior_strv_free), NULL when out of memory. */
char **ior_matrix_schedulers_for(const struct ior_matrix *m, char *const *offered);
void ior_strv_free(char **v);

/* The matrix's listed schedulers against what this kernel's n devices offer (offered[d] is a
 * NULL-terminated list) and the scheduler history: a name neither offered here nor ever
 * upstream is a typo, reported as a matrix error at the schedulers key's file:line (or the
 * --set override) with "did you mean". A known name this kernel lacks passes: the run
 * records it as unavailable. "all" always passes. */
int ior_matrix_check_scheduler_names(const struct ior_matrix *m, char *const *const *offered, size_t n);

void ior_matrix_free(struct ior_matrix *m);

#endif
