/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Nearest-name suggestions by edit distance (see suggest.h). */
#include "common/suggest.h"

#include <string.h>

#define SUGGEST_MAX_EDITS 2
#define SUGGEST_MAX_LEN 63

size_t ior_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN)
		return SUGGEST_MAX_LEN + 1;
	size_t row[SUGGEST_MAX_LEN + 1];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] == b[j - 1] ? 0 : 1);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

void ior_suggest_init(struct ior_suggestion *s)
{
	s->best = NULL;
	s->distance = SUGGEST_MAX_EDITS + 1;
}

void ior_suggest_consider(struct ior_suggestion *s, const char *word, const char *candidate)
{
	size_t d = ior_edit_distance(word, candidate);
	if (d < s->distance) {
		s->distance = d;
		s->best = candidate;
	}
}
