/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Option rows: one generic parser, range checks, defaults, canonical formatting and freeing for every table of rows. */
#include "options/option.h"
#include "common/error.h"
#include "common/suggest.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One parsed value, held apart from the blob until it has passed every check. */
union value {
	bool b;
	uint64_t u;
	double d;
	char *s;
	int e;
};

static void *field(void *blob, const struct ior_option *row)
{
	return (char *)blob + row->offset;
}

static const void *cfield(const void *blob, const struct ior_option *row)
{
	return (const char *)blob + row->offset;
}

static int parse_uint(const char *text, uint64_t *out)
{
	if (!isdigit((unsigned char)text[0]))
		return ior_error_set(IOR_EINVALID, "'%s' is not a whole number", text);
	char *end;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 10);
	if (errno == ERANGE)
		return ior_error_set(IOR_EINVALID, "'%s' is too large", text);
	if (*end)
		return ior_error_set(IOR_EINVALID, "'%s' is not a whole number", text);
	*out = v;
	return IOR_OK;
}

static int parse_double(const char *text, double *out)
{
	const char *digits = text[0] == '-' ? text + 1 : text;
	char *end;
	/* Only plain decimals: strtod would also accept "inf", "nan" and hex. */
	if (!isdigit((unsigned char)digits[0]) && !(digits[0] == '.' && isdigit((unsigned char)digits[1])))
		return ior_error_set(IOR_EINVALID, "'%s' is not a number", text);
	for (const char *p = digits; *p; p++)
		if (!isdigit((unsigned char)*p) && *p != '.' && *p != 'e' && *p != 'E' && *p != '-' && *p != '+')
			return ior_error_set(IOR_EINVALID, "'%s' is not a number", text);
	double v = strtod(text, &end);
	if (*end || !isfinite(v))
		return ior_error_set(IOR_EINVALID, "'%s' is not a number", text);
	*out = v;
	return IOR_OK;
}

static int parse_enum(const struct ior_option *row, const char *text, int *out)
{
	struct ior_suggestion near;
	char list[256] = "";
	ior_suggest_init(&near);
	for (int i = 0; row->choices && row->choices[i]; i++) {
		if (strcmp(text, row->choices[i]) == 0) {
			*out = i;
			return IOR_OK;
		}
		ior_suggest_consider(&near, text, row->choices[i]);
		size_t used = strlen(list);
		snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "", row->choices[i]);
	}
	if (near.best)
		return ior_error_set(IOR_EINVALID, "'%s' is not one of %s (did you mean '%s'?)", text, list, near.best);
	return ior_error_set(IOR_EINVALID, "'%s' is not one of %s", text, list);
}

int ior_parse_count(const char *text, double min, double max, uint64_t *out)
{
	uint64_t v = 0;
	if (parse_uint(text, &v) != IOR_OK || (double)v < min || (double)v > max)
		return ior_error_set(IOR_EINVALID, "'%s' is not a whole number from %.10g to %.10g", text, min, max);
	*out = v;
	return IOR_OK;
}

int ior_parse_number(const char *text, double min, double max, double *out)
{
	double v = 0;
	if (parse_double(text, &v) != IOR_OK || v < min || v > max)
		return ior_error_set(IOR_EINVALID, "'%s' is not a number from %.10g to %.10g", text, min, max);
	*out = v;
	return IOR_OK;
}

/* A number in the row's own unit, for range messages. */
void ior_option_format_bound(const struct ior_option *row, double x, char *buf, size_t len)
{
	switch (row->type) {
	case IOR_OPT_SIZE:
		ior_format_size(buf, len, (uint64_t)x);
		break;
	case IOR_OPT_DURATION:
		ior_format_duration(buf, len, x);
		break;
	case IOR_OPT_PERCENT:
		snprintf(buf, len, "%.10g%%", x * 100);
		break;
	default:
		snprintf(buf, len, "%.10g", x);
		break;
	}
}

