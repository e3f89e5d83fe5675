/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Builds a matrix from INI sections: [matrix] settings and [device NAME] here, then the engines
 * (matrix_engines.c); the locating helpers every section kind shares. */
#include "matrix/matrix_internal.h"
#include "common/error.h"
#include "common/suggest.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const section_kinds[] = { "matrix", "device", "engine", "defaults", NULL };

const struct ior_ini_entry *ior_matrix_entry(const struct ior_ini_section *s, const char *key)
{
	for (size_t i = 0; key && i < s->nentries; i++)
		if (strcmp(s->entries[i].key, key) == 0)
			return &s->entries[i];
	return NULL;
}

int ior_matrix_locate(int rc, const struct ior_ini_section *s, const char *key)
{
	char label[160], where[PATH_MAX + 16];
	const struct ior_ini_entry *e = ior_matrix_entry(s, key);
	if (e)
		return ior_error_wrap(rc, "%s: %s", ior_matrix_ini_where(e->file, e->line, where, sizeof(where)), key);
	if (key)
		return ior_error_wrap(rc, "%s: %s", ior_matrix_ini_where(s->file, s->line, where, sizeof(where)), key);
	return ior_error_wrap(rc, "%s: %s", ior_matrix_ini_where(s->file, s->line, where, sizeof(where)),
			      ior_matrix_ini_label(s, label, sizeof(label)));
}

int ior_matrix_apply_entry(const struct ior_option *rows, void *blob, const struct ior_ini_entry *e, const char *value)
{
	int rc = ior_option_set(rows, blob, e->key, value);
	char where[PATH_MAX + 16];
	return rc ? ior_error_wrap(rc, "%s", ior_matrix_ini_where(e->file, e->line, where, sizeof(where))) : IOR_OK;
}

static int apply_entries(const struct ior_option *rows, void *blob, const struct ior_ini_section *s)
{
	for (size_t i = 0; i < s->nentries; i++) {
		int rc = ior_matrix_apply_entry(rows, blob, &s->entries[i], s->entries[i].value);
		if (rc)
			return rc;
	}
	return IOR_OK;
}

int ior_matrix_check_name(const struct ior_ini_section *s)
{
	if (!s->name)
		return ior_matrix_locate(ior_error_set(IOR_EINVALID, "needs a name, e.g. [%s %s]", s->kind,
						       strcmp(s->kind, "device") == 0 ? "scratch" : "seqread"), s, NULL);
	size_t len = strlen(s->name);
	if (len > IOR_MATRIX_NAME_MAX)
		return ior_matrix_locate(ior_error_set(IOR_EINVALID, "the name is %zu characters long: a name has at most %d",
						       len, IOR_MATRIX_NAME_MAX), s, NULL);
	if (!ior_matrix_valid_name(s->name))
		return ior_matrix_locate(ior_error_set(IOR_EINVALID, "'%s' is not a valid name (letters, digits, '_' and '-')",
						       s->name), s, NULL);
	return IOR_OK;
}

int ior_matrix_duplicate(const struct ior_ini_section *s, const char *first_file, int first)
{
	char at[PATH_MAX + 32];
	if (strcmp(first_file, s->file) == 0)
		snprintf(at, sizeof(at), "line %d", first);
	else
		snprintf(at, sizeof(at), "%s:%d", first_file, first);
	return ior_matrix_locate(ior_error_set(IOR_EINVALID, "section given twice (first at %s)", at), s, NULL);
}

struct named {
	const char *name;
	size_t index;
};

