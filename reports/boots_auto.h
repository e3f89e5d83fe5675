/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `vm run --boots auto`: after each round of boots, how many of the cells compared between kernels
 * are decided, and the undecided ones with the noise between boots and the smallest change they
 * could tell. */
#ifndef IOR_REPORTS_BOOTS_AUTO_H
#define IOR_REPORTS_BOOTS_AUTO_H

#include <stddef.h>

#include "db/metric.h"

struct ior_db;

/* Every kernel after the first against the first, cell by cell, on one metric (the headline by
 * default; a request counter's metric under TCG, where timings spread 10-50% between boots), over the
 * boots of one vm run only (judged as judge/boot_verdict.h says). */
struct ior_boots_progress {
	size_t cells;        /* cells compared (all kernel pairs) */
	size_t decided;      /* of them with a verdict other than inconclusive */
	char *undecided;     /* one line per undecided cell ("B vs A: DEVICE SCHED ENGINE: noise ..."), NULL when none */
};

/* releases[0..n) are the kernels' releases (uname -r), the first the baseline; host is the guests'
 * host name; m the metric judged. A kernel with no samples yet counts its cells as undecided; a cell
 * that does not record m is not counted. */
int ior_boots_progress(struct ior_boots_progress *p, struct ior_db *db, const char *host, const char *vm_run,
		       const char *const *releases, size_t n, enum ior_metric m);
void ior_boots_progress_free(struct ior_boots_progress *p);

#endif
