/* SPDX-License-Identifier: GPL-2.0-or-later */
/* [matrix]'s compare key: "AXIS: A B" comparisons, separated by commas, checked against the
 * matrix's own engines, devices and schedulers. */
#include "matrix/matrix_internal.h"

#include "common/error.h"
#include "common/suggest.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ior_matrix_comparisons_free(struct ior_matrix *m)
{
	for (size_t i = 0; i < m->ncomparisons; i++) {
		free(m->comparisons[i].a);
		free(m->comparisons[i].b);
		free(m->comparisons[i].where);
	}
	free(m->comparisons);
	m->comparisons = NULL;
	m->ncomparisons = 0;
}

/* The names a matrix can compare along axis, or false when it cannot know them (a kernel, a
 * host, every scheduler the kernel offers). */
static bool known_name(const struct ior_matrix *m, enum ior_axis axis, const char *name, const char **near)
{
	struct ior_suggestion s;
	ior_suggest_init(&s);
	*near = NULL;
	if (axis == IOR_AXIS_ENGINE) {
		for (size_t i = 0; i < m->nengines; i++) {
			if (!strcmp(m->engines[i].name, name) || !strcmp(m->engines[i].section, name))
				return true;
			ior_suggest_consider(&s, name, m->engines[i].section);
		}
	} else if (axis == IOR_AXIS_DEVICE) {
		for (size_t i = 0; i < m->ndevices; i++) {
			if (!strcmp(m->devices[i].name, name))
				return true;
			ior_suggest_consider(&s, name, m->devices[i].name);
		}
	} else if (axis == IOR_AXIS_SCHEDULER && m->settings.schedulers && strcmp(m->settings.schedulers, "all")) {
		char list[1024];
		snprintf(list, sizeof(list), "%s", m->settings.schedulers);
		for (char *save = NULL, *t = strtok_r(list, " ,\t", &save); t; t = strtok_r(NULL, " ,\t", &save)) {
			if (!strcmp(t, name))
				return true;
			ior_suggest_consider(&s, name, t);
		}
	} else {
		return true;
	}
	*near = s.best;
	return false;
}

static const char *axis_section(enum ior_axis axis)
{
	return axis == IOR_AXIS_ENGINE ? "an [engine NAME] of this matrix" :
	       axis == IOR_AXIS_DEVICE ? "a [device NAME] of this matrix" : "in this matrix's schedulers list";
}

/* "AXIS: A B" (spaces around the words are free). */
static int parse_one(struct ior_matrix *m, char *text, const char *where)
{
	char *colon = strchr(text, ':');
	if (!colon)
		return ior_error_set(IOR_EINVALID, "'%s' is not 'AXIS: A B' (e.g. engine: tmpfs-sync-each nested-sync-each)",
				     text);
	*colon = '\0';
	char axis_name[64];
	if (sscanf(text, " %63s", axis_name) != 1)
		return ior_error_set(IOR_EINVALID, "a comparison without its axis before ':'");
	enum ior_axis axis;
	if (ior_axis_find(&axis, axis_name))
		return IOR_EINVALID;
	char *names[3] = { NULL, NULL, NULL };
	size_t n = 0;
	for (char *save = NULL, *t = strtok_r(colon + 1, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
		if (n < 3)
			names[n++] = t;
	if (n != 2)
		return ior_error_set(IOR_EINVALID, "'%s:' takes two names, A (the reference) and B; %zu given", axis_name, n);
	if (!strcmp(names[0], names[1]))
		return ior_error_set(IOR_EINVALID, "'%s: %s %s' compares a name with itself", axis_name, names[0], names[1]);
	for (int k = 0; k < 2; k++) {
		const char *near;
		if (!known_name(m, axis, names[k], &near)) {
			if (near)
				return ior_error_set(IOR_EINVALID, "%s '%s' is not %s (did you mean '%s'?)", axis_name, names[k],
						     axis_section(axis), near);
			return ior_error_set(IOR_EINVALID, "%s '%s' is not %s", axis_name, names[k], axis_section(axis));
		}
	}
	struct ior_matrix_comparison *c = realloc(m->comparisons, (m->ncomparisons + 1) * sizeof(*c));
	if (!c)
		return ior_error_set(IOR_ERROR, "out of memory");
	m->comparisons = c;
	c = &c[m->ncomparisons++];
	*c = (struct ior_matrix_comparison){ .axis = axis, .a = strdup(names[0]), .b = strdup(names[1]),
					     .where = strdup(where) };
	return c->a && c->b && c->where ? IOR_OK : ior_error_set(IOR_ERROR, "out of memory");
}

int ior_matrix_build_comparisons(struct ior_matrix *m, const struct ior_ini_section *settings)
{
	ior_matrix_comparisons_free(m);
	if (!m->settings.compare || !*m->settings.compare)
		return IOR_OK;
	char where[PATH_MAX + 16] = "";
	const struct ior_ini_entry *e = settings ? ior_matrix_entry(settings, "compare") : NULL;
	if (e)
		ior_matrix_ini_where(e->file, e->line, where, sizeof(where));
	char *text = strdup(m->settings.compare);
	if (!text)
		return ior_error_set(IOR_ERROR, "out of memory");
	int rc = IOR_OK;
	for (char *save = NULL, *t = strtok_r(text, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save))
		rc = parse_one(m, t, where);
	free(text);
	if (rc && settings)
		return ior_matrix_locate(rc, settings, "compare");
	return rc;
}
