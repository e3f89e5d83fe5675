/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `run --dry-run`: the cells a matrix expands to on this kernel, their count and an estimate of the
 * run's time, before anything runs. */
#ifndef IOR_RUN_DRY_RUN_H
#define IOR_RUN_DRY_RUN_H

#include <stdio.h>

#include "matrix/matrix.h"
#include "vm/vm.h"

/* Prints every cell (device, scheduler, engine and its parameters), the count and the
 * estimated seconds; creates, switches and writes nothing. A scratch device's schedulers are
 * a loop device's (what its loop device will offer); "all" takes this kernel's list. Returns
 * IOR_OK, or IOR_EINVALID when the expansion passes max_cells. */
int ior_dry_run(FILE *out, const struct ior_matrix *m);

/* The matrix file a guest will run (vm run, bisect run --matrix), checked as a file the user
 * trusts, then parsed and expanded here as the guest will (load_modules = yes) before any boot: a
 * typo costs no boot and records none. Sets what the guests need of it: o->scratch_fill, the fill
 * of its /dev/vda device (left as it is when there is none), and o->machine.memory_mb, when 0 (not
 * given), what its files need in a guest's RAM (ior_vm_size_memory: a given one too small for them
 * is an error); said gets what to tell the user of the memory, "" for nothing. Errors say "(no boot
 * was started)". */
int ior_dry_run_guest_matrix(const char *path, struct ior_vm_run_opts *o, char *said, size_t len);

#endif
