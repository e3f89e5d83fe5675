/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The operations table every benchmark engine fills (fio's ioengine_ops model) and the sample it reports. */
#ifndef IOR_ENGINES_ENGINE_H
#define IOR_ENGINES_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/measures.h"
#include "options/option.h"

/* What an engine may do to its target, in .flags (and option_flags for the options given). */
enum ior_engine_flags {
	IOR_ENGINE_WRITES = 1u << 0, /* writes to the target: needs destructive = yes */
};

/* What the engine measures: a block device (or a file the loop engine made). */
struct ior_target {
	const char *name;        /* the matrix's device name */
	const char *path;        /* /dev/loopN, /dev/sdX ... */
	uint64_t size;           /* bytes, 0 when unknown */
	unsigned logical_block;  /* bytes, for O_DIRECT alignment; 0 = 512 */
	bool destructive;        /* the matrix allows writes to it */
	const char *fill;        /* what a scratch device was filled with ("random", "zeros", "sparse");
				  * NULL when ioregress did not create it */
};

/* A sample's unit: one name per quantity whichever engine measured it, so that cells of
 * different engines compare (hdparm prints MiB/s as "MB/s", coreutils dd prints SI MB/s). */
#define IOR_UNIT_MIB_S "MiB/s" /* IOR_MIB bytes a second */
#define IOR_UNIT_IOPS "IOPS"
#define IOR_UNIT_SECONDS "s"

/* One repetition's measurement. The headline figure is value/unit; the rest is what the engine can tell. */
struct ior_sample {
	double value;            /* e.g. 112.4 */
	const char *unit;        /* one of the IOR_UNIT_ names */
	bool higher_is_better;
	IOR_MEASURES_MEMBER;
	const char *fill;        /* the data the measured device held; NULL: the target's fill */
	bool warmup;             /* set by the run, not the engine: a warm-up repetition (matrix warmup = N) */
	int64_t round;           /* set by the run: its round under interleaved or random order; 0 none (stored NULL) */
	char detail[256];        /* engine-specific facts worth keeping (tool version, loop stack, ...) */
};

struct ior_engine_ops;

/* Lets an engine run another engine of the same matrix (the loop engine's inner = NAME). */
struct ior_engine_ref {
	const struct ior_engine_ops *ops;
	const void *opts;
};
typedef const struct ior_engine_ref *(*ior_engine_lookup_fn)(void *ctx, const char *engine_name);

/* Lets an engine journal a change to the machine before it makes it ("mount", "file",
 * "loop", as the database's undo journal has them), so `ioregress recover` can undo it
 * after a crash, and close the entry once the change is undone. */
struct ior_journal {
	int (*note)(void *ctx, const char *kind, const char *target, const char *original, int64_t *id);
	void (*done)(void *ctx, int64_t id);
	void *ctx;
};

struct ior_engine_args {
	const void *opts;                 /* the engine's own options blob, filled from its rows */
	const struct ior_target *target;
	ior_engine_lookup_fn lookup;      /* may be NULL outside a matrix */
	void *lookup_ctx;
	const struct ior_journal *journal; /* may be NULL: nothing is journaled */
	/* The cell's scheduler, already set on the target by the harness. An engine that makes
	 * its own devices (loop) sets it on them; NULL outside a matrix. */
	const char *scheduler;
	/* How long past a repetition's expected end (or, without one, past the last sign of
	 * progress) the engine waits before it fails the cell: a request that never completes or a
	 * tool that never exits must cost one cell, never the run. Required (> 0): the matrix's
	 * deadline, resolved once when the matrix is read. */
	double deadline_s;
};
/* The matrix's deadline key's default, in seconds (matrix/matrix_rows.c writes it as its text
 * default); `recover`, which has no matrix, and callers outside a matrix pass it themselves. */
#define IOR_ENGINE_DEADLINE_SECONDS 30

struct ior_engine_ops {
	const char *name;                 /* the matrix's "type = NAME" */
	const char *help;                 /* one line */
	unsigned flags;                   /* enum ior_engine_flags */
	const struct ior_option *options; /* rows, IOR_OPTION_END-terminated */
	size_t options_size;              /* sizeof the options struct the rows point into */

	/* Optional. Returns IOR_OK, or IOR_EUNSUPPORTED with the reason in the
	 * error message (missing kernel feature, missing tool): the cell becomes a skip. */
	int (*supported)(const void *opts);
	/* Sets up for a cell (open the device, allocate buffers). */
	int (*init)(void **state, const struct ior_engine_args *args);
	/* One repetition. Polls ior_stop_requested() in long loops and returns IOR_EINTERRUPTED. */
	int (*measure)(void *state, struct ior_sample *out);
	/* Undoes init; must accept NULL. */
	void (*cleanup)(void *state);
	/* Optional: the flags for these options, more precise than .flags, which stays the safe
	 * upper bound for callers that only read .flags (aio/uring: .flags has IOR_ENGINE_WRITES,
	 * option_flags only for the write modes, so a read job may run on a non-destructive device). */
	unsigned (*option_flags)(const void *opts);
	/* Optional: seconds one repetition takes with these options, as far as the
	 * options tell (a time-based job's runtime); negative when they do not (a size-based job).
	 * `run --dry-run` adds them up into its estimate. */
	double (*duration)(const void *opts);
	/* Optional: bytes of file the cell itself creates while it runs, apart from the device measured
	 * (a loop stack's tmpfs or first file). In a vm run guest every file lives in RAM, so they size
	 * the guest's memory. */
	uint64_t (*file_bytes)(const void *opts);
};

/* The engine's flags for these options: option_flags(opts) when the engine has it, else .flags. */
static inline unsigned ior_engine_flags(const struct ior_engine_ops *ops, const void *opts)
{
	return ops->option_flags && opts ? ops->option_flags(opts) : ops->flags;
}

/* The registry: an explicit list in engines/registry.c (stress-ng's model). */
size_t ior_engine_count(void);
const struct ior_engine_ops *ior_engine_at(size_t i);
/* NULL with a "did you mean" message when no engine has that name. */
const struct ior_engine_ops *ior_engine_find(const char *name);
/* Checks an ops table: a name and the required hooks, naming the engine on error. */
int ior_engine_validate(const struct ior_engine_ops *ops);

#endif
