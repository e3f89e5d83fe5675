/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Verdicts over the stored samples: every in-view cell on A against the cell that differs from it only
 * along the compared axis (a kernel, scheduler, device, engine or host) on B, for each metric asked
 * for; and the schedulers left out because only one kernel offered them. */
#include "judge/verdicts.h"

#include "common/error.h"
#include "kernel/version.h"
#include "stats/paired.h"
#include "stats/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct judge {
	const struct ior_judge_input *in;
	struct ior_db *db;
	enum ior_axis axis;
	const char *a, *b;
	unsigned metrics;
	struct ior_metric_reader *readers[IOR_METRIC_COUNT];
	struct ior_verdict_set *out;
};

static bool key_in_view(const struct ior_judge_input *o, const struct ior_rt_series *s)
{
	return !(o->device && ior_rt_strcmp(o->device, s->device)) &&
	       !(o->scheduler && ior_rt_strcmp(o->scheduler, s->scheduler)) &&
	       !(o->engine && ior_rt_strcmp(o->engine, s->engine));
}

/* Without --candidate: the newest kernel (version order) of the series' host other than the baseline. */
static const char *newest_kernel(const struct ior_judge_input *in, const char *host, const char *baseline)
{
	const char *best = NULL;
	for (size_t k = 0; k < in->stored->nkernels; k++) {
		const struct ior_stored_kernel *x = &in->stored->kernels[k];
		if (ior_rt_strcmp(x->host, host) || !strcmp(x->release, baseline))
			continue;
		if (!best || ior_kver_cmp(x->release, best) > 0)
			best = x->release;
	}
	return best;
}

/* The value of cell c of group g along axis. */
static const char *axis_value(enum ior_axis axis, const struct ior_rt_group *g, const struct ior_rt_cell *c)
{
	return ior_axis_pick(axis, g->host, g->kernel, g->engine, c->device, c->scheduler);
}

/* Stored cell i is one of rt cell (gi, ci)'s: the tables learnt each stored cell's group, so the
 * names are compared only within it (a report judges thousands of pairs over thousands of cells). */
static bool of_cell(const struct ior_judge_input *in, size_t i, size_t gi, size_t ci)
{
	const struct ior_stored_cell *x = &in->stored->cells[i];
	const struct ior_rt_group *g = &in->rt->groups[gi];
	return (x->group == SIZE_MAX || x->group == gi) && ior_stored_cell_of(x, g, &g->cells[ci]);
}

/* A metric's values of one rt cell: every stored cell of its key, read from the database. */
static int metric_values(struct judge *j, size_t gi, size_t ci, enum ior_metric m, double **v, size_t *n)
{
	const struct ior_rt_group *g = &j->in->rt->groups[gi];
	const struct ior_rt_cell *c = &g->cells[ci];
	if (m == IOR_METRIC_VALUE) {
		*v = malloc((c->n ? c->n : 1) * sizeof(**v));
		if (!*v)
			return ior_error_set(IOR_ERROR, "out of memory");
		memcpy(*v, c->values, c->n * sizeof(**v));
		*n = c->n;
		return IOR_OK;
	}
	if (!j->db)
		return IOR_OK;
	if (!j->readers[m] && ior_metric_reader_open(&j->readers[m], j->db, m))
		return IOR_ERROR;
	for (size_t i = 0; i < j->in->stored->ncells; i++)
		if (of_cell(j->in, i, gi, ci) && ior_metric_reader_read(j->readers[m], j->in->stored->cells[i].cell_id, v, n))
			return IOR_ERROR;
	return IOR_OK;
}

/* The one stored cell behind an rt cell, or 0 when there are none or several (several runs). */
static int64_t only_stored_cell(const struct judge *j, size_t gi, size_t ci)
{
	int64_t id = 0;
	for (size_t i = 0; i < j->in->stored->ncells; i++) {
		if (!of_cell(j->in, i, gi, ci))
			continue;
		if (id)
			return 0;
		id = j->in->stored->cells[i].cell_id;
	}
	return id;
}

/* Each run's median of rt cell (gi, ci) on the value metric, warm-up repetitions left out as the tables
 * leave them: *k runs with samples, their medians in *med (freed by the caller). */
