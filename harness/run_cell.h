/* One cell of a run: an engine on a device under a scheduler, repeated, each sample stored at once. */
#ifndef IOR_HARNESS_RUN_CELL_H
#define IOR_HARNESS_RUN_CELL_H

#include "db/db.h"
#include "harness/progress.h"
#include "harness/run.h"
#include "harness/run_devices.h"

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
};

void ior_cell_runner_init(struct ior_cell_runner *r, struct ior_db *db, const struct ior_matrix *m,
			  const struct ior_run_options *opts, struct ior_run_summary *summary);

/* Runs the cell. A skip (writes to a non-destructive device, unsupported here) or an engine
 * failure is recorded on the cell and is not an error of the run; IOR_EINTERRUPTED and
 * database errors are. */
int ior_run_cell(struct ior_cell_runner *r, struct ior_run_device *dev, const char *sched,
		 const struct ior_matrix_engine *engine);

/* Records a cell that cannot run (scheduler unavailable, switch failed) with its reason. */
int ior_run_cell_mark(struct ior_cell_runner *r, struct ior_run_device *dev, const char *sched,
		      const struct ior_matrix_engine *engine, enum ior_cell_status status, const char *reason);

#endif
