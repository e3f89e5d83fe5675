/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Entry points of the matrix parser: from a string or a file to a validated struct ior_matrix, and back to nothing. */
#include "matrix/matrix_internal.h"
#include "common/error.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ior_matrix_engine_params(char **out, const struct ior_engine_ops *ops, const void *opts)
{
	/* Parameter strings are short; grow for an engine with long string options. */
	for (size_t len = 256; len <= (1u << 20); len *= 2) {
		char *buf = malloc(len);
		if (!buf)
			return ior_error_set(IOR_ERROR, "out of memory");
		if (ior_options_format(ops->options, opts, buf, len) == IOR_OK) {
			free(*out);
			*out = buf;
			return IOR_OK;
		}
		free(buf);
	}
	return ior_error_set(IOR_ERROR, "engine '%s': parameters longer than 1 MiB", ops->name);
}

int ior_matrix_from_ini(struct ior_matrix **out, const char *name, const char *text, const struct ior_ini *ini)
{
	*out = NULL;
	struct ior_matrix *m = calloc(1, sizeof(*m));
	if (!m)
		return ior_error_set(IOR_ERROR, "out of memory");
	m->ini = calloc(1, sizeof(*m->ini));
	int rc = IOR_OK;
	if (!m->ini || !(m->file = strdup(name)) || !(m->text = strdup(text)))
		rc = ior_error_set(IOR_ERROR, "out of memory");
	if (rc == IOR_OK)
		rc = ior_matrix_ini_copy(m->ini, ini);
	if (rc == IOR_OK)
		rc = ior_options_defaults(ior_matrix_settings_options(), &m->settings);
	if (rc == IOR_OK)
		rc = ior_matrix_build(m, m->ini);
	if (rc) {
		ior_matrix_free(m);
		return rc;
	}
	*out = m;
	return IOR_OK;
}

/* The overrides are written into the sections before anything is built, so one can lift a limit
 * the file's own values break (matrix.max_cells). */
static int parse_with(struct ior_matrix **out, const char *name, const char *text, const char *const *sets,
		      size_t nsets)
{
	*out = NULL;
	struct ior_ini ini;
	int rc = ior_matrix_ini_parse(&ini, name, text);
	if (rc)
		return rc;
	for (size_t i = 0; rc == IOR_OK && i < nsets; i++)
		rc = ior_matrix_ini_override(&ini, sets[i]);
	/* a matrix that includes other files is stored as what it reads, so a resumed run needs none;
	 * one with overrides as they left it */
	bool rewrite = ini.includes || nsets;
	char *flat = rc == IOR_OK && rewrite ? ior_matrix_ini_text(&ini) : NULL;
	if (rc == IOR_OK && rewrite && !flat)
		rc = ior_error_set(IOR_ERROR, "out of memory");
	if (rc == IOR_OK)
		rc = ior_matrix_from_ini(out, name, flat ? flat : text, &ini);
	free(flat);
	ior_matrix_ini_free(&ini);
	return rc;
}

int ior_matrix_parse_string(struct ior_matrix **out, const char *name, const char *text)
{
	return parse_with(out, name, text, NULL, 0);
}

int ior_matrix_parse_file_set(struct ior_matrix **out, const char *path, const char *const *sets, size_t nsets)
{
	char *text = NULL;
	*out = NULL;
	int rc = ior_matrix_read_file(path, "matrix ", &text);
	if (rc)
		return rc;
	rc = parse_with(out, path, text, sets, nsets);
	free(text);
	return rc;
}

int ior_matrix_parse_file(struct ior_matrix **out, const char *path)
{
	return ior_matrix_parse_file_set(out, path, NULL, 0);
}

void ior_matrix_free(struct ior_matrix *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->ndevices; i++) {
		ior_options_free(ior_matrix_device_options(), &m->devices[i].opts);
		free(m->devices[i].name);
	}
	ior_matrix_engines_free(m->engines, m->nengines);
	ior_matrix_comparisons_free(m);
	ior_options_free(ior_matrix_settings_options(), &m->settings);
	if (m->ini)
		ior_matrix_ini_free(m->ini);
	free(m->ini);
	free(m->warnings);
	free(m->schedulers_file);
	free(m->devices);
	free(m->engines);
	free(m->file);
	free(m->text);
	free(m);
}
