/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Change points over the tables: each in-view cell series of three kernels or more, its kernels in
 * version order; on VM data one value per boot. */
#ifndef IOR_JUDGE_CHANGES_H
#define IOR_JUDGE_CHANGES_H

#include "judge/verdicts.h"
#include "stats/changepoint.h"

/* Change points of one cell series (three kernels or more). */
struct ior_series_changes {
	size_t series;                      /* index into rt->series */
	struct ior_changepoint *cp;
	size_t ncp;
	bool in_view;
};

/* Every in-view series of three kernels or more (in->kernel: the series that kernel is on), in series
 * order; *out the caller's to free with ior_series_changes_free. */
int ior_judge_changes(struct ior_series_changes **out, size_t *n, const struct ior_judge_input *in,
		      const struct ior_cp_opts *o);
void ior_series_changes_free(struct ior_series_changes *c, size_t n);

#endif
