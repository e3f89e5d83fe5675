/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ways a bisection's candidates are measured: the user's commands, packaged kernels booted under
 * qemu or on a real machine, a kernel tree built and booted. A new way is one file defining a `const struct
 * ior_bisect_way ior_bisect_way_NAME` and one X() line in IOR_BISECT_WAYS, before the ways it must
 * win over (the first that takes a bisection measures it). */
#ifndef IOR_BISECT_WAY_H
#define IOR_BISECT_WAY_H

#include <stdbool.h>

#include "bisect/session.h"

struct ior_bisect_way {
	const char *name;
	/* Whether this way measures s's bisection (its source, its kernel config, the run's options). */
	bool (*takes)(const struct ior_bisect_session *s);
	/* Checks what the way needs (a matrix, a measure command) before anything is built or recorded,
	 * remembers it in the bisection for the next run, and opens s->m. */
	int (*open)(struct ior_bisect_session *s);
	/* Lines of its own after the answer (a kernel tree's describe and config); NULL: none. */
	int (*answer)(struct ior_bisect_session *s, const struct ior_bisect_result *res);
	/* However the run ended (rc: its result), puts back what the way changed outside the work tree (a
	 * real machine's own kernel); returns rc, or its own error when rc was 0. NULL: nothing to put back. */
	int (*finish)(struct ior_bisect_session *s, int rc);
	/* Frees s->way_data; NULL: nothing kept. */
	void (*close)(struct ior_bisect_session *s);
};

#define IOR_BISECT_WAYS X(target) X(kernel_tree) X(packages) X(commands)

#define X(name) extern const struct ior_bisect_way ior_bisect_way_##name;
IOR_BISECT_WAYS
#undef X

#endif
