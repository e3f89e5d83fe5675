/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A rendered text or Markdown report with its prose wrapped at a width, for a mail to a kernel list:
 * table rows, headings and fenced blocks are kept whole, as a mail reader shows them best. */
#ifndef IOR_REPORTS_WRAP_H
#define IOR_REPORTS_WRAP_H

#include <stdbool.h>
#include <stdio.h>

enum ior_wrap_syntax {
	IOR_WRAP_NONE,      /* a format whose lines are not prose (HTML, JSON, CSV, ...): no width */
	IOR_WRAP_TEXT,      /* aligned columns hold two spaces in a row; a continuation is indented */
	IOR_WRAP_MARKDOWN,  /* '|' rows and '#' headings are whole; a list item's continuation under its text */
};

/* Writes text (len bytes) to out with each prose line longer than width broken at spaces; a word
 * longer than the width (a path, an address) stays whole on its own line. */
void ior_wrap_write(FILE *out, const char *text, size_t len, unsigned width, enum ior_wrap_syntax syntax);

#endif
