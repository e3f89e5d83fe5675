/* The run loop (see run.h): record kernel and host, prepare devices, walk the cells, always clean up. */
#include "harness/run.h"
#include "common/error.h"
#include "common/stop.h"
#include "db/db.h"
#include "device/scheduler.h"
#include "harness/progress.h"
#include "harness/run_cell.h"
#include "harness/run_devices.h"
#include "harness/run_modules.h"
#include "kernel/info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int record_host_and_kernel(struct ior_db *db, int64_t *host_id, int64_t *kernel_id, char *host, size_t len)
{
	struct ior_kernel_info k;
	int rc = ior_kernel_info_read(&k);
	if (rc)
		return rc;
	struct ior_db_kernel rec = {
		.release = k.release,
		.version = k.version,
		.machine = k.machine,
		.cmdline = k.cmdline,
		.commit = k.commit[0] ? k.commit : NULL,
		.config_hash = k.config_hash[0] ? k.config_hash : NULL,
	};
	snprintf(host, len, "%s", k.hostname);
	if ((rc = ior_db_host_get(db, k.hostname, k.machine, host_id)) != 0)
		return rc;
	return ior_db_kernel_get(db, &rec, kernel_id);
}

static size_t count_cells(const struct ior_matrix *m, struct ior_run_device *devs)
{
	size_t cells = 0;
	for (size_t d = 0; d < m->ndevices; d++) {
		char **scheds = ior_matrix_schedulers_for(m, devs[d].offered);
		for (size_t s = 0; scheds && scheds[s]; s++)
			cells += m->nengines;
		ior_strv_free(scheds);
	}
	return cells;
}

static bool offered(const struct ior_run_device *d, const char *sched)
{
	for (size_t i = 0; d->offered[i]; i++)
		if (strcmp(d->offered[i], sched) == 0)
			return true;
	return false;
}

/* Every cell of one device and scheduler: unavailable, failed to switch, or run. */
static int run_scheduler(struct ior_cell_runner *r, struct ior_run_device *dev, const char *sched)
{
	char reason[512] = "";
	enum ior_cell_status forced = IOR_CELL_OK;
	if (!dev->info.has_scheduler) {
		forced = IOR_CELL_UNAVAILABLE;
		snprintf(reason, sizeof(reason), "device '%s' has no I/O scheduler", dev->spec->name);
	} else if (!offered(dev, sched)) {
		/* Recorded, never silently dropped: a vanished scheduler is a finding. */
		forced = IOR_CELL_UNAVAILABLE;
		snprintf(reason, sizeof(reason), "scheduler '%s' is not offered on this kernel by '%s'", sched,
			 dev->target.path);
	} else if (ior_scheduler_switch(dev->target.path, sched) != IOR_OK) {
		forced = IOR_CELL_FAILED;
		snprintf(reason, sizeof(reason), "cannot switch to '%s': %s", sched, ior_error_last());
	}
	for (size_t e = 0; e < r->m->nengines; e++) {
		if (ior_stop_requested())
			return IOR_EINTERRUPTED;
		int rc = forced == IOR_CELL_OK ? ior_run_cell(r, dev, sched, &r->m->engines[e])
					       : ior_run_cell_mark(r, dev, sched, &r->m->engines[e], forced, reason);
		if (rc)
			return rc;
	}
	return IOR_OK;
}

static int run_cells(struct ior_cell_runner *r, struct ior_run_device *devs)
{
	for (size_t d = 0; d < r->m->ndevices; d++) {
		char **scheds = ior_matrix_schedulers_for(r->m, devs[d].offered);
		if (!scheds)
			return ior_error_set(IOR_ERROR, "out of memory");
		int rc = IOR_OK;
		for (size_t s = 0; rc == IOR_OK && scheds[s]; s++)
			rc = run_scheduler(r, &devs[d], scheds[s]);
		ior_strv_free(scheds);
		if (rc)
			return rc;
	}
	return IOR_OK;
}

static enum ior_run_status final_status(int rc)
{
	if (rc == IOR_OK)
		return IOR_RUN_COMPLETE;
	return rc == IOR_EINTERRUPTED ? IOR_RUN_INTERRUPTED : IOR_RUN_FAILED;
}

int ior_run_matrix(struct ior_db *db, const struct ior_matrix *m, const struct ior_run_options *opts,
		   struct ior_run_summary *summary)
{
	memset(summary, 0, sizeof(*summary));
	int64_t host_id, kernel_id;
	char host[256];
	int rc = record_host_and_kernel(db, &host_id, &kernel_id, host, sizeof(host));
	if (rc)
		return ior_error_wrap(rc, "cannot record the running kernel");
	/* Modules first: a scheduler loaded now shows in the devices' offered lists. */
	struct ior_run_modules modules;
	if ((rc = ior_run_modules_open(&modules)) != 0)
		return rc;
	if ((rc = ior_run_modules_load(&modules, m)) != 0) {
		char message[1024];
		snprintf(message, sizeof(message), "%s", ior_error_last());
		ior_run_modules_close(&modules);
		return ior_error_set(rc, "%s", message);
	}
	snprintf(summary->modules_loaded, sizeof(summary->modules_loaded), "%s", modules.loaded);
	struct ior_run_device *devs = NULL;
	if ((rc = ior_run_devices_prepare(&devs, m)) != 0) {
		char message[1024];
		snprintf(message, sizeof(message), "%s", ior_error_last());
		ior_run_modules_close(&modules);
		return ior_error_set(rc, "%s", message);
	}
	rc = ior_db_run_begin(db, host_id, kernel_id, m->file, m->text, IOR_RUN_RUNNING, &summary->run_id);
	if (rc == IOR_OK)
		rc = ior_run_devices_record(devs, m->ndevices, db, host_id, summary->run_id, &modules);
	if (rc == IOR_OK) {
		struct ior_cell_runner runner;
		ior_cell_runner_init(&runner, db, m, opts, summary);
		runner.host = host;
		size_t cells = count_cells(m, devs);
		ior_progress_start(&runner.progress, opts->progress, cells, cells * m->settings.repetitions);
		rc = run_cells(&runner, devs);
		ior_progress_finish(&runner.progress);
	}

	/* Clean-up on every path: schedulers before devices, since a detached loop device keeps
	 * the scheduler it was last given when it is reused. */
	char message[1024];
	snprintf(message, sizeof(message), "%s", ior_error_last());
	int restore = ior_scheduler_restore_all();
	int teardown = ior_run_devices_teardown(devs, m->ndevices);
	/* Unloading last: a module is in use while any device still has its scheduler. */
	int unload = ior_run_modules_close(&modules);
	if (summary->run_id)
		ior_db_run_finish(db, summary->run_id, final_status(rc));
	if (rc)
		return ior_error_set(rc, "%s", message);
	return restore ? restore : teardown ? teardown : unload;
}
