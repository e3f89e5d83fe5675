/* Builds a matrix from INI sections: [matrix] settings, [device NAME] and [engine NAME] with the engine's own rows. */
#include "matrix/matrix_internal.h"
#include "common/error.h"
#include "common/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const section_kinds[] = { "matrix", "device", "engine", NULL };

/* The line a key was given on, or the section's header line when it was not given. */
static int entry_line(const struct ior_ini_section *s, const char *key)
{
	for (size_t i = 0; key && i < s->nentries; i++)
		if (strcmp(s->entries[i].key, key) == 0)
			return s->entries[i].line;
	return s->line;
}

/* Adds "file:line: key" (or "file:line: [section]") in front of the current message. */
static int locate(int rc, const char *file, const struct ior_ini_section *s, const char *key)
{
	char label[160];
	if (key)
		return ior_error_wrap(rc, "%s:%d: %s", file, entry_line(s, key), key);
	return ior_error_wrap(rc, "%s:%d: %s", file, s->line, ior_matrix_ini_label(s, label, sizeof(label)));
}

static int apply_entries(const struct ior_option *rows, void *blob, const char *file,
			 const struct ior_ini_section *s, const char *skip)
{
	for (size_t i = 0; i < s->nentries; i++) {
		const struct ior_ini_entry *e = &s->entries[i];
		if (skip && strcmp(e->key, skip) == 0)
			continue;
		int rc = ior_option_set(rows, blob, e->key, e->value);
		if (rc)
			return ior_error_wrap(rc, "%s:%d", file, e->line);
	}
	return IOR_OK;
}

/* A named section's name: present, well formed. */
static int check_name(const char *file, const struct ior_ini_section *s)
{
	if (!s->name)
		return locate(ior_error_set(IOR_EINVALID, "needs a name, e.g. [%s %s]", s->kind,
					    strcmp(s->kind, "device") == 0 ? "scratch" : "seqread"), file, s, NULL);
	if (!ior_matrix_valid_name(s->name))
		return locate(ior_error_set(IOR_EINVALID, "'%s' is not a valid name (letters, digits, '_' and '-')", s->name),
			      file, s, NULL);
	return IOR_OK;
}

static int duplicate(const char *file, const struct ior_ini_section *s, int first)
{
	return locate(ior_error_set(IOR_EINVALID, "section given twice (first at line %d)", first), file, s, NULL);
}

static int build_settings(struct ior_matrix *m, const struct ior_ini_section *s, int *seen)
{
	const char *key;
	if (s->name)
		return locate(ior_error_set(IOR_EINVALID, "the [matrix] section takes no name"), m->file, s, NULL);
	if (*seen)
		return duplicate(m->file, s, *seen);
	*seen = s->line;
	for (size_t i = 0; i < s->nentries; i++)
		if (strcmp(s->entries[i].key, "schedulers") == 0)
			m->schedulers_line = s->entries[i].line; /* run-time name checks point here */
	int rc = apply_entries(ior_matrix_settings_options(), &m->settings, m->file, s, NULL);
	if (!rc && (rc = ior_matrix_check_settings(&m->settings, &key)))
		return locate(rc, m->file, s, key);
	return rc;
}

static int build_device(struct ior_matrix *m, const struct ior_ini_section *s)
{
	const struct ior_option *rows = ior_matrix_device_options();
	const char *key;
	int rc = check_name(m->file, s);
	if (rc)
		return rc;
	for (size_t i = 0; i < m->ndevices; i++)
		if (strcmp(m->devices[i].name, s->name) == 0)
			return duplicate(m->file, s, m->devices[i].line);
	struct ior_matrix_device *grown = realloc(m->devices, (m->ndevices + 1) * sizeof(*grown));
	if (!grown)
		return ior_error_set(IOR_ERROR, "out of memory");
	m->devices = grown;
	struct ior_matrix_device *d = &m->devices[m->ndevices++];
	memset(d, 0, sizeof(*d));
	d->line = s->line;
	if (!(d->name = strdup(s->name)))
		return ior_error_set(IOR_ERROR, "out of memory");
	if ((rc = ior_options_defaults(rows, &d->opts)) || (rc = apply_entries(rows, &d->opts, m->file, s, NULL)))
		return rc;
	for (size_t i = 0; i < s->nentries; i++)
		if ((rc = ior_matrix_check_device_key(&d->opts, s->entries[i].key)))
			return locate(rc, m->file, s, s->entries[i].key);
	if ((rc = ior_matrix_check_device(&d->opts, &key)))
		return locate(rc, m->file, s, key);
	return IOR_OK;
}

