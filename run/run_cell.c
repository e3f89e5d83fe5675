/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running one device's cells (see run_cell.h): refuse or skip early, set up, repetitions in the
 * matrix's order, clean-up. */
#include "run/run_cell.h"
#include "run/run_order.h"
#include "common/error.h"
#include "common/stop.h"
#include "device/blkmq_state.h"
#include "device/cache.h"
#include "device/guard.h"
#include "device/scheduler.h"
#include "stats/adaptive.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The journal an engine writes to: entries of this run in this database. */
static int journal_note(void *ctx, const char *kind, const char *target, const char *original, int64_t *id)
{
	struct ior_cell_runner *r = ctx;
	return ior_db_undo_add(r->db, r->summary->run_id, kind, target, original, id);
}

static void journal_done(void *ctx, int64_t id)
{
	struct ior_cell_runner *r = ctx;
	ior_db_undo_done(r->db, id);
}

void ior_cell_runner_init(struct ior_cell_runner *r, struct ior_db *db, const struct ior_matrix *m,
			  const struct ior_run_options *opts, struct ior_run_summary *summary)
{
	memset(r, 0, sizeof(*r));
	r->db = db;
	r->m = m;
	r->opts = opts;
	r->journal = (struct ior_journal){ .note = journal_note, .done = journal_done, .ctx = r };
	r->summary = summary;
}

/* The loop engine runs another engine of the matrix by name. */
static const struct ior_engine_ref *lookup_engine(void *ctx, const char *name)
{
	struct ior_cell_runner *r = ctx;
	for (size_t i = 0; i < r->m->nengines; i++) {
		if (strcmp(r->m->engines[i].name, name) == 0) {
			r->ref.ops = r->m->engines[i].ops;
			r->ref.opts = r->m->engines[i].opts;
			return &r->ref;
		}
	}
	ior_error_set(IOR_ENOTFOUND, "no engine named '%s' in the matrix", name);
	return NULL;
}

static void count_status(struct ior_run_summary *s, enum ior_cell_status status)
{
	s->cells++;
	switch (status) {
	case IOR_CELL_OK: s->cells_ok++; break;
	case IOR_CELL_UNAVAILABLE: s->cells_unavailable++; break;
	case IOR_CELL_SKIPPED: s->cells_skipped++; break;
	case IOR_CELL_FAILED: s->cells_failed++; break;
	}
}

/* One cell of the device while the device's cells run. */
struct cell {
	const struct ior_matrix_engine *engine;
	const char *sched;
	size_t index;                /* 1-based, for the progress line */
	int64_t cell_id;
	void *state;                 /* the engine's, between init and cleanup */
	bool live;                   /* set up: takes repetitions, gets its status stored at the end */
	bool writes;                 /* passes the write guards before every repetition */
	bool stopped;                /* takes no more repetitions: decided, failed or skipped */
	enum ior_cell_status status;
	char reason[1024];           /* a stuck device's carries where its requests sit (blk-mq's debugfs) */
	char what[256];              /* "scratch mq-deadline randread", for the progress line */
	int cap;                     /* repetitions at most, warm-ups included */
	int warmup;                  /* the first this many repetitions are warm-ups: stored marked, not judged */
	bool adaptive;
	struct ior_adaptive rule;
	double *values;              /* the cell's measured samples so far (no warm-ups), for the adaptive rule */
	size_t measured;             /* how many of them */
	double *base;
	size_t nbase;
};

static int cell_id_for(struct ior_cell_runner *r, struct ior_run_device *dev, const char *sched,
		       const struct ior_matrix_engine *engine, int64_t *cell_id)
{
	return ior_db_cell_get(r->db, r->summary->run_id, dev->db_id, sched, engine->name, engine->ops->name,
			       engine->params, cell_id);
}

/* Records a cell that never runs (scheduler unavailable, refused, unsupported) with its reason. */
static int mark(struct ior_cell_runner *r, struct ior_run_device *dev, struct cell *c, enum ior_cell_status status,
		const char *reason)
{
	int rc = cell_id_for(r, dev, c->sched, c->engine, &c->cell_id);
	if (rc == IOR_OK)
		rc = ior_db_cell_set_status(r->db, c->cell_id, status, reason);
	if (rc == IOR_OK)
		count_status(r->summary, status);
	/* the cell's repetitions (and warm-ups) will never run: keep the ETA honest */
	size_t reps = (size_t)(r->m->settings.repetitions + ior_matrix_warmup(r->m, c->engine));
	r->progress.reps_total -= r->progress.reps_total >= reps ? reps : 0;
	return rc;
}