static int by_name_then_index(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

int ior_matrix_first_same_name(const struct ior_ini *ini, const char *kind, size_t **first)
{
	*first = malloc((ini->nsections + 1) * sizeof(**first));
	struct named *v = malloc((ini->nsections + 1) * sizeof(*v));
	if (!*first || !v) {
		free(*first), free(v);
		*first = NULL;
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	size_t n = 0;
	for (size_t i = 0; i < ini->nsections; i++) {
		(*first)[i] = SIZE_MAX;
		if (ini->sections[i].name && strcmp(ini->sections[i].kind, kind) == 0)
			v[n++] = (struct named){ ini->sections[i].name, i };
	}
	qsort(v, n, sizeof(*v), by_name_then_index);
	for (size_t k = 1, head = 0; k < n; k++) {
		if (strcmp(v[k].name, v[head].name) != 0)
			head = k;
		else
			(*first)[v[k].index] = v[head].index;
	}
	free(v);
	return IOR_OK;
}

static int build_settings(struct ior_matrix *m, const struct ior_ini_section *s, const struct ior_ini_section **seen)
{
	const char *key;
	if (s->name)
		return ior_matrix_locate(ior_error_set(IOR_EINVALID, "the [matrix] section takes no name"), s, NULL);
	if (*seen)
		return ior_matrix_duplicate(s, (*seen)->file, (*seen)->line);
	*seen = s;
	const struct ior_ini_entry *sched = ior_matrix_entry(s, "schedulers");
	if (sched) {
		/* run-time name checks point here: the file and line, or the --set override */
		m->schedulers_line = sched->line;
		m->schedulers_overridden = sched->line == 0;
		free(m->schedulers_file);
		if (!(m->schedulers_file = strdup(sched->file)))
			return ior_error_set(IOR_ERROR, "out of memory");
	}
	int rc = apply_entries(ior_matrix_settings_options(), &m->settings, s);
	if (!rc && (rc = ior_matrix_check_settings(&m->settings, &key)))
		return ior_matrix_locate(rc, s, key);
	return rc;
}

static int build_device(struct ior_matrix *m, const struct ior_ini_section *s, const struct ior_ini_section *first)
{
	const struct ior_option *rows = ior_matrix_device_options();
	const char *key;
	int rc = ior_matrix_check_name(s);
	if (rc)
		return rc;
	if (first)
		return ior_matrix_duplicate(s, first->file, first->line);
	struct ior_matrix_device *grown = realloc(m->devices, (m->ndevices + 1) * sizeof(*grown));
	if (!grown)
		return ior_error_set(IOR_ERROR, "out of memory");
	m->devices = grown;
	struct ior_matrix_device *d = &m->devices[m->ndevices++];
	memset(d, 0, sizeof(*d));
	d->line = s->line;
	d->file = s->file;
	if (!(d->name = strdup(s->name)))
		return ior_error_set(IOR_ERROR, "out of memory");
	if ((rc = ior_options_defaults(rows, &d->opts)) || (rc = apply_entries(rows, &d->opts, s)))
		return rc;
	for (size_t i = 0; i < s->nentries; i++)
		if ((rc = ior_matrix_check_device_key(&d->opts, s->entries[i].key)))
			return ior_matrix_locate(rc, s, s->entries[i].key);
	if ((rc = ior_matrix_check_device(&d->opts, &key)))
		return ior_matrix_locate(rc, s, key);
	return IOR_OK;
}

static int unknown_kind(const struct ior_ini_section *s)
{
	struct ior_suggestion near;
	ior_suggest_init(&near);
	for (size_t i = 0; section_kinds[i]; i++)
		ior_suggest_consider(&near, s->kind, section_kinds[i]);
	if (strcmp(s->kind, "global") == 0) /* a fio job file's habit */
		ior_error_set(IOR_EINVALID, "unknown section kind 'global' (fio's [global] is [defaults] here)");
	else if (near.best)
		ior_error_set(IOR_EINVALID, "unknown section kind '%s' (did you mean '%s'?)", s->kind, near.best);
	else
		ior_error_set(IOR_EINVALID, "unknown section kind '%s' (sections are [matrix], [defaults], [device NAME], "
			      "[engine NAME])", s->kind);
	return ior_matrix_locate(IOR_EINVALID, s, NULL);
}

int ior_matrix_build(struct ior_matrix *m, const struct ior_ini *ini)
{
	const struct ior_ini_section *settings = NULL;
	size_t *first = NULL;
	int rc = ior_matrix_first_same_name(ini, "device", &first);
	for (size_t i = 0; rc == IOR_OK && i < ini->nsections; i++) {
		const struct ior_ini_section *s = &ini->sections[i];
		if (strcmp(s->kind, "matrix") == 0)
			rc = build_settings(m, s, &settings);
		else if (strcmp(s->kind, "device") == 0)
			rc = build_device(m, s, first[i] == SIZE_MAX ? NULL : &ini->sections[first[i]]);
		else if (strcmp(s->kind, "engine") != 0 && strcmp(s->kind, "defaults") != 0)
			rc = unknown_kind(s);
	}
	free(first);
	if (rc == IOR_OK)
		rc = ior_matrix_build_engines(m, ini);
	if (rc)
		return rc;
	if (m->ndevices == 0)
		return ior_error_set(IOR_EINVALID, "%s: no [device NAME] section: a matrix needs at least one device", m->file);
	if (m->nengines == 0)
		return ior_error_set(IOR_EINVALID, "%s: no [engine NAME] section: a matrix needs at least one engine", m->file);
	if ((rc = ior_matrix_build_comparisons(m, settings)))
		return rc;
	return ior_matrix_check_cells(m);
}
