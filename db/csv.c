/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CSV reader behind db/csv.h: the file is read whole, then cut into records one call at a time. */
#include "db/csv.h"

#include "common/error.h"
#include "common/named_file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CSV_MAX_BYTES = 256 << 20 };   /* far above any result file; stops a wrong path eating memory */

static int read_all(struct ior_csv *c, const char *path)
{
	/* a FIFO would block and /dev/zero never end: regular files only */
	FILE *f = NULL;
	int rc = ior_fopen_regular(path, "", &f, NULL);
	if (rc)
		return IOR_EINVALID;
	size_t cap = 0;
	for (;;) {
		if (c->len + 4096 + 1 > cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			char *p = realloc(c->buf, ncap);
			if (!p) {
				rc = ior_error_set(IOR_ERROR, "cannot import '%s': out of memory", path);
				break;
			}
			c->buf = p;
			cap = ncap;
		}
		size_t got = fread(c->buf + c->len, 1, cap - c->len - 1, f);
		c->len += got;
		if (c->len > CSV_MAX_BYTES) {
			rc = ior_error_set(IOR_EINVALID, "cannot import '%s': larger than %d MiB", path, CSV_MAX_BYTES >> 20);
			break;
		}
		if (got == 0) {
			if (ferror(f))
				rc = ior_error_errno(IOR_EINVALID, errno, "cannot read '%s'", path);
			break;
		}
	}
	fclose(f);
	if (!rc)
		c->buf[c->len] = '\0';
	return rc;
}

int ior_csv_open(struct ior_csv *c, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->line = 1;
	int rc = read_all(c, path);
	if (rc) {
		ior_csv_close(c);
		return rc;
	}
	if (c->len >= 3 && memcmp(c->buf, "\xEF\xBB\xBF", 3) == 0)
		c->pos = 3;
	return 0;
}

void ior_csv_close(struct ior_csv *c)
{
	free(c->buf);
	free(c->text);
	free(c->fields);
	free(c->offsets);
	memset(c, 0, sizeof(*c));
}

static int peek(const struct ior_csv *c, size_t ahead)
{
	return c->pos + ahead < c->len ? (unsigned char)c->buf[c->pos + ahead] : EOF;
}

/* A line end at pos: its length (1 for LF, 2 for CRLF), 0 when none. */
static size_t eol_at(const struct ior_csv *c)
{
	if (peek(c, 0) == '\n')
		return 1;
	if (peek(c, 0) == '\r' && (peek(c, 1) == '\n' || peek(c, 1) == EOF))
		return peek(c, 1) == '\n' ? 2 : 1;
	return 0;
}

static bool text_add(struct ior_csv *c, size_t *used, char ch)
{
	if (*used + 1 > c->text_cap) {
		size_t n = c->text_cap ? c->text_cap * 2 : 256;
		char *p = realloc(c->text, n);
		if (!p)
			return false;
		c->text = p;
		c->text_cap = n;
	}
	c->text[(*used)++] = ch;
	return true;
}

static bool field_start(struct ior_csv *c, size_t used)
{
	if (c->nfields + 1 > c->fields_cap) {
		size_t n = c->fields_cap ? c->fields_cap * 2 : 16;
		size_t *o = realloc(c->offsets, n * sizeof(*o));
		if (!o)
			return false;
		c->offsets = o;
		char **f = realloc(c->fields, n * sizeof(*f));
		if (!f)
			return false;
		c->fields = f;
		c->fields_cap = n;
	}
	c->offsets[c->nfields++] = used;
	return true;
}

/* Skips the rest of the physical line after a syntax error. */
static int fail(struct ior_csv *c, const char *error)
{
	c->error = error;
	c->error_field = c->nfields ? c->nfields - 1 : 0;
	while (c->pos < c->len && !eol_at(c))
		c->pos++;
	size_t e = eol_at(c);
	if (e) {
		c->pos += e;
		c->line++;
	}
	return -1;
}

/* A quoted field; pos is on the opening quote. */
static int quoted(struct ior_csv *c, size_t *used)
{
	c->pos++;
	for (;;) {
		int ch = peek(c, 0);
		if (ch == EOF) {
			c->error = "unterminated quoted field";
			c->error_field = c->nfields - 1;
			return -1;
		}
		if (ch == '\0')
			return fail(c, "NUL byte");
		if (ch == '"' && peek(c, 1) != '"')
			break;
		if (ch == '"')
			c->pos++;
		if (ch == '\n')
			c->line++;
		if (!text_add(c, used, (char)ch))
			return -2;
		c->pos++;
	}
	c->pos++;
	while (peek(c, 0) == ' ' || peek(c, 0) == '\t')
		c->pos++;
	if (peek(c, 0) != ',' && peek(c, 0) != EOF && !eol_at(c))
		return fail(c, "text after closing quote");
	return 0;
}

/* An unquoted field, without the spaces around it. */
static int unquoted(struct ior_csv *c, size_t *used)
{
	size_t end = *used;
	for (int ch; (ch = peek(c, 0)) != EOF && ch != ',' && !eol_at(c); c->pos++) {
		if (ch == '"')
			return fail(c, "quote inside an unquoted field (quote the whole field)");
		if (ch == '\0')
			return fail(c, "NUL byte");
		/* a classic Mac file ends lines with CR alone: read on, it would be one line of wrong fields */
		if (ch == '\r')
			return fail(c, "carriage return inside an unquoted field: lines end with LF or CRLF, not CR alone "
				    "(convert with: tr '\\r' '\\n')");
		if (!text_add(c, used, (char)ch))
			return -2;
		if (ch != ' ' && ch != '\t')
			end = *used;
	}
	*used = end;
	return 0;
}

static void skip_blank_lines(struct ior_csv *c)
{
	for (size_t e; (e = eol_at(c)) != 0; c->line++)
		c->pos += e;
}

int ior_csv_next(struct ior_csv *c)
{
	skip_blank_lines(c);
	c->nfields = 0;
	c->record_line = c->line;
	if (c->pos >= c->len)
		return 0;
	size_t used = 0;
	for (;;) {
		if (!field_start(c, used))
			return -2;
		while (peek(c, 0) == ' ' || peek(c, 0) == '\t')
			c->pos++;
		int rc = peek(c, 0) == '"' ? quoted(c, &used) : unquoted(c, &used);
		if (rc)
			return rc;
		if (!text_add(c, &used, '\0'))
			return -2;
		if (peek(c, 0) != ',')
			break;
		c->pos++;
	}
	size_t e = eol_at(c);
	c->pos += e;
	if (e)
		c->line++;
	for (size_t i = 0; i < c->nfields; i++)
		c->fields[i] = c->text + c->offsets[i];
	return 1;
}
