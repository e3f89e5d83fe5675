/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bytes of file a matrix's run creates besides the devices it measures: its scratch loop devices'
 * files, kept for the whole run, and the largest that one cell creates for itself (a loop stack).
 * A vm run guest keeps every file in RAM, so they size its memory. */
#include "matrix/matrix.h"

#include "engines/engine.h"

void ior_matrix_file_bytes(const struct ior_matrix *m, uint64_t *devices, uint64_t *largest_cell)
{
	*devices = *largest_cell = 0;
	for (size_t i = 0; i < m->ndevices; i++)
		*devices += m->devices[i].opts.loop;
	/* cells run one at a time, each removing what it made before the next starts */
	for (size_t i = 0; i < m->nengines; i++) {
		const struct ior_matrix_engine *e = &m->engines[i];
		uint64_t b = e->ops->file_bytes ? e->ops->file_bytes(e->opts) : 0;
		if (b > *largest_cell)
			*largest_cell = b;
	}
}
