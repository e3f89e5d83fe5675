/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ways that boot each candidate under qemu: packaged kernels (the list given at start), and a
 * kernel tree built per commit with the config given at start. Each measurement is a vm run boot of
 * the run's matrix, checked on the host before anything is built, booted or recorded. */
#include "bisect/kernel_tree.h"
#include "bisect/way.h"

#include "common/error.h"
#include "vm/guest_matrix.h"
#include "vm/vm.h"

#include <stdlib.h>
#include <string.h>

struct guest {
	struct ior_vm_run_setup vm;
	struct ior_kbuild_opts kb;
};

static bool takes_packages(const struct ior_bisect_session *s)
{
	return !strcmp(s->b.source, "packages");
}

static bool takes_kernel_tree(const struct ior_bisect_session *s)
{
	return !takes_packages(s) && s->kconfig.found;
}

/* The boots' options from the run's matrix, checked and remembered; then the way's step. */
static int open_guest(struct ior_bisect_session *s)
{
	bool packages = takes_packages(s);
	struct guest *g = calloc(1, sizeof(*g));
	if (!g)
		return ior_error_set(IOR_ERROR, "out of memory");
	s->way_data = g;
	ior_vm_run_defaults(&g->vm);
	g->vm.o.guest.matrix = s->o.matrix;
	g->vm.o.progress = false;   /* the driver names each boot by its commit, not by the image's path */
	if (!s->o.matrix)
		return ior_error_set(IOR_EINVALID, "'bisect run' over %s needs --matrix FILE",
				     packages ? "packaged kernels" : "a kernel tree");
	/* parsed and expanded here as vm run does, before anything is built, booted or recorded */
	char said[400] = "";
	g->vm.o.machine.memory_mb = 0; /* sized from the matrix's files, as vm run does */
	int rc = ior_vm_guest_matrix_check(s->o.matrix, &g->vm.o, said, sizeof(said));
	if (!rc && said[0])
		fprintf(stderr, "bisect: %s\n", said);
	if (!rc)
		rc = ior_bisect_set_matrix(s->db, s->b.id, s->o.matrix);
	if (rc)
		return rc;
	if (packages)
		return ior_bisect_measure_vm(&s->m, s->db, &g->vm.o);
	ior_bisect_kernel_tree_opts(&g->kb, &s->kconfig, s->b.repo);
	return ior_bisect_measure_kernel(&s->m, s->db, s->b.id, &g->kb, &g->vm.o);
}

static int answer_kernel_tree(struct ior_bisect_session *s, const struct ior_bisect_result *res)
{
	return ior_bisect_kernel_tree_answer(s->o.out, s->db, &s->b, &s->kconfig,
					     res->end == IOR_BISECT_FOUND ? res->culprit : NULL);
}

static void close_guest(struct ior_bisect_session *s)
{
	free(s->way_data);
	s->way_data = NULL;
}

const struct ior_bisect_way ior_bisect_way_packages = {
	.name = "packages", .takes = takes_packages, .open = open_guest, .close = close_guest,
};

const struct ior_bisect_way ior_bisect_way_kernel_tree = {
	.name = "kernel-tree", .takes = takes_kernel_tree, .open = open_guest, .answer = answer_kernel_tree,
	.close = close_guest,
};
