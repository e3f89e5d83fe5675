/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The matrix's engines: each [engine NAME] section with what it inherits from [defaults] and
 * [defaults TYPE], expanded into one engine per combination of its swept keys' values. */
#include "matrix/matrix_internal.h"
#include "common/error.h"
#include "common/suggest.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A swept key has at most this many values, and an engine at most this many swept keys. */
#define SWEEP_VALUES 64
#define SWEEP_KEYS 8

/* How many engines max_cells leaves: each engine is a cell on every device and scheduler. */
struct budget {
	uint64_t engines, max_cells;
	size_t ndevices, nsched;
	const char *file;
};

static const struct ior_option *row_of(const struct ior_option *rows, const char *key)
{
	for (const struct ior_option *r = rows; r && r->name; r++)
		if (strcmp(r->name, key) == 0)
			return r;
	return NULL;
}

/* The section's effective entries: [defaults] keys its type has, then [defaults TYPE], then
 * its own (without type), each replacing an earlier one of the same key. */
struct effective {
	const struct ior_ini_entry *e[128];
	size_t n;
};

static int put(struct effective *eff, const struct ior_ini_entry *e, const struct ior_ini_section *s)
{
	for (size_t i = 0; i < eff->n; i++)
		if (strcmp(eff->e[i]->key, e->key) == 0) {
			eff->e[i] = e;
			return IOR_OK;
		}
	if (eff->n == sizeof(eff->e) / sizeof(eff->e[0]))
		return ior_matrix_locate(ior_error_set(IOR_EINVALID, "more than %zu keys", eff->n), s, NULL);
	eff->e[eff->n++] = e;
	return IOR_OK;
}

struct defaults {
	const struct ior_ini_section *all;                /* [defaults] */
	const struct ior_ini_section *typed[64];          /* [defaults TYPE] */
	size_t ntyped;
};

static const struct ior_ini_section *typed_defaults(const struct defaults *d, const char *type)
{
	for (size_t i = 0; i < d->ntyped; i++)
		if (strcmp(d->typed[i]->name, type) == 0)
			return d->typed[i];
	return NULL;
}

/* A key every engine section takes (ior_matrix_job_options), whatever its type. */
static bool job_key(const char *key)
{
	return row_of(ior_matrix_job_options(), key) != NULL;
}

static int effective_entries(struct effective *eff, const struct ior_engine_ops *ops, const struct defaults *d,
			     const struct ior_ini_section *s)
{
	eff->n = 0;
	int rc = IOR_OK;
	for (size_t i = 0; rc == IOR_OK && d->all && i < d->all->nentries; i++)
		if (row_of(ops->options, d->all->entries[i].key) || job_key(d->all->entries[i].key))
			rc = put(eff, &d->all->entries[i], s);
	const struct ior_ini_section *t = typed_defaults(d, ops->name);
	for (size_t i = 0; rc == IOR_OK && t && i < t->nentries; i++)
		rc = put(eff, &t->entries[i], s);
	for (size_t i = 0; rc == IOR_OK && i < s->nentries; i++)
		if (strcmp(s->entries[i].key, "type") != 0)
			rc = put(eff, &s->entries[i], s);
	return rc;
}

/* A swept key: its entry and its values, cut out of the entry's text. */
struct axis {
	const struct ior_ini_entry *e;
	char *values[SWEEP_VALUES];
	size_t n;
};

static void axes_free(struct axis *ax, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < ax[i].n; j++)
			free(ax[i].values[j]);
}

/* A key of a non-text type given several values ("bs = 4k 64k 1M") is swept; a text key keeps
 * its spaces (inner_options = "bs=1M count=4"). */
