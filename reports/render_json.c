/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JSON report: the whole model as one document, versioned and described by
 * reports/report.schema.json, written as a stream (a million samples need no tree in memory). */
#include "reports/render.h"

#include "common/error.h"
#include "reports/escape.h"

#include <math.h>
#include <string.h>

/* Object members: a comma before every member but the first. */
struct obj {
	FILE *out;
	bool first;
};

static struct obj open_obj(FILE *out)
{
	fputc('{', out);
	return (struct obj){ out, true };
}

static void key(struct obj *o, const char *k)
{
	fprintf(o->out, "%s\"%s\":", o->first ? "" : ",", k);
	o->first = false;
}

static void str(struct obj *o, const char *k, const char *v)
{
	key(o, k);
	ior_esc_json(o->out, v);
}

static void num(struct obj *o, const char *k, double v)
{
	key(o, k);
	ior_json_num(o->out, v);
}

static void count(struct obj *o, const char *k, size_t v)
{
	key(o, k);
	fprintf(o->out, "%zu", v);
}

static void boolean(struct obj *o, const char *k, bool v)
{
	key(o, k);
	fputs(v ? "true" : "false", o->out);
}

static void close_obj(struct obj *o)
{
	fputc('}', o->out);
}

static void stats(struct obj *o, const char *k, const struct ior_stats *st)
{
	key(o, k);
	struct obj s = open_obj(o->out);
	count(&s, "n", st->n);
	num(&s, "min", st->min);
	num(&s, "max", st->max);
	num(&s, "median", st->median);
	num(&s, "mean", st->mean);
	num(&s, "harmonic_mean", st->hmean);
	num(&s, "sd", st->sd);
	num(&s, "cov", st->cov);
	num(&s, "mad", st->mad);
	num(&s, "mad_scaled", st->mad_scaled);
	num(&s, "spread", st->spread);
	num(&s, "q1", st->q1);
	num(&s, "q3", st->q3);
	count(&s, "tukey_outliers", st->tukey_outliers);
	count(&s, "modz_outliers", st->modz_outliers);
	close_obj(&s);
}

static void words(struct obj *o, const char *k, const char *list)
{
	key(o, k);
	fputc('[', o->out);
	bool first = true;
	for (const char *p = list; p && *p;) {
		size_t w = strcspn(p, " ");
		if (w) {
			char word[128];
			snprintf(word, sizeof(word), "%.*s", (int)w, p);
			fputs(first ? "" : ",", o->out);
			ior_esc_json(o->out, word);
			first = false;
		}
		p += w;
		p += strspn(p, " ");
	}
	fputc(']', o->out);
}

static void kernels(struct obj *root, const struct ior_report *r)
{
	key(root, "kernels");
	fputc('[', root->out);
	bool first = true;
	for (size_t i = 0; i < r->view.nkernels; i++) {
		const struct ior_report_kernel *k = &r->kernels[r->view.kernels[i]];
		fputs(first ? "\n" : ",\n", root->out);
		first = false;
		struct obj o = open_obj(root->out);
		str(&o, "host", k->host);
		str(&o, "kernel", k->release);
		key(&o, "commit");
		if (k->commit.sha) {
			struct obj c = open_obj(o.out);
			str(&c, "sha", k->commit.sha);
			str(&c, "describe", k->commit.describe);
			str(&c, "subject", k->commit.subject);
			str(&c, "author_name", k->commit.author_name);
			str(&c, "author_email", k->commit.author_email);
			str(&c, "author_date", k->commit.author_date);
			count(&c, "other_commits", k->other_commits);
			close_obj(&c);
		} else {
			fputs("null", o.out);
		}
		if (k->offered)
			words(&o, "offered", k->offered);
		else
			str(&o, "offered", NULL);
		words(&o, "unavailable", k->unavailable);
		key(&o, "scheduler_changes");
		fputc('[', o.out);
		for (size_t c = 0; c < k->nchanges; c++) {
			fputs(c ? "," : "", o.out);
			struct obj x = open_obj(o.out);
			str(&x, "scheduler", k->changes[c].name);
			boolean(&x, "offered_before", k->changes[c].offered_before);
			boolean(&x, "offered_now", k->changes[c].offered_now);
			static const char *const kinds[] = { [IOR_SCHED_UNCHANGED] = "unchanged",
							     [IOR_SCHED_UPSTREAM] = "upstream",
							     [IOR_SCHED_QUEUE_TYPE] = "queue-type",
							     [IOR_SCHED_UNEXPLAINED] = "unexplained" };
			str(&x, "kind", kinds[k->changes[c].kind]);
			str(&x, "text", k->changes[c].text);
			close_obj(&x);
		}
		fputc(']', o.out);
		close_obj(&o);
	}
	fputc(']', root->out);
}

