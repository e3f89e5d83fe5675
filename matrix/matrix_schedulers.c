/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Expands the matrix's scheduler axis against what a kernel offers, and tells a mistyped scheduler
 * name from one this kernel lacks. */
#include "matrix/matrix_internal.h"
#include "common/error.h"
#include "common/suggest.h"
#include "kernel/sched_history.h"

#include <stdio.h>
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

static bool offered_anywhere(const char *name, char *const *const *offered, size_t n)
{
	for (size_t d = 0; d < n; d++)
		for (size_t i = 0; offered[d] && offered[d][i]; i++)
			if (strcmp(offered[d][i], name) == 0)
				return true;
	return false;
}

/* The nearest name among what the devices offer and what any kernel ever offered. */
static const char *nearest(const char *name, char *const *const *offered, size_t n)
{
	struct ior_suggestion near;
	ior_suggest_init(&near);
	for (size_t d = 0; d < n; d++)
		for (size_t i = 0; offered[d] && offered[d][i]; i++)
			ior_suggest_consider(&near, name, offered[d][i]);
	size_t count = 0;
	const struct ior_sched_info *known = ior_sched_history(&count);
	for (size_t i = 0; i < count; i++)
		ior_suggest_consider(&near, name, known[i].name);
	return near.best;
}

int ior_matrix_check_scheduler_names(const struct ior_matrix *m, char *const *const *offered, size_t n)
{
	char **names = ior_matrix_schedulers_for(m, NULL);
	if (!names)
		return ior_error_set(IOR_ERROR, "out of memory");
	int rc = IOR_OK;
	for (size_t i = 0; rc == IOR_OK && names[i]; i++) {
		/* A vendor kernel's own scheduler that it offers runs; a known one it lacks is a finding. */
		if (offered_anywhere(names[i], offered, n) || ior_sched_lookup(names[i]))
			continue;
		char where[1024];
		if (m->schedulers_file)
			ior_matrix_ini_where(m->schedulers_file, m->schedulers_line, where, sizeof(where));
		else
			snprintf(where, sizeof(where), "%s", m->file);
		const char *hint = nearest(names[i], offered, n);
		char also[96] = "";
		if (hint)
			snprintf(also, sizeof(also), " (did you mean '%s'?)", hint);
		rc = ior_error_set(IOR_EINVALID,
				   "%s: schedulers: '%s' is not offered by this kernel and no kernel ever had it%s",
				   where, names[i], also);
	}
	ior_strv_free(names);
	return rc;
}