static int find_axes(const struct effective *eff, const struct ior_engine_ops *ops, struct axis *ax, size_t *nax)
{
	*nax = 0;
	char where[PATH_MAX + 16];
	for (size_t i = 0; i < eff->n; i++) {
		const struct ior_ini_entry *e = eff->e[i];
		const struct ior_option *row = row_of(ops->options, e->key);
		if (!row || row->type == IOR_OPT_STRING || !strpbrk(e->value, " \t"))
			continue;
		if (*nax == SWEEP_KEYS)
			return ior_error_set(IOR_EINVALID, "%s: %s: more than %d swept keys in one engine",
					     ior_matrix_ini_where(e->file, e->line, where, sizeof(where)), e->key, SWEEP_KEYS);
		struct axis *a = &ax[(*nax)++];
		memset(a, 0, sizeof(*a));
		a->e = e;
		for (const char *p = e->value + strspn(e->value, " \t"); *p; p += strspn(p, " \t")) {
			size_t len = strcspn(p, " \t");
			if (a->n == SWEEP_VALUES)
				return ior_error_set(IOR_EINVALID, "%s: %s: more than %d values to sweep",
						     ior_matrix_ini_where(e->file, e->line, where, sizeof(where)), e->key,
						     SWEEP_VALUES);
			if (!(a->values[a->n] = strndup(p, len)))
				return ior_error_set(IOR_ERROR, "out of memory");
			a->n++; /* counted at once, so axes_free frees it on every way out */
			for (size_t j = 0; j + 1 < a->n; j++)
				if (strcmp(a->values[j], a->values[a->n - 1]) == 0)
					return ior_error_set(IOR_EINVALID, "%s: %s: '%s' is listed twice",
							     ior_matrix_ini_where(e->file, e->line, where, sizeof(where)),
							     e->key, a->values[a->n - 1]);
			p += len;
		}
	}
	return IOR_OK;
}

/* One engine: the effective entries with each axis at pick[i]. */
static int make_engine(struct ior_matrix_engine *out, const struct ior_engine_ops *ops, const struct ior_ini_section *s,
		       const struct effective *eff, const struct axis *ax, size_t nax, const size_t *pick)
{
	memset(out, 0, sizeof(*out));
	out->ops = ops;
	out->line = s->line;
	out->file = s->file;
	char name[512];
	size_t used = (size_t)snprintf(name, sizeof(name), "%s", s->name);
	for (size_t i = 0; i < nax && used < sizeof(name); i++)
		used += (size_t)snprintf(name + used, sizeof(name) - used, "%s%s=%s%s", i ? "," : "[", ax[i].e->key,
					 ax[i].values[pick[i]], i + 1 == nax ? "]" : "");
	out->name = strdup(name);
	out->section = strdup(s->name);
	out->opts = calloc(1, ops->options_size ? ops->options_size : 1);
	if (!out->name || !out->section || !out->opts)
		return ior_error_set(IOR_ERROR, "out of memory");
	int rc = ior_options_defaults(ops->options, out->opts);
	if (rc)
		return ior_error_wrap(rc, "engine '%s'", ops->name);
	for (size_t i = 0; rc == IOR_OK && i < eff->n; i++) {
		const char *value = eff->e[i]->value;
		for (size_t a = 0; a < nax; a++)
			if (ax[a].e == eff->e[i])
				value = ax[a].values[pick[a]];
		if (job_key(eff->e[i]->key)) {
			rc = ior_matrix_apply_entry(ior_matrix_job_options(), &out->job, eff->e[i], value);
			out->job.warmup_set |= strcmp(eff->e[i]->key, "warmup") == 0;
		} else {
			rc = ior_matrix_apply_entry(ops->options, out->opts, eff->e[i], value);
		}
	}
	return rc ? rc : ior_matrix_engine_params(&out->params, ops, out->opts);
}

static int push_engine(struct ior_matrix_engine **v, size_t *n, struct ior_matrix_engine *e)
{
	struct ior_matrix_engine *grown = realloc(*v, (*n + 1) * sizeof(*grown));
	if (!grown)
		return ior_error_set(IOR_ERROR, "out of memory");
	*v = grown;
	(*v)[(*n)++] = *e;
	return IOR_OK;
}

