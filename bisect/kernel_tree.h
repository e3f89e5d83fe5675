/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A bisection over a kernel tree: bisect start --kernel's config stored in its columns
 * (db/bisect_state.h), the build options read back from them, and the answer's kernel lines. */
#ifndef IOR_BISECT_KERNEL_TREE_H
#define IOR_BISECT_KERNEL_TREE_H

#include <stdint.h>
#include <stdio.h>

#include "db/bisect_state.h"
#include "vm/kernel_build.h"

/* Stores kb's config (paths made absolute: run may start in another directory), after the check
 * kernel build makes (another user's config, a value make would run), and logs it ("kernel"). */
int ior_bisect_kernel_tree_start(struct ior_db *db, int64_t id, const struct ior_kbuild_opts *kb);
/* The build options of the stored config k over tree; kb's strings point into k. */
void ior_bisect_kernel_tree_opts(struct ior_kbuild_opts *kb, const struct ior_bisect_kconfig *k, const char *tree);
/* After the verdict: the culprit's git describe (culprit NULL: none) and the config used, with the
 * culprit's config hash. */
int ior_bisect_kernel_tree_answer(FILE *out, struct ior_db *db, const struct ior_bisect_info *b,
				  const struct ior_bisect_kconfig *k, const char *culprit);

#endif