static int engine_type(const struct ior_engine_ops **ops, const char *file, const struct ior_ini_section *s)
{
	const char *type = NULL;
	for (size_t i = 0; i < s->nentries; i++)
		if (strcmp(s->entries[i].key, "type") == 0)
			type = s->entries[i].value;
	if (!type) {
		char names[256] = "";
		for (size_t i = 0; i < ior_engine_count(); i++) {
			size_t used = strlen(names);
			snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "", ior_engine_at(i)->name);
		}
		return locate(ior_error_set(IOR_EINVALID, "missing 'type = ENGINE' (engines: %s)", names), file, s, NULL);
	}
	if (!(*ops = ior_engine_find(type)))
		return locate(IOR_EINVALID, file, s, "type");
	int rc = ior_engine_validate(*ops);
	return rc ? locate(rc, file, s, "type") : IOR_OK;
}

static int build_engine(struct ior_matrix *m, const struct ior_ini_section *s)
{
	const struct ior_engine_ops *ops;
	int rc = check_name(m->file, s);
	if (rc)
		return rc;
	for (size_t i = 0; i < m->nengines; i++)
		if (strcmp(m->engines[i].name, s->name) == 0)
			return duplicate(m->file, s, m->engines[i].line);
	if ((rc = engine_type(&ops, m->file, s)))
		return rc;
	struct ior_matrix_engine *grown = realloc(m->engines, (m->nengines + 1) * sizeof(*grown));
	if (!grown)
		return ior_error_set(IOR_ERROR, "out of memory");
	m->engines = grown;
	struct ior_matrix_engine *e = &m->engines[m->nengines++];
	memset(e, 0, sizeof(*e));
	e->line = s->line;
	e->ops = ops;
	e->name = strdup(s->name);
	e->opts = calloc(1, ops->options_size ? ops->options_size : 1);
	if (!e->name || !e->opts)
		return ior_error_set(IOR_ERROR, "out of memory");
	if ((rc = ior_options_defaults(ops->options, e->opts)))
		return ior_error_wrap(rc, "engine '%s'", ops->name);
	if ((rc = apply_entries(ops->options, e->opts, m->file, s, "type")))
		return rc;
	return ior_matrix_engine_params(&e->params, ops, e->opts);
}

static int unknown_kind(const char *file, const struct ior_ini_section *s)
{
	struct ior_suggestion near;
	ior_suggest_init(&near);
	for (size_t i = 0; section_kinds[i]; i++)
		ior_suggest_consider(&near, s->kind, section_kinds[i]);
	if (near.best)
		ior_error_set(IOR_EINVALID, "unknown section kind '%s' (did you mean '%s'?)", s->kind, near.best);
	else
		ior_error_set(IOR_EINVALID, "unknown section kind '%s' (sections are [matrix], [device NAME], [engine NAME])",
			      s->kind);
	return locate(IOR_EINVALID, file, s, NULL);
}

int ior_matrix_build(struct ior_matrix *m, const struct ior_ini *ini)
{
	int settings_line = 0;
	for (size_t i = 0; i < ini->nsections; i++) {
		const struct ior_ini_section *s = &ini->sections[i];
		int rc;
		if (strcmp(s->kind, "matrix") == 0)
			rc = build_settings(m, s, &settings_line);
		else if (strcmp(s->kind, "device") == 0)
			rc = build_device(m, s);
		else if (strcmp(s->kind, "engine") == 0)
			rc = build_engine(m, s);
		else
			rc = unknown_kind(m->file, s);
		if (rc)
			return rc;
	}
	if (m->ndevices == 0)
		return ior_error_set(IOR_EINVALID, "%s: no [device NAME] section: a matrix needs at least one device", m->file);
	if (m->nengines == 0)
		return ior_error_set(IOR_EINVALID, "%s: no [engine NAME] section: a matrix needs at least one engine", m->file);
	return IOR_OK;
}
