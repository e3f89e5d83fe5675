/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing model strings into each format's syntax: JSON strings, XML/HTML text and attributes, CSV
 * fields, Markdown table cells. */
#ifndef IOR_REPORTS_ESCAPE_H
#define IOR_REPORTS_ESCAPE_H

#include <stdio.h>

/* Strings reach these already cleaned (reports/intern.h: valid UTF-8, no control
 * characters); these add only the format's own escapes. NULL writes the format's "none". */
void ior_esc_json(FILE *out, const char *s);   /* "..." with \" \\ and \uXXXX; null for NULL */
void ior_esc_xml(FILE *out, const char *s);    /* &amp; &lt; &gt; &quot; &#39;; nothing for NULL */
/* RFC 4180: quoted when it holds , " or a space at an end; a field a spreadsheet would run as a
 * formula (=, +, -, @, tab or CR first, and not a number such as -5.3) is quoted with a leading ' */
void ior_esc_csv(FILE *out, const char *s);
void ior_esc_md(FILE *out, const char *s);     /* backslash before Markdown's punctuation, | in tables; entities for < > & */

/* A finite number as JSON and CSV write it: up to nine decimals without trailing zeros in
 * [1e-3, 1e6), %.15g outside. Returns its length (0 when buf is too small). */
size_t ior_num_format(char *buf, size_t len, double v);
/* v with decimals (0 to 4) digits after the point, exactly as printf's "%.*f" writes it, by
 * integer arithmetic except next to a tie; a million table entries are printf's heaviest work.
 * Returns the length (0 when buf is too small). */
size_t ior_fixed_format(char *buf, size_t len, double v, int decimals);

/* The same written to out right-aligned in width columns: fprintf's "%*.*f". */
void ior_put_fixed(FILE *out, int width, double v, int decimals);

/* A number for JSON: ior_num_format when finite, null otherwise. */
void ior_json_num(FILE *out, double v);

#endif
