/* Expands the matrix's scheduler axis against what a kernel offers. */
#include "matrix/matrix.h"

#include <stdlib.h>
#include <string.h>

void ior_strv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

/* Appends a copy of len bytes of s; false when out of memory (v is then freed). */
static bool push(char ***v, size_t *n, const char *s, size_t len)
{
	char **grown = realloc(*v, (*n + 2) * sizeof(*grown));
	if (!grown) {
		ior_strv_free(*v);
		return false;
	}
	*v = grown;
	if (!((*v)[*n] = strndup(s, len))) {
		ior_strv_free(*v);
		return false;
	}
	(*v)[++*n] = NULL;
	return true;
}

char **ior_matrix_schedulers_for(const struct ior_matrix *m, char *const *offered)
{
	const char *list = m->settings.schedulers ? m->settings.schedulers : "all";
	const char *seps = " ,\t";
	size_t n = 0;
	char **v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	if (strcmp(list, "all") == 0) {
		for (size_t i = 0; offered && offered[i]; i++)
			if (!push(&v, &n, offered[i], strlen(offered[i])))
				return NULL;
		return v;
	}
	/* A listed scheduler the kernel lacks stays in: the run records it as unavailable. */
	for (const char *p = list + strspn(list, seps); *p; p += strspn(p, seps)) {
		size_t len = strcspn(p, seps);
		if (!push(&v, &n, p, len))
			return NULL;
		p += len;
	}
	return v;
}
