/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: the matrix include path — the input is split at its first "\n%%\n" into a matrix
 * that includes a file and that file; a valid pair comes back whole, anything else is refused
 * naming one of the two files. */
#include "tests/fuzz/targets.h"

#include "common/error.h"
#include "matrix/matrix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char separator[] = "\n%%\n";

/* A message that names neither file (or no line in it) would leave the user guessing where. */
static int check_refused(int rc, const struct ior_matrix *m, const char *main_path, const char *inc_path)
{
	const char *msg = ior_error_last();
	if (m)
		return ior_fuzz_fail("parse failed (%d) but returned a matrix", rc);
	if (rc != IOR_EINVALID)
		return ior_fuzz_fail("bad matrix gave code %d, not IOR_EINVALID: %s", rc, msg);
	if (strncmp(msg, main_path, strlen(main_path)) != 0 && strncmp(msg, inc_path, strlen(inc_path)) != 0)
		return ior_fuzz_fail("refusal names neither the matrix nor its include: %s", msg);
	return 0;
}

int ior_fuzz_matrix_include(const uint8_t *data, size_t size)
{
	const uint8_t *cut = size >= 4 ? memmem(data, size, separator, 4) : NULL;
	size_t head = cut ? (size_t)(cut - data) : size;
	const uint8_t *tail = cut ? cut + 4 : data + size;
	size_t tail_len = (size_t)(data + size - tail);
	char main_path[4200], inc_path[4200];
	snprintf(main_path, sizeof(main_path), "%s", ior_fuzz_path("main.ini"));
	snprintf(inc_path, sizeof(inc_path), "%s", ior_fuzz_path("inc.ini"));
	static const char include[] = "include = inc.ini\n";
	char *text = malloc(sizeof(include) + head);
	if (!text)
		return ior_fuzz_fail("out of memory");
	memcpy(text, include, sizeof(include) - 1);
	memcpy(text + sizeof(include) - 1, data, head);
	text[sizeof(include) - 1 + head] = '\0';
	if (ior_fuzz_write(main_path, (const uint8_t *)text, strlen(text)) || ior_fuzz_write(inc_path, tail, tail_len)) {
		free(text);
		return -1;
	}
	struct ior_matrix *m = NULL;
	ior_error_clear();
	int rc = ior_matrix_parse_file(&m, main_path);
	ior_fuzz_set_accepted(rc == 0);
	int broken = 0;
	if (rc == 0 && (!m || m->ndevices == 0 || m->nengines == 0 || strcmp(m->file, main_path) != 0))
		broken = ior_fuzz_fail("parse returned 0 with no device, engine or file name");
	else if (rc == 0 && strstr(m->text, "include ="))
		broken = ior_fuzz_fail("the stored text of an including matrix still includes: a resume would need the file");
	else if (rc != 0)
		broken = check_refused(rc, m, main_path, inc_path);
	ior_matrix_free(m);
	free(text);
	return broken;
}
