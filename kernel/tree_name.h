/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where a kernel's commit came from, as kernel CI names it: a repository URL in its https form and
 * the widely known name of the tree (mainline, next, stable, or the repository's own name). */
#ifndef IOR_KERNEL_TREE_NAME_H
#define IOR_KERNEL_TREE_NAME_H

#include <stdbool.h>
#include <stddef.h>

/* url as https://HOST/PATH: https as it is; http://, git://HOST/PATH, ssh://[USER@]HOST[:PORT]/PATH
 * and scp's USER@HOST:PATH with their host and path (kernel.org and the forges serve each repository
 * over https too). False, and "", for a local path or file:// (no URL anyone else can fetch). */
bool ior_git_https_url(char *out, size_t len, const char *url);

/* The tree's name: kernel.org's mainline, next, stable and stable-rc (and the mainline mirror on
 * GitHub) by their path, any other repository by the last part of its path without ".git"; "" for
 * no URL. */
void ior_git_tree_name(char *out, size_t len, const char *url);

#endif
