/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The samples a user's measure command prints: one plain decimal number per line, anything else
 * refused with its line. */
#include "bisect/measure.h"

#include "common/error.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* [+-] digits [. digits] [(e|E) [+-] digits], with a digit before or after the point: strtod also
 * takes nan, inf, hex and a locale's own forms, which are not measurements. */
static bool plain_decimal(const char *s, size_t len)
{
	size_t i = 0, digits = 0;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	for (; i < len && isdigit((unsigned char)s[i]); i++)
		digits++;
	if (i < len && s[i] == '.')
		for (i++; i < len && isdigit((unsigned char)s[i]); i++)
			digits++;
	if (!digits)
		return false;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		size_t exp = 0;
		for (; i < len && isdigit((unsigned char)s[i]); i++)
			exp++;
		if (!exp)
			return false;
	}
	return i == len;
}

/* The line as a message shows it: at most 40 bytes, control bytes as '?'. */
static void shown(const char *s, size_t len, char *out, size_t cap)
{
	size_t k = 0;
	for (size_t i = 0; i < len && k + 4 < cap && i < 40; i++)
		out[k++] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	if (len > 40 && k + 4 < cap)
		out[k++] = '.', out[k++] = '.', out[k++] = '.';
	out[k] = '\0';
}

/* One trimmed line as a sample, or a message saying why it is none. */
static int parse_line(const char *s, size_t len, size_t line, double *v)
{
	char what[64];
	shown(s, len, what, sizeof(what));
	if (memchr(s, '\0', len))
		return ior_error_set(IOR_EINVALID, "measure output line %zu: a NUL byte ('%s')", line, what);
	if (!plain_decimal(s, len))
		return ior_error_set(IOR_EINVALID, "measure output line %zu: '%s' is not a decimal number (one sample per "
				     "line, e.g. 812.5 or 1.2e3; nan, inf and hex are refused)", line, what);
	char *copy = strndup(s, len), *end = NULL;
	if (!copy)
		return ior_error_set(IOR_ERROR, "out of memory");
	errno = 0;
	*v = strtod(copy, &end);
	int err = errno;
	free(copy);
	if (!isfinite(*v) || (err == ERANGE && fabs(*v) > 1))
		return ior_error_set(IOR_EINVALID, "measure output line %zu: '%s' is out of range", line, what);
	if (fpclassify(*v) == FP_SUBNORMAL || (err == ERANGE && *v == 0))
		return ior_error_set(IOR_EINVALID, "measure output line %zu: '%s' is too small to be a measurement "
				     "(below %g)", line, what, 2.2250738585072014e-308);
	return IOR_OK;
}

int ior_bisect_parse_samples(const char *text, size_t len, double **x, size_t *n)
{
	size_t before = *n, line = 0;
	const char *p = text, *end = text + len;
	int rc = IOR_OK;
	while (rc == IOR_OK && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;
		line++;
		while (p < stop && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		const char *last = stop;
		while (last > p && (last[-1] == ' ' || last[-1] == '\t' || last[-1] == '\r'))
			last--;
		if (last > p) {
			double v = 0;
			if ((rc = parse_line(p, (size_t)(last - p), line, &v)) == IOR_OK) {
				double *g = realloc(*x, (*n + 1) * sizeof(*g));
				if (!g)
					rc = ior_error_set(IOR_ERROR, "out of memory");
				else
					*x = g, (*x)[(*n)++] = v;
			}
		}
		p = nl ? nl + 1 : end;
	}
	if (rc == IOR_OK && *n == before)
		rc = ior_error_set(IOR_EINVALID, "measure output holds no sample (one number per line)");
	if (rc)
		*n = before;
	return rc;
}
