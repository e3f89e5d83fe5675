/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A candidate against two known ends of a regression, a good and a bad one: good, bad or cannot
 * tell (git bisect run's 0, 1 and 125). */
#ifndef IOR_STATS_CLASSIFY_H
#define IOR_STATS_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/compare.h"

enum ior_class {
	IOR_CLASS_GOOD,
	IOR_CLASS_BAD,
	IOR_CLASS_UNDECIDED,   /* the data cannot tell: more samples may */
	IOR_CLASS_NO_GAP,      /* the two ends themselves do not differ */
};
const char *ior_class_name(enum ior_class c);

struct ior_classify_opts {
	double alpha;            /* one-sided level of each of the two tests; default IOR_CLASSIFY_ALPHA */
	bool higher_is_better;
};
#define IOR_CLASSIFY_ALPHA 0.01
void ior_classify_opts_default(struct ior_classify_opts *o);

struct ior_classification {
	size_t ngood, nbad, ncand;
	double median_good, median_bad, median_cand;
	/* Welch on log values, outliers left out as ior_compare does (ior_compare_outliers). */
	struct ior_welch ends;      /* bad against good: the gap being hunted */
	struct ior_welch vs_good;   /* candidate against good */
	struct ior_welch vs_bad;    /* candidate against bad */
	double p_worse_than_good;   /* one-sided: the candidate lies on the bad side of good */
	double p_better_than_bad;   /* one-sided: the candidate lies on the good side of bad */
	double p_ends;              /* one-sided: bad is worse than good */
	double position;            /* 0 at bad's mean log, 1 at good's: where the candidate sits */
	enum ior_class verdict;
	char reason[480];
};

/* Sets c's verdict and reason from its p-values (p_ends, p_worse_than_good, p_better_than_bad) and
 * medians: the rule above, test naming the tests in the reason ("Welch", "paired"). */
void ior_classify_decide(struct ior_classification *c, double alpha, const char *test);

/* Classifies cand against good and bad; each needs at least two positive values. */
int ior_classify(struct ior_classification *out, const double *good, size_t ngood, const double *bad, size_t nbad,
		 const double *cand, size_t ncand, const struct ior_classify_opts *opts);

#endif
