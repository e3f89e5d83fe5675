/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One device's cells of a run: each engine under each scheduler, set up once, repeated in the
 * matrix's order, each sample stored at once. */
#ifndef IOR_RUN_RUN_CELL_H
#define IOR_RUN_RUN_CELL_H

#include "common/rng.h"
#include "db/db.h"
#include "run/progress.h"
#include "run/run.h"
#include "run/run_devices.h"

struct ior_cell_runner {
	struct ior_db *db;
	const struct ior_matrix *m;
	const struct ior_run_options *opts;
	struct ior_run_summary *summary;
	struct ior_progress progress;
	size_t cell_index;            /* 1-based, for the progress line */
	struct ior_engine_ref ref;    /* answer of the last lookup (loop engine's inner = NAME) */
	const char *host;             /* this host's name, for baseline look-ups */
	struct ior_journal journal;   /* engines journal what they build (loop stacks) through this */
	struct ior_rng rng;           /* order = random: the shuffle's state, from the run's seed */
	bool guest_commit_failed;     /* in a vm run guest: the results disk could not be written */
	int64_t round_base;           /* rounds of this device are round_base + rep; -1: sequential, none */
};

void ior_cell_runner_init(struct ior_cell_runner *r, struct ior_db *db, const struct ior_matrix *m,
			  const struct ior_run_options *opts, struct ior_run_summary *summary);

/* Runs every cell of dev: a scheduler the device does not offer makes its cells unavailable,
 * a refused write or an unsupported engine a skip, an engine failure a failed cell, each with
 * its reason and none an error of the run. The cells that can run are set up first, then
 * take their repetitions in m's order (interleaved, sequential or random rounds), the
 * scheduler switched before each repetition that needs another. IOR_EINTERRUPTED and
 * database errors end the run; cells keep the samples they have. */
int ior_run_device_cells(struct ior_cell_runner *r, struct ior_run_device *dev);

#endif