static int run_medians(const struct judge *j, size_t gi, size_t ci, double **med, size_t *k)
{
	const struct ior_stored *r = j->in->stored;
	*k = 0;
	*med = malloc((r->ncells ? r->ncells : 1) * sizeof(**med));
	if (!*med)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < r->ncells; i++) {
		const struct ior_stored_cell *x = &r->cells[i];
		if (!of_cell(j->in, i, gi, ci))
			continue;
		double *v = malloc((x->n ? x->n : 1) * sizeof(*v));   /* this cell's samples only: a report may hold millions */
		if (!v)
			return ior_error_set(IOR_ERROR, "out of memory");
		size_t m = 0;
		for (size_t s = 0; s < x->n; s++)
			if (!r->warmup || !r->warmup[x->first + s])
				v[m++] = r->values[x->first + s];
		if (m)
			(*med)[(*k)++] = ior_median(v, m);
		free(v);
	}
	return IOR_OK;
}

/* Separate runs cannot be paired, and runs measured apart (days, reboots, another load) differ by more
 * than the repetitions within one run do: pooling every repetition as if independent takes the
 * within-run spread for the noise and calls a difference between runs a regression. With several runs
 * on both sides, the verdict is taken on each run's median, one observation per run, so the
 * variation between runs is the noise; with several on one side only it cannot be estimated for the
 * other, and the reason says so. *why gets the words to append. */
static int between_runs(const struct judge *j, size_t ga, size_t ca, size_t gb, size_t cb,
			const struct ior_compare_opts *o, struct ior_comparison *c, char *why, size_t len)
{
	double *ma = NULL, *mb = NULL;
	size_t ka = 0, kb = 0;
	int rc = run_medians(j, ga, ca, &ma, &ka);
	if (!rc)
		rc = run_medians(j, gb, cb, &mb, &kb);
	if (!rc && ka >= 2 && kb >= 2) {
		struct ior_comparison runs;
		rc = ior_compare(&runs, ma, ka, mb, kb, o);
		if (!rc) {
			runs.per = "run";
			*c = runs;
			snprintf(why, len, "separate runs: judged on each run's median (%zu against %zu runs), so the "
				 "variation between runs is part of the noise", ka, kb);
		}
	} else if (!rc && (ka >= 2 || kb >= 2)) {
		snprintf(why, len, "separate runs: %zu run(s) against %zu, so the variation between runs is not part of "
			 "the noise; measure the side with one run again in another run", ka, kb);
	} else if (!rc) {
		snprintf(why, len, "separate runs");
	}
	free(ma), free(mb);
	return rc;
}

/* Two cells of one interleaved run are judged on their values paired by round (stats/paired.c):
 * drift of the machine shared by a round cancels. Otherwise the unpaired verdict stands and says
 * so, naming separate runs when that is why. */