static int engine_type(const struct ior_engine_ops **ops, const struct ior_ini_section *s)
{
	const struct ior_ini_entry *type = ior_matrix_entry(s, "type");
	if (!type) {
		char names[256] = "";
		for (size_t i = 0; i < ior_engine_count(); i++) {
			size_t used = strlen(names);
			snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "", ior_engine_at(i)->name);
		}
		return ior_matrix_locate(ior_error_set(IOR_EINVALID, "missing 'type = ENGINE' (engines: %s)", names), s, NULL);
	}
	if (!(*ops = ior_engine_find(type->value)))
		return ior_matrix_locate(IOR_EINVALID, s, "type");
	int rc = ior_engine_validate(*ops);
	return rc ? ior_matrix_locate(rc, s, "type") : IOR_OK;
}

/* Every combination of the axes (an odometer over pick), each an engine. */
static int expand(struct ior_matrix_engine **v, size_t *n, const struct ior_engine_ops *ops,
		  const struct ior_ini_section *s, const struct effective *eff, const struct axis *ax, size_t nax)
{
	size_t pick[SWEEP_KEYS] = { 0 };
	for (;;) {
		struct ior_matrix_engine e;
		int rc = make_engine(&e, ops, s, eff, ax, nax, pick);
		if (rc == IOR_OK)
			rc = push_engine(v, n, &e);
		if (rc) {
			ior_matrix_engines_free(&e, 1);
			return rc;
		}
		size_t i = nax;
		while (i > 0 && ++pick[i - 1] == ax[i - 1].n)
			pick[--i] = 0;
		if (i == 0)
			return IOR_OK;
	}
}

/* The section's combinations counted before any is built (each engine costs memory, and 5 keys
 * of 60 values are 7.8e8 of them): past the engines max_cells leaves, refused at once. */
static int check_budget(const struct ior_ini_section *s, const struct axis *ax, size_t nax, size_t have,
			const struct budget *b)
{
	uint64_t count = 1;
	for (size_t a = 0; a < nax; a++) {
		if (ax[a].n && count > UINT64_MAX / ax[a].n)
			count = UINT64_MAX;
		else
			count *= ax[a].n;
	}
	if (count <= b->engines && have <= b->engines - count)
		return IOR_OK;
	/* the whole matrix's count, as ior_matrix_check_cells says it, where it does not overflow */
	uint64_t engines = count > UINT64_MAX - have ? UINT64_MAX : count + have, per = (uint64_t)b->ndevices * b->nsched;
	uint64_t cells = per && engines > UINT64_MAX / per ? UINT64_MAX : engines * (per ? per : 1);
	char where[PATH_MAX + 16];
	return ior_error_set(IOR_EINVALID, "%s: the matrix expands to %s%llu cells (%zu devices x %zu schedulers x %llu "
			     "engines), more than max_cells = %llu; [engine %s] at %s sweeps %llu combinations, refused "
			     "before any is built", b->file, cells == UINT64_MAX ? "more than " : "",
			     (unsigned long long)cells, b->ndevices, b->nsched, (unsigned long long)engines,
			     (unsigned long long)b->max_cells, s->name, ior_matrix_ini_where(s->file, s->line, where, sizeof(where)),
			     (unsigned long long)count);
}

static int build_section(struct ior_matrix_engine **v, size_t *n, const struct defaults *d,
			 const struct ior_ini_section *s, const struct ior_ini_section *first, const struct budget *b)
{
	int rc = ior_matrix_check_name(s);
	if (rc == IOR_OK && first)
		rc = ior_matrix_duplicate(s, first->file, first->line);
	const struct ior_engine_ops *ops = NULL;
	if (rc == IOR_OK)
		rc = engine_type(&ops, s);
	struct effective *eff = calloc(1, sizeof(*eff));
	if (!eff && rc == IOR_OK)
		rc = ior_error_set(IOR_ERROR, "out of memory");
	if (rc == IOR_OK)
		rc = effective_entries(eff, ops, d, s);
	struct axis ax[SWEEP_KEYS];
	size_t nax = 0;
	if (rc == IOR_OK)
		rc = find_axes(eff, ops, ax, &nax);
	if (rc == IOR_OK)
		rc = check_budget(s, ax, nax, *n, b);
	if (rc == IOR_OK)
		rc = expand(v, n, ops, s, eff, ax, nax);
	axes_free(ax, nax);
	free(eff);
	return rc;
}