/* Why no cell of this scheduler can run on dev, or IOR_CELL_OK. */
static enum ior_cell_status availability(const struct ior_run_device *dev, const char *sched, char *reason,
					 size_t len)
{
	if (!dev->info.has_scheduler) {
		snprintf(reason, len, "device '%s' has no I/O scheduler", dev->spec->name);
		return IOR_CELL_UNAVAILABLE;
	}
	for (size_t i = 0; dev->offered[i]; i++)
		if (strcmp(dev->offered[i], sched) == 0)
			return IOR_CELL_OK;
	/* Recorded, never silently dropped: a vanished scheduler is a finding. */
	snprintf(reason, len, "scheduler '%s' is not offered on this kernel by '%s'", sched, dev->path);
	return IOR_CELL_UNAVAILABLE;
}

/* The device guards for a write engine (device/guard.c), with the run's confirmations. */
static int check_write(const struct ior_cell_runner *r, const struct ior_run_device *dev)
{
	struct ior_guard_policy policy = {
		.destructive = dev->spec->opts.destructive,
		.scratch = dev->spec->opts.loop != 0,
		.confirmed = r->opts->allow_destructive,
		.nconfirmed = r->opts->nallow_destructive,
	};
	ior_error_clear();
	return ior_guard_check_write_fd(dev->lock_fd, dev->path, &policy);
}

/* Why this cell cannot run here, or IOR_CELL_OK when it can. A write engine passes the
 * device guards here and again before every repetition: a device can be mounted meanwhile. */
static enum ior_cell_status precheck(const struct ior_cell_runner *r, const struct ior_run_device *dev,
				     const struct ior_matrix_engine *engine, char *reason, size_t len)
{
	/* by the cell's options: an aio read job is not a writer, an aio write job is */
	if (ior_engine_flags(engine->ops, engine->opts) & IOR_ENGINE_WRITES) {
		if (check_write(r, dev) != IOR_OK) {
			snprintf(reason, len, "engine '%s' writes: %s", engine->name, ior_error_last());
			return IOR_CELL_SKIPPED;
		}
	}
	if (engine->ops->supported) {
		ior_error_clear();
		int rc = engine->ops->supported(engine->opts);
		if (rc) {
			snprintf(reason, len, "%s", ior_error_last());
			return rc == IOR_EUNSUPPORTED ? IOR_CELL_SKIPPED : IOR_CELL_FAILED;
		}
	}
	return IOR_CELL_OK;
}

/* Adaptive repetitions (opt-in): the fixed count is the minimum, max_repetitions the cap. */
static bool adaptive_setup(const struct ior_matrix *m, struct ior_adaptive *a)
{
	if (m->settings.max_repetitions == 0)
		return false;
	ior_adaptive_default(a);
	a->min_reps = m->settings.repetitions;
	a->max_reps = m->settings.max_repetitions;
	if (m->settings.target_cov > 0)
		a->target_cov = m->settings.target_cov;
	return true;
}

/* The baseline kernel's samples of the same cell on this host, when run --baseline names one. */
static size_t baseline_values(struct ior_cell_runner *r, const struct ior_run_device *dev, const char *sched,
			      const struct ior_matrix_engine *engine, double *out, size_t max)
{
	if (!r->opts->baseline)
		return 0;
	struct ior_db_filter f = { .host = r->host, .kernel = r->opts->baseline, .device = dev->spec->name,
				   .scheduler = sched, .engine = engine->name };
	struct ior_db_row *rows = NULL;
	size_t n = 0, kept = 0;
	if (ior_db_samples(r->db, &f, &rows, &n) != IOR_OK)
		return 0;
	for (size_t i = 0; i < n && kept < max; i++)
		if (strcmp(rows[i].params, engine->params) == 0 && !rows[i].warmup)
			out[kept++] = rows[i].value;
	ior_db_rows_free(rows, n);
	return kept;
}

/* Cell id, the resume short cut, the engine's init and the cell's buffers. A failure of the
 * engine is the cell's (stored at the end); IOR_EINTERRUPTED and database errors are returned. */
