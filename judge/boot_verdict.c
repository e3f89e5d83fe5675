/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel verdicts on VM data: boot medians as observations, paired by boot round when two kernels
 * booted in the same rounds, else unpaired, with the noise between boots in words. */
#include "judge/boot_verdict.h"

#include "common/error.h"
#include "stats/paired.h"
#include "stats/stats.h"
#include "stats/tdist.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool same_round(const struct ior_boot_obs *x, const struct ior_boot_obs *y)
{
	return x->vm_run && y->vm_run && x->round == y->round && !strcmp(x->vm_run, y->vm_run);
}

/* Sum of squared deviations of the logs of n medians about their mean. */
static double log_ss(const double *x, size_t n)
{
	double sum = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		sum += log(x[i]);
	for (size_t i = 0; i < n; i++)
		ss += (log(x[i]) - sum / (double)n) * (log(x[i]) - sum / (double)n);
	return ss;
}

/* The smallest change two-sided at alpha: the half-width of the (1 - alpha) interval of the mean
 * log contrast, se its standard error; never below the minimum effect the verdict asks for. */
static double smallest_change(double se, double df, const struct ior_compare_opts *o)
{
	if (!(df >= 1) || isnan(se))
		return INFINITY;
	double s = expm1(ior_t_quantile(1 - o->alpha / 2, df) * se);
	return s > o->min_effect ? s : o->min_effect;
}

void ior_boot_noise_text(char *buf, size_t len, const struct ior_boot_evidence *ev)
{
	char boots[96];
	if (ev->boots_a == ev->boots_b)
		snprintf(boots, sizeof(boots), "%zu boot%s a side", ev->boots_a, ev->boots_a == 1 ? "" : "s");
	else
		snprintf(boots, sizeof(boots), "%zu boot%s against %zu", ev->boots_a, ev->boots_a == 1 ? "" : "s",
			 ev->boots_b);
	if (ev->ranks)
		snprintf(buf, len, "noise between boots: their medians spread by %.3g (sd; a median of 0 has no ratio, so no "
			 "share); %s at %s (%zu and %zu samples)%s", ev->spread,
			 ev->ranks_can_tell ? "only boots that separate completely can be told apart" : "no change can be told",
			 boots, ev->samples_a, ev->samples_b, ev->ranks_can_tell ? "" : "; boot more");
	else if (isnan(ev->noise) || isinf(ev->smallest))
		snprintf(buf, len, "%s: the noise between boots cannot be measured with fewer than 2 boots (rounds) of "
			 "each kernel; boot each 3 times or more (--boots 3, or --boots auto)", boots);
	else if (ev->smallest > 1)   /* t's tails at 1-2 degrees of freedom: say so, not "below 23868361%" */
		snprintf(buf, len, "noise %.0f%% between boots: not even a doubling or halving can be told at %s (%zu and "
			 "%zu samples); boot more", ev->noise * 100, boots, ev->samples_a, ev->samples_b);
	else
		snprintf(buf, len, "noise %.0f%% between boots: changes below %.0f%% cannot be told (%s, %zu and %zu "
			 "samples)", ev->noise * 100, ev->smallest * 100, boots, ev->samples_a, ev->samples_b);
}

static void append(char *buf, size_t size, const char *fmt, const char *text)
{
	size_t len = strlen(buf);
	if (len < size)
		snprintf(buf + len, size - len, fmt, text);
}

static int paired(struct ior_comparison *c, struct ior_boot_evidence *ev, const double *pa, const double *pb, size_t n,
		  const struct ior_compare_opts *o)
{
	struct ior_paired p;
	if (ior_paired_ratio(&p, pa, pb, n, 0.95))
		return IOR_ERROR;
	ior_paired_decide(&p, o->alpha, o->min_effect, o->higher_is_better);
	c->na = c->nb = n;
	c->median_a = ior_median(pa, n), c->median_b = ior_median(pb, n);
	c->ratio = p.ratio, c->ratio_lo = p.ratio_lo, c->ratio_hi = p.ratio_hi;
	c->welch.p = c->mw.p = p.p;   /* the p the verdict rests on, in every column that prints one */
	c->verdict = p.verdict;
	/* a boot's noise: the per-round contrast holds two boots' */
	ev->noise = p.n >= 2 ? expm1(p.sd / sqrt(2)) : NAN;
	ev->smallest = p.n >= 2 ? smallest_change(p.sd / sqrt((double)p.n), (double)p.n - 1, o) : INFINITY;
	snprintf(c->reason, sizeof(c->reason), "%s; paired by boot round, %zu boots a side (each boot's median one "
		 "observation)", p.reason, n);
	if (ev->left_out) {
		char more[96];
		snprintf(more, sizeof(more), "%zu boot(s) without a partner in their round left out", ev->left_out);
		append(c->reason, sizeof(c->reason), "; %s", more);
	}
	return IOR_OK;
}

