/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a bisection walks: a candidate source gives the graph between the ends and makes one
 * candidate current (a git commit graph, or an ordered list of packaged kernels). */
#ifndef IOR_BISECT_SOURCE_H
#define IOR_BISECT_SOURCE_H

#include <stddef.h>

#include "bisect/graph.h"

struct ior_bisect_source {
	const char *kind;       /* "git", "packages" */
	const char *location;   /* IOREGRESS_REPO for the steps: the work tree, or NULL */
	/* Resolves the ends to full ids (good: ngood of them) and fills the graph of what lies between. */
	int (*load)(struct ior_bisect_source *s, const char *const *good, size_t ngood, const char *bad,
		    struct ior_bisect_graph *g, char ***good_ids, char **bad_id);
	/* Makes id current for the build and measure steps (a detached checkout). */
	int (*prepare)(struct ior_bisect_source *s, const char *id);
	/* The one-line description of id: subject, author, date (buf), "" when the source has none. */
	int (*describe)(struct ior_bisect_source *s, const char *id, char *buf, size_t len);
	void (*free)(struct ior_bisect_source *s);
};

/* libgit2 over the repository at path (a work tree, or a directory inside one). */
int ior_bisect_source_git(struct ior_bisect_source **out, const char *path);

/* An ordered list of packaged kernels (oldest first): names[0] is the good end, names[n-1] the
 * bad one, the others a chain between them; at least 3. */
int ior_bisect_source_packages(struct ior_bisect_source **out, const char *const *names, size_t n);

/* For `bisect start`: IOR_EINVALID when tracked files have changes (a checkout would clobber
 * them), and the HEAD to go back to at reset (a ref name, or a sha when detached). */
int ior_bisect_git_clean(const char *path, char *head, size_t len);
/* Checks out head (ior_bisect_git_clean's) again, forced (the tree is the bisection's): `bisect reset`,
 * and `bisect run` on every way out. output (the build's artifact, or NULL) is kept out of the
 * checkout as ior_bisect_source_git_output does. */
int ior_bisect_git_restore(const char *path, const char *head, const char *output);
/* Keeps a git source's checkouts out of the build output (the artifact, relative to the work tree or
 * absolute inside it): libgit2 looks into untracked directories and fails past 100 levels. In
 * memory only; a no-op for other sources. */
int ior_bisect_source_git_output(struct ior_bisect_source *s, const char *output);

void ior_bisect_source_free(struct ior_bisect_source *s);   /* NULL is a no-op */

#endif