static void cell(FILE *out, const struct ior_rt_cell *c)
{
	struct obj o = open_obj(out);
	str(&o, "device", c->device);
	str(&o, "scheduler", c->scheduler);
	key(&o, "values");
	fputc('[', out);
	for (size_t i = 0; i < c->n; i++) {
		fputs(i ? "," : "", out);
		ior_json_num(out, c->values[i]);
	}
	fputc(']', out);
	count(&o, "repetitions", c->n);
	num(&o, "total", c->total);
	num(&o, "share", c->share);
	boolean(&o, "best", c->best);
	boolean(&o, "best_significant", c->best_significant);
	str(&o, "fill", c->fill);
	stats(&o, "stats", &c->st);
	close_obj(&o);
}

static void group(FILE *out, const struct ior_report *r, size_t gi)
{
	const struct ior_rt_group *g = &r->rt->groups[gi];
	struct obj o = open_obj(out);
	str(&o, "host", g->host);
	str(&o, "kernel", g->kernel);
	str(&o, "engine", g->engine);
	str(&o, "params", g->params);
	str(&o, "unit", g->unit);
	boolean(&o, "higher_is_better", g->higher_is_better);
	key(&o, "cells");
	fputc('[', out);
	bool first = true;
	for (size_t i = 0; i < r->view.ncells[gi]; i++) {
		fputs(first ? "" : ",", out);
		first = false;
		cell(out, &g->cells[r->view.cells[gi][i]]);
	}
	fputc(']', out);
	key(&o, "devices");
	fputc('[', out);
	first = true;
	for (size_t i = 0; i < r->view.ndevices[gi]; i++) {
		const struct ior_rt_device *d = &g->devices[r->view.devices[gi][i]];
		fputs(first ? "" : ",", out);
		first = false;
		struct obj x = open_obj(out);
		str(&x, "device", d->name);
		num(&x, "total", d->total);
		str(&x, "fill", d->fill);
		char words[400];
		ior_render_best_words(words, sizeof(words), d);
		str(&x, "schedulers", *words ? words : NULL);
		stats(&x, "stats", &d->st);
		close_obj(&x);
	}
	fputc(']', out);
	close_obj(&o);
}

static void groups(struct obj *root, const struct ior_report *r)
{
	key(root, "groups");
	fputc('[', root->out);
	bool first = true;
	for (size_t g = 0; !r->opts.alerts_only && g < r->view.ngroups; g++) {
		fputs(first ? "\n" : ",\n", root->out);
		first = false;
		group(root->out, r, r->view.groups[g]);
	}
	fputc(']', root->out);
}

static void axis(struct obj *o, const char *k, const struct ior_alert_axis *ax)
{
	key(o, k);
	struct obj a = open_obj(o->out);
	count(&a, "n", ax->n);
	num(&a, "median", ax->median);
	key(&a, "listed");
	fputc('[', o->out);
	for (size_t i = 0; i < ax->nlisted; i++) {
		fputs(i ? "," : "", o->out);
		struct obj p = open_obj(o->out);
		str(&p, "label", ax->listed[i].label);
		num(&p, "spread", ax->listed[i].spread);
		close_obj(&p);
	}
	fputc(']', o->out);
	close_obj(&a);
}

