/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The project's one seeded generator (xoshiro256** seeded by splitmix64): bootstraps, permutation tests, shuffled repetition orders and scratch fills repeat from a seed. */
#ifndef IOR_COMMON_RNG_H
#define IOR_COMMON_RNG_H

#include <stddef.h>
#include <stdint.h>

struct ior_rng {
	uint64_t s[4];
};
void ior_rng_seed(struct ior_rng *r, uint64_t seed);
uint64_t ior_rng_next(struct ior_rng *r);
double ior_rng_uniform(struct ior_rng *r);          /* [0, 1) */
size_t ior_rng_below(struct ior_rng *r, size_t n);  /* [0, n) */
double ior_rng_normal(struct ior_rng *r);           /* standard normal */

#endif
