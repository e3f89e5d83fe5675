/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bisect start --kernel's config, kept in the bisection's log ("kernel" event) so run, log and
 * replay carry it; and the answer's kernel lines. */
#ifndef IOR_HARNESS_BISECT_KERNEL_H
#define IOR_HARNESS_BISECT_KERNEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bisect/state.h"
#include "harness/command.h"
#include "vm/kernel_build.h"

struct bisect_kernel {
	bool found;                  /* the bisection is over a kernel tree */
	char args[8192];             /* the config arguments as logged */
	char **argv;                 /* args split; kb's strings point into it */
	char **words;                /* a copy of argv's array, which the parser reorders */
	struct ior_cmd_list fragment_list;
	struct ior_kbuild_opts kb;
};

/* Logs kb's config arguments (paths made absolute) as the bisection's "kernel" event. */
int ior_bisect_kernel_start(struct ior_db *db, int64_t id, const struct ior_kbuild_opts *kb);
/* Reads them back: k->found false for a bisection that is not over a kernel tree. */
int ior_bisect_kernel_load(struct ior_db *db, int64_t id, struct bisect_kernel *k);
/* After the verdict: the culprit's git describe (culprit NULL: none) and the config used. */
int ior_bisect_kernel_answer(FILE *out, struct ior_db *db, const struct ior_bisect_info *b, const struct bisect_kernel *k,
			     const char *culprit);
void ior_bisect_kernel_free(struct bisect_kernel *k);

#endif
