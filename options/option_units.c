/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit parsers and canonical formatters for option values: sizes, durations, percentages, booleans. */
#include "options/option.h"
#include "common/error.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Length of the plain decimal at the start of s ("12", "0.5", ".5"), 0 when there is none.
 * strtod alone would also take "inf", "0x1p3", " 7" and exponents, none of which a
 * matrix file should mean. */
static size_t decimal_length(const char *s)
{
	size_t n = 0, digits = 0;
	while (isdigit((unsigned char)s[n])) {
		n++;
		digits++;
	}
	if (s[n] == '.') {
		n++;
		while (isdigit((unsigned char)s[n])) {
			n++;
			digits++;
		}
	}
	return digits ? n : 0;
}

/* Reads the decimal prefix of text; *rest points after it. */
static int scan_decimal(const char *text, double *value, const char **rest)
{
	char copy[64];
	size_t n = decimal_length(text);
	if (n == 0 || n >= sizeof(copy))
		return IOR_EINVALID;
	memcpy(copy, text, n);
	copy[n] = '\0';
	*value = strtod(copy, NULL);
	if (!isfinite(*value))
		return IOR_EINVALID;
	*rest = text + n;
	return IOR_OK;
}

static unsigned size_shift(char c)
{
	switch (tolower((unsigned char)c)) {
	case 'k': return 10;
	case 'm': return 20;
	case 'g': return 30;
	case 't': return 40;
	default: return 0;
	}
}

int ior_parse_size(const char *text, uint64_t *bytes)
{
	const char *p = text;
	uint64_t n = 0;
	if (!isdigit((unsigned char)*p))
		return ior_error_set(IOR_EINVALID, "'%s' is not a size (use a whole number with k, M, G or T)", text);
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');
		if (n > (UINT64_MAX - d) / 10)
			return ior_error_set(IOR_EINVALID, "'%s' is too large", text);
		n = n * 10 + d;
	}
	unsigned shift = size_shift(*p);
	if (shift)
		p++;
	if (shift && (*p == 'i' || *p == 'I') && (p[1] == 'b' || p[1] == 'B'))
		p += 2;
	else if (*p == 'b' || *p == 'B')
		p++;
	if (*p)
		return ior_error_set(IOR_EINVALID, "'%s' is not a size (use a whole number with k, M, G or T)", text);
	if (shift && n > (UINT64_MAX >> shift))
		return ior_error_set(IOR_EINVALID, "'%s' is too large", text);
	*bytes = n << shift;
	return IOR_OK;
}

int ior_parse_duration(const char *text, double *seconds)
{
	const char *unit;
	double v;
	if (scan_decimal(text, &v, &unit) != IOR_OK)
		return ior_error_set(IOR_EINVALID, "'%s' is not a duration (use a number with ms, s, m or h)", text);
	double scale;
	if (strcmp(unit, "") == 0 || strcmp(unit, "s") == 0)
		scale = 1;
	else if (strcmp(unit, "ms") == 0)
		scale = 0.001;
	else if (strcmp(unit, "m") == 0)
		scale = 60;
	else if (strcmp(unit, "h") == 0)
		scale = 3600;
	else
		return ior_error_set(IOR_EINVALID, "'%s' is not a duration (use a number with ms, s, m or h)", text);
	if (!isfinite(v * scale))
		return ior_error_set(IOR_EINVALID, "'%s' is too large", text);
	*seconds = v * scale;
	return IOR_OK;
}

int ior_parse_percent(const char *text, double *fraction)
{
	const char *rest;
	double v;
	if (scan_decimal(text, &v, &rest) != IOR_OK || (*rest && strcmp(rest, "%") != 0))
		return ior_error_set(IOR_EINVALID, "'%s' is not a percentage (write '10%%' or a fraction such as '0.10')", text);
	if (*rest) {
		*fraction = v / 100;
		return IOR_OK;
	}
	/* A bare "10" is far more likely to mean 10% than 1000%: make the writer say which. */
	if (v > 1)
		return ior_error_set(IOR_EINVALID, "'%s' is ambiguous (write '%s%%', or a fraction up to 1)", text, text);
	*fraction = v;
	return IOR_OK;
}

int ior_parse_bool(const char *text, bool *value)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(text, yes[i]) == 0) {
			*value = true;
			return IOR_OK;
		}
		if (strcasecmp(text, no[i]) == 0) {
			*value = false;
			return IOR_OK;
		}
	}
	return ior_error_set(IOR_EINVALID, "'%s' is not yes or no", text);
}

static int fits(int n, size_t len)
{
	if (n < 0 || (size_t)n >= len)
		return ior_error_set(IOR_ERROR, "value does not fit in %zu bytes", len);
	return IOR_OK;
}

/* bytes in the largest power-of-1024 unit that divides it: "4M" as a size key takes it, or with
 * words "4 MiB" for a sentence. */
static int format_in_units(char *buf, size_t len, uint64_t bytes, bool words)
{
	static const char units[] = "TGMK";
	for (int i = 0; i < 4; i++) {
		unsigned shift = 40 - 10 * (unsigned)i;
		unsigned long long n = (unsigned long long)(bytes >> shift);
		if (bytes && bytes % ((uint64_t)1 << shift) == 0)
			return fits(words ? snprintf(buf, len, "%llu %ciB", n, units[i]) : snprintf(buf, len, "%llu%c", n, units[i]),
				    len);
	}
	unsigned long long n = (unsigned long long)bytes;
	return fits(words ? snprintf(buf, len, "%llu bytes", n) : snprintf(buf, len, "%llu", n), len);
}

int ior_format_size(char *buf, size_t len, uint64_t bytes)
{
	return format_in_units(buf, len, bytes, false);
}

int ior_format_bytes(char *buf, size_t len, uint64_t bytes)
{
	return format_in_units(buf, len, bytes, true);
}

/* True when x is a whole multiple of unit, allowing for binary fractions (0.1 s). */
static bool whole_in(double x, double unit)
{
	double q = x / unit;
	return fabs(q - round(q)) < 1e-9 * fmax(1, fabs(q));
}

int ior_format_duration(char *buf, size_t len, double seconds)
{
	static const struct { double unit; const char *suffix; } units[] = {
		{ 3600, "h" }, { 60, "m" }, { 1, "s" }, { 0.001, "ms" },
	};
	if (seconds == 0)
		return fits(snprintf(buf, len, "0s"), len);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (whole_in(seconds, units[i].unit) && seconds / units[i].unit < 1e15)
			return fits(snprintf(buf, len, "%.0f%s", round(seconds / units[i].unit), units[i].suffix), len);
	return fits(snprintf(buf, len, "%.9gs", seconds), len);
}
