/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Engine help printed from the registry and each engine's option rows (see engine_help.h). */
#include "harness/engine_help.h"
#include "common/error.h"
#include "engines/engine.h"

#include <string.h>

void ior_help_engines(FILE *out)
{
	fprintf(out, "engine types (ioregress help engine NAME lists one's keys):\n");
	for (size_t i = 0; i < ior_engine_count(); i++)
		fprintf(out, "  %-8s %s\n", ior_engine_at(i)->name, ior_engine_at(i)->help);
}

static const char *type_word(enum ior_opt_type t)
{
	switch (t) {
	case IOR_OPT_BOOL: return "yes/no";
	case IOR_OPT_UINT: return "count";
	case IOR_OPT_SIZE: return "size";
	case IOR_OPT_DURATION: return "duration";
	case IOR_OPT_PERCENT: return "percentage";
	case IOR_OPT_DOUBLE: return "number";
	case IOR_OPT_STRING: return "text";
	case IOR_OPT_ENUM: return "choice";
	}
	return "?";
}

/* "512..1G", "one of read|write", or "" when unbounded. */
static void range_text(char *buf, size_t len, const struct ior_option *r)
{
	buf[0] = '\0';
	if (r->type == IOR_OPT_ENUM) {
		size_t used = 0;
		for (size_t c = 0; r->choices && r->choices[c] && used < len; c++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", c ? "|" : "", r->choices[c]);
		return;
	}
	if (r->min == 0 && r->max == 0)
		return;
	char lo[32], hi[32];
	ior_option_format_bound(r, r->min, lo, sizeof(lo));
	ior_option_format_bound(r, r->max, hi, sizeof(hi));
	snprintf(buf, len, "%s..%s", lo, hi);
}

int ior_help_engine(FILE *out, const char *name)
{
	const struct ior_engine_ops *ops = ior_engine_find(name);
	if (!ops)
		return IOR_ENOTFOUND;
	fprintf(out, "engine %s: %s\n\n", ops->name, ops->help);
	fprintf(out, "%-16s %-10s %-28s %-10s %s\n", "key", "type", "range", "default", "meaning");
	for (const struct ior_option *r = ops->options; r && r->name; r++) {
		char range[256];
		range_text(range, sizeof(range), r);
		fprintf(out, "%-16s %-10s %-28s %-10s %s\n", r->name, type_word(r->type), range, r->def ? r->def : "-",
			r->help ? r->help : "");
	}
	return IOR_OK;
}
