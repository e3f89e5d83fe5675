/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The stored samples a judgement reads: every stored cell with its context and samples, the warm-up
 * marks, the vm boots that measured them and the kernels they name, as flat arrays. */
#ifndef IOR_JUDGE_STORED_H
#define IOR_JUDGE_STORED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/axis.h"
#include "judge/table.h"

/* A stored cell as the database has it, whatever its status: the raw samples' context. */
struct ior_stored_cell {
	int64_t cell_id, run_id;
	const char *host, *kernel, *device, *device_model, *scheduler, *engine, *engine_type, *params;
	const char *status, *reason, *run_status, *run_started_at, *unit;
	const char *fill;                   /* what the scratch device held: random, zeros, sparse; NULL unknown */
	const char *rep_order;              /* interleaved, sequential, random; NULL unknown */
	bool higher_is_better;
	size_t first, n;                    /* its samples in ior_stored.values / reps / warmup (and the report's detail) */
	size_t nwarmup;                     /* of them warm-up repetitions (matrix warmup = N): shown, never judged */
	bool in_view;
	size_t group;                       /* its group in the tables (judge/table.h); SIZE_MAX without tables, or
					       when no cell of its host, kernel, engine and params measured a repetition */
};

/* One boot of `vm run`: which kernel, how it ended and on what machine (strings interned). */
struct ior_stored_boot {
	const char *host, *kernel, *release, *outcome, *reason, *accel, *cache_mode, *qemu_version, *pinned;
	const char *package_version;        /* the kernel package's, NULL for an image given directly */
	int boot_index, cpus, memory_mb;    /* boot_index: its round in its vm run */
	double boot_s, total_s;             /* -1: not known */
	int64_t run_id;                     /* the guest's run, 0 when none */
	const char *vm_run;                 /* the vm run it was a round of, NULL before schema 12 */
	const char *started_at;             /* UTC text, NULL unknown */
	bool in_view;                       /* its host and kernel match the filters */
};

/* A (host, kernel) pair some stored cell names. */
struct ior_stored_kernel {
	const char *host, *release;
};

struct ior_stored {
	struct ior_stored_cell *cells;      /* every stored cell, id order */
	size_t ncells;
	double *values;                     /* every sample, cell by cell */
	int *reps;
	bool *warmup;                       /* per sample: a warm-up repetition, left out of tables, alerts, changes, verdicts */
	size_t nsamples;
	struct ior_stored_boot *boots;      /* oldest first */
	size_t nboots;
	struct ior_stored_kernel *kernels;  /* host, then version order (ior_stored_kernels) */
	size_t nkernels;
};
void ior_stored_free(struct ior_stored *s);  /* its arrays; the strings belong to whoever interned them */

/* s->kernels from the cells: each (host, kernel) once, per host in version order. Strings are
 * compared as pointers (the loader interns them). */
int ior_stored_kernels(struct ior_stored *s);

/* Whether stored cell x is one of table cell c's (group g's key, c's device and scheduler). */
bool ior_stored_cell_of(const struct ior_stored_cell *x, const struct ior_rt_group *g, const struct ior_rt_cell *c);
/* The vm run boot whose guest stored run_id, or NULL (a host run, an import). */
const struct ior_stored_boot *ior_stored_boot_of_run(const struct ior_stored *s, int64_t run_id);
/* The field of a stored cell the axis names (its kernel, scheduler, device, engine or host). */
const char *ior_stored_cell_axis_value(enum ior_axis axis, const struct ior_stored_cell *c);

#endif
