/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A bisection's state in the database (bisects, bisect_commits, bisect_samples, bisect_log):
 * everything the driver decides is re-read from here, so a killed bisection resumes. */
#ifndef IOR_BISECT_STATE_H
#define IOR_BISECT_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bisect/graph.h"
#include "db/bisect_state.h"

/* The rows themselves are db's (db/bisect_state.h); here is what reads them as a commit graph
 * and as rounds. */

/* Another commit of the bisection built to this image and marked: its id and mark, or *found false. */
int ior_bisect_same_image(struct ior_db *db, int64_t id, const char *commit, const char *image, bool *found,
			  char *other, size_t len, enum ior_bisect_mark *mark);

int ior_bisect_mark_set(struct ior_db *db, int64_t id, const char *commit, enum ior_bisect_mark m, const char *reason);
/* Every node's mark (NONE when unmarked), in graph order. */
int ior_bisect_marks_get(struct ior_db *db, int64_t id, const struct ior_bisect_graph *g, enum ior_bisect_mark *marks);

/* Values by round: row i is round[i], column j commits[j]'s median sample in that round. Only
 * rounds numbered from `from` on that hold every commit asked for are kept (a round cut short by
 * a kill or a failed measurement is left out), oldest first. */
struct ior_bisect_rounds {
	size_t k, n, cap;      /* commits (columns), rounds (rows), rows allocated */
	double *v;             /* n x k, row-major */
	size_t *round;
};
int ior_bisect_rounds_get(struct ior_db *db, int64_t id, const char *const *commits, size_t k, size_t from,
			  struct ior_bisect_rounds *out);
void ior_bisect_rounds_free(struct ior_bisect_rounds *r);

#endif
