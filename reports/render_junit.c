/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The JUnit XML report: one test case per compared cell (a regression fails, inconclusive is
 * skipped) and one per device and kernel for the variance alerts, figures in properties, as Jenkins
 * and GitLab read it. */
#include "reports/render.h"

#include "common/error.h"
#include "reports/escape.h"

#include <string.h>

static void attr(FILE *out, const char *name, const char *value)
{
	fprintf(out, " %s=\"", name);
	ior_esc_xml(out, value);
	fputc('"', out);
}

static void prop(FILE *out, const char *name, const char *fmt, double v)
{
	char buf[64];
	snprintf(buf, sizeof(buf), fmt, v);
	fprintf(out, "<property name=\"%s\" value=\"%s\"/>", name, buf);
}

static void prop_text(FILE *out, const char *name, const char *v)
{
	fprintf(out, "<property name=\"%s\" value=\"", name);
	ior_esc_xml(out, v);
	fputs("\"/>", out);
}

/* classname: host.engine.device, so CI groups the cases the way the tables do. */
static void classname(FILE *out, const char *host, const char *engine, const char *params, const char *device)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s.%s%s%s%s.%s", host, engine, params ? " [" : "", params ? params : "", params ? "]" : "",
		 device);
	attr(out, "classname", buf);
}

static void verdict_case(FILE *out, const struct ior_report *r, const struct ior_judge_verdict *v)
{
	const struct ior_comparison *c = &v->c;
	fputs("    <testcase", out);
	classname(out, v->host, v->engine, v->params, v->device);
	char name[256];
	if (v->metric == IOR_METRIC_VALUE)
		snprintf(name, sizeof(name), "%s", ior_render_sched(v->scheduler));
	else
		snprintf(name, sizeof(name), "%s %s", ior_render_sched(v->scheduler), ior_render_metric(v));
	attr(out, "name", name);
	fputs(" time=\"0\">\n      <properties>", out);
	prop_text(out, "verdict", ior_verdict_name(c->verdict));
	prop_text(out, "metric", ior_render_metric(v));
	prop(out, "n_baseline", "%.0f", (double)c->na);
	prop(out, "n_candidate", "%.0f", (double)c->nb);
	prop(out, "median_baseline", "%.6g", c->median_a);
	prop(out, "median_candidate", "%.6g", c->median_b);
	prop(out, "change_pct", "%+.2f", (c->ratio - 1) * 100);
	prop(out, "ci95_lo_pct", "%+.2f", (c->ratio_lo - 1) * 100);
	prop(out, "ci95_hi_pct", "%+.2f", (c->ratio_hi - 1) * 100);
	prop(out, "p_mann_whitney", "%.4g", c->mw.p);
	prop(out, "p_welch", "%.4g", c->welch.p);
	prop(out, "hl_shift", "%.6g", c->hl_shift);
	fputs("</properties>\n", out);
	char msg[128];
	snprintf(msg, sizeof(msg), "%s: %+.1f%% (%s -> %s)", ior_verdict_name(c->verdict), (c->ratio - 1) * 100, r->baseline,
		 r->candidate);
	if (c->verdict == IOR_VERDICT_REGRESSION) {
		fputs("      <failure type=\"regression\"", out);
		attr(out, "message", msg);
		fputc('>', out);
		ior_esc_xml(out, c->reason);
		fputs("</failure>\n", out);
	} else if (c->verdict == IOR_VERDICT_INCONCLUSIVE) {
		fputs("      <skipped", out);
		attr(out, "message", c->reason);
		fputs("/>\n", out);
	} else {
		fputs("      <system-out>", out);
		ior_esc_xml(out, c->reason);
		fputs("</system-out>\n", out);
	}
	fputs("    </testcase>\n", out);
}

static void verdict_suite(FILE *out, const struct ior_report *r)
{
	size_t skipped = r->inconclusive;
	char name[512];
	snprintf(name, sizeof(name), "ioregress check %s -> %s", r->baseline, r->candidate ? r->candidate : "(none)");
	fputs("  <testsuite", out);
	attr(out, "name", name);
	fprintf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n", r->nverdicts, r->regressions,
		skipped);
	for (size_t i = 0; i < r->nverdicts; i++)
		verdict_case(out, r, &r->verdicts[i]);
	fputs("  </testsuite>\n", out);
}