/* A cell's warm-up or drift (stats/trend.h); kind "none" for no trend and for devices. */
static void trend(struct obj *o, const struct ior_trend *t)
{
	key(o, "trend");
	struct obj x = open_obj(o->out);
	str(&x, "kind", ior_trend_name(t->kind));
	num(&x, "tau", t->tau);
	num(&x, "p", t->p);
	count(&x, "warmup_repetitions", t->kind == IOR_TREND_WARMUP ? t->k : 0);
	num(&x, "warmup_factor", t->kind == IOR_TREND_WARMUP ? t->factor : NAN);
	close_obj(&x);
}

static void alerts(struct obj *root, const struct ior_report *r)
{
	key(root, "alerts");
	fputc('[', root->out);
	char text[1600];
	for (size_t i = 0; i < r->nalert_order; i++) {
		const struct ior_alert *a = &r->alerts[r->alert_order[i]];
		fputs(i ? ",\n" : "\n", root->out);
		struct obj o = open_obj(root->out);
		str(&o, "kind", a->kind == IOR_ALERT_DEVICE ? "device" : "cell");
		str(&o, "metric", "value");  /* spreads are judged on the headline */
		str(&o, "host", a->host);
		str(&o, "kernel", a->kernel);
		str(&o, "engine", a->engine);
		str(&o, "params", a->params);
		str(&o, "device", a->device);
		str(&o, "scheduler", a->scheduler);
		count(&o, "n", a->n);
		num(&o, "min", a->min);
		num(&o, "max", a->max);
		num(&o, "spread", a->spread);
		num(&o, "peer_median", a->peer_median);
		num(&o, "threshold", a->threshold);
		num(&o, "severity", a->severity);
		axis(&o, "here", &a->here);
		axis(&o, "other_kernels", &a->elsewhere);
		boolean(&o, "spread_alert", a->kind == IOR_ALERT_DEVICE || a->spread_alert);
		trend(&o, &a->trend);
		ior_alert_describe(text, sizeof(text), a);
		str(&o, "text", text);
		close_obj(&o);
	}
	fputc(']', root->out);
}

static void fills(struct obj *root, const struct ior_report *r)
{
	key(root, "fills");
	fputc('[', root->out);
	bool first = true;
	for (size_t i = 0; !r->opts.alerts_only && i < r->view.nfills; i++) {
		const struct ior_report_fill *f = &r->fills[r->view.fills[i]];
		fputs(first ? "\n" : ",\n", root->out);
		first = false;
		struct obj o = open_obj(root->out);
		count(&o, "run", (size_t)f->run_id);
		str(&o, "host", f->host);
		str(&o, "kernel", f->kernel);
		str(&o, "device", f->device);
		str(&o, "target", f->target);
		str(&o, "fill", f->fill);
		count(&o, "bytes", (size_t)f->bytes);
		num(&o, "seconds", f->seconds);
		close_obj(&o);
	}
	fputc(']', root->out);
}

/* A time of a boot, null when not known. */
static void seconds(struct obj *o, const char *k, double v)
{
	num(o, k, v < 0 ? NAN : v);
}