static int pair_by_round(struct judge *j, size_t ga, size_t ca, size_t gb, size_t cb, const struct ior_compare_opts *o,
			 struct ior_comparison *c)
{
	int64_t ia = j->db ? only_stored_cell(j, ga, ca) : 0, ib = j->db ? only_stored_cell(j, gb, cb) : 0;
	struct ior_db_rounds ra = { 0 }, rb = { 0 };
	double *pa = NULL, *pb = NULL;
	int rc = IOR_OK;
	if (ia && ib && ((rc = ior_db_cell_rounds(j->db, ia, &ra)) || (rc = ior_db_cell_rounds(j->db, ib, &rb))))
		goto out;
	pa = malloc((ra.n ? ra.n : 1) * sizeof(*pa)), pb = malloc((ra.n ? ra.n : 1) * sizeof(*pb));
	if (!pa || !pb) {
		rc = ior_error_set(IOR_ERROR, "out of memory");
		goto out;
	}
	size_t n = 0;
	bool same_run = ia && ib && ra.run_id == rb.run_id;
	for (size_t x = 0; same_run && x < ra.n; x++)
		for (size_t y = 0; ra.round[x] && y < rb.n; y++)
			if (rb.round[y] == ra.round[x]) {
				pa[n] = ra.value[x], pb[n++] = rb.value[y];
				break;
			}
	char why[sizeof(c->reason)];
	if (n >= 3 && n == ra.n && n == rb.n) {
		struct ior_paired p;
		if (ior_paired_ratio(&p, pa, pb, n, 0.95) == IOR_OK) {
			ior_paired_decide(&p, o->alpha, o->min_effect, o->higher_is_better);
			c->verdict = p.verdict;
			c->ratio = p.ratio, c->ratio_lo = p.ratio_lo, c->ratio_hi = p.ratio_hi;
			c->welch.p = c->mw.p = p.p;   /* the p the verdict rests on, in every column that prints one */
			ior_compare_noise_paired(c, p.sd, p.n, o);
			snprintf(why, sizeof(why), "%s; paired by round (%zu rounds of one run)", p.reason, n);
			memcpy(c->reason, why, sizeof(why));
			goto out;
		}
	}
	bool rounds = false;
	for (size_t x = 0; x < ra.n; x++)
		rounds |= ra.round[x] != 0;
	char runs[256] = "";
	if (!same_run && (rc = between_runs(j, ga, ca, gb, cb, o, c, runs, sizeof(runs))))
		goto out;
	size_t len = strlen(c->reason);
	snprintf(c->reason + len, sizeof(c->reason) - len, "; unpaired: %s",
		 !same_run ? runs
		 : !rounds ? "no rounds recorded (sequential order, an import, or a run before schema 9)"
			   : "the cells did not run in the same rounds");
out:
	free(pa), free(pb);
	ior_db_rounds_free(&ra);
	ior_db_rounds_free(&rb);
	return rc;
}

/* Whether a VM boot stored any of rt cell (gi, ci)'s samples: then its kernel verdicts are judged on boots. */
static bool from_boots(const struct judge *j, size_t gi, size_t ci)
{
	for (size_t i = 0; i < j->in->stored->ncells; i++)
		if (of_cell(j->in, i, gi, ci) && ior_stored_boot_of_run(j->in->stored, j->in->stored->cells[i].run_id))
			return true;
	return false;
}

/* One stored cell's values of metric m, warm-ups left out (the reader leaves them out itself). */
static int stored_values(struct judge *j, const struct ior_stored_cell *x, enum ior_metric m, double **v, size_t *n)
{
	*n = 0;
	if (m != IOR_METRIC_VALUE) {
		if (!j->readers[m] && ior_metric_reader_open(&j->readers[m], j->db, m))
			return IOR_ERROR;
		return ior_metric_reader_read(j->readers[m], x->cell_id, v, n);
	}
	*v = malloc((x->n ? x->n : 1) * sizeof(**v));
	if (!*v)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t k = x->first; k < x->first + x->n; k++)
		if (!j->in->stored->warmup[k])
			(*v)[(*n)++] = j->in->stored->values[k];
	return IOR_OK;
}

/* One observation per boot (per run) behind rt cell (gi, ci): the median of its repetitions. */
static int boot_observations(struct judge *j, size_t gi, size_t ci, enum ior_metric m, struct ior_boot_obs **out,
			     size_t *n)
{
	*out = malloc((j->in->stored->ncells ? j->in->stored->ncells : 1) * sizeof(**out));
	*n = 0;
	if (!*out)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < j->in->stored->ncells; i++) {
		const struct ior_stored_cell *x = &j->in->stored->cells[i];
		if (!of_cell(j->in, i, gi, ci) || (m != IOR_METRIC_VALUE && !j->db))
			continue;
		double *v = NULL;
		size_t k = 0;
		int rc = stored_values(j, x, m, &v, &k);
		if (!rc && k) {
			const struct ior_stored_boot *b = ior_stored_boot_of_run(j->in->stored, x->run_id);
			(*out)[(*n)++] = (struct ior_boot_obs){ .vm_run = b ? b->vm_run : NULL, .round = b ? b->boot_index : 0,
								.median = ior_median(v, k), .n = k };
		}
		free(v);
		if (rc)
			return rc;
	}
	return IOR_OK;
}

/* VM data: each boot's median one observation, paired by boot round where both sides booted in the
 * same rounds of a vm run (judge/boot_verdict.c): two kernels in the same rounds, or on any other
 * axis (two schedulers, devices or engines of one kernel) the two cells of the same boot, whose
 * repetitions are no more independent evidence than a kernel's are. *done false: not VM data,
 * judged as before. */
