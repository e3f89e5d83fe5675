/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Verdicts over the stored samples: every in-view cell on A against its counterpart on B along one
 * axis, the kernel pairs the answer judges, and the answers to a matrix's questions. */
#ifndef IOR_JUDGE_VERDICTS_H
#define IOR_JUDGE_VERDICTS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/axis.h"
#include "db/db.h"
#include "db/metric.h"
#include "judge/boot_verdict.h"
#include "judge/stored.h"
#include "judge/table.h"
#include "kernel/sched_history.h"
#include "stats/compare.h"

/* What a judgement reads: the tables, the stored samples behind them, and the view they are kept to. */
struct ior_judge_input {
	const struct ior_tables *rt;
	const struct ior_stored *stored;    /* with its kernels (ior_stored_kernels) */
	bool *const *cell_in_view;          /* per table group, per cell */
	struct ior_db *db;                  /* other metrics, rounds and offered lists; NULL: the value only */
	const char *host, *kernel, *device, *scheduler, *engine;  /* the view's filters, NULL: any */
	unsigned metrics;                   /* IOR_METRIC_BIT set to judge; 0: IOR_METRICS_DEFAULT */
	struct ior_compare_opts compare;
};

/* One comparison of a cell on A (the reference) and its counterpart on B, on one metric. */
struct ior_judge_verdict {
	size_t series;                      /* index into rt->series: the reference cell's */
	size_t base_group, cand_group;      /* A's and B's groups in rt (one group for a scheduler or device) */
	size_t base_cell, cand_cell;        /* their cells in those groups */
	enum ior_metric metric;
	const char *unit;                   /* the metric's (the headline's: the group's) */
	/* the reference cell's key; the axis's own field is A's name, B's is cand_name */
	const char *host, *kernel, *device, *scheduler, *engine, *params;
	const char *cand_name, *cand_params;
	struct ior_comparison c;
	bool by_boot;                       /* VM data: judged on boot medians (judge/boot_verdict.h) */
	struct ior_boot_evidence boots;     /* with by_boot: paired or not, boots, samples, noise between boots */
	bool in_view;
};

/* A comparison a matrix exists for: along axis, a against b (NULL: the report's A and B). */
struct ior_judge_question {
	enum ior_axis axis;
	const char *a, *b;
	const char *source;                 /* where it was declared ("seed-loop.ini:7"), NULL when given directly */
};

/* The answer to one question: its verdicts (built like the report's own), and their counts. */
struct ior_judge_answer {
	struct ior_judge_question q;
	struct ior_judge_verdict *verdicts;
	size_t nverdicts;
	size_t regressions, improvements, inconclusive, unchanged, unmatched;
};

/* The cell comparisons the kernel pairs may take, newest pair first (the newest is always judged): a
 * verdict costs about a millisecond (its bootstrap), so 200 kernels of 200 cells would take 40 s where
 * the report takes one; a kernel tester's 3 to 8 kernels of tens of cells are judged whole. At 200
 * (400 cost a million-sample report 1 s of CPU, doubling it) the newest pair of 200 cells costs
 * 0.45 s there (bench/report_scale.sh formats 200 25). */
#define IOR_JUDGE_PAIR_VERDICTS 200

/* One headline verdict of a kernel pair: the heat map colours by them. */
struct ior_judge_pair_cell {
	size_t series;                      /* index into rt->series */
	enum ior_verdict verdict;
	double ratio;
	bool by_boot;                       /* judged on boot medians (VM data) */
};

/* A pair of kernels the report's answer judges (issue 22): without --baseline each kernel against the
 * next in the report's kernel order (host, then version order), with it every other kernel against the
 * baseline (or only --candidate). Its verdicts are the report's own judge (verdicts.c: boot
 * medians on VM data), kept summed up: the counts, the worst regression and what could not be told. */
struct ior_judge_pair {
	const char *a, *b;                  /* the reference kernel and the one judged against it */
	struct ior_judge_pair_cell *cells;  /* its headline (value) verdicts, one per series: the heat map's */
	size_t ncells;
	size_t compared, regressions, improvements, unchanged, inconclusive;
	size_t only_a;                      /* cells of a with no counterpart on b */
	bool has_worst, has_untold;
	struct ior_judge_verdict worst;     /* the largest regression, with has_worst */
	struct ior_judge_verdict untold;    /* of the inconclusive, the one that could tell the least (its noise
					       says why), with has_untold */
};

/* What one comparison collects: its verdicts, their counts, and what it could not judge. */
struct ior_verdict_set {
	struct ior_judge_verdict *v;
	size_t n, cap;
	size_t regressions, improvements, inconclusive, unchanged;
	size_t only_a;                      /* A's cells without a counterpart on B */
	size_t unit_mismatch;               /* pairs left out because A and B measure in different units */
	unsigned judged;                    /* IOR_METRIC_BIT of each metric some verdict judged */
	enum ior_axis axis;
	const char *a;                      /* A's name */
	const char *cand;                   /* the kernel B turned out to be (kernel axis without a candidate) */
};

/* a against b along axis on every in-view cell (b NULL on the kernel axis: each series' newest kernel
 * other than a). IOR_ENOTFOUND when a name has no samples in view. out->v is the caller's to free. */
int ior_judge_verdicts(struct ior_verdict_set *out, const struct ior_judge_input *in, enum ior_axis axis,
		       const char *a, const char *b);
/* The regressions among v, largest change first, as indexes (*order the caller's to free). */
int ior_judge_regression_order(size_t **order, size_t *n, const struct ior_judge_verdict *v, size_t nv);
/* For each host in view, the schedulers both kernels offered (what a kernel comparison covers). */
int ior_judge_left_out(const struct ior_judge_input *in, const char *baseline, const char *candidate,
		       struct ior_sched_common **common, const char ***hosts, size_t *n);
/* The kernel pairs the answer judges, in kernel order, the newest while IOR_JUDGE_PAIR_VERDICTS lasts:
 * without baseline each in-view kernel against the one before it, with it every other against the
 * baseline (or only candidate). done, when not NULL, is the baseline-against-candidate comparison
 * made already (summed up instead of judged again). */
int ior_judge_pairs(struct ior_judge_pair **pairs, size_t *npairs, size_t *total, const struct ior_judge_input *in,
		    const char *baseline, const char *candidate, const struct ior_verdict_set *done);
void ior_judge_pairs_free(struct ior_judge_pair *pairs, size_t n);
/* The answers to questions, in their order: a question whose name has no cell is answered unmatched. */
int ior_judge_answers(struct ior_judge_answer **out, size_t *n, const struct ior_judge_input *in,
		      const struct ior_judge_question *q, size_t nq);
void ior_judge_answers_free(struct ior_judge_answer *a, size_t n);

#endif
