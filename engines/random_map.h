/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The blocks a random job has used in its pass: one bit each, with levels above that find the next free one quickly. */
#ifndef IOR_ENGINES_RANDOM_MAP_H
#define IOR_ENGINES_RANDOM_MAP_H

#include <stdbool.h>
#include <stdint.h>

/* 64 bits a word, so 11 levels reach 2^64 blocks. */
#define IOR_RANDOM_MAP_LEVELS 11

struct ior_random_map {
	uint64_t nblocks;
	unsigned levels;
	/* level 0: a set bit is a used block; level i+1: a set bit is a full word of level i.
	 * Bits past the end of a level are set from the start, so they are never free. */
	uint64_t *map[IOR_RANDOM_MAP_LEVELS];
	uint64_t words[IOR_RANDOM_MAP_LEVELS];
	uint64_t *mem;
};

/* Allocates the map of nblocks (> 0) blocks, all free; IOR_ERROR when memory runs out. */
int ior_random_map_init(struct ior_random_map *m, uint64_t nblocks);
void ior_random_map_free(struct ior_random_map *m);
/* Every block free again. */
void ior_random_map_clear(struct ior_random_map *m);
bool ior_random_map_used(const struct ior_random_map *m, uint64_t block);
void ior_random_map_use(struct ior_random_map *m, uint64_t block);
/* The first free block after block, or else the first free one from the start (the map's
 * wrap); UINT64_MAX when none is free. */
uint64_t ior_random_map_next_free(const struct ior_random_map *m, uint64_t block);

#endif
