/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ways that boot each candidate: packaged kernels (the list given at start) under qemu or on a
 * real machine over SSH (--target), and a kernel tree built per commit with the config given at start.
 * Each measurement is a vm run boot of the run's matrix, checked on the host before anything is built,
 * booted or recorded. */
#include "bisect/kernel_tree.h"
#include "bisect/way.h"

#include "common/error.h"
#include "common/stop.h"
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
	if (s->o.target) { /* each measurement a boot of the machine (bisect/measure_target.c) */
		g->vm.o.target = s->o.target;
		return ior_bisect_measure_target(&s->m, s->db, s->b.id, &g->vm.o);
	}
	if (packages)
		return ior_bisect_measure_vm(&s->m, s->db, &g->vm.o);
	ior_bisect_kernel_tree_opts(&g->kb, &s->kconfig, s->b.repo);
	return ior_bisect_measure_kernel(&s->m, s->db, s->b.id, &g->kb, &g->vm.o);
}

/* First of the ways when --target is given, so a kernel tree is refused rather than booted under qemu. */
static bool takes_target(const struct ior_bisect_session *s)
{
	return s->o.target != NULL;
}

static int open_target(struct ior_bisect_session *s)
{
	if (!takes_packages(s))
		return ior_error_set(IOR_EINVALID, "--target: a bisection on a machine is of packaged kernels ('bisect start "
				     "--kernels'); a kernel tree is bisected under qemu");
	return open_guest(s);
}

/* The machine back on its own kernel, what was installed removed, however the run ended; a stop request
 * ends every command at once, so then recover (or the next run) does it. */
static int finish_target(struct ior_bisect_session *s, int rc)
{
	if (!s->m)
		return rc;
	if (ior_stop_requested()) {
		fprintf(stderr, "bisect: %s may still run a test kernel: 'ioregress recover' boots its own again and "
			"removes what was installed ('bisect run' continues the bisection)\n", s->o.target->url.name);
		return rc;
	}
	struct ior_error_state first;
	ior_error_save(&first, rc);
	int back = ior_bisect_measure_target_finish(s->m, s->o.out);
	if (back && rc)
		fprintf(stderr, "error: %s\n", ior_error_last());
	return ior_error_restore(&first, back);
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

const struct ior_bisect_way ior_bisect_way_target = {
	.name = "target", .takes = takes_target, .open = open_target, .finish = finish_target, .close = close_guest,
};

const struct ior_bisect_way ior_bisect_way_kernel_tree = {
	.name = "kernel-tree", .takes = takes_kernel_tree, .open = open_guest, .answer = answer_kernel_tree,
	.close = close_guest,
};
