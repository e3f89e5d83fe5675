/* The report's VM section: each boot of `vm run` (kernel, outcome, accelerator, CPUs, memory, cache mode, qemu version, boot and total seconds, the reason of each boot that was not ok). */
#ifndef IOR_REPORTS_VM_BOOTS_H
#define IOR_REPORTS_VM_BOOTS_H

#include <stddef.h>
#include <stdio.h>

struct ior_db_vm_boot_row;
/* Prints the boots as a text table, and what TCG figures mean when any boot used TCG; nothing when n is 0. */
int ior_report_vm_boots(FILE *out, const struct ior_db_vm_boot_row *rows, size_t n);

#endif
