/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The candidates of a bisection as a graph (commits, or an ordered list of kernels as a chain):
 * ancestry, what is left, and the next pick as git makes it. */
#ifndef IOR_BISECT_GRAPH_H
#define IOR_BISECT_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ior_bisect_mark { IOR_MARK_NONE, IOR_MARK_GOOD, IOR_MARK_BAD, IOR_MARK_SKIP };
const char *ior_bisect_mark_name(enum ior_bisect_mark m);
int ior_bisect_mark_parse(const char *s, enum ior_bisect_mark *out);   /* "good", "bad", "skip" */

struct ior_bisect_node {
	char *id;          /* full commit sha, or the kernel's name */
	char *subject, *author, *date;   /* NULL when the source has none */
	size_t *parents;   /* indexes of parents inside the graph (earlier in order); others are good by definition */
	size_t nparents;
	bool outside_parent;  /* a parent is outside the graph (reachable from a good end) */
};

/* Nodes in topological order, parents first; the last node is the bad end. The good ends are
 * not nodes: everything they reach is left out, as git's revision walk with them hidden does. */
struct ior_bisect_graph {
	struct ior_bisect_node *nodes;
	size_t n;
	size_t words;      /* of one ancestry bit set */
	uint64_t *anc;     /* n sets: node i's ancestors inside the graph, itself included */
};

/* Appends a node (strings copied, parents given as indexes of nodes already added). */
int ior_bisect_graph_add(struct ior_bisect_graph *g, const char *id, const char *subject, const char *author,
			 const char *date, const size_t *parents, size_t nparents, bool outside_parent);
/* Computes ancestry once every node is in. */
int ior_bisect_graph_finish(struct ior_bisect_graph *g);
void ior_bisect_graph_free(struct ior_bisect_graph *g);   /* the contents; NULL is a no-op */
/* The index of the node with this id (or unique prefix of at least 4), or -1. */
long ior_bisect_graph_find(const struct ior_bisect_graph *g, const char *id);
bool ior_bisect_is_ancestor(const struct ior_bisect_graph *g, size_t anc, size_t of);

/* Where the bisection stands given the marks (one per node). */
struct ior_bisect_left {
	size_t bad;            /* the current bad node: the bad-marked one with the fewest ancestors */
	size_t count;          /* candidates for the first bad commit, bad included */
	size_t *cand;          /* their indexes, in graph order (count of them) */
	long next;             /* the node to test next, -1 when none is left to test */
	bool done;             /* only the bad node is left: it is the first bad commit */
	bool range;            /* only skipped candidates and the bad node are left */
};
/* The candidates are the current bad node's ancestors that no good node reaches; the next is
 * the unmarked candidate (not skipped, not the bad one) that splits them most evenly, as git
 * bisect's "halfway" commit: max over c of min(w(c), count - w(c)), w(c) = candidates c reaches. */
int ior_bisect_left(struct ior_bisect_left *out, const struct ior_bisect_graph *g, const enum ior_bisect_mark *marks);
void ior_bisect_left_free(struct ior_bisect_left *l);

/* Frees n ids (strings) and the array; NULL is a no-op. */
void ior_bisect_ids_free(char **ids, size_t n);

/* How an id is shown: a git object name cut to 12 characters, anything else (a package name and
 * version: linux-image-6.12.107+deb12-cloud-amd64) whole, so no two kernels read alike. */
int ior_bisect_id_width(const char *id);

#endif