static int check_range(const struct ior_option *row, const char *text, double x)
{
	if (row->min == 0 && row->max == 0)
		return IOR_OK;
	if (x >= row->min && x <= row->max)
		return IOR_OK;
	char lo[32], hi[32];
	ior_option_format_bound(row, row->min, lo, sizeof(lo));
	ior_option_format_bound(row, row->max, hi, sizeof(hi));
	return ior_error_set(IOR_EINVALID, "'%s' is out of range (%s..%s)", text, lo, hi);
}

/* Parses and range-checks text for row into v; the message lacks the key, the caller adds it. */
static int parse_value(const struct ior_option *row, const char *text, union value *v)
{
	int rc;
	switch (row->type) {
	case IOR_OPT_BOOL:
		return ior_parse_bool(text, &v->b);
	case IOR_OPT_UINT:
	case IOR_OPT_SIZE:
		rc = row->type == IOR_OPT_UINT ? parse_uint(text, &v->u) : ior_parse_size(text, &v->u);
		return rc ? rc : check_range(row, text, (double)v->u);
	case IOR_OPT_DURATION:
	case IOR_OPT_PERCENT:
	case IOR_OPT_DOUBLE:
		rc = row->type == IOR_OPT_DURATION ? ior_parse_duration(text, &v->d)
		   : row->type == IOR_OPT_PERCENT ? ior_parse_percent(text, &v->d)
		   : parse_double(text, &v->d);
		return rc ? rc : check_range(row, text, v->d);
	case IOR_OPT_STRING:
		v->s = strdup(text);
		return v->s ? IOR_OK : ior_error_set(IOR_ERROR, "out of memory");
	case IOR_OPT_ENUM:
		return parse_enum(row, text, &v->e);
	}
	return ior_error_set(IOR_ERROR, "option row of unknown type %d", (int)row->type);
}

static void store(const struct ior_option *row, void *blob, const union value *v)
{
	void *f = field(blob, row);
	switch (row->type) {
	case IOR_OPT_BOOL: *(bool *)f = v->b; break;
	case IOR_OPT_UINT:
	case IOR_OPT_SIZE: *(uint64_t *)f = v->u; break;
	case IOR_OPT_DURATION:
	case IOR_OPT_PERCENT:
	case IOR_OPT_DOUBLE: *(double *)f = v->d; break;
	case IOR_OPT_STRING:
		free(*(char **)f);
		*(char **)f = v->s;
		break;
	case IOR_OPT_ENUM: *(int *)f = v->e; break;
	}
}

static void zero(const struct ior_option *row, void *blob)
{
	union value v;
	memset(&v, 0, sizeof(v));
	if (row->type == IOR_OPT_STRING)
		*(char **)field(blob, row) = NULL;
	else
		store(row, blob, &v);
}

const struct ior_option *ior_option_find(const struct ior_option *rows, const char *key)
{
	for (const struct ior_option *row = rows; row && row->name; row++)
		if (strcmp(row->name, key) == 0)
			return row;
	return NULL;
}

const char *ior_option_suggest(const struct ior_option *rows, const char *key)
{
	struct ior_suggestion near;
	ior_suggest_init(&near);
	for (const struct ior_option *row = rows; row && row->name; row++)
		ior_suggest_consider(&near, key, row->name);
	return near.best;
}

int ior_option_set(const struct ior_option *rows, void *blob, const char *key, const char *value)
{
	const struct ior_option *row = ior_option_find(rows, key);
	if (!row) {
		const char *near = ior_option_suggest(rows, key);
		if (near)
			return ior_error_set(IOR_EINVALID, "%s: unknown key (did you mean '%s'?)", key, near);
		return ior_error_set(IOR_EINVALID, "%s: unknown key", key);
	}
	if (!value || !*value)
		return ior_error_set(IOR_EINVALID, "%s: missing value", key);
	union value v;
	int rc = parse_value(row, value, &v);
	if (rc)
		return ior_error_wrap(rc, "%s", key);
	store(row, blob, &v);
	return IOR_OK;
}

