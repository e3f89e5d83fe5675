/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The checks of db/accept.h. */
#include "db/accept.h"

#include "common/text.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

bool ior_db_name_ok(const char *text, char *why, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	for (size_t i = 0, at = 1, n; s[i]; i += n, at++) {
		/* a byte that starts no valid sequence is taken alone as itself: bytes of other
		 * encodings are not ours to judge, but a lone 0x9b is still a C1 control */
		uint32_t c = s[i];
		n = ior_text_utf8(s + i, &c);
		if (!n)
			n = 1, c = s[i];
		const char *wrong = ior_text_hazard(c);
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