/* [defaults TYPE]: TYPE is an engine type and every key one of its keys. */
static int check_typed(const struct ior_ini_section *s)
{
	const struct ior_engine_ops *ops = ior_engine_find(s->name);
	if (!ops)
		return ior_matrix_locate(IOR_EINVALID, s, NULL);
	void *blob = calloc(1, ops->options_size ? ops->options_size : 1);
	if (!blob)
		return ior_error_set(IOR_ERROR, "out of memory");
	int rc = ior_options_defaults(ops->options, blob);
	struct ior_matrix_job job = { 0 };
	for (size_t i = 0; rc == IOR_OK && i < s->nentries; i++)
		rc = strcmp(s->entries[i].key, "type") == 0
			     ? ior_matrix_locate(ior_error_set(IOR_EINVALID, "a [defaults] section sets no type"), s, "type")
		     : job_key(s->entries[i].key)
			     ? ior_matrix_apply_entry(ior_matrix_job_options(), &job, &s->entries[i], s->entries[i].value)
			     : ior_matrix_apply_entry(ops->options, blob, &s->entries[i], s->entries[i].value);
	ior_options_free(ops->options, blob);
	free(blob);
	return rc;
}

/* [defaults]: every key is some engine type's key (an error otherwise, with the nearest); one that
 * no engine of this matrix has is a warning, since it changes nothing. */
static int check_general(struct ior_matrix *m, const struct ior_ini_section *s, const struct ior_matrix_engine *v,
			 size_t n)
{
	for (size_t i = 0; i < s->nentries; i++) {
		const struct ior_ini_entry *e = &s->entries[i];
		char where[PATH_MAX + 16];
		ior_matrix_ini_where(e->file, e->line, where, sizeof(where));
		if (strcmp(e->key, "type") == 0)
			return ior_error_set(IOR_EINVALID, "%s: type: a [defaults] section sets no type", where);
		struct ior_suggestion near;
		ior_suggest_init(&near);
		bool known = job_key(e->key), used = known && n > 0;
		struct ior_matrix_job job = { 0 };
		int rc = known ? ior_matrix_apply_entry(ior_matrix_job_options(), &job, e, e->value) : IOR_OK;
		if (rc)
			return rc;  /* checked here too: every engine may set its own and leave this unused */
		for (size_t t = 0; t < ior_engine_count(); t++) {
			for (const struct ior_option *r = ior_engine_at(t)->options; r && r->name; r++) {
				known |= strcmp(r->name, e->key) == 0;
				ior_suggest_consider(&near, e->key, r->name);
			}
		}
		for (size_t k = 0; k < n; k++)
			used |= row_of(v[k].ops->options, e->key) != NULL;
		for (const struct ior_option *r = ior_matrix_job_options(); r->name; r++)
			ior_suggest_consider(&near, e->key, r->name);
		if (!known && near.best)
			return ior_error_set(IOR_EINVALID, "%s: %s: no engine type has this key (did you mean '%s'?)", where,
					     e->key, near.best);
		if (!known)
			return ior_error_set(IOR_EINVALID, "%s: %s: no engine type has this key", where, e->key);
		if (!used) {
			char line[PATH_MAX + 160];
			snprintf(line, sizeof(line), "%s: %s: no engine of this matrix has this key, so it changes nothing\n",
				 where, e->key);
			size_t len = strlen(m->warnings);
			char *grown = realloc(m->warnings, len + strlen(line) + 1);
			if (!grown)
				return ior_error_set(IOR_ERROR, "out of memory");
			m->warnings = grown;
			strcpy(m->warnings + len, line);
		}
	}
	return IOR_OK;
}

