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
