/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: the matrix parser on arbitrary text — a valid matrix comes back whole, anything else
 * is refused with a file:line message and nothing returned. */
#include "tests/fuzz/targets.h"

#include "common/error.h"
#include "matrix/matrix.h"

#include <stdlib.h>
#include <string.h>

#define NAME "fuzz.ini"

/* A parsed matrix is used the way a run uses it, so a half-built one shows. */
static int check_parsed(const struct ior_matrix *m, const char *text)
{
	if (!m)
		return ior_fuzz_fail("parse returned 0 and no matrix");
	if (strcmp(m->file, NAME) != 0 || strcmp(m->text, text) != 0)
		return ior_fuzz_fail("matrix does not keep its file name and text");
	for (size_t i = 0; i < m->ndevices; i++)
		if (!m->devices[i].name || (!m->devices[i].opts.path && !m->devices[i].opts.loop))
			return ior_fuzz_fail("device %zu has no name, path or loop size", i);
	for (size_t i = 0; i < m->nengines; i++)
		if (!m->engines[i].name || !m->engines[i].ops || !m->engines[i].params)
			return ior_fuzz_fail("engine %zu has no name, type or parameters", i);
	char **scheds = ior_matrix_schedulers_for(m, NULL);
	if (!scheds)
		return ior_fuzz_fail("no scheduler list for a parsed matrix");
	ior_strv_free(scheds);
	return 0;
}

static int check_refused(int rc, const struct ior_matrix *m)
{
	const char *msg = ior_error_last();
	if (m)
		return ior_fuzz_fail("parse failed (%d) but returned a matrix", rc);
	if (rc != IOR_EINVALID)
		return ior_fuzz_fail("bad matrix gave code %d, not IOR_EINVALID: %s", rc, msg);
	if (strncmp(msg, NAME ":", strlen(NAME ":")) != 0)
		return ior_fuzz_fail("refusal does not start with '" NAME ":line': %s", msg);
	return 0;
}

int ior_fuzz_matrix(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return ior_fuzz_fail("out of memory");
	memcpy(text, data, size);
	text[size] = '\0';
	struct ior_matrix *m = NULL;
	ior_error_clear();
	int rc = ior_matrix_parse_string(&m, NAME, text);
	ior_fuzz_set_accepted(rc == 0);
	int broken = rc == 0 ? check_parsed(m, text) : check_refused(rc, m);
	ior_matrix_free(m);
	free(text);
	return broken;
}
