/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run loop (see run.h): record kernel and host, prepare devices, walk the cells, always clean up. */
#include "run/run.h"
#include "common/error.h"
#include "common/stop.h"
#include "db/db.h"
#include "device/scheduler.h"
#include "run/progress.h"
#include "run/run_cell.h"
#include "run/run_devices.h"
#include "run/run_modules.h"
#include "kernel/info.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The commit is stored with the kernel before the run begins: a kernel recorded as built from
 * another commit stops the run here, with nothing of it stored. */
static int record_commit(struct ior_db *db, int64_t kernel_id, const struct ior_git_commit *g)
{
	if (!g)
		return IOR_OK;
	struct ior_db_commit c = {
		.sha = g->sha,
		.describe = g->describe,
		.subject = g->subject,
		.author_name = g->author_name,
		.author_email = g->author_email,
		.author_date = g->author_date,
		.repository_url = g->repository_url,
		.branch = g->branch,
	};
	return ior_db_kernel_set_commit(db, kernel_id, &c);
}

static int record_host_and_kernel(struct ior_db *db, const struct ior_git_commit *commit, int64_t *host_id,
				  int64_t *kernel_id, char *host, size_t len)
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
		.compiler = k.compiler,
	};
	snprintf(host, len, "%s", k.hostname);
	if ((rc = ior_db_host_get(db, k.hostname, k.machine, host_id)) != 0 ||
	    (rc = ior_db_kernel_get(db, &rec, kernel_id)) != 0)
		return rc;
	return record_commit(db, *kernel_id, commit);
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

/* The repetitions the progress line counts: each engine's measured ones and its warm-ups, once
 * per scheduler of each device (cells is a multiple of the engine count). */
static size_t reps_total(const struct ior_matrix *m, size_t cells)
{
	if (!m->nengines)
		return 0;
	size_t per_round = 0;
	for (size_t e = 0; e < m->nengines; e++)
		per_round += (size_t)(m->settings.repetitions + ior_matrix_warmup(m, &m->engines[e]));
	return cells / m->nengines * per_round;
}

static int run_cells(struct ior_cell_runner *r, struct ior_run_device *devs)
{
	for (size_t d = 0; d < r->m->ndevices; d++) {
		int rc = ior_run_device_cells(r, &devs[d]);
		if (rc)
			return rc;
	}
	return IOR_OK;
}

/* A scheduler name no device offers and no kernel ever had is a typo: refused before anything
 * runs, at the matrix's line. */
static int check_scheduler_names(const struct ior_matrix *m, struct ior_run_device *devs)
{
	char **offered[m->ndevices ? m->ndevices : 1];
	for (size_t d = 0; d < m->ndevices; d++)
		offered[d] = devs[d].offered;
	return ior_matrix_check_scheduler_names(m, (char *const *const *)offered, m->ndevices);
}

/* The repetition order, and for random the seed: the matrix's, or one drawn now; both recorded
 * with the run so a random order can be repeated. */
static int choose_order(struct ior_db *db, const struct ior_matrix *m, const struct ior_run_options *opts,
			struct ior_run_summary *summary, struct ior_rng *rng)
{
	summary->order = ior_matrix_order_names[m->settings.order];
	uint64_t seed = 0;
	if (m->settings.order == IOR_ORDER_RANDOM) {
		seed = m->settings.order_seed;
		int fd = seed ? -1 : open("/dev/urandom", O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (read(fd, &seed, sizeof(seed)) != (ssize_t)sizeof(seed))
				seed = 0;
			close(fd);
		}
		if (!seed)
			seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
		seed &= 0xffffffffu; /* fits the matrix's order_seed, so it can be given back */
		if (!seed)
			seed = 1;
	}
	summary->order_seed = seed;
	ior_rng_seed(rng, seed);
	/* --resume keeps the order the run was recorded with */
	return opts->resume_run_id ? IOR_OK : ior_db_run_set_order(db, summary->run_id, summary->order, seed);
}

void ior_run_warn(struct ior_run_summary *s, const char *fmt, ...)
{
	size_t used = strlen(s->warnings);
	if (used + 1 >= sizeof(s->warnings))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->warnings + used, sizeof(s->warnings) - used, fmt, ap);
	va_end(ap);
	used = strlen(s->warnings);
	if (used + 1 < sizeof(s->warnings))
		strcat(s->warnings, "\n");
}

static enum ior_run_status final_status(int rc)
{
	if (rc == IOR_OK)
		return IOR_RUN_COMPLETE;
	return rc == IOR_EINTERRUPTED ? IOR_RUN_INTERRUPTED : IOR_RUN_FAILED;
}

