/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every cell key of the tables measured on a good end, a bad end and a candidate, classified (check --bad). */
#ifndef IOR_JUDGE_CLASSIFY_H
#define IOR_JUDGE_CLASSIFY_H

#include "judge/verdicts.h"
#include "stats/classify.h"

struct ior_classified_cell {
	size_t series;                  /* index into rt->series */
	struct ior_classification k;
};

struct ior_classified {
	struct ior_classified_cell *cells;
	size_t n;
	size_t good, bad, undecided, no_gap;
	enum ior_class verdict;         /* bad when a cell is; good when every cell with a gap is; else undecided */
};

/* Classifies cand on every in-view series measured (>= 2 samples) on good, bad and cand. in needs
 * the tables. IOR_ENOTFOUND when no series has all three. */
int ior_judge_classify(struct ior_classified *out, const struct ior_judge_input *in, const char *good,
		       const char *bad, const char *cand, double alpha);
void ior_classified_free(struct ior_classified *e);

#endif