static int judge_boots(struct judge *j, size_t ga, size_t ca, size_t gb, size_t cb, enum ior_metric m,
		       const struct ior_compare_opts *o, struct ior_judge_verdict *v, bool *done)
{
	*done = false;
	if (!from_boots(j, ga, ca) && !from_boots(j, gb, cb))
		return IOR_OK;
	struct ior_boot_obs *oa = NULL, *ob = NULL;
	size_t na = 0, nb = 0;
	int rc = boot_observations(j, ga, ca, m, &oa, &na);
	if (!rc)
		rc = boot_observations(j, gb, cb, m, &ob, &nb);
	if (!rc && na && nb) {
		rc = ior_boot_compare(&v->c, &v->boots, oa, na, ob, nb, o);
		v->by_boot = *done = rc == IOR_OK;
	}
	free(oa), free(ob);
	return rc;
}

/* Issue 22: an inconclusive verdict says the noise it faced and the smallest change it could have told,
 * in the words `check`, `compare` and every report print alike. */
static void append_noise(struct ior_comparison *c)
{
	char noise[320];
	ior_compare_noise_text(noise, sizeof(noise), c);
	size_t len = strlen(c->reason);
	if (len < sizeof(c->reason))
		snprintf(c->reason + len, sizeof(c->reason) - len, "; %s", noise);
}

static struct ior_judge_verdict *push(struct ior_verdict_set *s)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct ior_judge_verdict *v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		s->v = v;
		s->cap = cap;
	}
	return &s->v[s->n];
}

static int judge_metric(struct judge *j, size_t ga, size_t ca, size_t gb, size_t cb, enum ior_metric m)
{
	const struct ior_tables *rt = j->in->rt;
	const struct ior_rt_group *A = &rt->groups[ga], *B = &rt->groups[gb];
	const struct ior_rt_cell *cA = &A->cells[ca], *cB = &B->cells[cb];
	double *va = NULL, *vb = NULL;
	size_t na = 0, nb = 0;
	int rc = metric_values(j, ga, ca, m, &va, &na);
	if (!rc)
		rc = metric_values(j, gb, cb, m, &vb, &nb);
	if (rc || !na || !nb)  /* a metric the engine does not record is not judged */
		goto out;
	const struct ior_metric_info *mi = ior_metric_info(m);
	struct ior_compare_opts o = j->in->compare;
	o.higher_is_better = m == IOR_METRIC_VALUE ? A->higher_is_better : mi->higher_is_better;
	struct ior_judge_verdict *v = push(j->out);
	if (!v) {
		rc = ior_error_set(IOR_ERROR, "out of memory");
		goto out;
	}
	*v = (struct ior_judge_verdict){
		.series = cA->series, .base_group = ga, .cand_group = gb, .base_cell = ca, .cand_cell = cb, .metric = m,
		.unit = m == IOR_METRIC_VALUE ? A->unit : mi->unit, .host = A->host, .kernel = A->kernel,
		.device = cA->device, .scheduler = cA->scheduler, .engine = A->engine, .params = A->params,
		.cand_name = axis_value(j->axis, B, cB), .cand_params = B->params, .in_view = true };
	bool by_boot = false;
	if ((rc = judge_boots(j, ga, ca, gb, cb, m, &o, v, &by_boot)))
		goto out;
	if (!by_boot && ior_compare(&v->c, va, na, vb, nb, &o)) {
		rc = ior_error_wrap(IOR_ERROR, "cannot compare '%s' %s %s (%s)", cA->device,
				    cA->scheduler ? cA->scheduler : "-", A->engine, mi->name);
		goto out;
	}
	if (!by_boot && m == IOR_METRIC_VALUE && (rc = pair_by_round(j, ga, ca, gb, cb, &o, &v->c)))
		goto out;
	if (!by_boot && v->c.verdict == IOR_VERDICT_INCONCLUSIVE)   /* boots say theirs (boot_verdict.c) */
		append_noise(&v->c);
	struct ior_verdict_set *s = j->out;
	s->n++;
	s->judged |= IOR_METRIC_BIT(m);
	switch (v->c.verdict) {
	case IOR_VERDICT_REGRESSION: s->regressions++; break;
	case IOR_VERDICT_IMPROVEMENT: s->improvements++; break;
	case IOR_VERDICT_INCONCLUSIVE: s->inconclusive++; break;
	case IOR_VERDICT_NO_CHANGE: s->unchanged++; break;
	}
out:
	free(va);
	free(vb);
	return rc;
}

