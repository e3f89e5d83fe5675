/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The renderers: one file each (render_<name>.c), listed in one explicit registry; each prints the
 * report model and computes nothing. */
#ifndef IOR_REPORTS_RENDER_H
#define IOR_REPORTS_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "reports/model.h"
#include "reports/words.h"
#include "reports/wrap.h"

/* The version of the JSON document (reports/report.schema.json); bumped on any change of its shape. */
#define IOR_REPORT_JSON_VERSION 4   /* 2: vm_boots; 3: kernels[].commit, alerts' spread_alert and trend, verdicts name their axis and metric; 4: kernel_pairs */

struct ior_renderer {
	const char *name;     /* the --format word */
	const char *summary;  /* one line for --help */
	unsigned parts;       /* what of the model it prints (enum ior_report_part) */
	int (*render)(FILE *out, const struct ior_report *r);
	enum ior_wrap_syntax wrap;  /* how its prose wraps at --width; IOR_WRAP_NONE: it does not */
};

/* Every renderer, in the registry's order. */
const struct ior_renderer *const *ior_renderers(size_t *n);

/* Prints r with renderer x; IOR_ERROR when x fails or out could not be written. */
int ior_render(const struct ior_renderer *x, FILE *out, const struct ior_report *r);

/* ior_render with the prose wrapped at width columns (reports/wrap.h); 0 for no wrapping. */
int ior_render_width(const struct ior_renderer *x, FILE *out, const struct ior_report *r, unsigned width);

/* The renderer called name; IOR_EINVALID with the valid names and a "did you mean" otherwise. */
int ior_renderer_find(const struct ior_renderer **out, const char *name);

/* The renderers (render_<name>.c). */
#define IOR_RENDERER_LIST(X) X(text) X(md) X(html) X(json) X(junit) X(csv) X(kcidb)
#define IOR_RENDERER_DECLARE(name) extern const struct ior_renderer ior_renderer_##name;
IOR_RENDERER_LIST(IOR_RENDERER_DECLARE)

/* KCIDB (render_kcidb.c): an origin is what KCIDB's schema allows ([a-z0-9_]+) and at most
 * KCIDB_ORIGIN_MAX characters; NULL is refused too: every id starts with it, so two systems that
 * left it out would write the same ids. IOR_EINVALID naming the problem. */
#define KCIDB_ORIGIN_MAX 32
int ior_kcidb_origin_check(const char *origin);
/* The options only one format takes, checked before any work: --origin is for kcidb and kcidb
 * needs it (x NULL: no --format). */
int ior_render_check_opts(const struct ior_renderer *x, const struct ior_report_opts *o);


/* The verdict table `check` and `compare` print: one row per compared cell and metric, the
 * left-out schedulers, the summary line. */
int ior_render_verdicts_text(FILE *out, const struct ior_report *r);
/* The answers to the declared comparisons, first in the text report. */
void ior_render_answers_text(FILE *out, const struct ior_report *r);

/* What the best-scheduler rule found for a device: "" (one scheduler, or one significantly best),
 * with one kernel the verdict of the next against the best in compare's words ("no change between
 * schedulers: ..." or "schedulers not told apart: ...; noise ...: changes below ...% cannot be
 * told"), with more kernels that the two were not told apart, or that the samples were too few. */
void ior_render_best_words(char *buf, size_t len, const struct ior_rt_device *d);

/* A cell's figures in the field report's order: each repetition, the total, the share, the
 * best mark; each renderer gives its syntax. */
struct ior_row_syntax {
	const char *open, *close;             /* around each figure: " " and "" (text), " " and " |", "<td>" and "</td>" */
	int value_width, total_width, share_width;  /* right-aligned widths, 0 for none */
	const char *best, *not_best;          /* the last column, with its own separators */
};
void ior_render_figures(FILE *out, const struct ior_rt_group *g, const struct ior_rt_cell *c,
			const struct ior_row_syntax *s);

/* The kernel answer the text, Markdown and HTML reports open with (render_answer.c): for each kernel
 * pair (ior_report.pairs) what was compared, the verdict counts, the worst regression with its
 * interval, what could not be told and why; past IOR_ANSWER_PAIRS_MAX pairs a summary and the pairs
 * with a regression, and the Kernel pairs section lists every pair (IOR_ANSWER_PAIRS_MAX, model.h).
 * Plain text, one sentence a line. */
struct ior_answer_lines {
	char line[IOR_ANSWER_PAIRS_MAX + 2][1280];
	size_t n;
};
void ior_render_kernel_answer(struct ior_answer_lines *out, const struct ior_report *r);

/* Helpers the renderers share for words (no statistics): */
/* A table's title: "HOST, kernel K, ENGINE [PARAMS] (UNIT, higher is better)". */
void ior_render_group_title(char *buf, size_t len, const struct ior_rt_group *g);
/* The kernels of a series' change point: where it arrived and the one before. */
const char *ior_render_series_kernel(const struct ior_report *r, const struct ior_rt_series *s, size_t index);
/* Whether a change point made things worse, by the metric's direction. */
int ior_render_worse(const struct ior_rt_series *s, double ratio);

#endif
