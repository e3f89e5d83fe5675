/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Walking a device's cells in the matrix's repetition order (see run_order.h). */
#include "run/run_order.h"
#include "common/error.h"
#include "common/rng.h"
#include "matrix/matrix.h"

#include <stdlib.h>

static void shuffle(size_t *perm, size_t n, struct ior_rng *rng)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = ior_rng_below(rng, i);
		size_t t = perm[i - 1];
		perm[i - 1] = perm[j];
		perm[j] = t;
	}
}

int ior_run_order(int order, const int *caps, size_t n, struct ior_rng *rng, ior_run_visit_fn visit, void *ctx)
{
	int rc = IOR_OK;
	if (order == IOR_ORDER_SEQUENTIAL) {
		for (size_t i = 0; rc == IOR_OK && i < n; i++)
			for (int rep = 1; rc == IOR_OK && rep <= caps[i]; rep++)
				rc = visit(ctx, i, rep);
		return rc;
	}
	/* Rounds: every cell's repetition k before any cell's k+1, so host drift lands on every
	 * cell alike; random draws each round afresh, so no cell always follows the same one. */
	size_t *perm = malloc((n ? n : 1) * sizeof(*perm));
	if (!perm)
		return ior_error_set(IOR_ERROR, "out of memory");
	int rounds = 0;
	for (size_t i = 0; i < n; i++) {
		perm[i] = i;
		if (caps[i] > rounds)
			rounds = caps[i];
	}
	for (int rep = 1; rc == IOR_OK && rep <= rounds; rep++) {
		if (order == IOR_ORDER_RANDOM)
			shuffle(perm, n, rng);
		for (size_t i = 0; rc == IOR_OK && i < n; i++)
			if (rep <= caps[perm[i]])
				rc = visit(ctx, perm[i], rep);
	}
	free(perm);
	return rc;
}