/* One pair of cells on every metric asked for; the headline only where both measure in one unit. */
static int judge_pair(struct judge *j, size_t ga, size_t ca, size_t gb, size_t cb)
{
	const struct ior_rt_group *A = &j->in->rt->groups[ga], *B = &j->in->rt->groups[gb];
	for (int m = 0; m < IOR_METRIC_COUNT; m++) {
		if (!(j->metrics & IOR_METRIC_BIT(m)))
			continue;
		if (m == IOR_METRIC_VALUE &&
		    (ior_rt_strcmp(A->unit, B->unit) || A->higher_is_better != B->higher_is_better)) {
			j->out->unit_mismatch++;
			continue;
		}
		if (judge_metric(j, ga, ca, gb, cb, (enum ior_metric)m))
			return IOR_ERROR;
	}
	return IOR_OK;
}

/* The kernel axis follows the series: one cell key over the kernels of its host. */
static int judge_kernels(struct judge *j)
{
	const struct ior_tables *rt = j->in->rt;
	for (size_t si = 0; si < rt->nseries; si++) {
		const struct ior_rt_series *s = &rt->series[si];
		if (!key_in_view(j->in, s))
			continue;
		const char *cand = j->b ? j->b : newest_kernel(j->in, s->host, j->a);
		const struct ior_rt_member *a = ior_rt_member_on(rt, s, j->a), *b = cand ? ior_rt_member_on(rt, s, cand) : NULL;
		if (!a)
			continue;
		if (!b) {
			j->out->only_a++;
			continue;
		}
		j->out->cand = cand;
		if (judge_pair(j, a->group, a->index, b->group, b->index))
			return IOR_ERROR;
	}
	return IOR_OK;
}

/* Does group h hold B's counterpart of group g's cells along axis? */
static bool partner_group(enum ior_axis axis, const struct ior_rt_group *g, const struct ior_rt_group *h, const char *b)
{
	bool host = !ior_rt_strcmp(g->host, h->host), kernel = !ior_rt_strcmp(g->kernel, h->kernel);
	bool engine = !ior_rt_strcmp(g->engine, h->engine) && !ior_rt_strcmp(g->params, h->params);
	switch (axis) {
	case IOR_AXIS_SCHEDULER:
	case IOR_AXIS_DEVICE: return g == h;
	case IOR_AXIS_ENGINE: return host && kernel && !ior_rt_strcmp(h->engine, b);
	case IOR_AXIS_HOST: return !ior_rt_strcmp(h->host, b) && kernel && engine;
	case IOR_AXIS_KERNEL:
	case IOR_AXIS_COUNT: break;
	}
	return false;
}

static bool partner_cell(enum ior_axis axis, const struct ior_rt_cell *c, const struct ior_rt_cell *d, const char *b)
{
	switch (axis) {
	case IOR_AXIS_SCHEDULER: return !ior_rt_strcmp(c->device, d->device) && !ior_rt_strcmp(d->scheduler, b);
	case IOR_AXIS_DEVICE: return !ior_rt_strcmp(d->device, b) && !ior_rt_strcmp(c->scheduler, d->scheduler);
	default: return !ior_rt_strcmp(c->device, d->device) && !ior_rt_strcmp(c->scheduler, d->scheduler);
	}
}

/* Any other axis: each in-view cell whose axis value is A, against every cell that agrees with it on
 * all the other fields and has B (an engine axis may pair several parameter sets). */
