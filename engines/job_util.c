/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small pieces of the fio job semantics: block-offset generators and the write data pattern. */
#include "engines/job.h"
#include "common/error.h"

#include <string.h>

static uint64_t splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int ior_offsets_init(struct ior_offsets *g, uint64_t nblocks, bool random, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->nblocks = nblocks;
	g->random = random;
	int rc = random ? ior_random_map_init(&g->map, nblocks) : IOR_OK;
	if (rc)
		return rc;
	ior_offsets_reseed(g, seed);
	return IOR_OK;
}

void ior_offsets_reseed(struct ior_offsets *g, uint64_t seed)
{
	g->pos = 0;
	g->x = seed * 0x2545f4914f6cdd1dULL + 1;
	if (g->random)
		ior_random_map_clear(&g->map);
}

void ior_offsets_free(struct ior_offsets *g)
{
	if (g->random)
		ior_random_map_free(&g->map);
}

uint64_t ior_offsets_next(struct ior_offsets *g)
{
	if (g->pos == g->nblocks) {
		g->pos = 0;
		if (g->random)
			ior_random_map_clear(&g->map);
	}
	g->pos++;
	if (!g->random)
		return g->pos - 1;
	/* uniform over the region (the high half of a 128-bit product), then fio's rule */
	uint64_t b = (uint64_t)(((unsigned __int128)splitmix(&g->x) * g->nblocks) >> 64);
	if (ior_random_map_used(&g->map, b))
		b = ior_random_map_next_free(&g->map, b);
	ior_random_map_use(&g->map, b);
	return b;
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
