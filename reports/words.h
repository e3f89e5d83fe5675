/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The words every format shares for the model's records: the report's sections (model_sections.c)
 * and the renderers print them, so the model never calls into a renderer. No I/O, no statistics. */
#ifndef IOR_REPORTS_WORDS_H
#define IOR_REPORTS_WORDS_H

#include <stddef.h>

#include "reports/model.h"

/* "N cell(s) compared: R regression(s), I improvement(s), ... (alpha A, minimum effect M%)." into
 * buf: numbers only, so every format prints it as it is. */
void ior_render_verdict_counts(char *buf, size_t len, const struct ior_report *r);

/* One answer in a sentence: what the data supports ("nested-sync-each is worse than
 * tmpfs-sync-each on 1 of 1 comparison(s)"), for every format. */
void ior_render_answer_words(char *buf, size_t len, const struct ior_judge_answer *a);

/* Which cell and metric one of an answer's verdicts is about, as md and html list it (each escapes
 * it and adds the medians and the verdict its own way): "KEY, KEY, ..., METRIC". */
void ior_render_answer_cell(char *buf, size_t len, enum ior_axis axis, const struct ior_judge_verdict *v);

/* The key columns of a verdict along axis: every field of the cell key but the compared one
 * (which the heading names). Returns how many, at most IOR_RENDER_KEY_MAX. */
#define IOR_RENDER_KEY_MAX 5
size_t ior_render_verdict_key(enum ior_axis axis, const struct ior_judge_verdict *v, const char **names,
			      const char **values);

/* The metric a verdict judged ("value" for the headline) and the heading of a comparison
 * ("baseline 6.1, candidate 6.12" on kernels; "scheduler: noop (reference) against cfq" otherwise). */
const char *ior_render_metric(const struct ior_judge_verdict *v);
void ior_render_comparison_title(char *buf, size_t len, enum ior_axis axis, const char *a, const char *b);

/* One pair's answer: "B against A: N cell(s) compared: R regressed, I improved, S same, T not told;
 * worst regression: ...; not told: ..." (the answer's lines, and the Kernel pairs section's). */
void ior_render_pair_words(char *buf, size_t len, const struct ior_judge_pair *p);

/* Which cell and metric a kernel pair's verdict is about: "ENGINE, DEVICE SCHEDULER, METRIC". */
int ior_render_verdict_cell(char *buf, size_t len, const struct ior_judge_verdict *v);

/* Why a verdict was not told: its noise and the smallest change it could tell (the boots' words on VM
 * data, ior_compare_noise_text otherwise). */
void ior_render_noise_words(char *buf, size_t len, const struct ior_judge_verdict *v);

/* "SSD RAID noop" style label of a series' scheduler ("-" when none). */
const char *ior_render_sched(const char *scheduler);

#endif
