/* Format escapes for model strings. */
#include "reports/escape.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

void ior_esc_json(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else if (*p == '<')  /* keeps "</script>" out of a JSON copy embedded in HTML */
			fputs("\\u003c", out);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

void ior_esc_xml(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			if (*p < 0x20)  /* not allowed in XML 1.0 at all */
				fputs("\xef\xbf\xbd", out);
			else
				fputc(*p, out);
		}
	}
}

void ior_esc_csv(FILE *out, const char *s)
{
	if (!s)
		return;
	size_t len = strlen(s);
	bool quote = strpbrk(s, ",\"\r\n") || (len && (s[0] == ' ' || s[len - 1] == ' '));
	if (!quote) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

void ior_esc_md(FILE *out, const char *s)
{
	for (const char *p = s; p && *p; p++) {
		if (*p == '<')
			fputs("&lt;", out);
		else if (*p == '>')
			fputs("&gt;", out);
		else if (*p == '&')
			fputs("&amp;", out);
		else if (strchr("\\`*_[]|#!~", *p))
			fprintf(out, "\\%c", *p);
		else
			fputc(*p, out);
	}
}

void ior_json_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.15g", v);
	else
		fputs("null", out);
}
