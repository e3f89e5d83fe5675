/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The comparisons the stored runs' matrices declare (compare = in [matrix]), as the report model's questions. */
#ifndef IOR_HARNESS_QUESTIONS_H
#define IOR_HARNESS_QUESTIONS_H

#include <stddef.h>

#include "db/db.h"
#include "reports/model.h"

struct ior_questions {
	struct ior_judge_question *q;
	size_t n;
	char **strings;                     /* what q points into */
	size_t nstrings;
};

/* Every distinct comparison the matrices of host's runs (NULL: all hosts) declare, first seen
 * first. A stored matrix that no longer parses declares nothing. */
int ior_questions_load(struct ior_questions *out, struct ior_db *db, const char *host);
void ior_questions_free(struct ior_questions *q);

#endif
