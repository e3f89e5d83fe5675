/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which git commit the running kernel was built from, as run's --kernel-tree or --repo ask, and
 * which failures stop the run. */
#ifndef IOR_RUN_RUN_GIT_H
#define IOR_RUN_RUN_GIT_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/git_info.h"

/* The commit of the kernel release `release`: HEAD of kernel_tree, or the release's -gSHA
 * suffix looked up in repo (at most one of them; neither: *found false, nothing to do).
 * Errors (IOR_EINVALID, the run must not start): a path that is no git repository, a
 * release without -gSHA given --repo, a tree whose HEAD is not the release's -gSHA.
 * Warnings (IOR_OK, *found false, one line in warning): the sha is not in repo, or is
 * ambiguous there. */
int ior_run_git_resolve(const char *release, const char *kernel_tree, const char *repo, struct ior_git_commit *out,
			bool *found, char *warning, size_t len);

#endif
