/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The random job's map of used blocks: a bitmap with a bit per full word above each level, so the
 * next free block after a used one is found in a few words, however full the map. */
#include "engines/random_map.h"
#include "common/error.h"

#include <stdlib.h>
#include <string.h>

static uint64_t words_for(uint64_t bits)
{
	return bits / 64 + (bits % 64 != 0);
}

int ior_random_map_init(struct ior_random_map *m, uint64_t nblocks)
{
	memset(m, 0, sizeof(*m));
	m->nblocks = nblocks;
	uint64_t bits = nblocks, total = 0;
	do {
		m->words[m->levels] = words_for(bits);
		total += m->words[m->levels];
		bits = m->words[m->levels++];
	} while (bits > 1);
	m->mem = malloc(total * sizeof(uint64_t));
	if (!m->mem)
		return ior_error_set(IOR_ERROR, "out of memory for the random map of %llu blocks (%llu KiB)",
				     (unsigned long long)nblocks, (unsigned long long)(total * 8 / 1024));
	uint64_t *p = m->mem;
	for (unsigned l = 0; l < m->levels; l++) {
		m->map[l] = p;
		p += m->words[l];
	}
	ior_random_map_clear(m);
	return IOR_OK;
}

void ior_random_map_free(struct ior_random_map *m)
{
	free(m->mem);
	memset(m, 0, sizeof(*m));
}

void ior_random_map_clear(struct ior_random_map *m)
{
	uint64_t bits = m->nblocks;
	for (unsigned l = 0; l < m->levels; l++) {
		memset(m->map[l], 0, m->words[l] * sizeof(uint64_t));
		if (bits % 64)
			m->map[l][m->words[l] - 1] = ~0ULL << (bits % 64);
		bits = m->words[l];
	}
}

bool ior_random_map_used(const struct ior_random_map *m, uint64_t block)
{
	return m->map[0][block / 64] >> (block % 64) & 1;
}

void ior_random_map_use(struct ior_random_map *m, uint64_t block)
{
	uint64_t bit = block;
	for (unsigned l = 0; l < m->levels; l++) {
		uint64_t *w = &m->map[l][bit / 64];
		*w |= 1ULL << (bit % 64);
		if (*w != ~0ULL)
			return;
		bit /= 64; /* this word is full: its bit one level up */
	}
}

/* The first zero bit of level l at or after bit, searching only the word bit is in; UINT64_MAX when
 * that word has none there. */
static uint64_t free_in_word(const struct ior_random_map *m, unsigned l, uint64_t bit)
{
	uint64_t w = bit / 64;
	if (w >= m->words[l])
		return UINT64_MAX;
	uint64_t free_bits = ~m->map[l][w] & (~0ULL << (bit % 64));
	return free_bits ? w * 64 + (uint64_t)__builtin_ctzll(free_bits) : UINT64_MAX;
}

/* From a free bit of level l down to a free block: each level's word under it has one. */
static uint64_t descend(const struct ior_random_map *m, unsigned l, uint64_t bit)
{
	while (l-- > 0)
		bit = free_in_word(m, l, bit * 64);
	return bit;
}

uint64_t ior_random_map_next_free(const struct ior_random_map *m, uint64_t block)
{
	/* climb while the rest of the word holds nothing free, then come down the first free branch */
	uint64_t bit = block + 1;
	for (unsigned l = 0; l < m->levels; l++) {
		uint64_t got = free_in_word(m, l, bit);
		if (got != UINT64_MAX)
			return descend(m, l, got);
		bit = bit / 64 + 1; /* the next word of this level, as a bit of the one above */
	}
	/* nothing after block: the first free one from the start, as fio's map wraps */
	uint64_t top = free_in_word(m, m->levels - 1, 0);
	return top == UINT64_MAX ? UINT64_MAX : descend(m, m->levels - 1, top);
}
