/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reads the declared comparisons out of the stored matrices (see questions.h): the harness parses
 * them, since the report model sits below the matrix language. */
#include "harness/questions.h"

#include "common/error.h"
#include "matrix/matrix.h"

#include <stdlib.h>
#include <string.h>

static char *keep(struct ior_questions *q, const char *s)
{
	char **v = realloc(q->strings, (q->nstrings + 1) * sizeof(*v));
	if (!v)
		return NULL;
	q->strings = v;
	return v[q->nstrings++] = strdup(s);
}

static int add(struct ior_questions *q, const struct ior_matrix_comparison *c)
{
	for (size_t i = 0; i < q->n; i++)
		if (q->q[i].axis == c->axis && !strcmp(q->q[i].a, c->a) && !strcmp(q->q[i].b, c->b))
			return IOR_OK;
	struct ior_judge_question *v = realloc(q->q, (q->n + 1) * sizeof(*v));
	if (!v)
		return ior_error_set(IOR_ERROR, "out of memory");
	q->q = v;
	struct ior_judge_question *x = &v[q->n];
	x->axis = c->axis;
	x->a = keep(q, c->a);
	x->b = keep(q, c->b);
	x->source = *c->where ? keep(q, c->where) : NULL;
	if (!x->a || !x->b || (*c->where && !x->source))
		return ior_error_set(IOR_ERROR, "out of memory");
	q->n++;
	return IOR_OK;
}

int ior_questions_load(struct ior_questions *out, struct ior_db *db, const char *host)
{
	memset(out, 0, sizeof(*out));
	char **files, **texts;
	size_t n;
	int rc = ior_db_run_matrices(db, host, &files, &texts, &n);
	for (size_t i = 0; !rc && i < n; i++) {
		struct ior_matrix *m = NULL;
		if (!texts[i] || !strstr(texts[i], "compare"))
			continue;
		if (ior_matrix_parse_string(&m, files[i] ? files[i] : "(stored matrix)", texts[i])) {
			ior_error_clear();
			continue;
		}
		for (size_t k = 0; !rc && k < m->ncomparisons; k++)
			rc = add(out, &m->comparisons[k]);
		ior_matrix_free(m);
	}
	ior_db_run_matrices_free(files, texts, n);
	if (rc)
		ior_questions_free(out);
	return rc;
}

void ior_questions_free(struct ior_questions *q)
{
	for (size_t i = 0; i < q->nstrings; i++)
		free(q->strings[i]);
	free(q->strings);
	free(q->q);
	memset(q, 0, sizeof(*q));
}