static void boots(struct obj *root, const struct ior_report *r)
{
	key(root, "vm_boots");
	fputc('[', root->out);
	bool first = true;
	for (size_t i = 0; i < r->view.nboots; i++) {
		const struct ior_stored_boot *b = &r->stored.boots[r->view.boots[i]];
		fputs(first ? "\n" : ",\n", root->out);
		first = false;
		struct obj o = open_obj(root->out);
		str(&o, "host", b->host);
		str(&o, "kernel", b->kernel);
		str(&o, "release", b->release);
		count(&o, "boot", (size_t)(b->boot_index > 0 ? b->boot_index : 0));
		str(&o, "outcome", b->outcome);
		str(&o, "reason", b->reason);
		str(&o, "accelerator", b->accel);
		count(&o, "cpus", (size_t)(b->cpus > 0 ? b->cpus : 0));
		count(&o, "memory_mb", (size_t)(b->memory_mb > 0 ? b->memory_mb : 0));
		str(&o, "cache_mode", b->cache_mode);
		str(&o, "qemu_version", b->qemu_version);
		str(&o, "pinned_cpus", b->pinned);
		seconds(&o, "boot_s", b->boot_s);
		seconds(&o, "total_s", b->total_s);
		close_obj(&o);
	}
	fputc(']', root->out);
}

static void not_run(struct obj *root, const struct ior_report *r)
{
	key(root, "not_run");
	fputc('[', root->out);
	bool first = true;
	for (size_t i = 0; !r->opts.alerts_only && i < r->view.nnot_run; i++) {
		const struct ior_stored_cell *c = &r->stored.cells[r->view.not_run[i]];
		fputs(first ? "\n" : ",\n", root->out);
		first = false;
		struct obj o = open_obj(root->out);
		str(&o, "host", c->host);
		str(&o, "kernel", c->kernel);
		str(&o, "device", c->device);
		str(&o, "scheduler", c->scheduler);
		str(&o, "engine", c->engine);
		str(&o, "params", c->params);
		str(&o, "status", c->status);
		str(&o, "reason", c->reason);
		count(&o, "samples", c->n);
		close_obj(&o);
	}
	fputc(']', root->out);
}

static void series_key(struct obj *o, const struct ior_rt_series *s)
{
	str(o, "host", s->host);
	str(o, "engine", s->engine);
	str(o, "params", s->params);
	str(o, "device", s->device);
	str(o, "scheduler", s->scheduler);
}

static void changes(struct obj *root, const struct ior_report *r)
{
	key(root, "change_points");
	fputc('[', root->out);
	bool first = true;
	for (size_t i = 0; i < r->view.nchanges; i++) {
		const struct ior_series_changes *sc = &r->changes[r->view.changes[i]];
		if (r->opts.alerts_only && !sc->ncp)   /* --alerts: only the series that changed */
			continue;
		const struct ior_rt_series *s = &r->rt->series[sc->series];
		fputs(first ? "\n" : ",\n", root->out);
		first = false;
		struct obj o = open_obj(root->out);
		series_key(&o, s);
		str(&o, "metric", "value");  /* change points follow the headline */
		key(&o, "kernels");
		fputc('[', o.out);
		for (size_t k = 0; k < s->n; k++) {
			fputs(k ? "," : "", o.out);
			ior_esc_json(o.out, ior_render_series_kernel(r, s, k));
		}
		fputc(']', o.out);
		key(&o, "changes");
		fputc('[', o.out);
		for (size_t c = 0; c < sc->ncp; c++) {
			fputs(c ? "," : "", o.out);
			struct obj x = open_obj(o.out);
			str(&x, "kernel", ior_render_series_kernel(r, s, sc->cp[c].index));
			str(&x, "after", ior_render_series_kernel(r, s, sc->cp[c].index - 1));
			num(&x, "ratio", sc->cp[c].ratio);
			num(&x, "q", sc->cp[c].q);
			num(&x, "p", sc->cp[c].p);
			boolean(&x, "worse", ior_render_worse(s, sc->cp[c].ratio));
			close_obj(&x);
		}
		fputc(']', o.out);
		close_obj(&o);
	}
	fputc(']', root->out);
}

