/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The KCIDB report (Kernel CI's common database, I/O schema v5.3): checkouts per kernel commit,
 * builds per kernel image, a test per cell and metric, issues and incidents for regressions and
 * bisect culprits. */
#include "reports/render.h"

#include "common/error.h"
#include "reports/escape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ORIGIN_DEFAULT "ioregress"
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

/* Ids are ORIGIN:KIND:PART:PART...; ':' and '%' inside a part are percent-encoded, so two keys
 * never meet in one id and the same database always gives the same ids. */
struct id {
	char s[4096];
	size_t len;
};

static void id_add(struct id *x, const char *part)
{
	static const char hex[] = "0123456789ABCDEF";
	if (x->len + 1 < sizeof(x->s))
		x->s[x->len++] = ':';
	for (const unsigned char *p = (const unsigned char *)(part ? part : ""); *p && x->len + 4 < sizeof(x->s); p++) {
		if (*p == ':' || *p == '%') {
			x->s[x->len++] = '%';
			x->s[x->len++] = hex[*p >> 4];
			x->s[x->len++] = hex[*p & 15];
		} else {
			x->s[x->len++] = (char)*p;
		}
	}
	x->s[x->len] = 0;
}

static void id_start(struct id *x, const struct ior_report *r, const char *kind)
{
	x->len = (size_t)snprintf(x->s, sizeof(x->s), "%s", r->opts.origin ? r->opts.origin : ORIGIN_DEFAULT);
	id_add(x, kind);
}

/* A dotted KCIDB path element: [a-zA-Z0-9_-]+, any other character (a UTF-8 sequence counts
 * once) becomes '_'. */
static void path_add(char *buf, size_t len, const char *part)
{
	size_t n = strlen(buf);
	if (n + 2 < len)
		buf[n++] = '.';
	const unsigned char *p = (const unsigned char *)(part && *part ? part : "_");
	for (; *p && n + 1 < len; p++)
		if ((*p & 0xc0) != 0x80)  /* continuation bytes were counted with their lead */
			buf[n++] = (strchr("_-", *p) || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
				    (*p >= '0' && *p <= '9')) ? (char)*p : '_';
	buf[n] = 0;
}

/* Every object starts with its id and origin; the comma before each object is the caller's. */
struct doc {
	FILE *out;
	const struct ior_report *r;
	const char *origin;
	bool first;                         /* of the current list */
	char **seen;                        /* checkout and build ids already written */
	size_t nseen;
};

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

static struct obj item(struct doc *d, const struct id *id)
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

/* --- kernels: checkouts and builds ---------------------------------------------- */

static bool is_sha(const char *s)
{
	size_t n = 0;
	for (; s && ((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')); n++)
		;
	return s && n == 40 && !s[n];
}

/* The boot of the release that names its package and version, or NULL (not from a package). */
static const struct ior_report_boot *package_of(const struct ior_report *r, const char *release)
{
	for (size_t i = 0; i < r->nboots; i++)
		if (r->boots[i].release && r->boots[i].package_version && !strcmp(r->boots[i].release, release))
			return &r->boots[i];
	return NULL;
}

static const struct ior_report_kernel *kernel_of(const struct ior_report *r, const char *host, const char *release)
{
	for (size_t i = 0; i < r->nkernels; i++)
		if (!strcmp(r->kernels[i].host, host) && !strcmp(r->kernels[i].release, release))
			return &r->kernels[i];
	return NULL;
}

static void checkout_id(struct id *x, const struct ior_report *r, const struct ior_report_kernel *k)
{
	id_start(x, r, k->commit.sha ? "git" : "kernel");
	id_add(x, k->commit.sha ? k->commit.sha : k->release);
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
static void build_id(struct id *x, const struct ior_report *r, const char *release)
{
	const struct ior_report_boot *b = package_of(r, release);
	const char *config = b ? NULL : config_of(r, release);
	id_start(x, r, b ? "package" : config ? "config" : "build");
	id_add(x, b ? b->kernel : release);
	if (b || config)
		id_add(x, b ? b->package_version : config);
}

static void checkouts(struct doc *d)
{
	const struct ior_report *r = d->r;
	list_open(d, "checkouts");
	for (size_t i = 0; i < r->nkernels; i++) {
		const struct ior_report_kernel *k = &r->kernels[i];
		struct id x;
		checkout_id(&x, r, k);
		if (!k->in_view || seen(d, x.s))
			continue;
		struct obj o = item(d, &x);
		if (is_sha(k->commit.sha))
			obj_str(&o, "git_commit_hash", k->commit.sha);
		obj_str(&o, "git_commit_name", k->commit.describe);
		char text[512];
		snprintf(text, sizeof(text), "kernel %s%s%s", k->release, k->commit.subject ? ": " : "",
			 k->commit.subject ? k->commit.subject : "");
		obj_str(&o, "comment", text);
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
			struct id x;
			id_start(&x, r, is_sha(commit) ? "git" : "package");
			id_add(&x, commit);
			if (seen(d, x.s))
				continue;
			struct obj o = item(d, &x);
			if (is_sha(commit))
				obj_str(&o, "git_commit_hash", commit);
			char text[256];
			snprintf(text, sizeof(text), "%s %s (bisection %s..%s)", strcmp(bi->source, "git") ? "kernel package" : "commit",
				 commit, bi->good, bi->bad);
			obj_str(&o, "comment", text);
			obj_bool(&o, "valid", true);
			struct obj m = obj_sub(&o, "misc");
			obj_str(&m, "repository", bi->repo);
			fputs("}}", d->out);
		}
	fputc(']', d->out);
}

static void bisect_build_id(struct id *x, const struct ior_report *r, const char *commit)
{
	id_start(x, r, "bisect-build");
	id_add(x, commit);
}

static void builds(struct doc *d)
{
	const struct ior_report *r = d->r;
	list_open(d, "builds");
	for (size_t i = 0; i < r->nkernels; i++) {
		const struct ior_report_kernel *k = &r->kernels[i];
		struct id x, c;
		build_id(&x, r, k->release);
		if (!k->in_view || seen(d, x.s))
			continue;
		checkout_id(&c, r, k);
		const struct ior_report_boot *b = package_of(r, k->release);
		struct obj o = item(d, &x);
		obj_str(&o, "checkout_id", c.s);
		char text[512];
		if (b)
			snprintf(text, sizeof(text), "package %s %s (kernel %s)", b->kernel, b->package_version, k->release);
		else
			snprintf(text, sizeof(text), "kernel %s", k->release);
		obj_str(&o, "comment", text);
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
			struct id x, co;
			bisect_build_id(&x, r, bc->id);
			if (seen(d, x.s))
				continue;
			id_start(&co, r, is_sha(bc->id) ? "git" : "package");
			id_add(&co, bc->id);
			struct obj o = item(d, &x);
			obj_str(&o, "checkout_id", co.s);
			if (bc->build)
				obj_str(&o, "status", strcmp(bc->build, "ok") ? "FAIL" : "PASS");
			struct obj m = obj_sub(&o, "misc");
			obj_str(&m, "image_blob", bc->image);
			fputs("}}", d->out);
		}
	fputc(']', d->out);
}

/* --- tests --------------------------------------------------------------------- */

struct cell_key {
	const char *host, *kernel, *engine, *params, *device, *scheduler, *metric;
};

static void test_id(struct id *x, const struct ior_report *r, const struct cell_key *k)
{
	id_start(x, r, "test");
	const char *parts[] = { k->host, k->kernel, k->engine, k->params, k->device, ior_render_sched(k->scheduler), k->metric };
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		id_add(x, parts[i]);
}

/* ioregress.ENGINE.DEVICE.SCHEDULER, and .METRIC for a metric other than the headline. */
static void test_path(char *buf, size_t len, const struct cell_key *k)
{
	snprintf(buf, len, "ioregress");
	path_add(buf, len, k->engine);
	path_add(buf, len, k->device);
	path_add(buf, len, ior_render_sched(k->scheduler));
	if (strcmp(k->metric, "value"))
		path_add(buf, len, k->metric);
}

/* The start of a test: id, build, path, environment; the caller adds status, number, misc. */
static struct obj test_open(struct doc *d, const struct cell_key *k)
{
	struct id x, b;
	test_id(&x, d->r, k);
	build_id(&b, d->r, k->kernel);
	struct obj o = item(d, &x);
	obj_str(&o, "build_id", b.s);
	char path[1024];
	test_path(path, sizeof(path), k);
	obj_str(&o, "path", path);
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

static const char *verdict_status(const struct ior_report_verdict *v)
{
	switch (v->c.verdict) {
	case IOR_VERDICT_REGRESSION:
		return "FAIL";
	case IOR_VERDICT_INCONCLUSIVE:
		return "SKIP";
	default:
		return "PASS";
	}
}

/* What a verdict adds to its candidate's misc: the baseline, the interval, the p-values. */
static void verdict_misc(struct obj *m, const struct ior_report *r, const struct ior_report_verdict *v)
{
	obj_str(m, "verdict", ior_verdict_name(v->c.verdict));
	obj_str(m, "axis", ior_axis_name(r->axis));
	obj_str(m, "baseline", r->baseline);
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

/* The verdict on a cell as the candidate, on metric, or NULL (a baseline cell, or no --baseline). */
static const struct ior_report_verdict *verdict_of(const struct ior_report *r, size_t g, size_t c, enum ior_metric metric)
{
	for (size_t i = 0; i < r->nverdicts; i++)
		if (r->verdicts[i].in_view && r->verdicts[i].cand_group == g && r->verdicts[i].cand_cell == c &&
		    r->verdicts[i].metric == metric)
			return &r->verdicts[i];
	return NULL;
}

static void cell_test(struct doc *d, size_t g, size_t i)
{
	const struct ior_report *r = d->r;
	const struct ior_rt_group *gr = &r->rt->groups[g];
	const struct ior_rt_cell *c = &gr->cells[i];
	struct cell_key k = { gr->host, gr->kernel, gr->engine, gr->params, c->device, c->scheduler, "value" };
	const struct ior_report_verdict *v = verdict_of(r, g, i, IOR_METRIC_VALUE);
	struct obj o = test_open(d, &k);
	obj_str(&o, "status", v ? verdict_status(v) : "DONE");
	number(&o, c->st.median, gr->unit);
	struct obj m = obj_sub(&o, "misc");
	key_misc(&m, &k);
	obj_num(&m, "samples", (double)c->n);
	struct obj noise = obj_sub(&m, "noise");
	obj_num(&noise, "spread", c->st.spread);
	obj_num(&noise, "cov", c->st.cov);
	obj_num(&noise, "min", c->st.min);
	obj_num(&noise, "max", c->st.max);
	fputc('}', d->out);
	if (v)
		verdict_misc(&m, r, v);
	fputs("}}", d->out);
}

/* A verdict on another metric than the headline: a test of its own for the candidate cell. */
static void metric_test(struct doc *d, const struct ior_report_verdict *v)
{
	const struct ior_rt_group *gr = &d->r->rt->groups[v->cand_group];
	const struct ior_rt_cell *c = &gr->cells[v->cand_cell];
	struct cell_key k = { gr->host, gr->kernel, gr->engine, gr->params, c->device, c->scheduler, ior_render_metric(v) };
	struct obj o = test_open(d, &k);
	obj_str(&o, "status", verdict_status(v));
	number(&o, v->c.median_b, v->unit);
	struct obj m = obj_sub(&o, "misc");
	key_misc(&m, &k);
	obj_num(&m, "samples", (double)v->c.nb);
	verdict_misc(&m, d->r, v);
	fputs("}}", d->out);
}

/* A cell that measured nothing: failed (ERROR), not applicable (SKIP), never reached (MISS). */
static void not_run_test(struct doc *d, const struct ior_report_cell *c)
{
	bool ok = !c->status || !strcmp(c->status, "ok");
	struct cell_key k = { c->host, c->kernel, c->engine, c->params, c->device, c->scheduler, "value" };
	struct obj o = test_open(d, &k);
	obj_str(&o, "status", ok ? "MISS" : !strcmp(c->status, "failed") ? "ERROR" : "SKIP");
	obj_str(&o, "comment", c->reason);
	struct obj m = obj_sub(&o, "misc");
	key_misc(&m, &k);
	obj_str(&m, "cell_status", c->status);
	obj_str(&m, "run_status", c->run_status);
	fputs("}}", d->out);
}

/* Each VM boot: panic and boot failure fail the kernel, a hang or failed guest run is an error,
 * an infrastructure error says nothing about the kernel. */
static void boot_test(struct doc *d, size_t i)
{
	const struct ior_report *r = d->r;
	const struct ior_report_boot *b = &r->boots[i];
	size_t ordinal = 1;
	for (size_t k = 0; k < i; k++)
		ordinal += r->boots[k].host == b->host && r->boots[k].kernel == b->kernel;
	char n[32];
	snprintf(n, sizeof(n), "%zu", ordinal);
	struct id x, bid;
	id_start(&x, r, "boot");
	id_add(&x, b->host);
	id_add(&x, b->kernel);
	id_add(&x, n);
	const char *release = b->release && *b->release ? b->release : b->kernel;
	build_id(&bid, r, release);
	struct obj o = item(d, &x);
	obj_str(&o, "build_id", bid.s);
	obj_str(&o, "path", "ioregress.boot");
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
	obj_str(&m, "accelerator", b->accel && *b->accel ? b->accel : NULL);
	obj_num(&m, "cpus", b->cpus);
	obj_num(&m, "memory_mb", b->memory_mb);
	obj_str(&m, "qemu_version", b->qemu_version && *b->qemu_version ? b->qemu_version : NULL);
	fputs("}}", d->out);
}

static void bisect_test_id(struct id *x, const struct ior_report *r, const struct ior_report_bisect *b, const char *commit)
{
	char first_good[128];
	snprintf(first_good, sizeof(first_good), "%.*s", (int)strcspn(b->good, " "), b->good);
	id_start(x, r, "bisect");
	id_add(x, first_good);
	id_add(x, b->bad);
	id_add(x, commit);
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
		struct id x, bid;
		bisect_test_id(&x, d->r, b, c->id);
		bisect_build_id(&bid, d->r, c->id);
		struct obj o = item(d, &x);
		obj_str(&o, "build_id", bid.s);
		obj_str(&o, "path", "ioregress.bisect");
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
	for (size_t g = 0; r->rt && g < r->rt->ngroups; g++)
		for (size_t i = 0; r->group_in_view[g] && i < r->rt->groups[g].ncells; i++)
			if (r->cell_in_view[g][i])
				cell_test(d, g, i);
	for (size_t i = 0; i < r->nverdicts; i++)
		if (r->verdicts[i].in_view && r->verdicts[i].metric != IOR_METRIC_VALUE)
			metric_test(d, &r->verdicts[i]);
	for (size_t i = 0; i < r->ncells; i++) {
		const struct ior_report_cell *c = &r->cells[i];
		bool ok = !c->status || !strcmp(c->status, "ok");
		if (c->in_view && (!ok || c->n == c->nwarmup))
			not_run_test(d, c);
	}
	for (size_t i = 0; i < r->nboots; i++)
		if (r->boots[i].in_view)
			boot_test(d, i);
	for (size_t b = 0; b < r->nbisects; b++)
		bisect_tests(d, &r->bisects[b]);
	fputc(']', d->out);
}

/* --- issues and incidents ------------------------------------------------------- */

static void regression_key(struct id *x, const struct ior_report *r, const char *kind, const struct ior_report_verdict *v)
{
	id_start(x, r, kind);
	const char *parts[] = { ior_axis_name(r->axis), v->host, v->kernel, v->engine, v->params, v->device,
				ior_render_sched(v->scheduler), ior_render_metric(v), v->cand_name };
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		id_add(x, parts[i]);
}

static struct obj issue_open(struct doc *d, const struct id *x, const char *subject, const char *comment)
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

static void regression_issue(struct doc *d, const struct ior_report_verdict *v)
{
	const struct ior_report *r = d->r;
	struct id x;
	regression_key(&x, r, "regression", v);
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
	struct id x;
	id_start(&x, d->r, "culprit");
	id_add(&x, b->culprit);
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
	for (size_t i = 0; i < r->nverdicts; i++)
		if (r->verdicts[i].in_view && r->verdicts[i].c.verdict == IOR_VERDICT_REGRESSION)
			regression_issue(d, &r->verdicts[i]);
	for (size_t b = 0; b < r->nbisects; b++)
		if (r->bisects[b].culprit)
			culprit_issue(d, &r->bisects[b]);
	fputc(']', d->out);
}

static void incident(struct doc *d, const struct id *x, const struct id *issue, const struct id *build,
		     const struct id *test)
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
	for (size_t i = 0; i < r->nverdicts; i++) {
		const struct ior_report_verdict *v = &r->verdicts[i];
		if (!v->in_view || v->c.verdict != IOR_VERDICT_REGRESSION)
			continue;
		const struct ior_rt_group *gr = &r->rt->groups[v->cand_group];
		const struct ior_rt_cell *c = &gr->cells[v->cand_cell];
		struct cell_key k = { gr->host, gr->kernel, gr->engine, gr->params, c->device, c->scheduler, ior_render_metric(v) };
		struct id x, issue, build, test;
		regression_key(&x, r, "incident", v);
		regression_key(&issue, r, "regression", v);
		build_id(&build, r, gr->kernel);
		test_id(&test, r, &k);
		incident(d, &x, &issue, &build, &test);
	}
	for (size_t b = 0; b < r->nbisects; b++) {
		const struct ior_report_bisect *bi = &r->bisects[b];
		for (size_t i = 0; bi->culprit && i < bi->ncommits; i++) {
			if (!bi->commits[i].culprit)
				continue;
			struct id x, issue, build, test;
			bisect_test_id(&test, r, bi, bi->culprit);
			id_start(&x, r, "incident");
			id_add(&x, test.s + strlen(d->origin) + 1);   /* the test's id after its origin */
			id_start(&issue, r, "culprit");
			id_add(&issue, bi->culprit);
			bisect_build_id(&build, r, bi->culprit);
			incident(d, &x, &issue, &build, &test);
		}
	}
	fputc(']', d->out);
}

static int render_kcidb(FILE *out, const struct ior_report *r)
{
	struct doc d = { .out = out, .r = r, .origin = r->opts.origin ? r->opts.origin : ORIGIN_DEFAULT };
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
	return IOR_OK;
}

const struct ior_renderer ior_renderer_kcidb = {
	.name = "kcidb",
	.summary = "a KCIDB I/O v5.3 document for KernelCI's common database (--origin names the submitter)",
	.parts = IOR_REPORT_TABLES | IOR_REPORT_VERDICTS | IOR_REPORT_BISECT,
	.render = render_kcidb,
};
