/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small pieces of the fio job semantics: block-offset generators and the write data pattern. */
#include "engines/job.h"

#include <string.h>

static uint64_t splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void new_pass(struct ior_offsets *g)
{
	g->pos = 0;
	if (!g->random)
		return;
	/* a = 1 mod 4 and c odd give an LCG of full period 2^k. */
	g->mult = ((splitmix(&g->x) << 2) | 1ULL) & g->mask;
	g->add = (splitmix(&g->x) | 1ULL) & g->mask;
	g->x = splitmix(&g->x);
}

void ior_offsets_init(struct ior_offsets *g, uint64_t nblocks, bool random, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->nblocks = nblocks;
	g->random = random;
	uint64_t m = 1;
	while (m < nblocks)
		m <<= 1;
	g->mask = m - 1;
	g->x = seed * 0x2545f4914f6cdd1dULL + 1;
	new_pass(g);
}

/* A bijection of [0, 2^k): spreads the LCG's weak low bits. */
static uint64_t mix(const struct ior_offsets *g, uint64_t v)
{
	unsigned k = 0;
	while ((g->mask >> k) & 1)
		k++;
	unsigned s = k / 2 ? k / 2 : 1;
	v ^= v >> s;
	v = (v * 0x9e3779b97f4a7c15ULL) & g->mask;
	v ^= v >> s;
	return v;
}

uint64_t ior_offsets_next(struct ior_offsets *g)
{
	if (g->pos == g->nblocks)
		new_pass(g);
	g->pos++;
	if (!g->random)
		return g->pos - 1;
	uint64_t v;
	do {
		g->x = (g->x * g->mult + g->add) & g->mask;
		v = mix(g, g->x);
	} while (v >= g->nblocks);
	return v;
}

void ior_pattern_stamp(void *buf, uint64_t len, uint64_t offset)
{
	for (uint64_t i = 0; i + 16 <= len; i += 512) {
		uint64_t head[2] = { offset + i, IOR_PATTERN_MAGIC };
		memcpy((char *)buf + i, head, sizeof(head));
	}
}

bool ior_pattern_check(const void *buf, uint64_t len, uint64_t offset)
{
	for (uint64_t i = 0; i + 16 <= len; i += 512) {
		uint64_t head[2];
		memcpy(head, (const char *)buf + i, sizeof(head));
		if (head[0] != offset + i || head[1] != IOR_PATTERN_MAGIC)
			return false;
	}
	return true;
}
