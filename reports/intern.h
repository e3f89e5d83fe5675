/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Interned strings for the report model: one copy of each host, kernel, device, scheduler and
 * engine name however many cells carry it. */
#ifndef IOR_REPORTS_INTERN_H
#define IOR_REPORTS_INTERN_H

#include <stddef.h>

struct ior_intern;

int ior_intern_new(struct ior_intern **out);
void ior_intern_free(struct ior_intern *in);  /* NULL is a no-op */

/* The pool's copy of s (NULL for NULL), made safe to print: invalid UTF-8 and the hazards of
 * common/text.h become U+FFFD, tabs and line breaks a space, valid until the pool is freed: equal strings give
 * one pointer. *oom is set when out of memory (and NULL returned). */
const char *ior_intern(struct ior_intern *in, const char *s, int *oom);

#endif
