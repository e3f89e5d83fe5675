/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel release strings: parsing and the ordering kernel testers expect (2.6.33-rc5 < 2.6.33 < 2.6.33.1 < 2.6.34). */
#ifndef IOR_KERNEL_VERSION_H
#define IOR_KERNEL_VERSION_H

#include <stdbool.h>
#include <stddef.h>

struct ior_kver {
	int major, minor, patch, sublevel; /* 2.6.33.1 -> 2,6,33,1; 6.1.0 -> 6,1,0,0 */
	int rc;                            /* -rcN (or Fedora's -0.rcN), 0 when a release */
	char commit[41];                   /* from a -gSHA suffix (CONFIG_LOCALVERSION_AUTO), "" if none */
	char extra[128];                   /* what follows the numbers: "-47-amd64", "+deb12-cloud-amd64", ".el9.x86_64" */
};

/* Parses "6.1.0-47-amd64", "2.6.33-rc5", "5.14.0-427.el9.x86_64", "6.7.0-rc1-00012-gabcdef123456".
 * IOR_EINVALID when the string does not start with a version number. */
int ior_kver_parse(const char *release, struct ior_kver *out);

/* strcmp-like total order on release strings; unparsable strings sort after parsable ones, by strcmp. */
int ior_kver_cmp(const char *a, const char *b);

/* Sorts release strings in place by ior_kver_cmp. */
void ior_kver_sort(char **releases, size_t n);

/* The upstream series a release belongs to, as one comparable number: 2.6.33-rc5 and
 * 2.6.33.1 -> series 2.6.33; 6.1.0-47-amd64 -> 6.1. Scheduler history is kept per series.
 * -1 when the string does not parse. */
long ior_kver_series(const char *release);

#endif
