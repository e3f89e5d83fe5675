/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Interned strings: an open-addressing hash set over strings kept in large blocks. */
#include "reports/intern.h"

#include "common/error.h"
#include "common/text.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct block {
	struct block *next;
	size_t used, cap;
	char data[];
};

struct ior_intern {
	const char **slot;   /* power-of-two table */
	size_t cap, n;
	struct block *blocks;
};

int ior_intern_new(struct ior_intern **out)
{
	struct ior_intern *in = calloc(1, sizeof(*in));
	if (in) {
		in->cap = 256;
		in->slot = calloc(in->cap, sizeof(*in->slot));
	}
	if (!in || !in->slot) {
		ior_intern_free(in);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	*out = in;
	return IOR_OK;
}

void ior_intern_free(struct ior_intern *in)
{
	if (!in)
		return;
	for (struct block *b = in->blocks, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	free(in->slot);
	free(in);
}

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;  /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static const char *intern_clean(struct ior_intern *in, const char *s, int *oom);

static bool grow(struct ior_intern *in)
{
	size_t cap = in->cap * 2;
	const char **slot = calloc(cap, sizeof(*slot));
	if (!slot)
		return false;
	for (size_t i = 0; i < in->cap; i++) {
		if (!in->slot[i])
			continue;
		size_t j = hash(in->slot[i]) & (cap - 1);
		while (slot[j])
			j = (j + 1) & (cap - 1);
		slot[j] = in->slot[i];
	}
	free(in->slot);
	in->slot = slot;
	in->cap = cap;
	return true;
}

static const char *store(struct ior_intern *in, const char *s)
{
	size_t len = strlen(s) + 1;
	struct block *b = in->blocks;
	if (!b || b->cap - b->used < len) {
		size_t cap = len > 65536 ? len : 65536;
		if (!(b = malloc(sizeof(*b) + cap)))
			return NULL;
		b->next = in->blocks;
		b->used = 0;
		b->cap = cap;
		in->blocks = b;
	}
	char *copy = b->data + b->used;
	memcpy(copy, s, len);
	b->used += len;
	return copy;
}

/* Valid UTF-8 with invalid bytes and hazards (common/text.h) replaced, so that no renderer can
 * emit a broken document, a terminal escape or reordered text from a name in the database
 * (one written before names were checked, or by another tool). */
static char *clean(const char *s, char *buf, size_t cap)
{
	size_t need = strlen(s) * 3 + 1;
	char *out = need <= cap ? buf : malloc(need);
	if (!out)
		return NULL;
	size_t o = 0;
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		uint32_t c = 0;
		size_t len = ior_text_utf8(p, &c);
		if (len == 1 && (*p == '\t' || *p == '\n' || *p == '\r')) {
			out[o++] = ' ';
		} else if (len == 0 || ior_text_hazard(c)) {
			memcpy(out + o, "\xef\xbf\xbd", 3);  /* U+FFFD */
			o += 3;
			len = len ? len : 1;
		} else {
			memcpy(out + o, p, len);
			o += len;
		}
		p += len;
	}
	out[o] = 0;
	return out;
}

const char *ior_intern(struct ior_intern *in, const char *raw, int *oom)
{
	if (!raw)
		return NULL;
	char buf[512];
	char *s = clean(raw, buf, sizeof(buf));
	if (!s) {
		*oom = 1;
		return NULL;
	}
	const char *kept = intern_clean(in, s, oom);
	if (s != buf)
		free(s);
	return kept;
}

static const char *intern_clean(struct ior_intern *in, const char *s, int *oom)
{
	if (in->n * 2 >= in->cap && !grow(in)) {
		*oom = 1;
		return NULL;
	}
	size_t j = hash(s) & (in->cap - 1);
	while (in->slot[j]) {
		if (!strcmp(in->slot[j], s))
			return in->slot[j];
		j = (j + 1) & (in->cap - 1);
	}
	const char *copy = store(in, s);
	if (!copy) {
		*oom = 1;
		return NULL;
	}
	in->slot[j] = copy;
	in->n++;
	return copy;
}

