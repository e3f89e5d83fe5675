/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The decoding and the hazard list of common/text.h. */
#include "common/text.h"

size_t ior_text_utf8(const unsigned char *p, uint32_t *code)
{
	uint32_t c = p[0];
	size_t len = p[0] < 0x80 ? 1 : p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3
		   : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
	if (len > 1)
		c &= 0x7f >> len;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	/* overlong forms, surrogates and code points past U+10FFFF */
	if ((len == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) || (len == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	if (code)
		*code = c;
	return len;
}

const char *ior_text_hazard(uint32_t c)
{
	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f))
		return "control character";
	if (c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069))
		return "bidirectional control";
	if (c == 0x2028 || c == 0x2029)
		return "line or paragraph separator";
	return 0;
}

void ior_text_neutralise(char *s)
{
	char *out = s;
	for (const unsigned char *p = (const unsigned char *)s; p && *p;) {
		uint32_t c;
		size_t len = ior_text_utf8(p, &c);
		if (!len || ior_text_hazard(c)) {
			*out++ = '?';
			p += len ? len : 1;
			continue;
		}
		while (len--)
			*out++ = (char)*p++;
	}
	if (s)
		*out = 0;
}
