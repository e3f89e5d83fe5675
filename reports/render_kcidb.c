/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The KCIDB report (Kernel CI's common database, I/O schema v5.3): checkouts per kernel commit,
 * builds per kernel image, a test per run of a cell and per verdict, issues and incidents for
 * regressions and bisect culprits. */
#include "reports/render.h"

#include "common/error.h"
#include "engines/engine.h"
#include "kernel/info.h"
#include "kernel/tree_name.h"
#include "options/option.h"
#include "reports/escape.h"
#include "reports/kcidb_id.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Issues are written whole each time: a resubmission replaces version 1 with the same text. */
#define ISSUE_VERSION 1

/* KCIDB has no null: a member without a value is left out, so each writer skips NULL and NAN. */
struct obj {
	FILE *out;
	bool first;
};

static struct obj obj_open(FILE *out)
{
	fputc('{', out);
	return (struct obj){ out, true };
}

static void obj_key(struct obj *o, const char *k)
{
	fprintf(o->out, "%s\"%s\":", o->first ? "" : ",", k);
	o->first = false;
}

static void obj_str(struct obj *o, const char *k, const char *v)
{
	if (!v)
		return;
	obj_key(o, k);
	ior_esc_json(o->out, v);
}

static void obj_num(struct obj *o, const char *k, double v)
{
	if (!isfinite(v))
		return;
	obj_key(o, k);
	ior_json_num(o->out, v);
}

static void obj_bool(struct obj *o, const char *k, bool v)
{
	obj_key(o, k);
	fputs(v ? "true" : "false", o->out);
}

/* An object member: opened here, closed with fputc('}'). */
static struct obj obj_sub(struct obj *o, const char *k)
{
	obj_key(o, k);
	return obj_open(o->out);
}

int ior_render_check_opts(const struct ior_renderer *x, const struct ior_report_opts *o)
{
	bool kcidb = x == &ior_renderer_kcidb;
	if (!kcidb && o->origin)
		return ior_error_set(IOR_EINVALID, "--origin needs --format kcidb");
	return kcidb ? ior_kcidb_origin_check(o->origin) : IOR_OK;
}

/* The parameters of an engine of type that are not its defaults ("" when all are), as fio prints a
 * job; malloc'd. An unknown type (an import's) keeps them whole. */
static char *params_set(const char *type, const char *params)
{
	size_t len = strlen(params ? params : "") + 1;
	char *buf = malloc(len);
	if (!buf)
		return NULL;
	const struct ior_engine_ops *ops = type ? ior_engine_find(type) : NULL;
	if (!ops || ior_options_changed(ops->options, ops->options_size, params ? params : "", buf, len))
		snprintf(buf, len, "%s", params ? params : "");
	ior_error_clear();
	return buf;
}

/* Every object starts with its id and origin; the comma before each object is the caller's. */
struct doc {
	FILE *out;
	const struct ior_report *r;
	const char *origin;
	bool first;                         /* of the current list */
	char **seen;                        /* checkout and build ids already written */
	size_t nseen;
	size_t *rank;                       /* per stored cell: its run among runs of one host, kernel and
					       start (1, 2, ...), 0 when its run is the only one */
};

/* qsort_r comparator of indexes into the report's cells (ctx): by host, kernel, start and run. */
static int rank_order(const void *x, const void *y, void *ctx)
{
	const struct ior_report *r = ctx;
	const struct ior_stored_cell *a = &r->stored.cells[*(const size_t *)x], *b = &r->stored.cells[*(const size_t *)y];
	int c = ior_rt_strcmp(a->host, b->host);
	if (!c)
		c = ior_rt_strcmp(a->kernel, b->kernel);
	if (!c)
		c = ior_rt_strcmp(a->run_started_at, b->run_started_at);
	return c ? c : (a->run_id > b->run_id) - (a->run_id < b->run_id);
}

/* d->rank: one sort of the stored cells by host, kernel, start and run. */
static int ranks(struct doc *d)
{
	const struct ior_report *r = d->r;
	size_t n = r->stored.ncells, *order = malloc((n ? n : 1) * sizeof(*order));
	d->rank = calloc(n ? n : 1, sizeof(*d->rank));
	if (!order || !d->rank) {
		free(order);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), rank_order, (void *)r);
	for (size_t i = 0, j; i < n; i = j) {
		const struct ior_stored_cell *a = &r->stored.cells[order[i]];
		size_t runs = 1;
		for (j = i + 1; j < n; j++) {
			const struct ior_stored_cell *b = &r->stored.cells[order[j]], *p = &r->stored.cells[order[j - 1]];
			if (ior_rt_strcmp(a->host, b->host) || ior_rt_strcmp(a->kernel, b->kernel) ||
			    ior_rt_strcmp(a->run_started_at, b->run_started_at))
				break;
			runs += b->run_id != p->run_id;
		}
		for (size_t k = i, rank = 1; runs > 1 && k < j; k++) {
			rank += k > i && r->stored.cells[order[k]].run_id != r->stored.cells[order[k - 1]].run_id;
			d->rank[order[k]] = rank;
		}
	}
	free(order);
	return IOR_OK;
}

