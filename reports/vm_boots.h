/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text report's VM section: each boot of `vm run` (kernel, outcome, accelerator, CPUs, memory, cache mode, qemu version, boot and total seconds, the reason of each boot that was not ok). */
#ifndef IOR_REPORTS_VM_BOOTS_H
#define IOR_REPORTS_VM_BOOTS_H

#include <stdio.h>

struct ior_report;
/* Prints the model's boots in view as a text table, and what TCG figures mean when any boot
 * used TCG; nothing when there are none. */
int ior_report_vm_boots(FILE *out, const struct ior_report *r);

#endif
