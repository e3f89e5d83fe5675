/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Judging in a bisection: are the calibrated ends far enough apart, and is a candidate good, bad, in need of more samples, or to be skipped. */
#ifndef IOR_BISECT_JUDGE_H
#define IOR_BISECT_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "reports/classify.h"

struct ior_bisect_judge_opts {
	double alpha;          /* of each one-sided test (classify.c); default 0.001 */
	size_t calibrate;      /* samples per end before the first look; default 10 */
	size_t calibrate_cap;  /* per end before refusing; default 60 */
	size_t first;          /* samples of a candidate before its first look; default 5 */
	size_t step;           /* samples added per further look; default 5 */
	size_t cap;            /* samples of a candidate before it is skipped as undecided; default 60 */
	size_t confirm;        /* samples on the culprit and its parent before it is named; default 15 */
	double unstable;       /* a candidate whose log-spread exceeds this many times the ends' is skipped; default 4 */
	double confirm_alpha;  /* the culprit against its parent directly, one-sided; default 0.01 */
	bool higher_is_better;
};
void ior_bisect_judge_opts_default(struct ior_bisect_judge_opts *o);

enum ior_bisect_call { IOR_CALL_GOOD, IOR_CALL_BAD, IOR_CALL_MORE, IOR_CALL_SKIP };
const char *ior_bisect_call_name(enum ior_bisect_call c);

/* The ends: MORE while either has fewer than o->calibrate samples or the gap is still too small
 * for the sample counts but more end samples may show it; GOOD (usable) or SKIP (refuse, with the
 * reason in words) otherwise. The smallest gap it accepts is the one a candidate at the cap
 * would be classified at with 95% power. */
enum ior_bisect_call ior_bisect_calibrated(const double *good, size_t ng, const double *bad, size_t nb,
					   const struct ior_bisect_judge_opts *o, char *reason, size_t len);

/* One candidate's samples against the ends: GOOD, BAD, MORE (fewer than the next look needs, or
 * undecided below the cap: need tells how many in all), SKIP (undecided at the cap, or unstable).
 * k (may be NULL) gets the classification when one was made. */
enum ior_bisect_call ior_bisect_judge(const double *good, size_t ng, const double *bad, size_t nb, const double *x,
				      size_t n, size_t cap, const struct ior_bisect_judge_opts *o, size_t *need,
				      struct ior_classification *k, char *reason, size_t len);

/* The culprit against its parent directly (one-sided Welch on log values, outliers left out):
 * p that c is worse than parent. The ends' estimates play no part, so a biased end cannot make
 * two like commits differ. */
double ior_bisect_step_p(const double *parent, size_t np, const double *c, size_t nc, const double *bad, size_t nb,
			 const struct ior_bisect_judge_opts *o);

#endif