static bool seen(struct doc *d, const char *id)
{
	for (size_t i = 0; i < d->nseen; i++)
		if (!strcmp(d->seen[i], id))
			return true;
	char **grown = realloc(d->seen, (d->nseen + 1) * sizeof(*grown));
	char *copy = strdup(id);
	if (!grown || !copy) {
		free(copy);
		if (grown)
			d->seen = grown;
		return false;  /* out of memory: written twice is still valid KCIDB */
	}
	d->seen = grown;
	d->seen[d->nseen++] = copy;
	return false;
}

static struct obj item(struct doc *d, const struct ior_kcidb_id *id)
{
	fputs(d->first ? "\n" : ",\n", d->out);
	d->first = false;
	struct obj o = obj_open(d->out);
	obj_str(&o, "id", id->s);
	obj_str(&o, "origin", d->origin);
	return o;
}

static void list_open(struct doc *d, const char *name)
{
	fprintf(d->out, ",\"%s\":[", name);
	d->first = true;
}

/* The earliest start of the runs of release (any host), or NULL: when its checkout and build were
 * first measured, which is as close to their start as the database knows. */
static const char *first_start(const struct ior_report *r, const char *release)
{
	const char *first = NULL;
	for (size_t i = 0; i < r->stored.ncells; i++) {
		const char *t = r->stored.cells[i].run_started_at;
		if (t && !strcmp(r->stored.cells[i].kernel, release) && (!first || strcmp(t, first) < 0))
			first = t;
	}
	return first;
}

/* --- kernels: checkouts and builds ---------------------------------------------- */

