/* SPDX-License-Identifier: GPL-2.0-or-later */
/* "Did you mean" for mistyped names: the nearest candidate within two edits. */
#ifndef IOR_COMMON_SUGGEST_H
#define IOR_COMMON_SUGGEST_H

#include <stddef.h>

struct ior_suggestion {
	const char *best;   /* NULL when no candidate is close enough */
	size_t distance;
};

void ior_suggest_init(struct ior_suggestion *s);
/* Offers one candidate; keeps it when it is nearer to word than the best so far. */
void ior_suggest_consider(struct ior_suggestion *s, const char *word, const char *candidate);

/* Levenshtein distance; strings over 63 characters count as far apart. */
size_t ior_edit_distance(const char *a, const char *b);

#endif
