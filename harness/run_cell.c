/* Running one cell (see run_cell.h): refuse or skip early, then init, repetitions, clean-up. */
#include "harness/run_cell.h"
#include "common/error.h"
#include "common/stop.h"
#include "device/guard.h"
#include "reports/adaptive.h"

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

/* Page cache and dentries out, so a buffered read measures the device (hdparm -t's intent). */
static int drop_caches(void)
{
	sync();
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot open '/proc/sys/vm/drop_caches'");
	ssize_t w = write(fd, "3\n", 2);
	int err = errno;
	close(fd);
	if (w != 2)
		return ior_error_errno(IOR_ERROR, err, "cannot drop caches");
	return IOR_OK;
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

static int cell_id_for(struct ior_cell_runner *r, struct ior_run_device *dev, const char *sched,
		       const struct ior_matrix_engine *engine, int64_t *cell_id)
{
	return ior_db_cell_get(r->db, r->summary->run_id, dev->db_id, sched, engine->name, engine->ops->name,
			       engine->params, cell_id);
}

int ior_run_cell_mark(struct ior_cell_runner *r, struct ior_run_device *dev, const char *sched,
		      const struct ior_matrix_engine *engine, enum ior_cell_status status, const char *reason)
{
	r->cell_index++;
	int64_t cell_id;
	int rc = cell_id_for(r, dev, sched, engine, &cell_id);
	if (rc == IOR_OK)
		rc = ior_db_cell_set_status(r->db, cell_id, status, reason);
	if (rc == IOR_OK)
		count_status(r->summary, status);
	/* the cell's repetitions will never run: keep the ETA honest */
	r->progress.reps_total -= r->progress.reps_total >= r->m->settings.repetitions ? r->m->settings.repetitions : 0;
	return rc;
}

/* Why this cell cannot run here, or IOR_CELL_OK when it can. A write engine passes the
 * device guards first, every time: a device can be mounted between two cells. */
static enum ior_cell_status precheck(const struct ior_cell_runner *r, const struct ior_run_device *dev,
				     const struct ior_matrix_engine *engine, char *reason, size_t len)
{
	/* by the cell's options: an aio read job is not a writer, an aio write job is */
	if (ior_engine_flags(engine->ops, engine->opts) & IOR_ENGINE_WRITES) {
		struct ior_guard_policy policy = {
			.destructive = dev->spec->opts.destructive,
			.scratch = dev->spec->opts.loop != 0,
			.confirmed = r->opts->allow_destructive,
			.nconfirmed = r->opts->nallow_destructive,
		};
		ior_error_clear();
		if (ior_guard_check_write(dev->target.path, &policy) != IOR_OK) {
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
		if (strcmp(rows[i].params, engine->params) == 0)
			out[kept++] = rows[i].value;
	ior_db_rows_free(rows, n);
	return kept;
}

struct cell_run {
	const struct ior_matrix_engine *engine;
	void *state;
	int64_t cell_id;
	const char *what;
	char *reason;
	size_t len;
	enum ior_cell_status status;
	bool adaptive;
	struct ior_adaptive rule;
	double *values;      /* the cell's samples so far, for the adaptive rule */
	double *base;
	size_t nbase;
};

/* One repetition. Returns IOR_EINTERRUPTED or a database error; an engine's failure ends
 * the cell as failed with its reason (status). */
static int one_repetition(struct ior_cell_runner *r, struct cell_run *c, int rep, int shown_reps)
{
	if (ior_stop_requested())
		return IOR_EINTERRUPTED;
	if (r->opts->resume_run_id) {
		/* run --resume: a repetition measured before the interruption is kept, not redone */
		bool exists = false;
		int rc = ior_db_sample_at(r->db, c->cell_id, rep, &exists, &c->values[rep - 1]);
		if (rc || exists)
			return rc;
	}
	ior_progress_update(&r->progress, r->cell_index, rep, shown_reps, c->what);
	if (r->m->settings.drop_caches && drop_caches() != IOR_OK) {
		snprintf(c->reason, c->len, "%s", ior_error_last());
		c->status = IOR_CELL_FAILED;
		return IOR_OK;
	}
	struct ior_sample sample;
	memset(&sample, 0, sizeof(sample));
	ior_error_clear();
	int rc = c->engine->ops->measure(c->state, &sample);
	if (rc == IOR_EINTERRUPTED || (rc && ior_stop_requested()))
		return IOR_EINTERRUPTED;
	if (rc) {
		snprintf(c->reason, c->len, "repetition %d: %s", rep, ior_error_last());
		c->status = rc == IOR_EUNSUPPORTED ? IOR_CELL_SKIPPED : IOR_CELL_FAILED;
		return IOR_OK;
	}
	if ((rc = ior_db_sample_add(r->db, c->cell_id, rep, &sample)) != 0)
		return rc;
	c->values[rep - 1] = sample.value;
	c->rule.cmp.higher_is_better = sample.higher_is_better;
	r->summary->samples++;
	ior_progress_rep_done(&r->progress);
	return IOR_OK;
}

/* The measured part of a cell: the fixed count, or adaptive repetitions up to the cap. */
static int repetitions(struct ior_cell_runner *r, struct cell_run *c)
{
	int reps = (int)r->m->settings.repetitions;
	int cap = c->adaptive ? (int)c->rule.max_reps : reps;
	for (int rep = 1; rep <= cap && c->status == IOR_CELL_OK; rep++) {
		int rc = one_repetition(r, c, rep, cap);
		if (rc)
			return rc;
		if (c->status != IOR_CELL_OK || !c->adaptive)
			continue;
		char why[256];
		enum ior_adapt next = ior_adaptive_next(&c->rule, c->values, (size_t)rep, c->nbase ? c->base : NULL,
							c->nbase, why, sizeof(why));
		if (next != IOR_ADAPT_CONTINUE) {
			/* the report shows how many repetitions the cell took, and why it stopped there */
			snprintf(c->reason, c->len, "adaptive: stopped after %d repetitions: %s", rep, why);
			break;
		}
	}
	return IOR_OK;
}

int ior_run_cell(struct ior_cell_runner *r, struct ior_run_device *dev, const char *sched,
		 const struct ior_matrix_engine *engine)
{
	char reason[512] = "";
	enum ior_cell_status status = precheck(r, dev, engine, reason, sizeof(reason));
	if (status != IOR_CELL_OK)
		return ior_run_cell_mark(r, dev, sched, engine, status, reason);

	r->cell_index++;
	int64_t cell_id;
	int rc = cell_id_for(r, dev, sched, engine, &cell_id);
	if (rc)
		return rc;
	if (r->opts->resume_run_id && r->m->settings.max_repetitions == 0) {
		/* a cell that was complete before the interruption is not even set up again */
		int stored = 0;
		if ((rc = ior_db_cell_sample_count(r->db, cell_id, &stored)) != 0)
			return rc;
		if ((uint64_t)stored >= r->m->settings.repetitions) {
			count_status(r->summary, IOR_CELL_OK);
			return ior_db_cell_set_status(r->db, cell_id, IOR_CELL_OK, NULL);
		}
	}
	struct ior_engine_args args = {
		.opts = engine->opts,
		.target = &dev->target,
		.lookup = lookup_engine,
		.lookup_ctx = r,
		.journal = &r->journal,
		.scheduler = sched,
	};
	void *state = NULL;
	ior_error_clear();
	rc = engine->ops->init(&state, &args);
	if (rc == IOR_EINTERRUPTED)
		return rc;
	if (rc) {
		/* "can't here" and "refused for safety" are skips with a reason, not failures */
		snprintf(reason, sizeof(reason), "%s", ior_error_last());
		status = rc == IOR_EUNSUPPORTED || rc == IOR_EREFUSED ? IOR_CELL_SKIPPED : IOR_CELL_FAILED;
	} else {
		char what[256];
		snprintf(what, sizeof(what), "%s %s %s", dev->spec->name, sched, engine->name);
		struct cell_run c = { .engine = engine, .state = state, .cell_id = cell_id, .what = what,
				      .reason = reason, .len = sizeof(reason), .status = IOR_CELL_OK };
		c.adaptive = adaptive_setup(r->m, &c.rule);
		size_t cap = c.adaptive ? c.rule.max_reps : r->m->settings.repetitions;
		c.values = calloc(cap, sizeof(double));
		c.base = calloc(cap * 4 + 64, sizeof(double));
		if (!c.values || !c.base)
			rc = ior_error_set(IOR_ERROR, "out of memory");
		else {
			c.nbase = c.adaptive ? baseline_values(r, dev, sched, engine, c.base, cap * 4 + 64) : 0;
			rc = repetitions(r, &c);
		}
		free(c.values);
		free(c.base);
		status = c.status;
		engine->ops->cleanup(state);
		if (rc)
			return rc; /* interrupted: the cell keeps the samples it has, status stays as it was */
	}
	if ((rc = ior_db_cell_set_status(r->db, cell_id, status, reason[0] ? reason : NULL)) != 0)
		return rc;
	count_status(r->summary, status);
	return IOR_OK;
}