static const struct ior_alert *device_alert(const struct ior_report *r, size_t group, size_t device)
{
	for (size_t i = 0; i < r->nalerts; i++)
		if (r->alerts[i].kind == IOR_ALERT_DEVICE && r->alerts[i].group == group && r->alerts[i].index == device)
			return &r->alerts[i];
	return NULL;
}

/* Spread and trend alerts inform: a noisy device is no regression, and a CI job that failed on one
 * would cry wolf (issue 22: 16 failures where nothing regressed). Only --fail-on alert makes them
 * failures; otherwise the words go to the case's output, where a CI's test view still shows them. */
static void alert_outcome(FILE *out, const struct ior_report *r, const char *type, const struct ior_alert *a)
{
	char words[1600];
	ior_alert_describe(words, sizeof(words), a);
	if (r->opts.alerts_fail) {
		fprintf(out, "      <failure type=\"%s\"", type);
		attr(out, "message", words);
		fputc('>', out);
		ior_esc_xml(out, words);
		fputs("</failure>\n", out);
	} else {
		fprintf(out, "      <system-out>%s: ", type);
		ior_esc_xml(out, words);
		fputs("</system-out>\n", out);
	}
}

static void alert_case(FILE *out, const struct ior_report *r, size_t gi, size_t d, const struct ior_alert *a)
{
	const struct ior_rt_group *g = &r->rt->groups[gi];
	const struct ior_rt_device *dev = &g->devices[d];
	fputs("    <testcase", out);
	classname(out, g->host, g->engine, g->params, dev->name);
	char name[320];
	snprintf(name, sizeof(name), "spread on %s", g->kernel);
	attr(out, "name", name);
	fputs(" time=\"0\">\n      <properties>", out);
	prop(out, "spread_pct", "%.2f", dev->st.spread * 100);
	prop(out, "cov_pct", "%.2f", dev->st.cov * 100);
	prop(out, "n", "%.0f", (double)dev->st.n);
	if (a) {
		prop(out, "peer_median_pct", "%.2f", a->peer_median * 100);
		prop(out, "threshold_pct", "%.2f", a->threshold * 100);
	}
	fputs("</properties>\n", out);
	if (a)
		alert_outcome(out, r, "variance-alert", a);
	fputs("    </testcase>\n", out);
}

/* A cell whose repetitions follow a trend (warm-up, drift) is a failed case of its own: the
 * device's spread case says how noisy, this one that the order of the repetitions explains it. */
static void trend_case(FILE *out, const struct ior_report *r, const struct ior_alert *a)
{
	const struct ior_rt_group *g = &r->rt->groups[a->group];
	fputs("    <testcase", out);
	classname(out, g->host, g->engine, g->params, a->device);
	char name[320];
	snprintf(name, sizeof(name), "trend of %s on %s", ior_render_sched(a->scheduler), g->kernel);
	attr(out, "name", name);
	fputs(" time=\"0\">\n      <properties>", out);
	prop_text(out, "trend", ior_trend_name(a->trend.kind));
	prop(out, "kendall_tau", "%.3f", a->trend.tau);
	prop(out, "kendall_p", "%.3g", a->trend.p);
	if (a->trend.kind == IOR_TREND_WARMUP) {
		prop(out, "warmup_repetitions", "%.0f", (double)a->trend.k);
		prop(out, "warmup_factor", "%.2f", a->trend.factor);
	}
	fputs("</properties>\n", out);
	alert_outcome(out, r, ior_trend_name(a->trend.kind), a);
	fputs("    </testcase>\n", out);
}

/* Every device of every kernel in view is a case, so a CI history shows a device going noisy;
 * then a case per cell with a trend. */
static void alert_suite(FILE *out, const struct ior_report *r)
{
	const struct ior_report_view *v = &r->view;
	size_t tests = v->ntrends, failures = v->ntrends;
	for (size_t i = 0; i < v->ngroups; i++) {
		size_t g = v->groups[i];
		for (size_t d = 0; d < v->ndevices[g]; d++)
			tests++, failures += device_alert(r, g, v->devices[g][d]) != NULL;
	}
	if (!r->opts.alerts_fail)
		failures = 0;
	fprintf(out, "  <testsuite name=\"ioregress variance alerts\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n",
		tests, failures);
	for (size_t i = 0; i < v->ngroups; i++) {
		size_t g = v->groups[i];
		for (size_t d = 0; d < v->ndevices[g]; d++)
			alert_case(out, r, g, v->devices[g][d], device_alert(r, g, v->devices[g][d]));
	}
	for (size_t i = 0; i < v->ntrends; i++)
		trend_case(out, r, &r->alerts[v->trends[i]]);
	fputs("  </testsuite>\n", out);
}

