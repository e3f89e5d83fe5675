/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The matrix file a guest runs (vm run, bisect run --matrix), checked on the host before any boot. */
#ifndef IOR_VM_GUEST_MATRIX_H
#define IOR_VM_GUEST_MATRIX_H

#include <stddef.h>

#include "vm/vm.h"

/* The matrix file at path, checked as a file the user trusts, then parsed and expanded here as
 * the guest will (load_modules = yes) before any boot: a typo costs no boot and records none. Sets
 * what the guests need of it: o->scratch_fill, the fill of its /dev/vda device (left as it is when
 * there is none), and o->machine.memory_mb, when 0 (not given), what its files need in a guest's
 * RAM (ior_vm_size_memory: a given one too small for them is an error); said gets what to tell the
 * user of the memory, "" for nothing. Errors say "(no boot was started)". */
int ior_vm_guest_matrix_check(const char *path, struct ior_vm_run_opts *o, char *said, size_t len);

#endif
