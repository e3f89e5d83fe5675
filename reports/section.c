/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A report section's values as every format shows them, and freeing the sections. */
#include "reports/section.h"

#include "reports/escape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ior_sections_free(struct ior_sections *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < IOR_SECTION_COUNT; i++) {
		free(x->s[i].v);
		free(x->s[i].marked);
		free(x->s[i].chart);
	}
	for (size_t i = 0; i < x->nowned; i++)
		free(x->owned[i]);
	free(x->owned);
	free(x);
}

bool ior_section_line(const char **p, char *buf, size_t len)
{
	if (!*p || !**p)
		return false;
	size_t l = strcspn(*p, "\n");
	snprintf(buf, len, "%.*s", (int)l, *p);
	*p += l + ((*p)[l] == '\n');
	return true;
}

void ior_section_sentence(FILE *out, const struct ior_section *s, const struct ior_value *v,
			  const struct ior_sentence_syntax *x)
{
	for (size_t c = 0; c < s->ncols; c++) {
		const struct ior_column *col = &s->cols[c];
		if (v[c].missing && col->optional)
			continue;
		char num[64], line[2048];
		const char *p = ior_section_value(num, sizeof(num), col, &v[c]);
		if (col->type == IOR_COL_LIST && !v[c].missing) {
			for (size_t k = 0; ior_section_line(&p, line, sizeof(line)); k++) {
				fputs(x->item ? x->item : k && col->join ? col->join : col->before ? col->before : "", out);
				x->put(out, line);
			}
			if (!x->item)
				fputs(col->after ? col->after : "", out);
			continue;
		}
		fputs(col->before ? col->before : "", out);
		fputs(col->strong && x->strong ? x->strong : "", out);
		x->put(out, p);
		fputs(col->strong && x->unstrong ? x->unstrong : "", out);
		fputs(col->after ? col->after : "", out);
	}
}

bool ior_column_right(const struct ior_column *c)
{
	return c->right || c->type == IOR_COL_NUMBER || c->type == IOR_COL_PERCENT || c->type == IOR_COL_P;
}

const char *ior_section_value(char *buf, size_t len, const struct ior_column *c, const struct ior_value *v)
{
	if (v->missing)
		return c->missing ? c->missing : "";
	switch (c->type) {
	case IOR_COL_NUMBER:
		snprintf(buf, len, c->sign ? "%+.*f" : "%.*f", c->precision, v->x);
		return buf;
	case IOR_COL_PERCENT:
		snprintf(buf, len, c->sign ? "%+.*f%%" : "%.*f%%", c->precision, v->x * 100);
		return buf;
	case IOR_COL_P:
		snprintf(buf, len, "%.3g", v->x);
		return buf;
	default:
		return v->s ? v->s : (c->missing ? c->missing : "");
	}
}
