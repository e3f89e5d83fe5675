/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text that came from elsewhere (databases, imports, a target's answers): UTF-8 decoding and the
 * one list of characters that must not reach a terminal or a document as they are. */
#ifndef IOR_COMMON_TEXT_H
#define IOR_COMMON_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Length of the valid UTF-8 sequence at p (1 to 4) with its code point in *code (may be NULL),
 * 0 when p starts an invalid one (a stray byte, an overlong form, a surrogate, past U+10FFFF). */
size_t ior_text_utf8(const unsigned char *p, uint32_t *code);

/* What kind of hazard code point c is, or NULL for none: a "control character" (C0, DEL, C1 such
 * as U+009B, a terminal's CSI in one character) acts on a terminal; a "bidirectional control"
 * (U+202E, U+2066..U+2069, U+200E/F, U+061C) reorders what follows it; a "line or paragraph
 * separator" (U+2028, U+2029) breaks a line where a reader sees none. */
const char *ior_text_hazard(uint32_t c);

/* s rewritten in place for a terminal: each invalid byte and each hazard becomes one '?'. */
void ior_text_neutralise(char *s);

#endif