/* Cells that did not run: errors (failed) or skipped (unavailable, skipped), with the reason. */
static void not_run_suite(FILE *out, const struct ior_report *r)
{
	size_t failed = 0;
	for (size_t i = 0; i < r->view.nnot_run; i++)
		failed += !strcmp(r->stored.cells[r->view.not_run[i]].status, "failed");
	fprintf(out, "  <testsuite name=\"ioregress cells not run\" tests=\"%zu\" failures=\"0\" errors=\"%zu\" skipped=\"%zu\">\n",
		r->nnot_ok, failed, r->nnot_ok - failed);
	for (size_t i = 0; i < r->view.nnot_run; i++) {
		const struct ior_stored_cell *c = &r->stored.cells[r->view.not_run[i]];
		fputs("    <testcase", out);
		classname(out, c->host, c->engine, c->params, c->device);
		char name[320];
		snprintf(name, sizeof(name), "%s on %s", ior_render_sched(c->scheduler), c->kernel);
		attr(out, "name", name);
		fputs(" time=\"0\">\n", out);
		fprintf(out, "      <%s type=\"%s\"", strcmp(c->status, "failed") ? "skipped" : "error", c->status);
		attr(out, "message", c->reason ? c->reason : "no reason recorded");
		fputs("/>\n    </testcase>\n", out);
	}
	fputs("  </testsuite>\n", out);
}

/* Each VM boot is a case: a boot that did not reach its end (panic, hang, boot failure) is an error. */
static void boot_suite(FILE *out, const struct ior_report *r)
{
	size_t n = r->view.nboots;
	if (!n)
		return;
	fprintf(out, "  <testsuite name=\"ioregress vm boots\" tests=\"%zu\" failures=\"0\" errors=\"%zu\" skipped=\"0\">\n", n,
		r->nboots_not_ok);
	for (size_t i = 0; i < r->view.nboots; i++) {
		const struct ior_stored_boot *b = &r->stored.boots[r->view.boots[i]];
		char name[64];
		snprintf(name, sizeof(name), "boot %d", b->boot_index);
		fputs("    <testcase", out);
		char cls[320];
		snprintf(cls, sizeof(cls), "%s.%s", b->host, b->release && *b->release ? b->release : b->kernel);
		attr(out, "classname", cls);
		attr(out, "name", name);
		fprintf(out, " time=\"%.1f\">\n      <properties>", b->total_s < 0 ? 0 : b->total_s);
		prop_text(out, "outcome", b->outcome);
		prop_text(out, "accelerator", b->accel);
		prop(out, "cpus", "%.0f", (double)b->cpus);
		prop(out, "memory_mb", "%.0f", (double)b->memory_mb);
		fputs("</properties>\n", out);
		if (strcmp(b->outcome, "ok")) {
			fputs("      <error", out);
			attr(out, "type", b->outcome);
			attr(out, "message", b->reason && *b->reason ? b->reason : b->outcome);
			fputs("/>\n", out);
		}
		fputs("    </testcase>\n", out);
	}
	fputs("  </testsuite>\n", out);
}

static int render_junit(FILE *out, const struct ior_report *r)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ioregress\">\n", out);
	if (r->baseline)
		verdict_suite(out, r);
	if (r->opts.parts & IOR_REPORT_ALERTS)
		alert_suite(out, r);
	if (r->nnot_ok)
		not_run_suite(out, r);
	boot_suite(out, r);
	fputs("</testsuites>\n", out);
	return IOR_OK;
}

const struct ior_renderer ior_renderer_junit = {
	.name = "junit",
	.summary = "JUnit XML: a regression is a failure, inconclusive is skipped (with --baseline)",
	.parts = IOR_REPORT_ALERTS | IOR_REPORT_VERDICTS,
	.render = render_junit,
};
