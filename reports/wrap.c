/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The wrapping of reports/wrap.h. */
#include "reports/wrap.h"

#include <string.h>

/* Columns a terminal or a mail reader gives n bytes of UTF-8: one per character (continuation
 * bytes take none); the reports' text holds no double-width characters of its own. */
static size_t columns(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* Whether a line is a table row or a heading, which a mail shows best whole. Text tables pad their
 * columns with two spaces or more, where a sentence has one (device names such as "SATA RAID"
 * included); Markdown's rows start with '|' and headings with '#'. */
static bool kept_whole(const char *line, size_t len, size_t indent, enum ior_wrap_syntax syntax)
{
	if (syntax == IOR_WRAP_MARKDOWN && indent < len && (line[indent] == '|' || line[indent] == '#'))
		return true;
	for (size_t i = indent; i + 1 < len; i++)
		if (line[i] == ' ' && line[i + 1] == ' ')
			return true;
	return false;
}

/* How far a continuation line is indented: under a Markdown list item's text; in plain text two
 * more than the line, so the reader sees where a line goes on; a Markdown paragraph not at all
 * (its lines join again when rendered). */
static size_t hanging(const char *line, size_t len, size_t indent, enum ior_wrap_syntax syntax)
{
	if (syntax == IOR_WRAP_TEXT)
		return indent + 2;
	if (indent + 1 < len && (line[indent] == '-' || line[indent] == '*') && line[indent + 1] == ' ')
		return indent + 2;
	return indent;
}

static void wrap_line(FILE *out, const char *line, size_t len, unsigned width, size_t indent, size_t cont)
{
	size_t at = indent, col = indent, lead = indent;   /* lead: where this output line's text starts */
	fwrite(line, 1, indent, out);
	while (at < len) {
		size_t word = at;
		while (word < len && line[word] != ' ')
			word++;
		size_t wlen = word - at, wcols = columns(line + at, wlen);
		if (col > lead && col + 1 + wcols > width) {
			fprintf(out, "\n%*s", (int)cont, "");
			col = lead = cont;
		} else if (col > lead) {
			fputc(' ', out);
			col++;
		}
		fwrite(line + at, 1, wlen, out);
		col += wcols;
		at = word;
		while (at < len && line[at] == ' ')
			at++;
	}
	fputc('\n', out);
}

void ior_wrap_write(FILE *out, const char *text, size_t len, unsigned width, enum ior_wrap_syntax syntax)
{
	bool fenced = false;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
		const char *line = text + at;
		size_t indent = strspn(line, " ");
		if (indent > n)
			indent = n;
		if (syntax == IOR_WRAP_MARKDOWN && n >= indent + 3 && !strncmp(line + indent, "```", 3))
			fenced = !fenced;
		if (!width || syntax == IOR_WRAP_NONE || columns(line, n) <= width || fenced || indent + 3 >= n ||
		    kept_whole(line, n, indent, syntax)) {
			fwrite(line, 1, n, out);
			if (nl)
				fputc('\n', out);
		} else {
			wrap_line(out, line, n, width, indent, hanging(line, n, indent, syntax));
		}
		at += n + (nl ? 1 : 0);
	}
}