static int set_up(struct ior_cell_runner *r, struct ior_run_device *dev, struct cell *c)
{
	int rc = cell_id_for(r, dev, c->sched, c->engine, &c->cell_id);
	if (rc)
		return rc;
	if (r->opts->resume_run_id && r->m->settings.max_repetitions == 0) {
		/* a cell that was complete before the interruption is not even set up again */
		int stored = 0;
		if ((rc = ior_db_cell_sample_count(r->db, c->cell_id, &stored)) != 0)
			return rc;
		if ((uint64_t)stored >= r->m->settings.repetitions + ior_matrix_warmup(r->m, c->engine)) {
			count_status(r->summary, IOR_CELL_OK);
			return ior_db_cell_set_status(r->db, c->cell_id, IOR_CELL_OK, NULL);
		}
	}
	c->live = true;
	c->writes = (ior_engine_flags(c->engine->ops, c->engine->opts) & IOR_ENGINE_WRITES) != 0;
	snprintf(c->what, sizeof(c->what), "%s %s %s", dev->spec->name, c->sched, c->engine->name);
	c->adaptive = adaptive_setup(r->m, &c->rule);
	c->warmup = (int)ior_matrix_warmup(r->m, c->engine);
	c->cap = c->warmup + (c->adaptive ? (int)c->rule.max_reps : (int)r->m->settings.repetitions);
	c->values = calloc((size_t)c->cap, sizeof(double));
	c->base = calloc((size_t)c->cap * 4 + 64, sizeof(double));
	if (!c->values || !c->base)
		return ior_error_set(IOR_ERROR, "out of memory");
	c->nbase = c->adaptive ? baseline_values(r, dev, c->sched, c->engine, c->base, (size_t)c->cap * 4 + 64) : 0;
	struct ior_engine_args args = {
		.opts = c->engine->opts,
		.target = &dev->target,
		.lookup = lookup_engine,
		.lookup_ctx = r,
		.journal = &r->journal,
		.scheduler = c->sched,
		.deadline_s = r->m->settings.deadline,
	};
	const struct ior_run_observer *obs = r->opts->observer;
	if (obs) { /* an engine's set-up (a loop stack's fill) can take long under TCG */
		char text[300];
		snprintf(text, sizeof(text), "setting up %s", c->what);
		if (obs->beat)
			obs->beat(obs->ctx, 0, text);
		if (obs->ticking)
			obs->ticking(obs->ctx, true, text);
	}
	ior_error_clear();
	rc = c->engine->ops->init(&c->state, &args);
	if (rc == IOR_EINTERRUPTED)
		return rc;
	if (rc) {
		/* "can't here" and "refused for safety" are skips with a reason, not failures */
		c->state = NULL;
		snprintf(c->reason, sizeof(c->reason), "%s", ior_error_last());
		c->status = rc == IOR_EUNSUPPORTED || rc == IOR_EREFUSED ? IOR_CELL_SKIPPED : IOR_CELL_FAILED;
		c->stopped = true;
	}
	return IOR_OK;
}

/* Ends the cell for good with a status and reason; the run goes on. */
static void stop_cell(struct cell *c, enum ior_cell_status status, const char *fmt, const char *detail, int rep)
{
	char what[64] = "";
	if (rep)
		snprintf(what, sizeof(what), "repetition %d: ", rep);
	snprintf(c->reason, sizeof(c->reason), "%s%s%s", what, fmt, detail);
	c->status = status;
	c->stopped = true;
}

static void mark_stuck(struct ior_cell_runner *r, struct ior_run_device *dev);

/* Before a repetition: the write guards again (a device can be mounted meanwhile) and the
 * cell's scheduler on the device, journaled before the device's first switch. */
static int ready(struct ior_cell_runner *r, struct ior_run_device *dev, struct cell *c, int rep)
{
	if (dev->stuck) {
		/* even a read of it (the write guards read its first blocks) would queue behind the
		 * requests that never completed, with no deadline to end the wait */
		char why[400];
		snprintf(why, sizeof(why), "not measured: requests on '%s' never completed earlier in this run", dev->target.path);
		stop_cell(c, IOR_CELL_FAILED, why, "", rep);
		return IOR_OK;
	}
	if (c->writes && check_write(r, dev) != IOR_OK) {
		stop_cell(c, IOR_CELL_SKIPPED, "refused: ", ior_error_last(), rep);
		return IOR_OK;
	}
	if (strcmp(dev->current, c->sched) == 0)
		return IOR_OK;
	int rc = IOR_OK;
	if (!dev->sched_undo_id) {
		char original[32], entry[64];
		/* "NAME diskseq=N": recover restores NAME only while the device is still this attach
		 * (a reused /dev/loopN is someone else's device by then) */
		if ((rc = ior_scheduler_active(dev->info.path, original, sizeof(original))) == IOR_OK &&
		    snprintf(entry, sizeof(entry), "%s diskseq=%llu", original,
			     (unsigned long long)ior_blockdev_diskseq(dev->info.path)) > 0 &&
		    (rc = ior_db_undo_add(r->db, r->summary->run_id, "scheduler", dev->info.path, entry,
					  &dev->sched_undo_id)) != IOR_OK)
			return rc; /* the journal is the database: that is the run's error */
	}
	if (rc == IOR_OK) /* a switch waits for the queue to drain, at most the matrix's deadline */
		rc = ior_scheduler_switch(dev->info.path, c->sched, r->m->settings.deadline);
	if (rc) {
		char why[1024];
		snprintf(why, sizeof(why), "cannot switch to '%s': %s", c->sched, ior_error_last());
		stop_cell(c, IOR_CELL_FAILED, why, "", rep);
		if (rc == IOR_ETIMEDOUT) /* the queue never drained: nothing else may touch the device */
			mark_stuck(r, dev);
		else
			dev->current[0] = '\0'; /* unknown now */
		return IOR_OK;
	}
	snprintf(dev->current, sizeof(dev->current), "%s", c->sched);
	return IOR_OK;
}