static int unpaired(struct ior_comparison *c, struct ior_boot_evidence *ev, const struct ior_boot_obs *a, size_t na,
		    const struct ior_boot_obs *b, size_t nb, size_t pairs, const struct ior_compare_opts *o)
{
	double ma[na], mb[nb];
	bool runs = true, one_run = true;
	for (size_t i = 0; i < na; i++) {
		ma[i] = a[i].median;
		runs &= a[i].vm_run != NULL;
		one_run &= a[i].vm_run && a[0].vm_run && !strcmp(a[i].vm_run, a[0].vm_run);
	}
	for (size_t i = 0; i < nb; i++) {
		mb[i] = b[i].median;
		runs &= b[i].vm_run != NULL;
		one_run &= b[i].vm_run && a[0].vm_run && !strcmp(b[i].vm_run, a[0].vm_run);
	}
	if (ior_compare(c, ma, na, mb, nb, o))
		return IOR_ERROR;
	double ss = log_ss(ma, na) + log_ss(mb, nb), df = (double)na + (double)nb - 2;
	double sd = df >= 1 ? sqrt(ss / df) : NAN;
	bool measurable = na >= 2 || nb >= 2;
	ev->noise = measurable && na && nb ? expm1(sd) : NAN;
	ev->smallest = measurable ? smallest_change(sd * sqrt(1.0 / (double)na + 1.0 / (double)nb), df, o) : INFINITY;
	const char *why = !runs ? "not every side is boots of vm run (a host run or an import among them)"
			  : !one_run ? "boots of separate vm runs"
			  : pairs ? "fewer than 2 rounds in which both kernels booted"
				  : "the kernels never booted in the same round";
	char text[200];
	snprintf(text, sizeof(text), "unpaired: %s; %zu boot%s against %zu, each boot's median one observation", why, na,
		 na == 1 ? "" : "s", nb);
	append(c->reason, sizeof(c->reason), "; %s", text);
	return IOR_OK;
}

/* Medians of which one is 0 or below (a counter metric: merge_pct is 0 where nothing merges) have no
 * log ratio, so neither the paired nor the Welch test can take them: ior_compare_ranks judges the boot
 * medians. Returns false when every median is positive (the ratio tests apply). */
static bool judged_without_ratio(struct ior_comparison *c, struct ior_boot_evidence *ev,
				 const struct ior_boot_obs *a, size_t na, const struct ior_boot_obs *b, size_t nb,
				 const struct ior_compare_opts *o)
{
	double ma[na], mb[nb];
	for (size_t i = 0; i < na; i++)
		ma[i] = a[i].median;
	for (size_t i = 0; i < nb; i++)
		mb[i] = b[i].median;
	if (!ior_compare_needs_ranks(ma, na, mb, nb))
		return false;
	ior_compare_ranks(c, ma, na, mb, nb, o, "boot");
	append(c->reason, sizeof(c->reason), "; %s", "each boot's median one observation");
	ev->boots_a = na, ev->boots_b = nb, ev->noise = NAN, ev->smallest = INFINITY;
	double ss = 0, df = (double)na + (double)nb - 2;
	for (size_t i = 0; i < na; i++)
		ss += (ma[i] - c->median_a) * (ma[i] - c->median_a);   /* about the medians: robust enough to state a spread */
	for (size_t i = 0; i < nb; i++)
		ss += (mb[i] - c->median_b) * (mb[i] - c->median_b);
	ev->ranks = true;
	ev->spread = df >= 1 ? sqrt(ss / df) : NAN;
	ev->min_p = c->min_p, ev->ranks_can_tell = c->min_p < o->alpha;
	return true;
}

/* The noise of the verdict in c's own fields (every verdict's why reads them), and in its reason when
 * the verdict is inconclusive. */
static void told(struct ior_comparison *c, const struct ior_boot_evidence *ev)
{
	c->per = "boot", c->noise = ev->noise, c->smallest = ev->smallest;
	if (c->verdict != IOR_VERDICT_INCONCLUSIVE)
		return;
	char noise[320];
	ior_boot_noise_text(noise, sizeof(noise), ev);
	append(c->reason, sizeof(c->reason), "; %s", noise);
}

int ior_boot_compare(struct ior_comparison *c, struct ior_boot_evidence *ev, const struct ior_boot_obs *a, size_t na,
		     const struct ior_boot_obs *b, size_t nb, const struct ior_compare_opts *o)
{
	memset(ev, 0, sizeof(*ev));
	if (!na || !nb)
		return ior_error_set(IOR_EINVALID, "a boot-level verdict needs a boot of each kernel");
	for (size_t i = 0; i < na; i++)
		ev->samples_a += a[i].n;
	for (size_t i = 0; i < nb; i++)
		ev->samples_b += b[i].n;
	if (judged_without_ratio(c, ev, a, na, b, nb, o)) {
		told(c, ev);   /* issue 22: a verdict on ranks skipped the noise before */
		return IOR_OK;
	}
	double *pa = malloc(na * sizeof(*pa)), *pb = malloc(na * sizeof(*pb));
	bool *used = calloc(nb, sizeof(*used));
	int rc = pa && pb && used ? IOR_OK : ior_error_set(IOR_ERROR, "out of memory");
	size_t n = 0, sa = 0, sb = 0;
	for (size_t i = 0; !rc && i < na; i++)
		for (size_t j = 0; j < nb; j++)
			if (!used[j] && same_round(&a[i], &b[j])) {
				used[j] = true;
				pa[n] = a[i].median, pb[n++] = b[j].median;
				sa += a[i].n, sb += b[j].n;
				break;
			}
	if (!rc && n >= 2) {
		memset(c, 0, sizeof(*c));
		ev->paired = true;
		ev->samples_a = sa, ev->samples_b = sb;
		ev->boots_a = ev->boots_b = n;
		ev->left_out = na + nb - 2 * n;
		rc = paired(c, ev, pa, pb, n, o);
	} else if (!rc) {
		ev->boots_a = na, ev->boots_b = nb;
		rc = unpaired(c, ev, a, na, b, nb, n, o);
	}
	if (!rc)
		told(c, ev);
	free(pa), free(pb), free(used);
	return rc;
}
