/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A candidate between a good and a bad end on VM data: boot medians as observations, the three
 * kernels paired by boot round where they booted in the same rounds, else Welch on the medians. */
#include "judge/boot_classify.h"

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

/* The boot of xs in x's round, or NULL. */
static const struct ior_boot_obs *in_round(const struct ior_boot_obs *x, const struct ior_boot_obs *xs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (same_round(x, &xs[i]))
			return &xs[i];
	return NULL;
}

/* One-sided p that b is worse than a, from the paired test of b against a (two-sided p); NAN when a
 * round is unusable. *t is the test. */
static double p_worse(struct ior_paired *t, const double *a, const double *b, size_t n, bool higher_is_better)
{
	if (ior_paired_ratio(t, a, b, n, 0.95))
		return NAN;
	if (t->mean == 0)
		return isnan(t->p) ? NAN : 1 - t->p / 2;
	bool worse = higher_is_better ? t->mean < 0 : t->mean > 0;
	return worse ? t->p / 2 : 1 - t->p / 2;
}

static void append(char *buf, size_t size, const char *text)
{
	size_t len = strlen(buf);
	if (len < size)
		snprintf(buf + len, size - len, "; %s", text);
}

/* The noise the candidate's test against good faced, in words: a boot's noise from the per-round
 * contrast's sd, the smallest change a one-sided test at alpha could find at these rounds. */
static void noise_text(char *buf, size_t len, const struct ior_paired *t, size_t samples_good, size_t samples_cand,
		       double alpha)
{
	struct ior_boot_evidence ev = { .paired = true, .boots_a = t->n, .boots_b = t->n, .samples_a = samples_good,
					.samples_b = samples_cand, .noise = NAN, .smallest = INFINITY };
	if (t->n >= 2) {
		ev.noise = expm1(t->sd / sqrt(2));   /* the contrast holds two boots' noise */
		ev.smallest = expm1(ior_t_quantile(1 - alpha, (double)t->n - 1) * t->sd / sqrt((double)t->n));
	}
	ior_boot_noise_text(buf, len, &ev);
}

static int paired(struct ior_classification *c, const double *g, const double *b, const double *k, size_t n,
		  size_t samples_good, size_t samples_cand, const struct ior_classify_opts *o)
{
	c->ngood = c->nbad = c->ncand = n;
	c->median_good = ior_median(g, n), c->median_bad = ior_median(b, n), c->median_cand = ior_median(k, n);
	struct ior_paired ends, vs_good, vs_bad;
	c->p_ends = p_worse(&ends, g, b, n, o->higher_is_better);
	c->p_worse_than_good = p_worse(&vs_good, g, k, n, o->higher_is_better);
	c->p_better_than_bad = p_worse(&vs_bad, b, k, n, !o->higher_is_better);
	if (isnan(c->p_ends) || isnan(c->p_worse_than_good) || isnan(c->p_better_than_bad))
		return ior_error_set(IOR_EINVALID, "cannot classify: a boot median is not positive");
	c->position = ends.mean != 0 ? 1 - vs_good.mean / ends.mean : NAN;
	ior_classify_decide(c, o->alpha, "paired");
	char how[96];
	snprintf(how, sizeof(how), "paired by boot round, %zu boots a kernel (each boot's median one observation)", n);
	append(c->reason, sizeof(c->reason), how);
	if (c->verdict == IOR_CLASS_UNDECIDED || c->verdict == IOR_CLASS_NO_GAP) {
		char noise[256];
		noise_text(noise, sizeof(noise), c->verdict == IOR_CLASS_NO_GAP ? &ends : &vs_good, samples_good,
			   samples_cand, o->alpha);
		append(c->reason, sizeof(c->reason), noise);
	}
	return IOR_OK;
}

int ior_boot_classify(struct ior_classification *out, const struct ior_boot_obs *good, size_t ngood,
		      const struct ior_boot_obs *bad, size_t nbad, const struct ior_boot_obs *cand, size_t ncand,
		      const struct ior_classify_opts *o)
{
	memset(out, 0, sizeof(*out));
	size_t most = ngood ? ngood : 1;
	double *g = malloc(most * sizeof(*g)), *b = malloc(most * sizeof(*b)), *k = malloc(most * sizeof(*k));
	double *mg = malloc((ngood ? ngood : 1) * sizeof(*mg)), *mb = malloc((nbad ? nbad : 1) * sizeof(*mb));
	double *mk = malloc((ncand ? ncand : 1) * sizeof(*mk));
	int rc = g && b && k && mg && mb && mk ? IOR_OK : ior_error_set(IOR_ERROR, "out of memory");
	size_t n = 0, sg = 0, sk = 0;
	for (size_t i = 0; !rc && i < ngood; i++) {
		mg[i] = good[i].median;
		const struct ior_boot_obs *xb = in_round(&good[i], bad, nbad), *xk = in_round(&good[i], cand, ncand);
		if (xb && xk) {
			g[n] = good[i].median, b[n] = xb->median, k[n++] = xk->median;
			sg += good[i].n, sk += xk->n;
		}
	}
	for (size_t i = 0; !rc && i < nbad; i++)
		mb[i] = bad[i].median;
	for (size_t i = 0; !rc && i < ncand; i++)
		mk[i] = cand[i].median;
	if (rc)
		;
	else if (n >= 2)
		rc = paired(out, g, b, k, n, sg, sk, o);
	else if (ngood >= 2 && nbad >= 2 && ncand >= 2) {
		rc = ior_classify(out, mg, ngood, mb, nbad, mk, ncand, o);
		char why[160];
		snprintf(why, sizeof(why), "unpaired: %s; %zu, %zu and %zu boots (each boot's median one observation)",
			 n ? "fewer than 2 rounds in which all three kernels booted" : "the kernels never booted in the same round",
			 ngood, nbad, ncand);
		if (!rc)
			append(out->reason, sizeof(out->reason), why);
	} else {
		out->ngood = ngood, out->nbad = nbad, out->ncand = ncand;
		out->median_good = ngood ? ior_median(mg, ngood) : NAN;
		out->median_bad = nbad ? ior_median(mb, nbad) : NAN;
		out->median_cand = ncand ? ior_median(mk, ncand) : NAN;
		out->p_ends = out->p_worse_than_good = out->p_better_than_bad = out->position = NAN;
		out->verdict = IOR_CLASS_UNDECIDED;
		snprintf(out->reason, sizeof(out->reason), "%zu, %zu and %zu boots of good, bad and candidate: the noise "
			 "between boots cannot be measured with fewer than 2 boots (rounds) of each kernel; boot each 3 times "
			 "or more (vm run --boots 3, or --boots auto)", ngood, nbad, ncand);
	}
	free(g), free(b), free(k), free(mg), free(mb), free(mk);
	return rc;
}
