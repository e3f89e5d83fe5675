/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Each rt group's in-view alerts and warm-up cells, indexed once for the renderers that print them
 * under the group's table: a walk over every alert or cell per group is quadratic (10M samples:
 * about 8e9 steps in the text report before this index). */
#include "reports/model_internal.h"

#include "common/error.h"

#include <stdlib.h>

/* Items 0..n-1 put in buckets by key (SIZE_MAX: in none), each bucket keeping item order (a counting
 * sort): bucket b is (*items)[(*at)[b] .. (*at)[b + 1]). */
static int bucket(size_t nbuckets, const size_t *key, size_t n, size_t **at, size_t **items)
{
	*at = calloc(nbuckets + 1, sizeof(**at));
	*items = malloc((n ? n : 1) * sizeof(**items));
	size_t *next = calloc(nbuckets ? nbuckets : 1, sizeof(*next));
	if (!*at || !*items || !next) {
		free(next);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		if (key[i] < nbuckets)
			(*at)[key[i] + 1]++;
	for (size_t b = 0; b < nbuckets; b++)
		(*at)[b + 1] += (*at)[b];
	for (size_t i = 0; i < n; i++)
		if (key[i] < nbuckets)
			(*items)[(*at)[key[i]] + next[key[i]]++] = i;
	free(next);
	return IOR_OK;
}

int ior_report_groups_index(struct ior_report *r)
{
	size_t ng = r->rt ? r->rt->ngroups : 0;
	size_t most = r->nalerts > r->stored.ncells ? r->nalerts : r->stored.ncells;
	size_t *key = malloc((most ? most : 1) * sizeof(*key));
	if (!key)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < r->nalerts; i++)
		key[i] = r->alert_in_view[i] ? r->alerts[i].group : SIZE_MAX;
	int rc = bucket(ng, key, r->nalerts, &r->group_alert_at, &r->group_alerts);
	for (size_t i = 0; !rc && i < r->stored.ncells; i++)
		key[i] = r->stored.cells[i].nwarmup && r->stored.cells[i].in_view ? r->stored.cells[i].group : SIZE_MAX;
	if (!rc)
		rc = bucket(ng, key, r->stored.ncells, &r->group_warm_at, &r->group_warm);
	free(key);
	return rc;
}
