/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A report section's values as every format shows them, and freeing the sections. */
#include "reports/section.h"

#include "reports/escape.h"

#include <stdio.h>
#include <stdlib.h>

void ior_sections_free(struct ior_sections *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < IOR_SECTION_COUNT; i++) {
		free(x->s[i].v);
		free(x->s[i].marked);
	}
	for (size_t i = 0; i < x->nowned; i++)
		free(x->owned[i]);
	free(x->owned);
	free(x);
}

bool ior_column_right(const struct ior_column *c)
{
	return c->type == IOR_COL_NUMBER || c->type == IOR_COL_PERCENT || c->type == IOR_COL_P;
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
