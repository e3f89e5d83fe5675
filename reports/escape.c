/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Format escapes for model strings. */
#include "reports/escape.h"

#include <math.h>
#include <stdlib.h>
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

/* A field a spreadsheet would take as a formula (=, +, -, @, tab or CR first: OWASP's CSV injection
 * advice), unless the whole field is a number such as -5.3. */
static bool formula_like(const char *s)
{
	if (!*s || !strchr("=+-@\t\r", *s))
		return false;
	char *end = NULL;
	strtod(s, &end);
	return end == s || *end;
}

void ior_esc_csv(FILE *out, const char *s)
{
	if (!s)
		return;
	size_t len = strlen(s);
	bool formula = formula_like(s);
	bool quote = formula || strpbrk(s, ",\"\r\n") || (len && (s[0] == ' ' || s[len - 1] == ' '));
	if (!quote) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	if (formula)
		fputc('\'', out);   /* shown as text, the quote itself hidden by the spreadsheet */
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

/* "-whole.frac" with frac written in fdigits digits (none: no point) into buf; its length, or 0
 * when buf is too small. */
static size_t put_digits(char *buf, size_t len, bool negative, unsigned long long whole, unsigned long long frac,
			 int fdigits)
{
	char tmp[48];
	size_t n = 0;
	for (int d = 0; d < fdigits; d++, frac /= 10)
		tmp[n++] = (char)('0' + frac % 10);
	if (fdigits)
		tmp[n++] = '.';
	do {
		tmp[n++] = (char)('0' + whole % 10);
		whole /= 10;
	} while (whole);
	if (negative)
		tmp[n++] = '-';
	if (n + 1 > len)
		return 0;
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = 0;
	return n;
}

size_t ior_num_format(char *buf, size_t len, double v)
{
	double a = fabs(v);
	/* Fixed point with nine decimals, trailing zeros dropped, by integer arithmetic: exact for
	 * the figures tools print (115.51, 4521.375) and ten times faster than printf's %g, which a
	 * million samples feel. Outside [1e-3, 1e6) nine decimals are too few, or more than a double
	 * holds (1e6 x 1e9 nears 2^53): %g. */
	if (v == 0 || (a >= 1e-3 && a < 1e6)) {
		unsigned long long scaled = (unsigned long long)llround(a * 1e9);
		unsigned long long frac = scaled % 1000000000ull;
		int digits = frac ? 9 : 0;
		while (frac && frac % 10 == 0) {
			frac /= 10;
			digits--;
		}
		return put_digits(buf, len, v < 0 && scaled, scaled / 1000000000ull, frac, digits);
	}
	int n = snprintf(buf, len, "%.15g", v);
	return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

void ior_json_num(FILE *out, double v)
{
	char buf[48];
	if (isfinite(v) && ior_num_format(buf, sizeof(buf), v))
		fputs(buf, out);
	else
		fputs("null", out);
}

size_t ior_fixed_format(char *buf, size_t len, double v, int decimals)
{
	static const unsigned long long pow10[] = { 1, 10, 100, 1000, 10000 };
	bool fast = decimals >= 0 && decimals <= 4 && isfinite(v);
	double scaled = fast ? fabs(v) * (double)pow10[decimals] : 0;
	/* Integer digits where they cannot differ from printf's, not too large. printf rounds the exact
	 * binary value and the product above may round a hair either way, so near a tie (every third
	 * value stored with three decimals, 111.665, is one at two) the side is read from the exact
	 * product: fma forms |v| x 10^d - (k + 1/2) with one rounding, which keeps its sign, and an
	 * exact tie goes to the even neighbour as glibc's printf does in the default rounding mode. */
	if (!fast || scaled >= 1e15) {
		int n = snprintf(buf, len, "%.*f", decimals < 0 ? 0 : decimals, v);
		return n > 0 && (size_t)n < len ? (size_t)n : 0;
	}
	unsigned long long q;
	double k = floor(scaled);
	if (fabs(scaled - k - 0.5) < 1e-6) {
		double side = fma(fabs(v), (double)pow10[decimals], -(k + 0.5));
		q = (unsigned long long)k + (side > 0 || (side == 0 && fmod(k, 2) != 0));
	} else {
		q = (unsigned long long)llround(scaled);
	}
	return put_digits(buf, len, v < 0, q / pow10[decimals], q % pow10[decimals], decimals);
}

void ior_put_fixed(FILE *out, int width, double v, int decimals)
{
	char buf[64];
	static const char spaces[] = "                                ";
	size_t n = ior_fixed_format(buf, sizeof(buf), v, decimals);
	for (int pad = width - (int)n; pad > 0; pad -= (int)sizeof(spaces) - 1)
		fwrite(spaces, 1, pad < (int)sizeof(spaces) - 1 ? (size_t)pad : sizeof(spaces) - 1, out);
	fwrite(buf, 1, n, out);
}
