/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The project's one seeded generator (xoshiro256** seeded by splitmix64): bootstraps, permutation
 * tests, shuffled repetition orders and scratch fills repeat from a seed. */
#ifndef IOR_COMMON_RNG_H
#define IOR_COMMON_RNG_H

#include <stddef.h>
#include <stdint.h>

struct ior_rng {
	uint64_t s[4];
};
void ior_rng_seed(struct ior_rng *r, uint64_t seed);
double ior_rng_uniform(struct ior_rng *r);          /* [0, 1) */

/* Inline: a report's bootstraps and permutation tests draw about a hundred million numbers at a
 * million samples, and the call cost as much as the generator. */
static inline uint64_t ior_rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t ior_rng_next(struct ior_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = ior_rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = ior_rng_rotl(s[3], 45);
	return result;
}

/* [0, n). The modulo bias is below 2^-50 for the sizes used here (n < 2^14). */
static inline size_t ior_rng_below(struct ior_rng *r, size_t n)
{
	return (size_t)(ior_rng_next(r) % (uint64_t)n);
}

double ior_rng_normal(struct ior_rng *r);           /* standard normal */

#endif
