/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The devices of one run: scratch loop devices created, existing ones checked, each probed and recorded. */
#ifndef IOR_RUN_RUN_DEVICES_H
#define IOR_RUN_RUN_DEVICES_H

#include <limits.h>
#include <stdint.h>

#include "device/blockdev.h"
#include "device/loopdev.h"
#include "engines/engine.h"
#include "matrix/matrix.h"

struct ior_db;

struct ior_run_device {
	const struct ior_matrix_device *spec;
	struct ior_loopdev loop;          /* attached when spec->opts.loop is set */
	struct ior_blockdev info;
	struct ior_target target;         /* its path is open_path: engines open the checked device, never the name again */
	int64_t db_id;
	int lock_fd;                      /* the device opened once: the lock (one run per device at a time),
					   * what the write guards check, what open_path names */
	char path[PATH_MAX];              /* the name the matrix gave (or the scratch /dev/loopN): messages, records */
	char open_path[64];               /* /proc/PID/fd/lock_fd, valid in this process and its children */
	int64_t sched_undo_id;            /* journal entry of its first scheduler switch, 0 = none */
	int64_t file_undo_id;             /* journal entry of a scratch device's backing file */
	char current[32];                 /* the scheduler the run last set on it, "" before the first */
	bool stuck;                       /* requests on it were given up on: no scheduler switch touches it again */
	char *offered[IOR_MAX_SCHEDULERS + 1]; /* NULL-terminated view into info.schedulers */
};

/* Creates the matrix's scratch devices (each backing file journaled before it exists) and
 * probes all of them. On failure everything
 * created so far is torn down again. */
struct ior_run_summary;
/* A device given by path that is a loop device over a file with holes gets a warning in summary:
 * its reads would measure how the filesystem serves holes. */
int ior_run_devices_prepare(struct ior_run_device **out, const struct ior_matrix *m, struct ior_db *db,
			    int64_t run_id, struct ior_run_summary *summary);

struct ior_run_modules;
/* Records each device and the schedulers it offers, with their module states, and each scratch
 * device's fill (in the database and in summary). */
int ior_run_devices_record(struct ior_run_device *devs, size_t n, struct ior_db *db, int64_t host_id,
			   struct ior_run_modules *modules, struct ior_run_summary *summary);

/* Detaches scratch devices and removes their files; restores nothing (schedulers first!). */
int ior_run_devices_teardown(struct ior_run_device *devs, size_t n, struct ior_db *db);

#endif