static void verdict(FILE *out, const struct ior_report *r, const struct ior_judge_verdict *v)
{
	const struct ior_comparison *c = &v->c;
	struct obj o = open_obj(out);
	str(&o, "host", v->host);
	str(&o, "kernel", v->kernel);
	str(&o, "engine", v->engine);
	str(&o, "params", v->params);
	str(&o, "device", v->device);
	str(&o, "scheduler", v->scheduler);
	str(&o, "candidate_name", v->cand_name);
	str(&o, "metric", ior_metric_info(v->metric)->name);
	str(&o, "unit", v->unit);
	(void)r;
	str(&o, "verdict", ior_verdict_name(c->verdict));
	count(&o, "n_baseline", c->na);
	count(&o, "n_candidate", c->nb);
	num(&o, "median_baseline", c->median_a);
	num(&o, "median_candidate", c->median_b);
	num(&o, "ratio", c->ratio);
	num(&o, "ratio_lo", c->ratio_lo);
	num(&o, "ratio_hi", c->ratio_hi);
	num(&o, "p_mann_whitney", c->mw.p);
	num(&o, "p_welch", c->welch.p);
	num(&o, "hl_shift", c->hl_shift);
	count(&o, "excluded_baseline", c->excluded_a);
	count(&o, "excluded_candidate", c->excluded_b);
	str(&o, "reason", c->reason);
	close_obj(&o);
}

static void verdicts(struct obj *root, const struct ior_report *r)
{
	key(root, "verdicts");
	if (!r->baseline) {
		fputs("null", root->out);
		return;
	}
	struct obj o = open_obj(root->out);
	str(&o, "axis", ior_axis_name(r->axis));
	str(&o, "baseline", r->baseline);
	str(&o, "candidate", r->candidate);
	num(&o, "alpha", r->opts.compare.alpha);
	num(&o, "min_effect", r->opts.compare.min_effect);
	key(&o, "cells");
	fputc('[', o.out);
	size_t n = r->opts.alerts_only ? r->nregression_order : r->nverdicts;
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\n" : "\n", o.out);
		verdict(o.out, r, &r->verdicts[r->opts.alerts_only ? r->regression_order[i] : i]);
	}
	fputc(']', o.out);
	key(&o, "summary");
	struct obj s = open_obj(o.out);
	count(&s, "compared", r->nverdicts);
	count(&s, "regressions", r->regressions);
	count(&s, "improvements", r->improvements);
	count(&s, "inconclusive", r->inconclusive);
	count(&s, "no_change", r->unchanged);
	count(&s, "baseline_only", r->verdict_only_baseline);
	close_obj(&s);
	key(&o, "left_out");
	fputc('[', o.out);
	for (size_t h = 0; h < r->ncommon; h++) {
		fputs(h ? "," : "", o.out);
		struct obj x = open_obj(o.out);
		str(&x, "host", r->common_hosts[h]);
		words(&x, "common", r->common[h].common);
		key(&x, "schedulers");
		fputc('[', o.out);
		for (size_t k = 0; k < r->common[h].n_left_out; k++) {
			fputs(k ? "," : "", o.out);
			struct obj y = open_obj(o.out);
			str(&y, "scheduler", r->common[h].left_out[k].name);
			str(&y, "reason", r->common[h].left_out[k].reason);
			close_obj(&y);
		}
		fputc(']', o.out);
		close_obj(&x);
	}
	fputc(']', o.out);
	close_obj(&o);
}

static void options(struct obj *root, const struct ior_report *r)
{
	const struct ior_report_opts *f = &r->opts;
	key(root, "filters");
	struct obj o = open_obj(root->out);
	str(&o, "host", f->host);
	str(&o, "kernel", f->kernel);
	str(&o, "device", f->device);
	str(&o, "scheduler", f->scheduler);
	str(&o, "engine", f->engine);
	str(&o, "since", f->since);
	boolean(&o, "alerts_only", f->alerts_only);
	close_obj(&o);
	key(root, "thresholds");
	o = open_obj(root->out);
	num(&o, "alert_floor", f->alerts.floor);
	num(&o, "alert_peer_ratio", f->alerts.peer_ratio);
	num(&o, "changepoint_alpha", f->changes.alpha);
	count(&o, "changepoint_permutations", f->changes.permutations);
	count(&o, "changepoint_summary_from", IOR_CP_SUMMARY_FROM);
	close_obj(&o);
}

