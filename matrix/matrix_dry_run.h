/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `run --dry-run`: the cells a matrix expands to on this kernel, their count and an estimate of the
 * run's time, before anything runs. */
#ifndef IOR_MATRIX_DRY_RUN_H
#define IOR_MATRIX_DRY_RUN_H

#include <stdio.h>

#include "matrix/matrix.h"

/* Prints every cell (device, scheduler, engine and its parameters), the count and the
 * estimated seconds; creates, switches and writes nothing. A scratch device's schedulers are
 * a loop device's (what its loop device will offer); "all" takes this kernel's list. Returns
 * IOR_OK, or IOR_EINVALID when the expansion passes max_cells. */
int ior_matrix_dry_run(FILE *out, const struct ior_matrix *m);

#endif