static int judge_within(struct judge *j)
{
	const struct ior_tables *rt = j->in->rt;
	for (size_t g = 0; g < rt->ngroups; g++) {
		const struct ior_rt_group *G = &rt->groups[g];
		for (size_t c = 0; c < G->ncells; c++) {
			if (!j->in->cell_in_view[g][c] || ior_rt_strcmp(axis_value(j->axis, G, &G->cells[c]), j->a))
				continue;
			size_t found = 0;
			for (size_t h = 0; h < rt->ngroups; h++) {
				const struct ior_rt_group *H = &rt->groups[h];
				if (!partner_group(j->axis, G, H, j->b))
					continue;
				for (size_t d = 0; d < H->ncells; d++) {
					if (!partner_cell(j->axis, &G->cells[c], &H->cells[d], j->b))
						continue;
					found++;
					if (judge_pair(j, g, c, h, d))
						return IOR_ERROR;
				}
			}
			if (!found)
				j->out->only_a++;
		}
	}
	j->out->cand = j->b;
	return IOR_OK;
}

/* Both names must have samples in view, or the comparison is of nothing. */
static int names_seen(const struct ior_judge_input *r, enum ior_axis axis, const char *a, const char *b)
{
	const struct ior_tables *rt = r->rt;
	const char *names[2] = { a, b };
	const char *roles[2] = { axis == IOR_AXIS_KERNEL ? "baseline" : "reference", "candidate" };
	for (int k = 0; k < 2; k++) {
		bool seen = !names[k];
		for (size_t g = 0; g < rt->ngroups && !seen; g++)
			for (size_t c = 0; c < rt->groups[g].ncells && !seen; c++) {
				const struct ior_rt_cell *x = &rt->groups[g].cells[c];
				bool view = axis == IOR_AXIS_KERNEL ? key_in_view(r, &rt->series[x->series])
								    : r->cell_in_view[g][c];
				seen = view && !ior_rt_strcmp(axis_value(axis, &rt->groups[g], x), names[k]);
			}
		if (!seen) {
			const struct ior_judge_input *o = r;
			return ior_error_set(IOR_ENOTFOUND, "no samples for %s %s '%s'%s", roles[k], ior_axis_name(axis),
					     names[k], o->host || o->kernel || o->device || o->scheduler || o->engine
							       ? " matching the filters" : "");
		}
	}
	return IOR_OK;
}

int ior_judge_verdicts(struct ior_verdict_set *out, const struct ior_judge_input *in, enum ior_axis axis,
		       const char *a, const char *b)
{
	*out = (struct ior_verdict_set){ .axis = axis, .a = a };
	int rc = names_seen(in, axis, a, b);
	if (rc)
		return rc;
	struct judge j = { .in = in, .db = in->db, .axis = axis, .a = a, .b = b, .out = out,
			   .metrics = in->metrics ? in->metrics : IOR_METRICS_DEFAULT };
	rc = axis == IOR_AXIS_KERNEL ? judge_kernels(&j) : judge_within(&j);
	for (int m = 0; m < IOR_METRIC_COUNT; m++)
		ior_metric_reader_close(j.readers[m]);
	if (rc) {
		free(out->v);
		out->v = NULL;
		out->n = 0;
	}
	return rc;
}

static int by_change(const void *x, const void *y, void *ctx)
{
	const struct ior_judge_verdict *vs = ctx;
	const struct ior_judge_verdict *a = &vs[*(const size_t *)x], *b = &vs[*(const size_t *)y];
	double da = fabs(a->c.ratio - 1), db = fabs(b->c.ratio - 1);
	return da != db ? (da > db ? -1 : 1) : 0;
}

int ior_judge_regression_order(size_t **order, size_t *n, const struct ior_judge_verdict *v, size_t nv)
{
	*n = 0;
	*order = malloc((nv ? nv : 1) * sizeof(**order));
	if (!*order)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < nv; i++)
		if (v[i].c.verdict == IOR_VERDICT_REGRESSION)
			(*order)[(*n)++] = i;
	qsort_r(*order, *n, sizeof(size_t), by_change, (void *)v);
	return IOR_OK;
}

/* The field tester dropped a vanished scheduler by hand to keep tables comparable: here the
 * comparison covers what both kernels offered, and the model says what it left out and why. */
