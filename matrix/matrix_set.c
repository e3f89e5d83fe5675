/* Command-line overrides ("engine.NAME.key=value"): the file's rows and checks, tried on a copy so a bad one changes nothing. */
#include "matrix/matrix_internal.h"
#include "common/error.h"
#include "common/suggest.h"

#include <stdlib.h>
#include <string.h>

/* What an override points at: a row table and the blob it fills. */
struct target {
	const struct ior_option *rows;
	void *blob;
	size_t size;
	struct ior_matrix_device *device;  /* set for device.NAME.key */
	struct ior_matrix_engine *engine;  /* set for engine.NAME.key */
};

/* "no engine 'x' in the matrix", with the nearest name of that kind. */
static int unknown_name(const char *kind, const char *name, const struct ior_suggestion *near)
{
	if (near->best)
		return ior_error_set(IOR_EINVALID, "no %s '%s' in the matrix (did you mean '%s'?)", kind, name, near->best);
	return ior_error_set(IOR_EINVALID, "no %s '%s' in the matrix", kind, name);
}

/* Splits "kind.NAME.key" or "matrix.key" and finds what it names; *key points into lhs. */
static int find_target(struct target *t, struct ior_matrix *m, char *lhs, const char **key)
{
	memset(t, 0, sizeof(*t));
	char *dot = strchr(lhs, '.');
	if (!dot)
		return ior_error_set(IOR_EINVALID, "expected matrix.KEY, device.NAME.KEY or engine.NAME.KEY before '='");
	*dot = '\0';
	char *rest = dot + 1;
	if (strcmp(lhs, "matrix") == 0) {
		*t = (struct target){ ior_matrix_settings_options(), &m->settings, sizeof(m->settings), NULL, NULL };
		*key = rest;
		return IOR_OK;
	}
	struct ior_suggestion near;
	ior_suggest_init(&near);
	if (strcmp(lhs, "device") != 0 && strcmp(lhs, "engine") != 0) {
		ior_suggest_consider(&near, lhs, "matrix");
		ior_suggest_consider(&near, lhs, "device");
		ior_suggest_consider(&near, lhs, "engine");
		return unknown_name("section kind", lhs, &near);
	}
	char *name = rest;
	if (!(dot = strchr(rest, '.')))
		return ior_error_set(IOR_EINVALID, "expected %s.NAME.KEY before '='", lhs);
	*dot = '\0';
	*key = dot + 1;
	if (strcmp(lhs, "device") == 0) {
		for (size_t i = 0; i < m->ndevices; i++) {
			if (strcmp(m->devices[i].name, name) == 0)
				*t = (struct target){ ior_matrix_device_options(), &m->devices[i].opts,
						      sizeof(m->devices[i].opts), &m->devices[i], NULL };
			ior_suggest_consider(&near, name, m->devices[i].name);
		}
		return t->rows ? IOR_OK : unknown_name("device", name, &near);
	}
	for (size_t i = 0; i < m->nengines; i++) {
		if (strcmp(m->engines[i].name, name) == 0)
			*t = (struct target){ m->engines[i].ops->options, m->engines[i].opts,
					      m->engines[i].ops->options_size, NULL, &m->engines[i] };
		ior_suggest_consider(&near, name, m->engines[i].name);
	}
	if (!t->blob)
		return unknown_name("engine", name, &near);
	if (strcmp(*key, "type") == 0)
		return ior_error_set(IOR_EINVALID, "type: an engine's type cannot be overridden (write another [engine] section)");
	return IOR_OK;
}

/* The checks the file parser runs on the whole object, here on the candidate copy. */
static int check(const struct target *t, void *copy, const char *key, char **params)
{
	const char *bad = NULL;
	int rc = IOR_OK;
	if (t->device) {
		struct ior_matrix_device_opts *o = copy;
		/* Naming one kind of device replaces the other. */
		if (strcmp(key, "path") == 0)
			o->loop = 0;
		if (strcmp(key, "loop") == 0) {
			free(o->path);
			o->path = NULL;
		}
		if ((rc = ior_matrix_check_device_key(o, key)))
			return ior_error_wrap(rc, "%s", key);
		if ((rc = ior_matrix_check_device(o, &bad)))
			return bad ? ior_error_wrap(rc, "%s", bad) : ior_error_wrap(rc, "[device %s]", t->device->name);
	} else if (t->engine) {
		rc = ior_matrix_engine_params(params, t->engine->ops, copy);
	} else if ((rc = ior_matrix_check_settings(copy, &bad))) {
		return ior_error_wrap(rc, "%s", bad);
	}
	return rc;
}

static int apply(const struct target *t, const char *key, const char *value)
{
	char *params = NULL;
	void *copy = calloc(1, t->size ? t->size : 1);
	if (!copy)
		return ior_error_set(IOR_ERROR, "out of memory");
	int rc = ior_options_copy(t->rows, copy, t->blob, t->size);
	if (!rc && !(rc = ior_option_set(t->rows, copy, key, value)))
		rc = check(t, copy, key, &params);
	if (rc) {
		ior_options_free(t->rows, copy);
		free(copy);
		free(params);
		return rc;
	}
	ior_options_free(t->rows, t->blob);
	memcpy(t->blob, copy, t->size);
	free(copy);
	if (t->engine) {
		free(t->engine->params);
		t->engine->params = params;
	}
	return IOR_OK;
}

int ior_matrix_set(struct ior_matrix *m, const char *assignment)
{
	const char *eq = strchr(assignment, '=');
	if (!eq)
		return ior_error_set(IOR_EINVALID, "override '%s': expected SECTION.KEY=VALUE, e.g. matrix.repetitions=5",
				     assignment);
	char *lhs = strndup(assignment, (size_t)(eq - assignment));
	if (!lhs)
		return ior_error_set(IOR_ERROR, "out of memory");
	struct target t;
	const char *key = NULL;
	int rc = find_target(&t, m, lhs, &key);
	if (!rc)
		rc = apply(&t, key, eq + 1);
	if (!rc && t.blob == &m->settings && strcmp(key, "schedulers") == 0)
		m->schedulers_overridden = true; /* run-time name checks then name the override, not a line */
	free(lhs);
	return rc ? ior_error_wrap(rc, "override '%s'", assignment) : IOR_OK;
}
