/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Setting up and tearing down the block devices a matrix names (see run_devices.h). */
#include "run/run_devices.h"
#include "common/error.h"
#include "db/db.h"
#include "device/guard.h"
#include "run/run.h"
#include "run/run_modules.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A loop device given by path over a file with holes: every read of a hole is served by the
 * filesystem below without touching storage, so the figures would be the filesystem's. */
static void warn_if_sparse_loop(const struct ior_matrix_device *spec, const char *path,
				struct ior_run_summary *summary)
{
	char backing[PATH_MAX];
	uint64_t holes = 0;
	if (ior_loopdev_backing_file(path, backing, sizeof(backing)) != IOR_OK ||
	    ior_fill_hole_bytes(backing, &holes) != IOR_OK || holes == 0)
		return;
	ior_run_warn(summary, "device '%s': '%s' is a loop device over '%s', which is sparse (%.1f MiB of holes): "
		     "reads of holes measure the filesystem, not storage; fill the file first (dd if=/dev/urandom)",
		     spec->name, path, backing, (double)holes / 1048576.0);
}

static int prepare_one(struct ior_run_device *d, const struct ior_matrix_device *spec, struct ior_db *db,
		       int64_t run_id, struct ior_run_summary *summary)
{
	d->spec = spec;
	d->lock_fd = -1;
	const char *path = spec->opts.path;
	if (spec->opts.loop) {
		const char *dir = spec->opts.backing_dir && *spec->opts.backing_dir ? spec->opts.backing_dir : "/tmp";
		char file[PATH_MAX];
		ior_loopdev_scratch_name(file, sizeof(file), dir);
		int rc = ior_db_undo_add(db, run_id, "file", file, NULL, &d->file_undo_id);
		if (rc == IOR_OK)
			rc = ior_loopdev_create_at(&d->loop, file, spec->opts.loop, spec->opts.direct_io,
						   (enum ior_fill)spec->opts.fill);
		if (rc)
			return ior_error_wrap(rc, "device '%s'", spec->name);
		path = d->loop.path;
	} else {
		struct stat st;
		if (stat(path, &st) != 0)
			return ior_error_errno(IOR_ENOTFOUND, errno, "device '%s': cannot use '%s'", spec->name, path);
		if (!S_ISBLK(st.st_mode))
			return ior_error_set(IOR_EINVALID, "device '%s': '%s' is not a block device", spec->name, path);
		warn_if_sparse_loop(spec, path, summary);
	}
	snprintf(d->path, sizeof(d->path), "%s", path);
	/* the one open of the device: a link that moves later (flipped, /dev/disk/by-* re-enumerated)
	 * cannot move what the guards check or what the engines write to */
	int rc = ior_guard_lock(path, &d->lock_fd);
	snprintf(d->open_path, sizeof(d->open_path), "/proc/%d/fd/%d", (int)getpid(), d->lock_fd);
	if (rc == IOR_OK)
		rc = ior_blockdev_probe(d->open_path, &d->info);
	if (rc)
		return ior_error_wrap(rc, "device '%s'", spec->name);
	for (size_t i = 0; i < d->info.nschedulers; i++)
		d->offered[i] = d->info.schedulers[i];
	d->offered[d->info.nschedulers] = NULL;
	d->target = (struct ior_target){
		.name = spec->name,
		.path = d->open_path,
		.size = d->info.size,
		.logical_block = d->info.logical_block,
		.destructive = spec->opts.destructive,
		.fill = spec->opts.loop ? ior_fill_names[d->loop.filled.fill] : NULL,
	};
	return IOR_OK;
}

int ior_run_devices_prepare(struct ior_run_device **out, const struct ior_matrix *m, struct ior_db *db,
			    int64_t run_id, struct ior_run_summary *summary)
{
	*out = calloc(m->ndevices ? m->ndevices : 1, sizeof(**out));
	if (!*out)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < m->ndevices; i++)
		(*out)[i].lock_fd = -1;
	for (size_t i = 0; i < m->ndevices; i++) {
		int rc = prepare_one(&(*out)[i], &m->devices[i], db, run_id, summary);
		if (rc) {
			struct ior_error_state failed;
			ior_error_save(&failed, rc);
			ior_run_devices_teardown(*out, i + 1, db);
			*out = NULL;
			return ior_error_restore(&failed, rc);
		}
	}
	return IOR_OK;
}

/* The fill of a scratch device, in the database and in the run's summary. */
static int record_fill(struct ior_run_device *d, struct ior_db *db, int64_t run_id, struct ior_run_summary *summary)
{
	const struct ior_fill_result *f = &d->loop.filled;
	if (summary->nfills < IOR_RUN_MAX_FILLS) {
		struct ior_run_fill *out = &summary->fills[summary->nfills++];
		snprintf(out->device, sizeof(out->device), "%s", d->spec->name);
		out->fill = ior_fill_names[f->fill];
		out->bytes = f->bytes;
		out->seconds = f->seconds;
	}
	return ior_db_fill_add(db, run_id, d->db_id, d->loop.backing, ior_fill_names[f->fill], f->bytes, f->seconds);
}

int ior_run_devices_record(struct ior_run_device *devs, size_t n, struct ior_db *db, int64_t host_id,
			   struct ior_run_modules *modules, struct ior_run_summary *summary)
{
	int64_t run_id = summary->run_id;
	for (size_t i = 0; i < n; i++) {
		struct ior_run_device *d = &devs[i];
		struct ior_db_device rec = {
			.name = d->spec->name,
			.path = d->path,
			.model = d->info.model,
			.rotational = d->info.rotational,
			.size = d->info.size,
			.logical_block = d->info.logical_block,
			.physical_block = d->info.physical_block,
		};
		/* a scratch device is the matrix's name in this run: resumed, it is attached again under
		 * another /dev/loopN, and a new device row would make new cells and measure everything again */
		int rc = d->spec->opts.loop ? ior_db_run_device_by_name(db, run_id, d->spec->name, &d->db_id) : IOR_ENOTFOUND;
		if (rc == IOR_ENOTFOUND)
			rc = ior_db_device_get(db, host_id, &rec, &d->db_id);
		if (rc == IOR_OK && d->spec->opts.loop)
			rc = record_fill(d, db, run_id, summary);
		for (size_t s = 0; rc == IOR_OK && s < d->info.nschedulers; s++)
			rc = ior_db_offer_add(db, run_id, d->db_id, d->info.schedulers[s], (int)s == d->info.active,
					      ior_run_module_state(modules, d->info.schedulers[s]));
		if (rc)
			return ior_error_wrap(rc, "cannot record device '%s'", d->spec->name);
	}
	return IOR_OK;
}

int ior_run_devices_teardown(struct ior_run_device *devs, size_t n, struct ior_db *db)
{
	if (!devs)
		return IOR_OK;
	int first = IOR_OK;
	for (size_t i = 0; i < n; i++) {
		ior_guard_unlock(devs[i].lock_fd);
		int rc = ior_loopdev_destroy(&devs[i].loop);
		/* a failed create leaves no file either: the journal entry is closed both ways */
		if (rc == IOR_OK && devs[i].file_undo_id)
			ior_db_undo_done(db, devs[i].file_undo_id);
		if (rc && first == IOR_OK)
			first = rc;
	}
	free(devs);
	return first;
}
