/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The registry of renderers (an explicit list, as engines/registry.c has) and the word helpers they share. */
#include "reports/render.h"

#include "common/error.h"
#include "common/suggest.h"
#include "reports/escape.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define IOR_RENDERER_ENTRY(name) &ior_renderer_##name,
static const struct ior_renderer *const renderers[] = { IOR_RENDERER_LIST(IOR_RENDERER_ENTRY) };
#define NRENDERERS (sizeof(renderers) / sizeof(renderers[0]))

const struct ior_renderer *const *ior_renderers(size_t *n)
{
	*n = NRENDERERS;
	return renderers;
}

/* rc, or the error of writing out when rendering itself went well: a full disk says so. */
static int written(FILE *out, int rc)
{
	if (!rc && fflush(out) != 0)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot write the report");
	else if (!rc && ferror(out))
		rc = ior_error_set(IOR_ERROR, "cannot write the report");
	return rc;
}

int ior_render(const struct ior_renderer *x, FILE *out, const struct ior_report *r)
{
	return written(out, x->render(out, r));
}

int ior_render_width(const struct ior_renderer *x, FILE *out, const struct ior_report *r, unsigned width)
{
	if (!width || x->wrap == IOR_WRAP_NONE)
		return ior_render(x, out, r);
	/* rendered whole first: a table row is known as one only when its line is complete */
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return ior_error_errno(IOR_ERROR, errno, "cannot render the report");
	int rc = x->render(mem, r);
	if (fclose(mem) != 0 && !rc)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot render the report");
	if (!rc) {
		ior_wrap_write(out, text, len, width, x->wrap);
		rc = written(out, IOR_OK);
	}
	free(text);
	return rc;
}

int ior_renderer_find(const struct ior_renderer **out, const char *name)
{
	*out = NULL;
	struct ior_suggestion near;
	ior_suggest_init(&near);
	char names[128] = "";
	for (size_t i = 0; i < NRENDERERS; i++) {
		if (!strcmp(renderers[i]->name, name)) {
			*out = renderers[i];
			return IOR_OK;
		}
		ior_suggest_consider(&near, name, renderers[i]->name);
		strncat(names, i ? ", " : "", sizeof(names) - strlen(names) - 1);
		strncat(names, renderers[i]->name, sizeof(names) - strlen(names) - 1);
	}
	if (near.best)
		return ior_error_set(IOR_EINVALID, "unknown format '%s'; did you mean '%s'? (formats: %s)", name, near.best,
				     names);
	return ior_error_set(IOR_EINVALID, "unknown format '%s' (formats: %s)", name, names);
}

void ior_render_figures(FILE *out, const struct ior_rt_group *g, const struct ior_rt_cell *c,
			const struct ior_row_syntax *s)
{
	for (size_t k = 0; k < g->max_n; k++) {
		fputs(s->open, out);
		if (k < c->n)
			ior_put_fixed(out, s->value_width, c->values[k], 2);
		else  /* a cell with fewer repetitions than the widest */
			fprintf(out, "%*s", s->value_width, "-");
		fputs(s->close, out);
	}
	fputs(s->open, out);
	ior_put_fixed(out, s->total_width, c->total, 2);
	fputs(s->close, out);
	fputs(s->open, out);
	ior_put_fixed(out, s->share_width, c->share * 100, 3);
	fputc('%', out);
	fputs(s->close, out);
	fputs(c->best_significant ? s->best : s->not_best, out);
}

void ior_render_group_title(char *buf, size_t len, const struct ior_rt_group *g)
{
	snprintf(buf, len, "%s, kernel %s, %s%s%s%s (%s, %s is better)", g->host, g->kernel, g->engine, g->params ? " [" : "",
		 g->params ? g->params : "", g->params ? "]" : "", g->unit ? g->unit : "?",
		 g->higher_is_better ? "higher" : "lower");
}

const char *ior_render_series_kernel(const struct ior_report *r, const struct ior_rt_series *s, size_t index)
{
	return index < s->n ? r->rt->groups[s->m[index].group].kernel : "?";
}

int ior_render_worse(const struct ior_rt_series *s, double ratio)
{
	return s->higher_is_better ? ratio < 1.0 : ratio > 1.0;
}

void ior_render_best_words(char *buf, size_t len, const struct ior_rt_device *d)
{
	if (d->schedulers < 2 || d->top_schedulers <= 1)
		snprintf(buf, len, "%s", "");
	else if (d->top_too_few)
		snprintf(buf, len, "schedulers not told apart: n = %zu: not enough to decide; %s (see compare --by scheduler)",
			 d->top_too_few_n, d->too_few_effects);
	else if (!d->top_judged)
		snprintf(buf, len, "the best and the next scheduler not told apart (see compare --by scheduler)");
	else {
		const struct ior_comparison *c = &d->top;
		char noise[400];
		ior_compare_noise_text(noise, sizeof(noise), c);
		int at = snprintf(buf, len, "%s: %s against %s %+.1f%% (95%% CI %+.1f%% to %+.1f%%)",
				  c->verdict == IOR_VERDICT_NO_CHANGE ? "no change between schedulers"
				  : c->verdict == IOR_VERDICT_INCONCLUSIVE ? "schedulers not told apart" : "schedulers differ",
				  ior_render_sched(d->top_next), ior_render_sched(d->top_best), (c->ratio - 1) * 100,
				  (c->ratio_lo - 1) * 100, (c->ratio_hi - 1) * 100);
		if (c->verdict == IOR_VERDICT_INCONCLUSIVE && at > 0 && (size_t)at < len)
			snprintf(buf + at, len - (size_t)at, "; %s", noise);
	}
}
