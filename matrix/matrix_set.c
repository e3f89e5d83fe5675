/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command-line overrides ("engine.NAME.key=value", "defaults.key=value"): written into a copy of
 * the parsed sections, which are built again with the file's rows and checks, so a bad one changes
 * nothing. */
#include "matrix/matrix_internal.h"
#include "common/error.h"
#include "common/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "no engine 'x' in the matrix", with the nearest name of that kind. */
static int unknown_name(const char *kind, const char *name, const struct ior_suggestion *near)
{
	if (near->best)
		return ior_error_set(IOR_EINVALID, "no %s '%s' in the matrix (did you mean '%s'?)", kind, name, near->best);
	return ior_error_set(IOR_EINVALID, "no %s '%s' in the matrix", kind, name);
}

/* The section an override names must exist, except [defaults] and [defaults TYPE], which an
 * override may create. */
static int check_section(const struct ior_ini *ini, const char *kind, const char *name, const char *key)
{
	if (strcmp(kind, "matrix") == 0 || strcmp(kind, "defaults") == 0)
		return IOR_OK;
	struct ior_suggestion near;
	ior_suggest_init(&near);
	for (size_t i = 0; i < ini->nsections; i++) {
		const struct ior_ini_section *s = &ini->sections[i];
		if (strcmp(s->kind, kind) != 0 || !s->name)
			continue;
		if (strcmp(s->name, name) == 0) {
			if (strcmp(kind, "engine") == 0 && strcmp(key, "type") == 0)
				return ior_error_set(IOR_EINVALID,
						     "type: an engine's type cannot be overridden (write another [engine] section)");
			return IOR_OK;
		}
		ior_suggest_consider(&near, name, s->name);
	}
	return unknown_name(kind, name, &near);
}

/* Splits "matrix.key", "defaults.key", "defaults.TYPE.key", "device.NAME.key" or
 * "engine.NAME.key" (lhs is cut up in place). */
static int split(char *lhs, const char **kind, const char **name, const char **key)
{
	char *dot = strchr(lhs, '.');
	if (!dot)
		return ior_error_set(IOR_EINVALID, "expected matrix.KEY, device.NAME.KEY or engine.NAME.KEY before '='");
	*dot = '\0';
	*kind = lhs;
	*name = NULL;
	*key = dot + 1;
	if (strcmp(lhs, "matrix") == 0)
		return IOR_OK;
	if (strcmp(lhs, "defaults") == 0) {
		if ((dot = strchr(*key, '.'))) { /* defaults.TYPE.key */
			*dot = '\0';
			*name = *key;
			*key = dot + 1;
		}
		return IOR_OK;
	}
	if (strcmp(lhs, "device") != 0 && strcmp(lhs, "engine") != 0) {
		struct ior_suggestion near;
		ior_suggest_init(&near);
		static const char *const kinds[] = { "matrix", "defaults", "device", "engine" };
		for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			ior_suggest_consider(&near, lhs, kinds[i]);
		return unknown_name("section kind", lhs, &near);
	}
	if (!(dot = strchr(*key, '.')))
		return ior_error_set(IOR_EINVALID, "expected %s.NAME.KEY before '='", lhs);
	*dot = '\0';
	*name = *key;
	*key = dot + 1;
	return IOR_OK;
}

/* Naming one kind of device replaces the other: path drops loop and the keys only a loop
 * device has (backing_dir, direct_io, fill), loop drops path. */
static void drop_other_kind(struct ior_ini *ini, const char *kind, const char *name, const char *key)
{
	if (strcmp(kind, "device") != 0 || (strcmp(key, "path") != 0 && strcmp(key, "loop") != 0))
		return;
	static const char *const loop_only[] = { "loop", "backing_dir", "direct_io", "fill", NULL };
	static const char *const path_only[] = { "path", NULL };
	const char *const *drop = strcmp(key, "path") == 0 ? loop_only : path_only;
	for (size_t i = 0; i < ini->nsections; i++) {
		struct ior_ini_section *s = &ini->sections[i];
		if (strcmp(s->kind, "device") != 0 || !s->name || strcmp(s->name, name) != 0)
			continue;
		for (size_t j = 0; j < s->nentries;) {
			bool gone = false;
			for (size_t k = 0; drop[k] && !gone; k++)
				gone = strcmp(s->entries[j].key, drop[k]) == 0;
			if (!gone) {
				j++;
				continue;
			}
			free(s->entries[j].key);
			free(s->entries[j].value);
			memmove(&s->entries[j], &s->entries[j + 1], (s->nentries - j - 1) * sizeof(s->entries[0]));
			s->nentries--;
		}
	}
}

/* m becomes the new build, keeping its file name; what m was is freed. */
static void take(struct ior_matrix *m, struct ior_matrix *fresh)
{
	char *file = fresh->file;
	fresh->file = m->file;
	m->file = file;
	struct ior_matrix old = *m;
	*m = *fresh;
	*fresh = old;
	ior_matrix_free(fresh);
}

/* Writes assignment into ini's sections; a bad one is refused with "override 'ASSIGNMENT': ..." and
 * may leave ini half-changed (callers work on a copy). */
int ior_matrix_ini_override(struct ior_ini *ini, const char *assignment)
{
	const char *eq = strchr(assignment, '=');
	if (!eq)
		return ior_error_set(IOR_EINVALID, "override '%s': expected SECTION.KEY=VALUE, e.g. matrix.repetitions=5",
				     assignment);
	char *lhs = strndup(assignment, (size_t)(eq - assignment));
	char label[600];
	snprintf(label, sizeof(label), "override '%s'", assignment);
	const char *kind = NULL, *name = NULL, *key = NULL;
	int rc = lhs ? split(lhs, &kind, &name, &key) : ior_error_set(IOR_ERROR, "out of memory");
	if (rc == IOR_OK)
		rc = check_section(ini, kind, name, key);
	if (rc) {
		free(lhs);
		return ior_error_wrap(rc, "%s", label);
	}
	const char *where = ior_matrix_ini_name(ini, label);
	if (!where)
		rc = ior_error_set(IOR_ERROR, "out of memory");
	if (rc == IOR_OK) {
		drop_other_kind(ini, kind, name, key);
		rc = ior_matrix_ini_set(ini, kind, name, key, eq + 1, where, 0);
	}
	free(lhs);
	return rc;
}

int ior_matrix_set(struct ior_matrix *m, const char *assignment)
{
	struct ior_ini copy;
	memset(&copy, 0, sizeof(copy));
	int rc = ior_matrix_ini_copy(&copy, m->ini);
	if (rc == IOR_OK)
		rc = ior_matrix_ini_override(&copy, assignment);
	struct ior_matrix *fresh = NULL;
	/* built again from the edited sections: every message names the override (its place is line 0);
	 * the text a run stores is then these sections, so --resume runs what ran */
	char *text = rc == IOR_OK ? ior_matrix_ini_text(&copy) : NULL;
	if (rc == IOR_OK && !text)
		rc = ior_error_set(IOR_ERROR, "out of memory");
	if (rc == IOR_OK)
		rc = ior_matrix_from_ini(&fresh, m->file, text, &copy);
	free(text);
	ior_matrix_ini_free(&copy);
	if (rc)
		return rc;
	take(m, fresh);
	return IOR_OK;
}
