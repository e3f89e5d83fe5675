/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel verdicts on VM data: each boot's median is one observation, boots of one vm run paired by
 * round, and an inconclusive answer names the noise between boots and the smallest change it could
 * tell. */
#ifndef IOR_JUDGE_BOOT_VERDICT_H
#define IOR_JUDGE_BOOT_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/compare.h"

/*
 * Why boots: under qemu (TCG above all) a guest's speed differs from boot to boot by far more than
 * between its repetitions (FACTS.md: 30-70% between boots of one kernel), so ten repetitions of
 * one boot are one look at that boot, not ten looks at the kernel. Counting them as independent
 * calls a difference between two boots a difference between two kernels. Each boot's median of
 * its repetitions (warm-ups left out) is therefore one observation; boots of one `vm run` are
 * rounds (every kernel once per round, order rotated), so two kernels' boots of the same round are
 * paired and drift of the host shared by the round cancels.
 */

/* One boot's observation of a cell. */
struct ior_boot_obs {
	const char *vm_run;   /* the vm run it was a round of; NULL: cannot be paired (a host run, an old boot) */
	int round;            /* its round in that vm run (vm_boots.boot_index) */
	double median;        /* of its repetitions, warm-ups left out; must be positive */
	size_t n;             /* repetitions behind the median */
};

/* What a boot-level verdict rested on. */
struct ior_boot_evidence {
	bool paired;              /* paired by boot round; else unpaired on boot medians */
	size_t boots_a, boots_b;  /* boots used on each side (paired: the rounds both booted) */
	size_t samples_a, samples_b;  /* repetitions behind them */
	size_t left_out;          /* boots without a partner in their round (paired only) */
	double noise;             /* between boots, relative: exp(sd of log boot medians) - 1; NAN below 2 boots */
	double smallest;          /* the smallest relative change the test could tell at these boots (two-sided
				   * at alpha, and never below the minimum effect); INFINITY when unknown */
	/* judged on ranks (a boot median of 0 has no ratio, so no relative noise): the spread between boots
	 * in the metric's unit (pooled sd of the boot medians), the smallest p ranks can give at these boots
	 * and whether it is below alpha (then only boots that separate completely can be told apart) */
	bool ranks, ranks_can_tell;
	double spread, min_p;
};

/* Judges b against a with one observation per boot: the paired round test (stats/paired.c) on the
 * rounds both sides booted in when there are at least 2, else ior_compare on the boot medians. c's
 * verdict, ratio, interval and p are the test's, na and nb count boots, and its reason says which
 * test ("paired by boot round, 4 boots a side" or "unpaired: ...") and, when not decided, the noise
 * between boots and the smallest change that could be told. Each side needs one boot. */
int ior_boot_compare(struct ior_comparison *c, struct ior_boot_evidence *ev, const struct ior_boot_obs *a, size_t na,
		     const struct ior_boot_obs *b, size_t nb, const struct ior_compare_opts *o);

/* "noise 38% between boots: changes below 25% cannot be told (3 boots a side)", or what is missing to
 * measure the noise at all, or (ranks) the spread between boots and what ranks can tell at these boots. */
void ior_boot_noise_text(char *buf, size_t len, const struct ior_boot_evidence *ev);

#endif
