/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The checks of db/accept.h. */
#include "db/accept.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

/* The code point of the UTF-8 sequence at s and its length in *n; a byte that starts no valid
 * sequence is taken alone as itself (bytes of other encodings are not ours to judge here). */
static uint32_t decode(const unsigned char *s, size_t *n)
{
	*n = 1;
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return s[0];
	size_t len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	uint32_t c = s[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return s[0];
		c = c << 6 | (s[i] & 0x3f);
	}
	*n = len;
	return c;
}

static const char *what_is_wrong(uint32_t c)
{
	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f))
		return "control character";
	if (c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069))
		return "bidirectional control";
	if (c == 0x2028 || c == 0x2029)
		return "line or paragraph separator";
	return NULL;
}

bool ior_db_name_ok(const char *text, char *why, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	for (size_t i = 0, at = 1, n; s[i]; i += n, at++) {
		uint32_t c = decode(s + i, &n);
		const char *wrong = what_is_wrong(c);
		if (!wrong)
			continue;
		if (c < 0x80)
			snprintf(why, len, "%s 0x%02x at character %zu", wrong, (unsigned)c, at);
		else
			snprintf(why, len, "U+%04X (a %s) at character %zu", (unsigned)c, wrong, at);
		return false;
	}
	return true;
}

const char *ior_db_value_problem(double v)
{
	if (!isfinite(v))
		return "is out of range";
	if (v < 0)
		return "is negative";
	return NULL;
}
