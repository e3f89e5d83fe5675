/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The items of a canonical parameter text that differ from the rows' defaults: what fio prints of a
 * job (only what was set), so names built from parameters stay short. */
#include "options/option.h"

#include "common/error.h"

#include <stdlib.h>
#include <string.h>

/* The length of the item at p: up to the next ',' that no '\\' escapes (ior_options_format escapes
 * ',', '=' and '\\' inside strings). */
static size_t item_len(const char *p)
{
	size_t n = 0;
	while (p[n] && p[n] != ',')
		n += p[n] == '\\' && p[n + 1] ? 2 : 1;
	return n;
}

/* Whether the item p[0..n) is one of the items of list. */
static bool has_item(const char *list, const char *p, size_t n)
{
	for (const char *q = list; *q;) {
		size_t m = item_len(q);
		if (m == n && !memcmp(q, p, n))
			return true;
		q += m + (q[m] == ',');
	}
	return false;
}

int ior_options_changed(const struct ior_option *rows, size_t size, const char *params, char *buf, size_t len)
{
	if (!len)
		return ior_error_set(IOR_ERROR, "options do not fit in 0 bytes");
	buf[0] = 0;
	void *blob = calloc(1, size ? size : 1);
	if (!blob)
		return ior_error_set(IOR_ERROR, "out of memory");
	/* the defaults' text is as long as the rows make it: grow until it fits */
	char *defaults = NULL;
	int rc = ior_options_defaults(rows, blob);
	for (size_t cap = 256; !rc && cap <= (1u << 20); cap *= 2) {
		char *grown = realloc(defaults, cap);
		if (!grown) {
			rc = ior_error_set(IOR_ERROR, "out of memory");
			break;
		}
		defaults = grown;
		if (ior_options_format(rows, blob, defaults, cap) == IOR_OK)
			break;
		rc = cap * 2 > (1u << 20) ? IOR_ERROR : IOR_OK;
	}
	ior_options_free(rows, blob);
	free(blob);
	size_t used = 0;
	for (const char *p = params; !rc && p && *p;) {
		size_t n = item_len(p);
		if (n && !has_item(defaults, p, n)) {
			if (used + n + 2 > len) {
				rc = ior_error_set(IOR_ERROR, "options do not fit in %zu bytes", len);
				break;
			}
			if (used)
				buf[used++] = ',';
			memcpy(buf + used, p, n);
			buf[used += n] = 0;
		}
		p += n + (p[n] == ',');
	}
	free(defaults);
	if (rc == IOR_OK)
		ior_error_clear();
	return rc;
}