/* Requests on dev were given up on: no later repetition touches it, its scheduler is left as it
 * is (a switch would wait for them for ever), said in the run's warnings, and its journal entry
 * stays for `recover`. */
static void mark_stuck(struct ior_cell_runner *r, struct ior_run_device *dev)
{
	if (dev->stuck)
		return;
	dev->stuck = true;
	const struct ior_run_observer *obs = r->opts->observer;
	if (obs && obs->stuck) /* a vm run guest's host asks qemu where the requests are */
		obs->stuck(obs->ctx, dev->info.name);
	char original[32];
	/* by the /dev path the switch recorded it under (target.path is the run's /proc/PID/fd link) */
	ior_scheduler_forget(dev->info.path, original, sizeof(original));
	if (original[0] && strcmp(original, dev->current) != 0)
		ior_run_warn(r->summary, "scheduler of '%s' left at '%s', not restored to '%s': requests on it never "
			     "completed, and a switch waits for them ('ioregress recover' restores it later)",
			     dev->target.path, dev->current, original);
}

/* The sample just stored passed on to the observer (a vm run guest: onto the results disk, so a
 * hang or panic later keeps it). A failure is said once; the run goes on. */
static void commit_to_host(struct ior_cell_runner *r)
{
	const struct ior_run_observer *obs = r->opts->observer;
	if (!obs || !obs->results || r->guest_commit_failed)
		return;
	if (obs->results(obs->ctx, r->db) != IOR_OK) {
		fprintf(stderr, "warning: %s (samples reach the host only at the end)\n", ior_error_last());
		r->guest_commit_failed = true;
	}
}

/* One repetition. Returns IOR_EINTERRUPTED or a database error; anything else that goes
 * wrong ends the cell with its reason. */
