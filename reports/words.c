/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The words every format shares for the model's records (keys, metrics, comparisons, answers, kernel
 * pairs, noise): plain text into a buffer, used by the sections the model builds and by the renderers. */
#include "reports/words.h"

#include <stdio.h>

const char *ior_render_sched(const char *scheduler)
{
	return scheduler ? scheduler : "-";
}

size_t ior_render_verdict_key(enum ior_axis axis, const struct ior_judge_verdict *v, const char **names,
			      const char **values)
{
	const struct {
		enum ior_axis axis;
		const char *name, *value;
	} f[] = {
		{ IOR_AXIS_HOST, "host", v->host },
		{ IOR_AXIS_KERNEL, "kernel", v->kernel },
		{ IOR_AXIS_DEVICE, "device", v->device },
		{ IOR_AXIS_SCHEDULER, "scheduler", ior_render_sched(v->scheduler) },
		{ IOR_AXIS_ENGINE, "engine", v->engine },
	};
	size_t n = 0;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (f[i].axis != axis) {
			names[n] = f[i].name;
			values[n++] = f[i].value;
		}
	return n;
}

const char *ior_render_metric(const struct ior_judge_verdict *v)
{
	return ior_metric_info(v->metric)->name;
}

void ior_render_comparison_title(char *buf, size_t len, enum ior_axis axis, const char *a, const char *b)
{
	if (axis == IOR_AXIS_KERNEL)
		snprintf(buf, len, "baseline %s, candidate %s", a, b ? b : "(none)");
	else
		snprintf(buf, len, "%s: %s (reference) against %s", ior_axis_name(axis), a, b ? b : "(none)");
}

void ior_render_verdict_counts(char *buf, size_t len, const struct ior_report *r)
{
	snprintf(buf, len, "%zu cell(s) compared: %zu regression(s), %zu improvement(s), %zu inconclusive, %zu no change "
		 "(alpha %g, minimum effect %.1f%%).", r->nverdicts, r->regressions, r->improvements, r->inconclusive,
		 r->unchanged, r->opts.compare.alpha, r->opts.compare.min_effect * 100);
}

void ior_render_answer_words(char *buf, size_t len, const struct ior_judge_answer *a)
{
	if (a->unmatched || !a->nverdicts)
		snprintf(buf, len, "no answer: no cell was measured on both");
	else if (a->regressions && a->improvements)
		snprintf(buf, len, "%s is worse on %zu and better on %zu of %zu comparison(s)", a->q.b, a->regressions,
			 a->improvements, a->nverdicts);
	else if (a->regressions)
		snprintf(buf, len, "%s is worse than %s on %zu of %zu comparison(s)", a->q.b, a->q.a, a->regressions,
			 a->nverdicts);
	else if (a->improvements)
		snprintf(buf, len, "%s is better than %s on %zu of %zu comparison(s)", a->q.b, a->q.a, a->improvements,
			 a->nverdicts);
	else if (a->inconclusive)
		snprintf(buf, len, "no difference found, but %zu of %zu comparison(s) are inconclusive", a->inconclusive,
			 a->nverdicts);
	else
		snprintf(buf, len, "no measurable difference (%zu comparison(s))", a->nverdicts);
}

void ior_render_answer_cell(char *buf, size_t len, enum ior_axis axis, const struct ior_judge_verdict *v)
{
	const char *names[IOR_RENDER_KEY_MAX], *values[IOR_RENDER_KEY_MAX];
	size_t nk = ior_render_verdict_key(axis, v, names, values), n = 0;
	buf[0] = '\0';
	for (size_t j = 0; j < nk && n < len; j++)
		n += (size_t)snprintf(buf + n, len - n, "%s, ", values[j]);
	if (n < len)
		snprintf(buf + n, len - n, "%s", ior_render_metric(v));
}

void ior_render_noise_words(char *buf, size_t len, const struct ior_judge_verdict *v)
{
	if (v->by_boot)
		ior_boot_noise_text(buf, len, &v->boots);
	else
		ior_compare_noise_text(buf, len, &v->c);
}

int ior_render_verdict_cell(char *buf, size_t len, const struct ior_judge_verdict *v)
{
	return snprintf(buf, len, "%s, %s %s, %s", v->engine, v->device, ior_render_sched(v->scheduler),
			ior_render_metric(v));
}

void ior_render_pair_words(char *buf, size_t len, const struct ior_judge_pair *p)
{
	int at = snprintf(buf, len, "%s against %s: %zu cell(s) compared", p->b, p->a, p->compared);
	if (!p->compared && at > 0 && (size_t)at < len)
		at += snprintf(buf + at, len - (size_t)at, ": no cell was measured on both");
	else if (at > 0 && (size_t)at < len)
		at += snprintf(buf + at, len - (size_t)at, ": %zu regressed, %zu improved, %zu same, %zu not told",
			       p->regressions, p->improvements, p->unchanged, p->inconclusive);
	char cell[400], noise[400];
	if (p->has_worst && at > 0 && (size_t)at < len) {
		const struct ior_comparison *c = &p->worst.c;
		ior_render_verdict_cell(cell, sizeof(cell), &p->worst);
		at += snprintf(buf + at, len - (size_t)at, "; worst regression: %s: %+.1f%% (95%% CI %+.1f%% to %+.1f%%)", cell,
			       (c->ratio - 1) * 100, (c->ratio_lo - 1) * 100, (c->ratio_hi - 1) * 100);
	}
	if (p->has_untold && at > 0 && (size_t)at < len) {
		ior_render_verdict_cell(cell, sizeof(cell), &p->untold);
		ior_render_noise_words(noise, sizeof(noise), &p->untold);
		snprintf(buf + at, len - (size_t)at, "; not told: %s%s: %s", p->inconclusive > 1 ? "the least told, " : "",
			 cell, noise);
	}
}
