/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every cell key of the report model measured on a good end, a bad end and a candidate, classified (check --bad). */
#ifndef IOR_REPORTS_CLASSIFY_MODEL_H
#define IOR_REPORTS_CLASSIFY_MODEL_H

#include "stats/classify.h"
#include "reports/model.h"

struct ior_ends_cell {
	size_t series;                  /* index into rt->series */
	struct ior_classification k;
};

struct ior_ends {
	struct ior_ends_cell *cells;
	size_t n;
	size_t good, bad, undecided, no_gap;
	enum ior_class verdict;         /* bad when a cell is; good when every cell with a gap is; else undecided */
};

/* Classifies cand on every in-view series measured (>= 2 samples) on good, bad and cand. r needs
 * IOR_REPORT_TABLES. IOR_ENOTFOUND when no series has all three. */
int ior_report_classify(struct ior_ends *out, const struct ior_report *r, const char *good, const char *bad,
			const char *cand, double alpha);
void ior_ends_free(struct ior_ends *e);

#endif
