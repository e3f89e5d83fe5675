/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A small seeded PRNG (xoshiro256** seeded by splitmix64, Blackman & Vigna) so bootstraps,
 * permutation tests and shuffles repeat exactly. */
#include "common/rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void ior_rng_seed(struct ior_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

double ior_rng_uniform(struct ior_rng *r)
{
	return (double)(ior_rng_next(r) >> 11) * 0x1.0p-53;
}

double ior_rng_normal(struct ior_rng *r)
{
	/* Box-Muller; 1 - u keeps the logarithm's argument in (0, 1]. */
	double u = 1.0 - ior_rng_uniform(r), v = ior_rng_uniform(r);
	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}
