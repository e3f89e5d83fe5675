/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The candidate graph: nodes in parents-first order, ancestry bit sets, the candidates left and git
 * bisect's halfway pick. */
#include "bisect/graph.h"

#include "common/error.h"

#include <stdlib.h>
#include <string.h>

const char *ior_bisect_mark_name(enum ior_bisect_mark m)
{
	switch (m) {
	case IOR_MARK_NONE: return "untested";
	case IOR_MARK_GOOD: return "good";
	case IOR_MARK_BAD: return "bad";
	case IOR_MARK_SKIP: return "skip";
	}
	return "?";
}

int ior_bisect_mark_parse(const char *s, enum ior_bisect_mark *out)
{
	static const enum ior_bisect_mark all[] = { IOR_MARK_GOOD, IOR_MARK_BAD, IOR_MARK_SKIP };
	for (size_t i = 0; i < 3; i++)
		if (!strcmp(s, ior_bisect_mark_name(all[i]))) {
			*out = all[i];
			return IOR_OK;
		}
	return ior_error_set(IOR_EINVALID, "unknown mark '%s' (good, bad or skip)", s);
}

static char *dup_or_null(const char *s, int *oom)
{
	if (!s)
		return NULL;
	char *d = strdup(s);
	*oom |= !d;
	return d;
}

int ior_bisect_graph_add(struct ior_bisect_graph *g, const char *id, const char *subject, const char *author,
			 const char *date, const size_t *parents, size_t nparents, bool outside_parent)
{
	struct ior_bisect_node *nodes = realloc(g->nodes, (g->n + 1) * sizeof(*nodes));
	if (!nodes)
		return ior_error_set(IOR_ERROR, "out of memory");
	g->nodes = nodes;
	struct ior_bisect_node *x = &nodes[g->n];
	int oom = 0;
	*x = (struct ior_bisect_node){ .id = dup_or_null(id, &oom), .subject = dup_or_null(subject, &oom),
				       .author = dup_or_null(author, &oom), .date = dup_or_null(date, &oom),
				       .nparents = nparents, .outside_parent = outside_parent };
	x->parents = malloc((nparents ? nparents : 1) * sizeof(*x->parents));
	g->n++;   /* counted even when incomplete, so free() releases what was copied */
	if (oom || !x->parents)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < nparents; i++) {
		if (parents[i] >= g->n - 1)
			return ior_error_set(IOR_EINVALID, "parent %zu of '%s' is not an earlier node", parents[i], id);
		x->parents[i] = parents[i];
	}
	return IOR_OK;
}

int ior_bisect_graph_finish(struct ior_bisect_graph *g)
{
	free(g->anc);
	g->words = (g->n + 63) / 64;
	g->anc = calloc(g->n * g->words + 1, sizeof(*g->anc));
	if (!g->anc)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < g->n; i++) {
		uint64_t *a = g->anc + i * g->words;
		a[i / 64] |= 1ull << (i % 64);
		for (size_t p = 0; p < g->nodes[i].nparents; p++) {
			const uint64_t *b = g->anc + g->nodes[i].parents[p] * g->words;
			for (size_t w = 0; w < g->words; w++)
				a[w] |= b[w];
		}
	}
	return IOR_OK;
}

void ior_bisect_graph_free(struct ior_bisect_graph *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++) {
		free(g->nodes[i].id), free(g->nodes[i].subject), free(g->nodes[i].author), free(g->nodes[i].date);
		free(g->nodes[i].parents);
	}
	free(g->nodes);
	free(g->anc);
	memset(g, 0, sizeof(*g));
}

long ior_bisect_graph_find(const struct ior_bisect_graph *g, const char *id)
{
	size_t len = strlen(id);
	long found = -1;
	for (size_t i = 0; i < g->n; i++) {
		if (!strcmp(g->nodes[i].id, id))
			return (long)i;
		if (len >= 4 && !strncmp(g->nodes[i].id, id, len))
			found = found == -1 ? (long)i : -2;
	}
	return found < 0 ? -1 : found;
}

bool ior_bisect_is_ancestor(const struct ior_bisect_graph *g, size_t anc, size_t of)
{
	return g->anc[of * g->words + anc / 64] >> (anc % 64) & 1;
}

static size_t popcount_and(const uint64_t *a, const uint64_t *b, size_t words)
{
	size_t n = 0;
	for (size_t w = 0; w < words; w++)
		n += (size_t)__builtin_popcountll(a[w] & b[w]);
	return n;
}

/* The current bad node: among bad-marked nodes the one reaching the fewest (the last one git
 * would have been told about: each bad pick lies below the previous one). */
static long current_bad(const struct ior_bisect_graph *g, const enum ior_bisect_mark *marks)
{
	long best = -1;
	size_t best_w = 0;
	for (size_t i = 0; i < g->n; i++) {
		if (marks[i] != IOR_MARK_BAD)
			continue;
		size_t w = popcount_and(g->anc + i * g->words, g->anc + i * g->words, g->words);
		if (best < 0 || w < best_w)
			best = (long)i, best_w = w;
	}
	return best;
}

int ior_bisect_left(struct ior_bisect_left *out, const struct ior_bisect_graph *g, const enum ior_bisect_mark *marks)
{
	memset(out, 0, sizeof(*out));
	out->next = -1;
	long bad = current_bad(g, marks);
	if (bad < 0)
		return ior_error_set(IOR_EINVALID, "no commit is marked bad");
	out->bad = (size_t)bad;
	uint64_t *set = calloc(g->words + 1, sizeof(*set));
	out->cand = malloc((g->n ? g->n : 1) * sizeof(*out->cand));
	if (!set || !out->cand) {
		free(set);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	memcpy(set, g->anc + out->bad * g->words, g->words * sizeof(*set));
	for (size_t i = 0; i < g->n; i++)
		if (marks[i] == IOR_MARK_GOOD)
			for (size_t w = 0; w < g->words; w++)
				set[w] &= ~g->anc[i * g->words + w];
	for (size_t i = 0; i < g->n; i++)
		if (set[i / 64] >> (i % 64) & 1)
			out->cand[out->count++] = i;
	size_t best = 0, testable = 0;
	for (size_t k = 0; k < out->count; k++) {
		size_t c = out->cand[k];
		if (c == out->bad || marks[c] != IOR_MARK_NONE)
			continue;
		testable++;
		size_t w = popcount_and(g->anc + c * g->words, set, g->words);
		size_t score = w < out->count - w ? w : out->count - w;
		if (out->next < 0 || score > best)
			out->next = (long)c, best = score;
	}
	out->done = out->count == 1;
	out->range = !out->done && !testable;
	free(set);
	return IOR_OK;
}

void ior_bisect_left_free(struct ior_bisect_left *l)
{
	if (l)
		free(l->cand), l->cand = NULL;
}

void ior_bisect_ids_free(char **ids, size_t n)
{
	for (size_t i = 0; ids && i < n; i++)
		free(ids[i]);
	free(ids);
}

int ior_bisect_id_width(const char *id)
{
	size_t n = strlen(id);
	return n == 40 && strspn(id, "0123456789abcdef") == 40 ? 12 : (int)n;
}