int ior_options_defaults(const struct ior_option *rows, void *blob)
{
	/* Zero everything first so a failure half-way leaves nothing unfreeable. */
	for (const struct ior_option *row = rows; row && row->name; row++)
		zero(row, blob);
	for (const struct ior_option *row = rows; row && row->name; row++) {
		if (!row->def)
			continue;
		union value v;
		int rc = parse_value(row, row->def, &v);
		if (rc) {
			ior_options_free(rows, blob);
			return ior_error_wrap(rc, "%s: bad built-in default", row->name);
		}
		store(row, blob, &v);
	}
	return IOR_OK;
}

/* Writes a string value so that ',' and '=' cannot be mistaken for separators. */
static int format_string(const char *s, char *buf, size_t len)
{
	size_t n = 0;
	for (; s && *s; s++) {
		if (*s == ',' || *s == '=' || *s == '\\') {
			if (n + 1 >= len)
				return IOR_ERROR;
			buf[n++] = '\\';
		}
		if (n + 1 >= len)
			return IOR_ERROR;
		buf[n++] = *s;
	}
	if (n >= len)
		return IOR_ERROR;
	buf[n] = '\0';
	return IOR_OK;
}

static int format_value(const struct ior_option *row, const void *blob, char *buf, size_t len)
{
	const void *f = cfield(blob, row);
	int n;
	switch (row->type) {
	case IOR_OPT_BOOL:
		n = snprintf(buf, len, "%s", *(const bool *)f ? "yes" : "no");
		break;
	case IOR_OPT_UINT:
		n = snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)f);
		break;
	case IOR_OPT_SIZE:
		return ior_format_size(buf, len, *(const uint64_t *)f) ? IOR_ERROR : IOR_OK;
	case IOR_OPT_DURATION:
		return ior_format_duration(buf, len, *(const double *)f) ? IOR_ERROR : IOR_OK;
	case IOR_OPT_PERCENT:
		n = snprintf(buf, len, "%.10g%%", *(const double *)f * 100);
		break;
	case IOR_OPT_DOUBLE:
		n = snprintf(buf, len, "%.10g", *(const double *)f);
		break;
	case IOR_OPT_STRING:
		return format_string(*(char *const *)f, buf, len);
	case IOR_OPT_ENUM: {
		int e = *(const int *)f;
		n = snprintf(buf, len, "%s", row->choices && e >= 0 ? row->choices[e] : "?");
		break;
	}
	default:
		return IOR_ERROR;
	}
	return n < 0 || (size_t)n >= len ? IOR_ERROR : IOR_OK;
}

int ior_options_format(const struct ior_option *rows, const void *blob, char *buf, size_t len)
{
	size_t used = 0;
	if (len == 0)
		return ior_error_set(IOR_ERROR, "options do not fit in 0 bytes");
	buf[0] = '\0';
	for (const struct ior_option *row = rows; row && row->name; row++) {
		int n = snprintf(buf + used, len - used, "%s%s=", used ? "," : "", row->name);
		if (n < 0 || (size_t)n >= len - used)
			return ior_error_set(IOR_ERROR, "options do not fit in %zu bytes", len);
		used += (size_t)n;
		if (format_value(row, blob, buf + used, len - used))
			return ior_error_set(IOR_ERROR, "options do not fit in %zu bytes", len);
		used += strlen(buf + used);
	}
	return IOR_OK;
}

void ior_options_free(const struct ior_option *rows, void *blob)
{
	if (!blob)
		return;
	for (const struct ior_option *row = rows; row && row->name; row++) {
		if (row->type == IOR_OPT_STRING) {
			char **s = field(blob, row);
			free(*s);
			*s = NULL;
		}
	}
}

int ior_options_copy(const struct ior_option *rows, void *dst, const void *src, size_t size)
{
	memcpy(dst, src, size);
	for (const struct ior_option *row = rows; row && row->name; row++)
		if (row->type == IOR_OPT_STRING)
			*(char **)field(dst, row) = NULL;
	for (const struct ior_option *row = rows; row && row->name; row++) {
		if (row->type != IOR_OPT_STRING)
			continue;
		const char *s = *(char *const *)cfield(src, row);
		if (s && !(*(char **)field(dst, row) = strdup(s))) {
			ior_options_free(rows, dst);
			return ior_error_set(IOR_ERROR, "out of memory");
		}
	}
	return IOR_OK;
}
