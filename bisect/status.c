/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `bisect status`: the bisection's ends, what it has spent, the candidates left and the next pick, or its answer. */
#include "bisect/driver.h"

#include "common/error.h"

#include <stdlib.h>
#include <string.h>

static int left_now(FILE *out, struct ior_db *db, const struct ior_bisect_info *b, struct ior_bisect_source *src)
{
	struct ior_bisect_graph g = { 0 };
	char **goods = NULL, *bad = NULL, *copy = strdup(b->good), *save = NULL;
	const char *given[64];
	size_t n = 0;
	if (!copy)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (char *t = strtok_r(copy, " ", &save); t && n < 64; t = strtok_r(NULL, " ", &save))
		given[n++] = t;
	int rc = src->load(src, given, n, b->bad, &g, &goods, &bad);
	enum ior_bisect_mark *marks = rc ? NULL : calloc(g.n, sizeof(*marks));
	if (!rc && !marks)
		rc = ior_error_set(IOR_ERROR, "out of memory");
	if (!rc)
		rc = ior_bisect_marks_get(db, b->id, &g, marks);
	if (!rc && bad) {
		long i = ior_bisect_graph_find(&g, bad);
		if (i >= 0)
			marks[i] = IOR_MARK_BAD;
	}
	struct ior_bisect_left left = { 0 };
	if (!rc)
		rc = ior_bisect_left(&left, &g, marks);
	if (!rc) {
		size_t tested = 0;
		for (size_t i = 0; i < g.n; i++)
			tested += marks[i] != IOR_MARK_NONE;
		fprintf(out, "%zu commits between the ends, %zu marked, %zu candidate(s) left", g.n, tested, left.count);
		if (left.next >= 0)
			fprintf(out, ", next %.*s %s", ior_bisect_id_width(g.nodes[left.next].id), g.nodes[left.next].id,
				g.nodes[left.next].subject ? g.nodes[left.next].subject : "");
		fprintf(out, "\n");
	}
	ior_bisect_left_free(&left);
	free(marks), free(copy), free(bad);
	ior_bisect_ids_free(goods, n);
	ior_bisect_graph_free(&g);
	return rc;
}

int ior_bisect_print_status(FILE *out, struct ior_db *db, const struct ior_bisect_info *b,
			    struct ior_bisect_source *src)
{
	struct ior_bisect_counts c;
	if (ior_bisect_counts_get(db, b->id, &c))
		return IOR_ERROR;
	fprintf(out, "bisection %lld (%s, started %s): %s\n  repository %s\n  good %s\n  bad  %s\n", (long long)b->id,
		b->higher_is_better ? "higher is better" : "lower is better", b->started_at, b->status,
		b->repo ? b->repo : "-", b->good, b->bad);
	fprintf(out, "  %zu build(s), %zu measurement(s), %zu sample(s)\n", c.builds, c.measurements, c.samples);
	if (b->result) {
		size_t n = strlen(b->result);
		fprintf(out, "%s%s", b->result, n && b->result[n - 1] == '\n' ? "" : "\n");
		return IOR_OK;
	}
	return src ? left_now(out, db, b, src) : IOR_OK;
}
