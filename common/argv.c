/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Splitting a command line into an argument list with quoting but no shell semantics; see
 * ior_argv_split in common/spawn.h. */
#include "common/spawn.h"
#include "common/error.h"

#include <stdlib.h>
#include <string.h>

void ior_argv_free(char **argv)
{
	if (!argv)
		return;
	for (char **p = argv; *p; p++)
		free(*p);
	free(argv);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Copies one argument starting at *p into dst (big enough: never longer than the line), advancing *p. */
static int take_word(const char **p, char *dst)
{
	const char *s = *p;
	size_t n = 0;
	while (*s && !is_blank(*s)) {
		if (*s == '\'') {
			const char *end = strchr(s + 1, '\'');
			if (!end)
				return ior_error_set(IOR_EINVALID, "unterminated ' quote in command");
			memcpy(dst + n, s + 1, (size_t)(end - s - 1));
			n += (size_t)(end - s - 1);
			s = end + 1;
		} else if (*s == '"') {
			for (s++; *s != '"'; s++) {
				if (!*s)
					return ior_error_set(IOR_EINVALID, "unterminated \" quote in command");
				if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
					s++;
				dst[n++] = *s;
			}
			s++;
		} else if (*s == '\\') {
			if (!s[1])
				return ior_error_set(IOR_EINVALID, "trailing backslash in command");
			dst[n++] = s[1];
			s += 2;
		} else {
			dst[n++] = *s++;
		}
	}
	dst[n] = '\0';
	*p = s;
	return IOR_OK;
}

int ior_argv_split(char ***out, const char *line)
{
	*out = NULL;
	size_t len = strlen(line), cap = len / 2 + 2, n = 0;
	char **argv = calloc(cap, sizeof(*argv));
	char *word = malloc(len + 1);
	if (!argv || !word) {
		free(argv);
		free(word);
		return ior_error_set(IOR_ERROR, "out of memory splitting a command");
	}
	const char *p = line;
	int rc = IOR_OK;
	for (;;) {
		while (is_blank(*p))
			p++;
		if (!*p)
			break;
		rc = take_word(&p, word);
		if (rc == IOR_OK && !(argv[n++] = strdup(word)))
			rc = ior_error_set(IOR_ERROR, "out of memory splitting a command");
		if (rc != IOR_OK)
			break;
	}
	free(word);
	if (rc != IOR_OK) {
		ior_argv_free(argv);
		return rc;
	}
	*out = argv;
	return IOR_OK;
}