static int one_repetition(struct ior_cell_runner *r, struct ior_run_device *dev, struct cell *c, int rep)
{
	if (ior_stop_requested())
		return IOR_EINTERRUPTED;
	bool warmup = rep <= c->warmup;
	double *slot = warmup ? &c->values[0] : &c->values[rep - c->warmup - 1];  /* a warm-up's value is not kept */
	if (r->opts->resume_run_id) {
		/* run --resume: a repetition measured before the interruption is kept, not redone */
		bool exists = false;
		double stored = 0;
		int rc = ior_db_sample_at(r->db, c->cell_id, rep, &exists, &stored);
		if (!rc && exists && !warmup)
			*slot = stored, c->measured++;
		if (rc || exists)
			return rc;
	}
	int rc = ready(r, dev, c, rep);
	if (rc || c->stopped)
		return rc;
	char what[300];
	snprintf(what, sizeof(what), "%s%s", c->what, warmup ? " (warm-up)" : "");
	double expect = c->engine->ops->duration ? c->engine->ops->duration(c->engine->opts) : -1;
	/* the latest an engine gives up: a deadline for its last wait, and another before a thread
	 * still stuck in the kernel is left behind (engines/job.c) */
	r->progress.expect_s = expect > 0 ? expect + 2 * r->m->settings.deadline : 0;
	ior_progress_update(&r->progress, c->index, rep, c->cap, what);
	/* page cache and dentries out, so a buffered read measures the device (hdparm -t's intent);
	 * the device's own write-back with a deadline, never a global sync() that waits for every
	 * device of the machine */
	if (r->m->settings.drop_caches && (rc = ior_device_drop_caches(dev->target.path, r->m->settings.deadline))) {
		char why[600];
		snprintf(why, sizeof(why), "%s", ior_error_last());
		stop_cell(c, IOR_CELL_FAILED, why, "", rep);
		if (rc == IOR_ETIMEDOUT)
			mark_stuck(r, dev);
		return IOR_OK;
	}
	struct ior_sample sample;
	memset(&sample, 0, sizeof(sample));
	struct ior_blkstat before, after;
	/* counters that cannot be read (a file target, a device gone) leave the sample without them */
	bool counted = ior_blkstat_read(dev->target.path, &before) == IOR_OK;
	ior_error_clear();
	rc = c->engine->ops->measure(c->state, &sample);
	if (!rc && counted && !sample.has_blkstat && ior_blkstat_read(dev->target.path, &after) == IOR_OK)
		sample.has_blkstat = ior_blkstat_delta(&before, &after, &sample.blk);
	if (rc == IOR_EINTERRUPTED || (rc && ior_stop_requested()))
		return IOR_EINTERRUPTED;
	if (rc) {
		char where[400] = "";
		if (rc == IOR_ETIMEDOUT) { /* requests never completed: who holds them, as blk-mq shows it */
			ior_blkmq_state(dev->info.name, where + 2, sizeof(where) - 2);
			if (where[2])
				memcpy(where, "; ", 2);
		}
		char why[600];
		snprintf(why, sizeof(why), "%s", ior_error_last());
		stop_cell(c, rc == IOR_EUNSUPPORTED ? IOR_CELL_SKIPPED : IOR_CELL_FAILED, why, where, rep);
		if (rc == IOR_ETIMEDOUT)
			mark_stuck(r, dev);
		return IOR_OK;
	}
	if (!sample.fill)
		sample.fill = dev->target.fill;
	sample.warmup = warmup;
	/* interleaved or random order: repetition rep of every cell of the device is round rep */
	sample.round = r->round_base >= 0 ? r->round_base + rep : 0;
	if ((rc = ior_db_sample_add(r->db, c->cell_id, rep, &sample)) != 0)
		return rc;
	commit_to_host(r);
	if (!warmup)
		*slot = sample.value, c->measured++;
	c->rule.cmp.higher_is_better = sample.higher_is_better;
	r->summary->samples++;
	ior_progress_rep_done(&r->progress);
	return IOR_OK;
}

/* After repetition rep: adaptive cells stop once stable (or decided against the baseline). */
static void adaptive_look(const struct ior_matrix *m, struct cell *c, int rep)
{
	if (!c->adaptive || c->stopped || rep <= c->warmup || m->settings.decide_schedulers)
		return;
	char why[256];
	int measured = rep - c->warmup;
	enum ior_adapt next = ior_adaptive_next(&c->rule, c->values, (size_t)measured, c->nbase ? c->base : NULL,
						c->nbase, why, sizeof(why));
	if (next != IOR_ADAPT_CONTINUE) {
		/* the report shows how many repetitions the cell took, and why it stopped there */
		snprintf(c->reason, sizeof(c->reason), "adaptive: stopped after %d repetitions: %s", measured, why);
		c->stopped = true;
	}
}

/* decide_schedulers: once every running cell of c's engine on this device has as many measured
 * repetitions as c (a round is complete), ask whether the best scheduler is decided
 * (stats/adaptive_best.c); if so, or at the cap, they all stop with the same reason. */
static void schedulers_look(const struct ior_matrix *m, struct cell *cells, size_t n, struct cell *c)
{
	if (!m->settings.decide_schedulers || !c->adaptive || c->stopped || !c->measured)
		return;
	enum { MAX = 64 };
	const double *values[MAX] = { 0 };
	const char *names[MAX] = { 0 };
	struct cell *group[MAX] = { 0 };
	size_t k = 0;
	for (size_t i = 0; i < n && k < MAX; i++) {
		struct cell *d = &cells[i];
		if (d->engine != c->engine || !d->live || d->status != IOR_CELL_OK)
			continue;
		if (d->measured != c->measured)
			return;  /* the round is not complete */
		values[k] = d->values, names[k] = d->sched, group[k++] = d;
	}
	char why[256];
	enum ior_adapt next = ior_adaptive_schedulers(&c->rule, values, k, c->measured, names, why, sizeof(why));
	if (next == IOR_ADAPT_CONTINUE)
		return;
	for (size_t i = 0; i < k; i++) {
		snprintf(group[i]->reason, sizeof(group[i]->reason), "adaptive, schedulers together: %s", why);
		group[i]->stopped = true;
	}
}