int ior_judge_left_out(const struct ior_judge_input *in, const char *baseline, const char *candidate,
		       struct ior_sched_common **common, const char ***hosts, size_t *n)
{
	if (!in->db || !candidate)
		return IOR_OK;
	for (size_t k = 0; k < in->stored->nkernels; k++) {
		const char *host = in->stored->kernels[k].host;
		bool seen = false;
		for (size_t i = 0; i < *n && !seen; i++)
			seen = (*hosts)[i] == host;
		if (seen || (in->host && strcmp(in->host, host)))
			continue;
		char *off_a = NULL, *off_b = NULL;
		int rc = ior_db_offered(in->db, host, baseline, &off_a);
		if (!rc)
			rc = ior_db_offered(in->db, host, candidate, &off_b);
		if (!rc && off_a && off_b) {
			struct ior_sched_common *c = realloc(*common, (*n + 1) * sizeof(*c));
			const char **h = realloc(*hosts, (*n + 1) * sizeof(*h));
			if (c)
				*common = c;
			if (h)
				*hosts = h;
			const char *kernels[] = { baseline, candidate };
			const char *offered[] = { off_a, off_b };
			if (!c || !h)
				rc = ior_error_set(IOR_ERROR, "out of memory");
			else if (ior_sched_common_set(&c[*n], kernels, offered, 2) == IOR_OK)
				h[(*n)++] = host;
		}
		free(off_a);
		free(off_b);
		if (rc)
			return rc;
	}
	return IOR_OK;
}

/* How little an inconclusive verdict could tell: its smallest findable change, none (INFINITY) or
 * unknown (NAN) counting as the least. */
static double told_least(const struct ior_judge_verdict *v)
{
	return isnan(v->c.smallest) ? INFINITY : v->c.smallest;
}

/* A pair's verdicts summed up: the headline per series (the heat map's), the worst regression and the
 * inconclusive verdict that could tell the least. */
static int sum_up(struct ior_judge_pair *p, const struct ior_judge_verdict *vs, size_t n)
{
	p->cells = malloc((n ? n : 1) * sizeof(*p->cells));
	if (!p->cells)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const struct ior_judge_verdict *v = &vs[i];
		if (v->metric == IOR_METRIC_VALUE)
			p->cells[p->ncells++] = (struct ior_judge_pair_cell){ .series = v->series, .verdict = v->c.verdict,
									      .ratio = v->c.ratio, .by_boot = v->by_boot };
		if (v->c.verdict == IOR_VERDICT_REGRESSION && (!p->has_worst || fabs(v->c.ratio - 1) > fabs(p->worst.c.ratio - 1)))
			p->worst = *v, p->has_worst = true;
		if (v->c.verdict == IOR_VERDICT_INCONCLUSIVE && (!p->has_untold || told_least(v) > told_least(&p->untold)))
			p->untold = *v, p->has_untold = true;
	}
	return IOR_OK;
}

/* One pair judged as the report judges its own, summed up. The pair the report's verdicts already
 * judged (--baseline and its candidate) is summed up from them: each verdict costs a bootstrap. */
static int judge_pair_of_kernels(const struct ior_judge_input *in, const struct ior_verdict_set *done,
				 struct ior_judge_pair *p)
{
	if (done && done->axis == IOR_AXIS_KERNEL && done->a && done->cand && !strcmp(done->a, p->a) &&
	    !strcmp(done->cand, p->b)) {
		p->compared = done->n;
		p->regressions = done->regressions, p->improvements = done->improvements;
		p->unchanged = done->unchanged, p->inconclusive = done->inconclusive;
		p->only_a = done->only_a;
		return sum_up(p, done->v, done->n);
	}
	struct ior_verdict_set s;
	int rc = ior_judge_verdicts(&s, in, IOR_AXIS_KERNEL, p->a, p->b);
	if (rc == IOR_ENOTFOUND) {   /* a kernel with nothing in view to compare: the pair says so with 0 cells */
		ior_error_clear();
		rc = IOR_OK;
	}
	p->compared = s.n;
	p->regressions = s.regressions, p->improvements = s.improvements;
	p->unchanged = s.unchanged, p->inconclusive = s.inconclusive;
	p->only_a = s.only_a;
	if (!rc)
		rc = sum_up(p, s.v, s.n);
	free(s.v);
	return rc;
}

static bool pair_known(const struct ior_judge_pair *pairs, size_t n, const char *a, const char *b)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(pairs[i].a, a) && !strcmp(pairs[i].b, b))
			return true;
	return false;
}

