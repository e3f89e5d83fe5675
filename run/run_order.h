/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The order a device's cells take their repetitions in: interleaved rounds, each cell's run back to
 * back, or seeded random rounds. */
#ifndef IOR_RUN_RUN_ORDER_H
#define IOR_RUN_RUN_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "common/rng.h"

/* Called for cell i's repetition rep (from 1); a non-zero return stops the walk and is returned. */
typedef int (*ior_run_visit_fn)(void *ctx, size_t i, int rep);

/* Visits each cell i for repetitions 1..caps[i] in order (enum ior_matrix_order):
 * interleaved: round k visits every cell's repetition k, cells in their order;
 * sequential: cell 0's repetitions, then cell 1's, ...;
 * random: rounds as interleaved, each round's cells shuffled with rng (advanced): a seed
 * gives the same order again.
 * A cell that stops early (adaptive, failed) is the visitor's to skip. */
int ior_run_order(int order, const int *caps, size_t n, struct ior_rng *rng, ior_run_visit_fn visit, void *ctx);

#endif
