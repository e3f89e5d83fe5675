/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The packaged-kernel candidate source (mozregression's model): an ordered list of built kernels,
 * the first good, the last bad, the ones between a chain; nothing to check out. */
#include "bisect/source.h"

#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pkg_source {
	struct ior_bisect_source base;
	char **names;
	size_t n;
};

static int load(struct ior_bisect_source *s, const char *const *good, size_t ngood, const char *bad,
		struct ior_bisect_graph *g, char ***good_ids, char **bad_id)
{
	struct pkg_source *ps = (struct pkg_source *)s;
	(void)good, (void)ngood, (void)bad;   /* the list's ends are the ends */
	for (size_t i = 1; i < ps->n; i++) {
		size_t parent = i - 2;
		if (ior_bisect_graph_add(g, ps->names[i], ps->names[i], NULL, NULL, &parent, i > 1, i == 1))
			return IOR_ERROR;
	}
	*good_ids = calloc(1, sizeof(**good_ids));
	*bad_id = strdup(ps->names[ps->n - 1]);
	if (!*good_ids || !((*good_ids)[0] = strdup(ps->names[0])) || !*bad_id)
		return ior_error_set(IOR_ERROR, "out of memory");
	return ior_bisect_graph_finish(g);
}

static int prepare(struct ior_bisect_source *s, const char *id)
{
	(void)s, (void)id;   /* a packaged kernel is measured as it is: no tree to check out */
	return IOR_OK;
}

static int describe(struct ior_bisect_source *s, const char *id, char *buf, size_t len)
{
	(void)s;
	snprintf(buf, len, "%s", id);
	return IOR_OK;
}

static void source_free(struct ior_bisect_source *s)
{
	struct pkg_source *ps = (struct pkg_source *)s;
	ior_bisect_ids_free(ps->names, ps->n);
	free(ps);
}

int ior_bisect_source_packages(struct ior_bisect_source **out, const char *const *names, size_t n)
{
	*out = NULL;
	if (n < 3)
		return ior_error_set(IOR_EINVALID, "a bisection over packaged kernels needs at least 3 (the good one first, "
				     "the bad one last), not %zu", n);
	struct pkg_source *ps = calloc(1, sizeof(*ps));
	if (!ps || !(ps->names = calloc(n, sizeof(*ps->names)))) {
		free(ps);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	ps->base = (struct ior_bisect_source){ .kind = "packages", .load = load, .prepare = prepare, .describe = describe,
					       .free = source_free };
	for (size_t i = 0; i < n; i++, ps->n++)
		if (!(ps->names[i] = strdup(names[i]))) {
			source_free(&ps->base);
			return ior_error_set(IOR_ERROR, "out of memory");
		}
	*out = &ps->base;
	return IOR_OK;
}
