/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `run --dry-run`: the cells a matrix expands to on this kernel, their count and an estimate of the
 * run's time, before anything runs. */
#ifndef IOR_RUN_DRY_RUN_H
#define IOR_RUN_DRY_RUN_H

#include <stdio.h>

#include "matrix/matrix.h"

/* Prints every cell (device, scheduler, engine and its parameters), the count and the
 * estimated seconds; creates, switches and writes nothing. A scratch device's schedulers are
 * a loop device's (what its loop device will offer); "all" takes this kernel's list. Returns
 * IOR_OK, or IOR_EINVALID when the expansion passes max_cells. */
int ior_dry_run(FILE *out, const struct ior_matrix *m);

/* The matrix file a guest will run (vm run, bisect run --matrix), checked as a file the user
 * trusts, then parsed and expanded here as the guest will (load_modules = yes) before any boot: a
 * typo costs no boot and records none. *fill gets the fill of its /dev/vda device (what the
 * scratch disk holds), left as it is when there is none. Errors say "(no boot was started)". */
int ior_dry_run_guest_matrix(const char *path, int *fill);

#endif