static bool is_sha(const char *s)
{
	size_t n = 0;
	for (; s && ((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')); n++)
		;
	return s && n == 40 && !s[n];
}

/* The boot of the release that names its package and version, or NULL (not from a package). */
static const struct ior_stored_boot *package_of(const struct ior_report *r, const char *release)
{
	for (size_t i = 0; i < r->stored.nboots; i++)
		if (r->stored.boots[i].release && r->stored.boots[i].package_version && !strcmp(r->stored.boots[i].release, release))
			return &r->stored.boots[i];
	return NULL;
}

static const struct ior_report_kernel *kernel_of(const struct ior_report *r, const char *host, const char *release)
{
	for (size_t i = 0; i < r->nkernels; i++)
		if (!strcmp(r->kernels[i].host, host) && !strcmp(r->kernels[i].release, release))
			return &r->kernels[i];
	return NULL;
}

/* Where the run's tree had the commit from, as dashboards select it: the repository's https URL
 * (KCIDB takes no other; a local path is left out), its tree's name and the branch. */
static void source(struct obj *o, const struct ior_report_commit *c)
{
	char url[1100], tree[256];
	if (ior_git_https_url(url, sizeof(url), c->repository_url)) {
		obj_str(o, "git_repository_url", url);
		ior_git_tree_name(tree, sizeof(tree), url);
		obj_str(o, "tree_name", *tree ? tree : NULL);
	}
	obj_str(o, "git_repository_branch", c->branch);
	if (c->branch) /* recorded only when the commit was the branch's tip as the run began */
		obj_bool(o, "git_repository_branch_tip", true);
}

static void checkout_id(struct ior_kcidb_id *x, const struct ior_report *r, const struct ior_report_kernel *k)
{
	ior_kcidb_id_start(x, r->opts.origin, k->commit.sha ? "git" : "kernel");
	ior_kcidb_id_add(x, k->commit.sha ? k->commit.sha : k->release);
}

/* A tree build's config hash for the release, or NULL. */
static const char *config_of(const struct ior_report *r, const char *release)
{
	for (size_t i = 0; i < r->nkernels; i++)
		if (r->kernels[i].config_hash && !strcmp(r->kernels[i].release, release))
			return r->kernels[i].config_hash;
	return NULL;
}

/* A build is its package and version (vm run), else the release and its config hash (a tree
 * build), else the release alone (an import). */
static void build_id(struct ior_kcidb_id *x, const struct ior_report *r, const char *release)
{
	const struct ior_stored_boot *b = package_of(r, release);
	const char *config = b ? NULL : config_of(r, release);
	ior_kcidb_id_start(x, r->opts.origin, b ? "package" : config ? "config" : "build");
	ior_kcidb_id_add(x, b ? b->kernel : release);
	if (b || config)
		ior_kcidb_id_add(x, b ? b->package_version : config);
}

static void checkouts(struct doc *d)
{
	const struct ior_report *r = d->r;
	list_open(d, "checkouts");
	for (size_t i = 0; i < r->view.nkernels; i++) {
		const struct ior_report_kernel *k = &r->kernels[r->view.kernels[i]];
		struct ior_kcidb_id x;
		checkout_id(&x, r, k);
		if (seen(d, x.s))
			continue;
		struct obj o = item(d, &x);
		if (is_sha(k->commit.sha))
			obj_str(&o, "git_commit_hash", k->commit.sha);
		obj_str(&o, "git_commit_name", k->commit.describe);
		source(&o, &k->commit);
		char text[512];
		snprintf(text, sizeof(text), "kernel %s%s%s", k->release, k->commit.subject ? ": " : "",
			 k->commit.subject ? k->commit.subject : "");
		obj_str(&o, "comment", text);
		obj_str(&o, "start_time", first_start(r, k->release));
		obj_bool(&o, "valid", true);
		struct obj m = obj_sub(&o, "misc");
		obj_str(&m, "release", k->release);
		obj_str(&m, "author_name", k->commit.author_name);
		obj_str(&m, "author_date", k->commit.author_date);
		fputs("}}", d->out);
	}
	for (size_t b = 0; b < r->nbisects; b++)
		for (size_t c = 0; c < r->bisects[b].ncommits; c++) {
			const struct ior_report_bisect *bi = &r->bisects[b];
			const char *commit = bi->commits[c].id;
			struct ior_kcidb_id x;
			ior_kcidb_id_start(&x, r->opts.origin, is_sha(commit) ? "git" : "package");
			ior_kcidb_id_add(&x, commit);
			if (seen(d, x.s))
				continue;
			struct obj o = item(d, &x);
			if (is_sha(commit))
				obj_str(&o, "git_commit_hash", commit);
			char text[256];
			snprintf(text, sizeof(text), "%s %s (bisection %s..%s)", strcmp(bi->source, "git") ? "kernel package" : "commit",
				 commit, bi->good, bi->bad);
			obj_str(&o, "comment", text);
			obj_str(&o, "start_time", bi->started_at);
			obj_bool(&o, "valid", true);
			struct obj m = obj_sub(&o, "misc");
			obj_str(&m, "repository", bi->repo);
			fputs("}}", d->out);
		}
	fputc(']', d->out);
}

static void bisect_build_id(struct ior_kcidb_id *x, const struct ior_report *r, const char *commit)
{
	ior_kcidb_id_start(x, r->opts.origin, "bisect-build");
	ior_kcidb_id_add(x, commit);
}

/* `uname -m` as KCIDB's architecture ([a-z0-9_]*), or NULL when it is not one. */
static const char *architecture(const char *machine)
{
	return machine && *machine && strspn(machine, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(machine)
		       ? machine : NULL;
}

static void builds(struct doc *d)
{
	const struct ior_report *r = d->r;
	list_open(d, "builds");
	for (size_t i = 0; i < r->view.nkernels; i++) {
		const struct ior_report_kernel *k = &r->kernels[r->view.kernels[i]];
		struct ior_kcidb_id x, c;
		build_id(&x, r, k->release);
		if (seen(d, x.s))
			continue;
		checkout_id(&c, r, k);
		const struct ior_stored_boot *b = package_of(r, k->release);
		struct obj o = item(d, &x);
		obj_str(&o, "checkout_id", c.s);
		char text[512];
		if (b)
			snprintf(text, sizeof(text), "package %s %s (kernel %s)", b->kernel, b->package_version, k->release);
		else
			snprintf(text, sizeof(text), "kernel %s", k->release);
		obj_str(&o, "comment", text);
		obj_str(&o, "start_time", first_start(r, k->release));
		obj_str(&o, "architecture", architecture(k->machine));
		obj_str(&o, "compiler", k->compiler);
		obj_str(&o, "status", "PASS");
		if (k->config_hash) {
			snprintf(text, sizeof(text), "sha256:%s", k->config_hash);
			obj_str(&o, "config_name", text);
		}
		struct obj m = obj_sub(&o, "misc");
		obj_str(&m, "release", k->release);
		obj_str(&m, "config_sha256", k->config_hash);
		obj_str(&m, "package", b ? b->kernel : NULL);
		obj_str(&m, "package_version", b ? b->package_version : NULL);
		fputs("}}", d->out);
	}
	for (size_t b = 0; b < r->nbisects; b++)
		for (size_t c = 0; c < r->bisects[b].ncommits; c++) {
			const struct ior_report_bisect_commit *bc = &r->bisects[b].commits[c];
			struct ior_kcidb_id x, co;
			bisect_build_id(&x, r, bc->id);
			if (seen(d, x.s))
				continue;
			ior_kcidb_id_start(&co, r->opts.origin, is_sha(bc->id) ? "git" : "package");
			ior_kcidb_id_add(&co, bc->id);
			struct obj o = item(d, &x);
			obj_str(&o, "checkout_id", co.s);
			obj_str(&o, "start_time", r->bisects[b].started_at);
			if (bc->build)
				obj_str(&o, "status", strcmp(bc->build, "ok") ? "FAIL" : "PASS");
			struct obj m = obj_sub(&o, "misc");
			obj_str(&m, "image_blob", bc->image);
			fputs("}}", d->out);
		}
	fputc(']', d->out);
}

/* --- tests --------------------------------------------------------------------- */

/* A test is one run of a cell (the run's start in its id: a second run of the matrix is a second
 * test, and the same run renders to the same id every time), or one verdict (the baseline and a
 * digest of the runs it judged in its id). */
struct cell_key {
	const char *host, *kernel, *engine, *engine_type, *params, *device, *scheduler, *metric;
};

/* The cell's part of an id: engine, the parameters that are not defaults, device, scheduler. */
static void id_add_cell(struct ior_kcidb_id *x, const struct cell_key *k)
{
	char *set = params_set(k->engine_type, k->params);
	ior_kcidb_id_add(x, k->engine);
	ior_kcidb_id_add(x, set ? set : k->params);
	ior_kcidb_id_add(x, k->device);
	ior_kcidb_id_add(x, ior_render_sched(k->scheduler));
	free(set);
}

static void run_test_id(struct ior_kcidb_id *x, const struct doc *d, const struct ior_stored_cell *c)
{
	struct cell_key k = { c->host, c->kernel, c->engine, c->engine_type, c->params, c->device, c->scheduler, "value" };
	ior_kcidb_id_start(x, d->r->opts.origin, "test");
	ior_kcidb_id_add(x, c->host);
	ior_kcidb_id_add(x, c->kernel);
	ior_kcidb_id_add_run(x, c->run_started_at, d->rank[c - d->r->stored.cells]);
	id_add_cell(x, &k);
}

/* ioregress.ENGINE.DEVICE.SCHEDULER, .METRIC for a metric other than the headline, then .verdict
 * for a verdict. */
static void test_path(char *buf, size_t len, const struct cell_key *k, bool verdict)
{
	snprintf(buf, len, "ioregress");
	ior_kcidb_path_add(buf, len, k->engine);
	ior_kcidb_path_add(buf, len, k->device);
	ior_kcidb_path_add(buf, len, ior_render_sched(k->scheduler));
	if (strcmp(k->metric, "value"))
		ior_kcidb_path_add(buf, len, k->metric);
	if (verdict)
		ior_kcidb_path_add(buf, len, "verdict");
}

/* The start of a test: id, build, path, start, environment; the caller adds status, number, misc. */
static struct obj test_open(struct doc *d, const struct ior_kcidb_id *x, const struct cell_key *k, bool verdict,
			    const char *start)
{
	struct ior_kcidb_id b;
	build_id(&b, d->r, k->kernel);
	struct obj o = item(d, x);
	obj_str(&o, "build_id", b.s);
	char path[1024];
	test_path(path, sizeof(path), k, verdict);
	obj_str(&o, "path", path);
	obj_str(&o, "start_time", start);
	struct obj e = obj_sub(&o, "environment");
	char text[512];
	snprintf(text, sizeof(text), "host %s", k->host);
	obj_str(&e, "comment", text);
	fputc('}', d->out);
	return o;
}

static void key_misc(struct obj *m, const struct cell_key *k)
{
	obj_str(m, "host", k->host);
	obj_str(m, "kernel", k->kernel);
	obj_str(m, "engine", k->engine);
	obj_str(m, "params", k->params);
	obj_str(m, "device", k->device);
	obj_str(m, "scheduler", k->scheduler);
	obj_str(m, "metric", k->metric);
}

/* KCIDB's SKIP means "did not run" and dashboards ignore its number: an inconclusive verdict ran
 * and could not tell, so it is DONE. */
static const char *verdict_status(const struct ior_judge_verdict *v)
{
	switch (v->c.verdict) {
	case IOR_VERDICT_REGRESSION:
		return "FAIL";
	case IOR_VERDICT_INCONCLUSIVE:
		return "DONE";
	default:
		return "PASS";
	}
}

/* What a verdict adds to its misc: the baseline, the interval, the p-values. */
static void verdict_misc(struct obj *m, const struct ior_report *r, const struct ior_judge_verdict *v)
{
	obj_str(m, "verdict", ior_verdict_name(v->c.verdict));
	obj_str(m, "axis", ior_axis_name(r->axis));
	obj_str(m, "baseline", r->baseline);
	obj_str(m, "candidate", v->cand_name);
	obj_num(m, "baseline_median", v->c.median_a);
	obj_num(m, "ratio", v->c.ratio);
	struct obj i = obj_sub(m, "interval");
	obj_num(&i, "level", 0.95);
	obj_num(&i, "ratio_lo", v->c.ratio_lo);
	obj_num(&i, "ratio_hi", v->c.ratio_hi);
	fputc('}', m->out);
	struct obj p = obj_sub(m, "p");
	obj_num(&p, "mann_whitney", v->c.mw.p);
	obj_num(&p, "welch", v->c.welch.p);
	fputc('}', m->out);
	obj_str(m, "reason", v->c.reason);
}

static void number(struct obj *o, double value, const char *unit)
{
	if (!isfinite(value))
		return;
	struct obj n = obj_sub(o, "number");
	obj_num(&n, "value", value);
	obj_str(&n, "unit", unit && *unit ? unit : NULL);
	fputc('}', o->out);
}

/* One stored cell, one run's test: measured (DONE with the median of its measured repetitions),
 * failed (ERROR), not applicable (SKIP) or never reached (MISS). */
static void run_test(struct doc *d, const struct ior_stored_cell *c)
{
	const struct ior_report *r = d->r;
	bool ok = !c->status || !strcmp(c->status, "ok");
	double *v = malloc((c->n ? c->n : 1) * sizeof(*v));
	size_t n = 0;
	for (size_t i = c->first; v && i < c->first + c->n; i++)
		if (!r->stored.warmup || !r->stored.warmup[i])
			v[n++] = r->stored.values[i];
	struct ior_stats st;
	bool measured = ok && n && ior_stats_compute(&st, v, n) == IOR_OK;
	free(v);
	struct cell_key k = { c->host, c->kernel, c->engine, c->engine_type, c->params, c->device, c->scheduler, "value" };
	struct ior_kcidb_id x;
	run_test_id(&x, d, c);
	struct obj o = test_open(d, &x, &k, false, c->run_started_at);
	obj_str(&o, "status", measured ? "DONE" : ok ? "MISS" : !strcmp(c->status, "failed") ? "ERROR" : "SKIP");
	obj_str(&o, "comment", ok ? NULL : c->reason);
	if (measured)
		number(&o, st.median, c->unit);
	struct obj m = obj_sub(&o, "misc");
	key_misc(&m, &k);
	obj_str(&m, "run_started_at", c->run_started_at);
	if (measured) {
		obj_num(&m, "samples", (double)n);
		struct obj noise = obj_sub(&m, "noise");
		obj_num(&noise, "spread", st.spread);
		obj_num(&noise, "cov", st.cov);
		obj_num(&noise, "min", st.min);
		obj_num(&noise, "max", st.max);
		fputc('}', d->out);
	}
	obj_str(&m, "cell_status", c->status);
	obj_str(&m, "run_status", c->run_status);
	fputs("}}", d->out);
}

static int str_order(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The stored cells a verdict judged (its reference cell's and its candidate's, with measured
 * samples): their runs' starts, sorted, hashed into digest (16 hex digits), and the newest start;
 * the engine type of the candidate's. False when out of memory. */
static bool evidence(const struct doc *d, const struct ior_judge_verdict *v, char digest[17],
		     const char **newest, const char **type)
{
	const struct ior_report *r = d->r;
	const struct ior_rt_cell *a = &r->rt->groups[v->base_group].cells[v->base_cell];
	const struct ior_rt_cell *b = &r->rt->groups[v->cand_group].cells[v->cand_cell];
	char **keys = calloc(r->stored.ncells ? r->stored.ncells : 1, sizeof(*keys));
	size_t n = 0, len = 1;
	*newest = NULL;
	*type = NULL;
	for (size_t i = 0; keys && i < r->stored.ncells; i++) {
		const struct ior_stored_cell *c = &r->stored.cells[i];
		bool is_a = c->group == v->base_group && !ior_rt_strcmp(c->device, a->device) &&
			    !ior_rt_strcmp(c->scheduler, a->scheduler);
		bool is_b = c->group == v->cand_group && !ior_rt_strcmp(c->device, b->device) &&
			    !ior_rt_strcmp(c->scheduler, b->scheduler);
		if ((!is_a && !is_b) || c->n <= c->nwarmup)
			continue;
		if (is_b && !*type)
			*type = c->engine_type;
		if (c->run_started_at && (!*newest || strcmp(c->run_started_at, *newest) > 0))
			*newest = c->run_started_at;
		char key[96];
		ior_kcidb_run_key(key, sizeof(key), c->run_started_at, d->rank[i]);
		if (asprintf(&keys[n], "%c %s %s %s", is_a ? 'a' : 'b', c->host, c->kernel, key) < 0)
			break;
		len += strlen(keys[n++]) + 1;
	}
	char *all = keys ? malloc(len) : NULL;
	bool ok = all != NULL;
	if (ok) {
		qsort(keys, n, sizeof(*keys), str_order);
		size_t at = 0;
		for (size_t i = 0; i < n; i++)
			at += (size_t)sprintf(all + at, "%s\n", keys[i]);
		char sha[65];
		ok = !ior_kernel_config_sha256(sha, all, at);
		snprintf(digest, 17, "%.16s", ok ? sha : "");
	}
	for (size_t i = 0; keys && i < n; i++)
		free(keys[i]);
	free(keys);
	free(all);
	return ok;
}

/* ORIGIN:KIND:AXIS:HOST:KERNEL:ENGINE:PARAMS:DEVICE:SCHEDULER:METRIC:CANDIDATE:RUNS, the reference
 * cell's key (its kernel is the baseline on the kernel axis), the candidate's name and the digest of
 * the runs judged: a verdict on other runs is another test. */
static void verdict_id(struct ior_kcidb_id *x, const struct ior_report *r, const char *kind, const struct ior_judge_verdict *v,
		       const char *type, const char *digest)
{
	struct cell_key k = { v->host, v->kernel, v->engine, type, v->params, v->device, v->scheduler, NULL };
	ior_kcidb_id_start(x, r->opts.origin, kind);
	ior_kcidb_id_add(x, ior_axis_name(r->axis));
	ior_kcidb_id_add(x, v->host);
	ior_kcidb_id_add(x, v->kernel);
	id_add_cell(x, &k);
	ior_kcidb_id_add(x, ior_render_metric(v));
	ior_kcidb_id_add(x, v->cand_name);
	ior_kcidb_id_add(x, digest);
}

/* A verdict of the candidate cell against the baseline, on one metric: a test of its own. */
static void verdict_test(struct doc *d, const struct ior_judge_verdict *v)
{
	const struct ior_report *r = d->r;
	const struct ior_rt_group *gr = &r->rt->groups[v->cand_group];
	const struct ior_rt_cell *c = &gr->cells[v->cand_cell];
	char digest[17];
	const char *newest, *type;
	if (!evidence(d, v, digest, &newest, &type))
		return;
	struct cell_key k = { gr->host, gr->kernel, gr->engine, type, gr->params, c->device, c->scheduler, ior_render_metric(v) };
	struct ior_kcidb_id x;
	verdict_id(&x, r, "verdict", v, type, digest);
	struct obj o = test_open(d, &x, &k, true, newest);
	obj_str(&o, "status", verdict_status(v));
	number(&o, v->c.median_b, v->unit);
	struct obj m = obj_sub(&o, "misc");
	key_misc(&m, &k);
	obj_num(&m, "samples", (double)v->c.nb);
	obj_num(&m, "baseline_samples", (double)v->c.na);
	obj_str(&m, "runs_sha256", digest);
	verdict_misc(&m, r, v);
	fputs("}}", d->out);
}

/* Each VM boot, at the catalog's top-level boot path: panic and boot failure fail the kernel, a
 * hang or failed guest run is an error, an infrastructure error says nothing about the kernel. The
 * id names the boot: its vm run and round (before schema 12, its place among the kernel's boots). */
static void boot_test(struct doc *d, size_t i)
{
	const struct ior_report *r = d->r;
	const struct ior_stored_boot *b = &r->stored.boots[i];
	size_t ordinal = 1;
	for (size_t k = 0; k < i; k++)
		ordinal += r->stored.boots[k].host == b->host && r->stored.boots[k].kernel == b->kernel;
	char n[32];
	snprintf(n, sizeof(n), "%d", b->vm_run ? b->boot_index : (int)ordinal);
	struct ior_kcidb_id x, bid;
	ior_kcidb_id_start(&x, r->opts.origin, "boot");
	ior_kcidb_id_add(&x, b->host);
	ior_kcidb_id_add(&x, b->kernel);
	if (b->vm_run)
		ior_kcidb_id_add(&x, b->vm_run);
	ior_kcidb_id_add(&x, n);
	const char *release = b->release && *b->release ? b->release : b->kernel;
	build_id(&bid, r, release);
	struct obj o = item(d, &x);
	obj_str(&o, "build_id", bid.s);
	obj_str(&o, "path", "boot");
	obj_str(&o, "start_time", b->started_at);
	const char *s = b->outcome ? b->outcome : "";
	obj_str(&o, "status", !strcmp(s, "ok") ? "PASS" : !strcmp(s, "panic") || !strcmp(s, "boot-failed") ? "FAIL"
			      : !strcmp(s, "infra-error") ? "MISS" : "ERROR");
	obj_str(&o, "comment", b->reason && *b->reason ? b->reason : NULL);
	if (b->boot_s >= 0 && !strcmp(s, "ok"))
		number(&o, b->boot_s, "s");
	if (b->total_s >= 0)
		obj_num(&o, "duration", b->total_s);
	struct obj m = obj_sub(&o, "misc");
	obj_str(&m, "host", b->host);
	obj_str(&m, "outcome", b->outcome);
	obj_str(&m, "vm_run", b->vm_run);
	obj_num(&m, "round", b->boot_index);
	obj_str(&m, "accelerator", b->accel && *b->accel ? b->accel : NULL);
	obj_num(&m, "cpus", b->cpus);
	obj_num(&m, "memory_mb", b->memory_mb);
	obj_str(&m, "qemu_version", b->qemu_version && *b->qemu_version ? b->qemu_version : NULL);
	fputs("}}", d->out);
}

/* A bisection is identified by its start; a commit it looked at, by the bisection and the commit. */
static void bisect_test_id(struct ior_kcidb_id *x, const struct ior_report *r, const char *kind, const struct ior_report_bisect *b,
			   const char *commit)
{
	char first_good[128];
	snprintf(first_good, sizeof(first_good), "%.*s", (int)strcspn(b->good, " "), b->good);
	ior_kcidb_id_start(x, r->opts.origin, kind);
	ior_kcidb_id_add_run(x, b->started_at, 0);
	ior_kcidb_id_add(x, first_good);
	ior_kcidb_id_add(x, b->bad);
	ior_kcidb_id_add(x, commit);
}

static const char *bisect_status(const struct ior_report_bisect_commit *c)
{
	if (c->good_end)
		return "PASS";
	if (c->bad_end)
		return "FAIL";
	if (!c->mark)
		return c->build && strcmp(c->build, "ok") ? "MISS" : "DONE";
	return !strcmp(c->mark, "good") ? "PASS" : !strcmp(c->mark, "bad") ? "FAIL" : "SKIP";
}

static void bisect_tests(struct doc *d, const struct ior_report_bisect *b)
{
	for (size_t i = 0; i < b->ncommits; i++) {
		const struct ior_report_bisect_commit *c = &b->commits[i];
		if (!c->n && !c->mark && !c->build)
			continue;
		struct ior_kcidb_id x, bid;
		bisect_test_id(&x, d->r, "bisect", b, c->id);
		bisect_build_id(&bid, d->r, c->id);
		struct obj o = item(d, &x);
		obj_str(&o, "build_id", bid.s);
		obj_str(&o, "path", "ioregress.bisect");
		obj_str(&o, "start_time", b->started_at);
		obj_str(&o, "status", bisect_status(c));
		number(&o, c->median, NULL);
		struct obj m = obj_sub(&o, "misc");
		obj_str(&m, "commit", c->id);
		obj_str(&m, "mark", c->mark);
		obj_str(&m, "end", c->good_end ? "good" : c->bad_end ? "bad" : NULL);
		obj_bool(&m, "culprit", c->culprit);
		obj_num(&m, "samples", (double)c->n);
		obj_bool(&m, "higher_is_better", b->higher_is_better);
		obj_str(&m, "bisection", b->status);
		fputs("}}", d->out);
	}
}

static void tests(struct doc *d)
{
	const struct ior_report *r = d->r;
	list_open(d, "tests");
	for (size_t i = 0; i < r->view.nstored; i++)
		run_test(d, &r->stored.cells[r->view.stored[i]]);
	for (size_t i = 0; r->rt && i < r->view.nverdicts; i++)
		verdict_test(d, &r->verdicts[r->view.verdicts[i]]);
	for (size_t i = 0; i < r->view.nboots; i++)
		boot_test(d, r->view.boots[i]);
	for (size_t b = 0; b < r->nbisects; b++)
		bisect_tests(d, &r->bisects[b]);
	fputc(']', d->out);
}

/* --- issues and incidents ------------------------------------------------------- */

/* A regression is a known problem of the cell from the baseline to the candidate, whatever runs
 * showed it: its issue id has no runs (each verdict test that shows it is an incident). */
static void regression_key(struct ior_kcidb_id *x, const struct ior_report *r, const struct ior_judge_verdict *v)
{
	ior_kcidb_id_start(x, r->opts.origin, "regression");
	const char *parts[] = { ior_axis_name(r->axis), v->host, v->kernel, v->engine, v->params, v->device,
				ior_render_sched(v->scheduler), ior_render_metric(v), v->cand_name };
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		ior_kcidb_id_add(x, parts[i]);
}

static struct obj issue_open(struct doc *d, const struct ior_kcidb_id *x, const char *subject, const char *comment)
{
	struct obj o = item(d, x);
	obj_num(&o, "version", ISSUE_VERSION);
	obj_str(&o, "report_subject", subject);
	struct obj c = obj_sub(&o, "culprit");
	obj_bool(&c, "code", true);
	obj_bool(&c, "tool", false);
	obj_bool(&c, "harness", false);
	fputc('}', d->out);
	obj_str(&o, "comment", comment);
	return o;
}

static void regression_issue(struct doc *d, const struct ior_judge_verdict *v)
{
	const struct ior_report *r = d->r;
	struct ior_kcidb_id x;
	regression_key(&x, r, v);
	char subject[1024];
	snprintf(subject, sizeof(subject), "%s %s on %s (%s): %s %+.1f%% from %s to %s", v->engine, ior_render_metric(v),
		 v->device, ior_render_sched(v->scheduler), v->host, (v->c.ratio - 1) * 100, r->baseline, r->candidate);
	struct obj o = issue_open(d, &x, subject, v->c.reason);
	struct obj m = obj_sub(&o, "misc");
	obj_str(&m, "baseline", r->baseline);
	obj_str(&m, "candidate", r->candidate);
	const struct ior_report_kernel *k = r->axis == IOR_AXIS_KERNEL ? kernel_of(r, v->host, v->cand_name) : NULL;
	obj_str(&m, "commit", k ? k->commit.sha : NULL);
	obj_num(&m, "ratio", v->c.ratio);
	fputs("}}", d->out);
}

static void culprit_issue(struct doc *d, const struct ior_report_bisect *b)
{
	struct ior_kcidb_id x;
	ior_kcidb_id_start(&x, d->r->opts.origin, "culprit");
	ior_kcidb_id_add(&x, b->culprit);
	char subject[512];
	snprintf(subject, sizeof(subject), "first bad %s %s (bisection %s..%s)", strcmp(b->source, "git") ? "kernel" : "commit",
		 b->culprit, b->good, b->bad);
	struct obj o = issue_open(d, &x, subject, b->result);
	struct obj m = obj_sub(&o, "misc");
	obj_str(&m, "commit", b->culprit);
	obj_str(&m, "good", b->good);
	obj_str(&m, "bad", b->bad);
	obj_str(&m, "repository", b->repo);
	fputs("}}", d->out);
}

static void issues(struct doc *d)
{
	const struct ior_report *r = d->r;
	list_open(d, "issues");
	for (size_t i = 0; r->rt && i < r->view.nverdicts; i++)
		if (r->verdicts[r->view.verdicts[i]].c.verdict == IOR_VERDICT_REGRESSION)
			regression_issue(d, &r->verdicts[r->view.verdicts[i]]);
	for (size_t b = 0; b < r->nbisects; b++)
		if (r->bisects[b].culprit)
			culprit_issue(d, &r->bisects[b]);
	fputc(']', d->out);
}

static void incident(struct doc *d, const struct ior_kcidb_id *x, const struct ior_kcidb_id *issue, const struct ior_kcidb_id *build,
		     const struct ior_kcidb_id *test)
{
	struct obj o = item(d, x);
	obj_str(&o, "issue_id", issue->s);
	obj_num(&o, "issue_version", ISSUE_VERSION);
	obj_str(&o, "build_id", build->s);
	obj_str(&o, "test_id", test->s);
	obj_bool(&o, "present", true);
	fputc('}', d->out);
}

static void incidents(struct doc *d)
{
	const struct ior_report *r = d->r;
	list_open(d, "incidents");
	for (size_t i = 0; r->rt && i < r->view.nverdicts; i++) {
		const struct ior_judge_verdict *v = &r->verdicts[r->view.verdicts[i]];
		if (v->c.verdict != IOR_VERDICT_REGRESSION)
			continue;
		char digest[17];
		const char *newest, *type;
		if (!evidence(d, v, digest, &newest, &type))
			continue;
		struct ior_kcidb_id x, issue, build, test;
		verdict_id(&x, r, "incident", v, type, digest);
		regression_key(&issue, r, v);
		build_id(&build, r, r->rt->groups[v->cand_group].kernel);
		verdict_id(&test, r, "verdict", v, type, digest);
		incident(d, &x, &issue, &build, &test);
	}
	for (size_t b = 0; b < r->nbisects; b++) {
		const struct ior_report_bisect *bi = &r->bisects[b];
		for (size_t i = 0; bi->culprit && i < bi->ncommits; i++) {
			if (!bi->commits[i].culprit)
				continue;
			struct ior_kcidb_id x, issue, build, test;
			bisect_test_id(&test, r, "bisect", bi, bi->culprit);
			bisect_test_id(&x, r, "incident", bi, bi->culprit);
			ior_kcidb_id_start(&issue, r->opts.origin, "culprit");
			ior_kcidb_id_add(&issue, bi->culprit);
			bisect_build_id(&build, r, bi->culprit);
			incident(d, &x, &issue, &build, &test);
		}
	}
	fputc(']', d->out);
}

static int render_kcidb(FILE *out, const struct ior_report *r)
{
	if (ior_kcidb_origin_check(r->opts.origin))
		return IOR_EINVALID;
	struct doc d = { .out = out, .r = r, .origin = r->opts.origin };
	if (ranks(&d))
		return IOR_ERROR;
	fputs("{\"version\":{\"major\":5,\"minor\":3}", out);
	checkouts(&d);
	builds(&d);
	tests(&d);
	issues(&d);
	incidents(&d);
	fputs("}\n", out);
	for (size_t i = 0; i < d.nseen; i++)
		free(d.seen[i]);
	free(d.seen);
	free(d.rank);
	return IOR_OK;
}

const struct ior_renderer ior_renderer_kcidb = {
	.name = "kcidb",
	.summary = "a KCIDB I/O v5.3 document for KernelCI's common database (--origin names the submitter, required)",
	.parts = IOR_REPORT_TABLES | IOR_REPORT_VERDICTS | IOR_REPORT_BISECT,
	.render = render_kcidb,
};
