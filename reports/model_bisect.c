/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bisections of the report model: each commit's mark, build and the median of its samples, its
 * place (an end, the culprit). */
#include "reports/model_internal.h"

#include "common/error.h"
#include "db/db.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Whether word is one of list's space-separated words. */
static bool has_word(const char *list, const char *word)
{
	size_t w = strlen(word);
	for (const char *p = list; p && *p;) {
		size_t k = strcspn(p, " ");
		if (k == w && !strncmp(p, word, w))
			return true;
		p += k;
		p += strspn(p, " ");
	}
	return false;
}

static int commit_from(struct ior_report *r, const struct ior_db_bisect_row *x, const struct ior_db_bisect_commit_row *y,
		       struct ior_report_bisect_commit *c)
{
	int oom = 0;
	struct ior_intern *in = r->pool;
	*c = (struct ior_report_bisect_commit){
		.id = ior_intern(in, y->commit, &oom), .build = ior_intern(in, y->build, &oom),
		.image = ior_intern(in, y->image, &oom), .mark = ior_intern(in, y->mark, &oom),
		.good_end = has_word(x->good, y->commit), .bad_end = x->bad && !strcmp(x->bad, y->commit),
		.culprit = x->culprit && !strcmp(x->culprit, y->commit), .n = y->n, .median = NAN };
	if (y->n)
		c->median = ior_median(y->values, y->n);
	return oom ? ior_error_set(IOR_ERROR, "out of memory") : IOR_OK;
}

int ior_report_bisects_build(struct ior_report *r, struct ior_db *db)
{
	if (!db)
		return IOR_OK;
	struct ior_db_bisect_row *rows;
	size_t n;
	if (ior_db_bisect_results(db, &rows, &n))
		return IOR_ERROR;
	int rc = IOR_OK, oom = 0;
	if (n && !(r->bisects = calloc(n, sizeof(*r->bisects))))
		rc = ior_error_set(IOR_ERROR, "out of memory");
	struct ior_intern *in = r->pool;
	for (size_t i = 0; !rc && i < n; i++) {
		const struct ior_db_bisect_row *x = &rows[i];
		struct ior_report_bisect *b = &r->bisects[r->nbisects++];
		*b = (struct ior_report_bisect){
			.id = x->id, .source = ior_intern(in, x->source, &oom), .repo = ior_intern(in, x->repo, &oom),
			.good = ior_intern(in, x->good, &oom), .bad = ior_intern(in, x->bad, &oom),
			.status = ior_intern(in, x->status, &oom), .result = ior_intern(in, x->result, &oom),
			.started_at = ior_intern(in, x->started_at, &oom), .culprit = ior_intern(in, x->culprit, &oom),
			.higher_is_better = x->higher_is_better };
		if (x->ncommits && !(b->commits = calloc(x->ncommits, sizeof(*b->commits))))
			rc = ior_error_set(IOR_ERROR, "out of memory");
		for (size_t k = 0; !rc && k < x->ncommits; k++)
			rc = commit_from(r, x, &x->commits[k], &b->commits[b->ncommits++]);
	}
	ior_db_bisect_results_free(rows, n);
	return rc ? rc : oom ? ior_error_set(IOR_ERROR, "out of memory") : IOR_OK;
}

void ior_report_bisects_free(struct ior_report *r)
{
	for (size_t i = 0; i < r->nbisects; i++)
		free(r->bisects[i].commits);
	free(r->bisects);
}