/* Journals each module the run loaded, so recover can unload them after a crash. */
static int journal_modules(struct ior_db *db, int64_t run_id, const struct ior_run_modules *mods)
{
	char list[sizeof(mods->loaded)];
	snprintf(list, sizeof(list), "%s", mods->loaded);
	char *save = NULL;
	for (char *name = strtok_r(list, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
		int64_t id;
		int rc = ior_db_undo_add(db, run_id, "module", name, NULL, &id);
		if (rc)
			return rc;
	}
	return IOR_OK;
}

/* Restores what the run changed, in reverse order, and closes the journal entries it could.
 * Returns the first error; every step is tried. */
static int clean_up(struct ior_db *db, const struct ior_matrix *m, struct ior_run_device *devs,
		    struct ior_run_modules *modules)
{
	/* Schedulers before devices: a detached loop device keeps the scheduler it was last
	 * given when it is reused. */
	int restore = ior_scheduler_restore_all();
	for (size_t i = 0; devs && restore == IOR_OK && i < m->ndevices; i++)
		if (devs[i].sched_undo_id && !devs[i].stuck) /* a stuck one's stays open for recover */
			ior_db_undo_done(db, devs[i].sched_undo_id);
	int teardown = ior_run_devices_teardown(devs, m->ndevices, db);
	/* Modules last: a module is in use while any device still has its scheduler. */
	bool had_modules = modules->loaded[0] != '\0';
	int unload = ior_run_modules_close(modules);
	if (had_modules && unload == IOR_OK)
		ior_db_undo_kind_done(db, modules->run_id, "module");
	return restore ? restore : teardown ? teardown : unload;
}

static int run_body(struct ior_db *db, const struct ior_matrix *m, const struct ior_run_options *opts,
		    struct ior_run_summary *summary, int64_t host_id, const char *host)
{
	/* Modules first: a scheduler loaded now shows in the devices' offered lists. */
	struct ior_run_modules modules;
	int rc = ior_run_modules_open(&modules);
	if (rc)
		return rc;
	modules.run_id = summary->run_id;
	rc = ior_run_modules_load(&modules, m);
	snprintf(summary->modules_loaded, sizeof(summary->modules_loaded), "%s", modules.loaded);
	if (rc == IOR_OK)
		rc = journal_modules(db, summary->run_id, &modules);
	struct ior_run_device *devs = NULL;
	if (rc == IOR_OK)
		rc = ior_run_devices_prepare(&devs, m, db, summary->run_id, summary);
	if (rc == IOR_OK)
		rc = ior_run_devices_record(devs, m->ndevices, db, host_id, &modules, summary);
	if (rc == IOR_OK)
		rc = check_scheduler_names(m, devs);
	struct ior_cell_runner runner;
	ior_cell_runner_init(&runner, db, m, opts, summary);
	if (rc == IOR_OK)
		rc = choose_order(db, m, opts, summary, &runner.rng);
	if (rc == IOR_OK) {
		runner.host = host;
		size_t cells = count_cells(m, devs);
		ior_progress_start(&runner.progress, opts->observer, cells, reps_total(m, cells));
		if (opts->observer && opts->observer->start)
			opts->observer->start(opts->observer->ctx, summary->run_id, cells);
		rc = run_cells(&runner, devs);
		ior_progress_finish(&runner.progress);
	}
	struct ior_error_state failed;
	ior_error_save(&failed, rc);
	int cleaned = clean_up(db, m, devs, &modules);
	return ior_error_restore(&failed, cleaned);
}

int ior_run_matrix(struct ior_db *db, const struct ior_matrix *m, const struct ior_run_options *opts,
		   struct ior_run_summary *summary)
{
	memset(summary, 0, sizeof(*summary));
	int64_t host_id, kernel_id;
	char host[256];
	int rc = record_host_and_kernel(db, opts->commit, &host_id, &kernel_id, host, sizeof(host));
	if (rc)
		return ior_error_wrap(rc, "cannot record the running kernel");
	if (opts->commit_warning && opts->commit_warning[0])
		ior_run_warn(summary, "%s", opts->commit_warning);
	if (opts->resume_run_id) {
		summary->run_id = opts->resume_run_id;
		rc = ior_db_run_reopen(db, summary->run_id);
	} else {
		rc = ior_db_run_begin(db, host_id, kernel_id, m->file, m->text, IOR_RUN_RUNNING, &summary->run_id);
	}
	char boot_id[64];
	ior_kernel_boot_id(boot_id, sizeof(boot_id));
	if (rc == IOR_OK)
		rc = ior_db_run_set_owner(db, summary->run_id, (int)getpid(), boot_id);
	if (rc)
		return rc;
	rc = run_body(db, m, opts, summary, host_id, host);
	struct ior_error_state failed;
	ior_error_save(&failed, rc);
	ior_db_run_finish(db, summary->run_id, final_status(rc));
	return ior_error_restore(&failed, IOR_OK);
}
