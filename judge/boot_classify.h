/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check --bad on VM data: a candidate between a good and a bad end judged on boot medians, paired
 * by boot round when the three kernels booted in the same rounds. */
#ifndef IOR_JUDGE_BOOT_CLASSIFY_H
#define IOR_JUDGE_BOOT_CLASSIFY_H

#include "judge/boot_verdict.h"
#include "stats/classify.h"

/*
 * As judge/boot_verdict.h says for two kernels: a guest's repetitions are looks at one boot, so
 * each boot's median (warm-ups out) is one observation. Rounds in which all three kernels booted
 * (one vm run, one boot_index) are paired: the two one-sided tests of ior_classify (candidate worse
 * than good, candidate better than bad) and the ends' own gap run as paired t tests on the
 * per-round log contrasts, so drift shared by a round cancels. Fewer than 2 such rounds: Welch on
 * the boot medians (ior_classify), which needs 2 boots of each kernel. Fewer boots: cannot tell,
 * saying why.
 */

/* Classifies cand against good and bad on boot observations; out->reason says which test and, when
 * not decided, the boots it had. n* count boots, out's medians are of the boot medians. */
int ior_boot_classify(struct ior_classification *out, const struct ior_boot_obs *good, size_t ngood,
		      const struct ior_boot_obs *bad, size_t nbad, const struct ior_boot_obs *cand, size_t ncand,
		      const struct ior_classify_opts *o);

#endif