static void answers(struct obj *root, const struct ior_report *r)
{
	key(root, "declared_comparisons");
	fputc('[', root->out);
	for (size_t i = 0; i < r->nanswers; i++) {
		const struct ior_judge_answer *a = &r->answers[i];
		fputs(i ? ",\n" : "\n", root->out);
		struct obj o = open_obj(root->out);
		str(&o, "axis", ior_axis_name(a->q.axis));
		str(&o, "reference", a->q.a);
		str(&o, "candidate", a->q.b);
		str(&o, "source", a->q.source);
		char words[512];
		ior_render_answer_words(words, sizeof(words), a);
		str(&o, "answer", words);
		key(&o, "cells");
		fputc('[', o.out);
		for (size_t k = 0; k < a->nverdicts; k++) {
			fputs(k ? ",\n" : "\n", o.out);
			verdict(o.out, r, &a->verdicts[k]);
		}
		fputc(']', o.out);
		close_obj(&o);
	}
	fputc(']', root->out);
}

/* The kernel pairs the text, md and html answers open with (ior_report.pairs), figures and words. */
static void pairs(struct obj *root, const struct ior_report *r)
{
	key(root, "kernel_pairs");
	struct obj top = open_obj(root->out);
	str(&top, "against", r->pairs_baseline ? "baseline" : "previous");
	count(&top, "total", r->pairs_total);
	count(&top, "comparisons_up_to", IOR_JUDGE_PAIR_VERDICTS);
	key(&top, "pairs");
	fputc('[', root->out);
	for (size_t i = 0; i < r->npairs; i++) {
		const struct ior_judge_pair *p = &r->pairs[i];
		fputs(i ? ",\n" : "\n", root->out);
		struct obj o = open_obj(root->out);
		str(&o, "reference", p->a);
		str(&o, "candidate", p->b);
		count(&o, "compared", p->compared);
		count(&o, "regressions", p->regressions);
		count(&o, "improvements", p->improvements);
		count(&o, "no_change", p->unchanged);
		count(&o, "inconclusive", p->inconclusive);
		count(&o, "reference_only", p->only_a);
		key(&o, "worst_regression");
		if (p->has_worst)
			verdict(o.out, r, &p->worst);
		else
			fputs("null", o.out);
		key(&o, "least_told");
		if (p->has_untold)
			verdict(o.out, r, &p->untold);
		else
			fputs("null", o.out);
		char words[2048];
		if (p->has_untold)
			ior_render_noise_words(words, sizeof(words), &p->untold);
		str(&o, "why_not_told", p->has_untold ? words : NULL);
		ior_render_pair_words(words, sizeof(words), p);
		str(&o, "answer", words);
		close_obj(&o);
	}
	fputc(']', root->out);
	close_obj(&top);
}

static int render_json(FILE *out, const struct ior_report *r)
{
	struct obj root = open_obj(out);
	str(&root, "schema", "ioregress-report");
	count(&root, "version", IOR_REPORT_JSON_VERSION);
	options(&root, r);
	kernels(&root, r);
	groups(&root, r);
	alerts(&root, r);
	fills(&root, r);
	not_run(&root, r);
	changes(&root, r);
	verdicts(&root, r);
	pairs(&root, r);
	answers(&root, r);
	boots(&root, r);
	close_obj(&root);
	fputc('\n', out);
	return IOR_OK;
}

const struct ior_renderer ior_renderer_json = {
	.name = "json",
	.summary = "the whole model as JSON (reports/report.schema.json)",
	.parts = IOR_REPORT_ALL,
	.render = render_json,
};