void ior_matrix_engines_free(struct ior_matrix_engine *e, size_t n)
{
	for (size_t i = 0; e && i < n; i++) {
		if (e[i].ops)
			ior_options_free(e[i].ops->options, e[i].opts);
		free(e[i].opts);
		free(e[i].params);
		free(e[i].name);
		free(e[i].section);
	}
}

/* "all" counts as one scheduler here; the run checks again with the kernel's own list */
static size_t scheduler_count(const struct ior_matrix *m)
{
	char **scheds = ior_matrix_schedulers_for(m, NULL);
	size_t nsched = 0;
	while (scheds && scheds[nsched])
		nsched++;
	ior_strv_free(scheds);
	return nsched ? nsched : 1;
}

int ior_matrix_build_engines(struct ior_matrix *m, const struct ior_ini *ini)
{
	struct budget b = { .max_cells = m->settings.max_cells, .ndevices = m->ndevices, .nsched = scheduler_count(m),
			    .file = m->file };
	b.engines = b.max_cells / ((uint64_t)(b.ndevices ? b.ndevices : 1) * b.nsched);
	struct defaults d;
	memset(&d, 0, sizeof(d));
	int rc = IOR_OK;
	for (size_t i = 0; rc == IOR_OK && i < ini->nsections; i++) {
		const struct ior_ini_section *s = &ini->sections[i];
		if (strcmp(s->kind, "defaults") != 0)
			continue;
		const struct ior_ini_section *first = s->name ? typed_defaults(&d, s->name) : d.all;
		if (first)
			rc = ior_matrix_duplicate(s, first->file, first->line);
		else if (!s->name)
			d.all = s;
		else if (d.ntyped == sizeof(d.typed) / sizeof(d.typed[0]))
			rc = ior_matrix_locate(ior_error_set(IOR_EINVALID, "too many [defaults TYPE] sections"), s, NULL);
		else if ((rc = check_typed(s)) == IOR_OK)
			d.typed[d.ntyped++] = s;
	}
	struct ior_matrix_engine *v = NULL;
	size_t n = 0, *first = NULL;
	if (rc == IOR_OK)
		rc = ior_matrix_first_same_name(ini, "engine", &first);
	for (size_t i = 0; rc == IOR_OK && i < ini->nsections; i++) {
		const struct ior_ini_section *s = &ini->sections[i];
		if (strcmp(s->kind, "engine") == 0)
			rc = build_section(&v, &n, &d, s, first[i] == SIZE_MAX ? NULL : &ini->sections[first[i]], &b);
	}
	free(first);
	if (rc == IOR_OK && !m->warnings && !(m->warnings = strdup("")))
		rc = ior_error_set(IOR_ERROR, "out of memory");
	if (rc == IOR_OK && d.all)
		rc = check_general(m, d.all, v, n);
	if (rc) {
		ior_matrix_engines_free(v, n);
		free(v);
		return rc;
	}
	ior_matrix_engines_free(m->engines, m->nengines);
	free(m->engines);
	m->engines = v;
	m->nengines = n;
	return IOR_OK;
}

int ior_matrix_check_cells(const struct ior_matrix *m)
{
	size_t nsched = scheduler_count(m);
	uint64_t cells = (uint64_t)m->ndevices * nsched * m->nengines;
	if (cells > m->settings.max_cells)
		return ior_error_set(IOR_EINVALID, "%s: the matrix expands to %llu cells (%zu devices x %zu schedulers x "
				     "%zu engines), more than max_cells = %llu", m->file, (unsigned long long)cells,
				     m->ndevices, nsched, m->nengines, (unsigned long long)m->settings.max_cells);
	return IOR_OK;
}
