/* Kernel B against kernel A on one cell: effect size with a bootstrap interval, Mann-Whitney U, Hodges-Lehmann shift and a verdict. */
#ifndef IOR_REPORTS_COMPARE_H
#define IOR_REPORTS_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* --- the seeded generator (xoshiro256**, seeded through splitmix64) ------- */

struct ior_rng {
	uint64_t s[4];
};
void ior_rng_seed(struct ior_rng *r, uint64_t seed);
uint64_t ior_rng_next(struct ior_rng *r);
double ior_rng_uniform(struct ior_rng *r);          /* [0, 1) */
size_t ior_rng_below(struct ior_rng *r, size_t n);  /* [0, n) */
double ior_rng_normal(struct ior_rng *r);           /* standard normal */

/* --- Mann-Whitney U ----------------------------------------------------------- */

struct ior_mw {
	double u;          /* U of the first sample: #(a > b) + 0.5 #(a == b) */
	double p;          /* two-sided p-value */
	bool exact;        /* from the exact null distribution (small samples, no ties) */
	bool ties;
};

/* Exact when both samples hold at most IOR_MW_EXACT_MAX values and there are
 * no ties; otherwise the normal approximation with tie and continuity correction. */
#define IOR_MW_EXACT_MAX 25
int ior_mann_whitney(struct ior_mw *out, const double *a, size_t na, const double *b, size_t nb);

/* P(U <= u) under the null for sizes m, n without ties (exact recursion). */
double ior_mw_cdf(size_t m, size_t n, double u);

/* The smallest two-sided p-value Mann-Whitney can give for these sizes (no ties):
 * 2 / C(m+n, m). 3 against 3 gives 0.1. */
double ior_mw_min_p(size_t m, size_t n);

/* Hodges-Lehmann shift: the median of all pairwise differences b_j - a_i. */
double ior_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb);

/* --- the comparison and its verdict ------------------------------------------- */

enum ior_verdict {
	IOR_VERDICT_NO_CHANGE,
	IOR_VERDICT_IMPROVEMENT,
	IOR_VERDICT_REGRESSION,
	IOR_VERDICT_INCONCLUSIVE,
};
const char *ior_verdict_name(enum ior_verdict v);

struct ior_compare_opts {
	double alpha;             /* two-sided significance level; default IOR_COMPARE_ALPHA */
	double min_effect;        /* relative change that matters; default IOR_COMPARE_MIN_EFFECT */
	bool higher_is_better;    /* throughput: true; latency and time: false */
	size_t bootstrap;         /* resamples; default 2000 */
	uint64_t seed;            /* bootstrap seed; same seed, same interval */
};

/* Defaults, with the reasoning in compare.c. */
#define IOR_COMPARE_ALPHA 0.01
#define IOR_COMPARE_MIN_EFFECT 0.03
void ior_compare_opts_default(struct ior_compare_opts *o);

struct ior_comparison {
	size_t na, nb;
	double median_a, median_b;
	double ratio;             /* median_b / median_a */
	double ratio_lo, ratio_hi;/* percentile-bootstrap 95% interval of the ratio */
	double hl_shift;          /* Hodges-Lehmann b - a, in the metric's unit */
	struct ior_mw mw;
	double min_p;             /* best p these sizes could reach */
	enum ior_verdict verdict;
	char reason[256];         /* the verdict in words */
};

/* Compares b (candidate) against a (baseline); each needs at least one value. */
int ior_compare(struct ior_comparison *out, const double *a, size_t na, const double *b, size_t nb,
		const struct ior_compare_opts *opts);

#endif
