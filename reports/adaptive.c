/* The adaptive-repetition rule: stop a cell as soon as it is decided against its baseline or stable on its own, never past the cap. */
#include "reports/adaptive.h"
#include "reports/stats.h"

#include <stdio.h>

void ior_adaptive_default(struct ior_adaptive *a)
{
	a->min_reps = 5;
	a->max_reps = 15;
	a->target_cov = 0.05;
	ior_compare_opts_default(&a->cmp);
}

double ior_adaptive_look_alpha(const struct ior_adaptive *a)
{
	size_t looks = a->max_reps >= a->min_reps ? a->max_reps - a->min_reps + 1 : 1;
	return a->cmp.alpha / (double)looks;
}

static void say(char *why, size_t len, const char *fmt, const char *detail, size_t n)
{
	if (why && len)
		snprintf(why, len, fmt, n, detail);
}

enum ior_adapt ior_adaptive_next(const struct ior_adaptive *a, const double *x, size_t n, const double *base,
				 size_t nbase, char *why, size_t whylen)
{
	if (a->max_reps && n >= a->max_reps) {
		say(why, whylen, "%zu repetitions: the cap%s", "", n);
		return IOR_ADAPT_STOP_CAP;
	}
	if (n < a->min_reps || n < 2) {
		say(why, whylen, "%zu repetitions: below the minimum%s", "", n);
		return IOR_ADAPT_CONTINUE;
	}
	if (base && nbase) {
		struct ior_compare_opts o = a->cmp;
		o.alpha = ior_adaptive_look_alpha(a);
		struct ior_comparison c;
		if (ior_compare(&c, base, nbase, x, n, &o) == 0 && c.verdict != IOR_VERDICT_INCONCLUSIVE) {
			say(why, whylen, "%zu repetitions: decided, %s", ior_verdict_name(c.verdict), n);
			return IOR_ADAPT_STOP_DECIDED;
		}
		say(why, whylen, "%zu repetitions: not decided yet%s", "", n);
		return IOR_ADAPT_CONTINUE;
	}
	struct ior_stats st;
	if (ior_stats_compute(&st, x, n) == 0 && st.cov <= a->target_cov) {
		say(why, whylen, "%zu repetitions: stable (CoV under target)%s", "", n);
		return IOR_ADAPT_STOP_STABLE;
	}
	say(why, whylen, "%zu repetitions: CoV above target%s", "", n);
	return IOR_ADAPT_CONTINUE;
}