struct walk {
	struct ior_cell_runner *r;
	struct ior_run_device *dev;
	struct cell *cells;
	size_t n;
};

static int visit_cell(void *ctx, size_t i, int rep)
{
	struct walk *w = ctx;
	struct cell *c = &w->cells[i];
	if (!c->live || c->stopped || rep > c->cap)
		return IOR_OK;
	int rc = one_repetition(w->r, w->dev, c, rep);
	if (rc == IOR_OK && rep > c->warmup) {
		adaptive_look(w->r->m, c, rep);
		schedulers_look(w->r->m, w->cells, w->n, c);
	}
	return rc;
}

/* The repetitions of the device's cells, in the matrix's order (run/run_order.c). */
static int take_repetitions(struct ior_cell_runner *r, struct ior_run_device *dev, struct cell *cells, size_t n)
{
	int *caps = calloc(n ? n : 1, sizeof(*caps));
	if (!caps)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < n; i++)
		caps[i] = cells[i].live ? cells[i].cap : 0;
	struct walk w = { r, dev, cells, n };
	r->round_base = -1;
	if (r->m->settings.order != IOR_ORDER_SEQUENTIAL) {
		for (size_t i = 0; i < n && r->round_base < 0; i++)
			if (cells[i].live && ior_db_round_base(r->db, cells[i].cell_id, &r->round_base)) {
				free(caps);
				return IOR_ERROR;
			}
	}
	int rc = ior_run_order(r->m->settings.order, caps, n, &r->rng, visit_cell, &w);
	free(caps);
	return rc;
}

/* Builds the device's cells: marks those that cannot run, sets up the others. */
static int build_cells(struct ior_cell_runner *r, struct ior_run_device *dev, char **scheds, struct cell *cells,
		       size_t *n)
{
	*n = 0;
	for (size_t s = 0; scheds[s]; s++) {
		char why[512] = "";
		enum ior_cell_status forced = availability(dev, scheds[s], why, sizeof(why));
		for (size_t e = 0; e < r->m->nengines; e++) {
			if (ior_stop_requested())
				return IOR_EINTERRUPTED;
			struct cell *c = &cells[(*n)++];
			c->engine = &r->m->engines[e];
			c->sched = scheds[s];
			c->index = ++r->cell_index;
			char reason[512];
			enum ior_cell_status status = forced;
			if (status == IOR_CELL_OK)
				status = precheck(r, dev, c->engine, reason, sizeof(reason));
			else
				snprintf(reason, sizeof(reason), "%s", why);
			int rc = status == IOR_CELL_OK ? set_up(r, dev, c) : mark(r, dev, c, status, reason);
			if (rc)
				return rc;
		}
	}
	return IOR_OK;
}

/* Every cell that was set up: the engine cleaned up, the status stored and counted. */
static int finish_cells(struct ior_cell_runner *r, struct cell *cells, size_t n, bool interrupted)
{
	int first = IOR_OK;
	for (size_t i = 0; i < n; i++) {
		struct cell *c = &cells[i];
		if (c->state)
			c->engine->ops->cleanup(c->state);
		free(c->values);
		free(c->base);
		if (!c->live || interrupted)
			continue; /* interrupted: the cell keeps the samples it has, status stays as it was */
		int rc = ior_db_cell_set_status(r->db, c->cell_id, c->status, c->reason[0] ? c->reason : NULL);
		if (rc == IOR_OK)
			count_status(r->summary, c->status);
		else if (first == IOR_OK)
			first = rc;
	}
	return first;
}

int ior_run_device_cells(struct ior_cell_runner *r, struct ior_run_device *dev)
{
	char **scheds = ior_matrix_schedulers_for(r->m, dev->offered);
	size_t nscheds = 0;
	while (scheds && scheds[nscheds])
		nscheds++;
	struct cell *cells = scheds ? calloc(nscheds * r->m->nengines + 1, sizeof(*cells)) : NULL;
	if (!cells) {
		ior_strv_free(scheds);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	size_t n = 0;
	int rc = build_cells(r, dev, scheds, cells, &n);
	if (rc == IOR_OK)
		rc = take_repetitions(r, dev, cells, n);
	struct ior_error_state failed;
	ior_error_save(&failed, rc);
	int finished = finish_cells(r, cells, n, rc != IOR_OK);
	free(cells);
	ior_strv_free(scheds);
	return ior_error_restore(&failed, finished);
}