/* Whether host measured kernel (a baseline is compared with the kernels of its own host). */
static bool on_host(const struct ior_stored *st, const char *host, const char *kernel)
{
	for (size_t k = 0; k < st->nkernels; k++)
		if (!ior_rt_strcmp(st->kernels[k].host, host) && !strcmp(st->kernels[k].release, kernel))
			return true;
	return false;
}

/* Issue 22: the answer the reports open with is every kernel's verdicts, not only the newest against
 * a baseline: without --baseline each kernel against the one before it in the report's kernel order
 * (per host; version order, so 6.1.0-9 comes before 6.1.0-10), with it every other kernel against
 * the baseline (or only --candidate). */
int ior_judge_pairs(struct ior_judge_pair **pairs, size_t *npairs, size_t *total, const struct ior_judge_input *in,
		    const char *baseline, const char *candidate, const struct ior_verdict_set *done)
{
	const struct ior_stored *st = in->stored;
	struct ior_judge_pair *ps = calloc(st->nkernels ? st->nkernels : 1, sizeof(*ps));
	size_t n = 0;
	*pairs = ps, *npairs = 0, *total = 0;
	if (!ps)
		return ior_error_set(IOR_ERROR, "out of memory");
	const char *prev = NULL, *host = NULL;
	for (size_t k = 0; k < st->nkernels; k++) {
		const struct ior_stored_kernel *x = &st->kernels[k];
		if (in->kernel && strcmp(in->kernel, x->release))   /* not in view */
			continue;
		if (!host || ior_rt_strcmp(host, x->host))
			prev = NULL, host = x->host;
		const char *a = baseline ? baseline : prev, *b = x->release;
		prev = x->release;
		if (!a || !strcmp(a, b) || (candidate && strcmp(candidate, b)) || pair_known(ps, n, a, b) ||
		    !on_host(st, x->host, a))
			continue;
		ps[n++] = (struct ior_judge_pair){ .a = a, .b = b };
	}
	/* the newest first, while the budget lasts; the judged keep their kernel order */
	*total = n;
	size_t spent = 0, first = n;
	int rc = IOR_OK;
	while (!rc && first > 0 && (first == n || spent < IOR_JUDGE_PAIR_VERDICTS)) {
		struct ior_judge_pair *p = &ps[--first];
		rc = judge_pair_of_kernels(in, done, p);
		spent += p->compared ? p->compared : 1;
	}
	*npairs = n;   /* every pair's cells freed on an error, judged or not (calloc) */
	if (rc)
		return rc;
	for (size_t i = 0; i < first; i++)
		free(ps[i].cells);
	memmove(ps, ps + first, (n - first) * sizeof(*ps));
	*npairs = n - first;
	return IOR_OK;
}

void ior_judge_pairs_free(struct ior_judge_pair *pairs, size_t n)
{
	for (size_t i = 0; pairs && i < n; i++)
		free(pairs[i].cells);
	free(pairs);
}

/* A question whose name has no cell is answered with what it lacks, not refused: the report
 * still shows everything else. */
int ior_judge_answers(struct ior_judge_answer **out, size_t *n, const struct ior_judge_input *in,
		      const struct ior_judge_question *q, size_t nq)
{
	*out = NULL, *n = 0;
	if (!nq)
		return IOR_OK;
	*out = calloc(nq, sizeof(**out));
	if (!*out)
		return ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; i < nq; i++) {
		struct ior_judge_answer *an = &(*out)[(*n)++];
		an->q = q[i];
		struct ior_verdict_set s;
		int rc = ior_judge_verdicts(&s, in, an->q.axis, an->q.a, an->q.b);
		if (rc == IOR_ENOTFOUND) {
			ior_error_clear();
			an->unmatched = 1;
			continue;
		}
		if (rc)
			return rc;
		an->verdicts = s.v;
		an->nverdicts = s.n;
		an->regressions = s.regressions;
		an->improvements = s.improvements;
		an->inconclusive = s.inconclusive;
		an->unchanged = s.unchanged;
	}
	return IOR_OK;
}

void ior_judge_answers_free(struct ior_judge_answer *a, size_t n)
{
	for (size_t i = 0; a && i < n; i++)
		free(a[i].verdicts);
	free(a);
}
