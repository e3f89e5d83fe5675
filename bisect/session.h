/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `bisect run` as a session: opened over the current bisection with what the run was given (the
 * candidate source, and the way of measuring the bisection's kind takes, checked and remembered),
 * run to an answer, closed (the work tree back at what was checked out at start). */
#ifndef IOR_BISECT_SESSION_H
#define IOR_BISECT_SESSION_H

#include <stdbool.h>
#include <stdio.h>

#include "bisect/driver.h"
#include "vm/target.h"

/* What a run was given. Commands and matrix left NULL are the last run's. */
struct ior_bisect_run_opts {
	struct ior_bisect_commands c;   /* the user's commands (--measure, --build, --boot, --artifact/--image, --timeout) */
	const char *matrix;             /* over packaged kernels or a kernel tree: the matrix each boot runs */
	struct ior_bisect_judge_opts o;
	double budget_s;                /* --budget (bisect/driver.h); 0: none */
	const struct ior_vm_target_opts *target; /* packaged kernels on a real machine (--target); NULL: qemu */
	FILE *out;                      /* progress, the answer and the closing lines; warnings go to stderr */
};

struct ior_bisect_way;

struct ior_bisect_session {
	struct ior_db *db;
	struct ior_bisect_info b;          /* the bisection */
	struct ior_bisect_run_opts o;      /* as given, commands and matrix defaulted to the last run's */
	struct ior_bisect_kconfig kconfig; /* found: a kernel tree (bisect start --kernel) */
	const struct ior_bisect_way *way;  /* how its candidates are measured */
	void *way_data;                    /* what the way keeps for the session, freed by its close */
	struct ior_bisect_source *src;
	struct ior_bisect_measure *m;
	bool drove;                        /* the driver ran: the tree is put back at close */
};

/* Reads the current bisection, chooses its way of measuring (bisect/way.h) and opens it, and the
 * candidate source. On an error *out is still set (close it). */
int ior_bisect_session_open(struct ior_bisect_session **out, struct ior_db *db, const struct ior_bisect_run_opts *o);
/* Drives the bisection to its end (ior_bisect_drive), then says the work it took and the way's own
 * lines of the answer. */
int ior_bisect_session_run(struct ior_bisect_session *s, struct ior_bisect_result *res);
/* However the run ended (rc: its result), the work tree goes back to what was checked out at start;
 * frees s (NULL is a no-op). Returns rc, or the restore's error when rc was 0. */
int ior_bisect_session_close(struct ior_bisect_session *s, int rc);

/* The bisection's candidate source: its git work tree, or its list of packaged kernels. */
int ior_bisect_source_of(const struct ior_bisect_info *b, struct ior_bisect_source **src);

#endif
