/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report model: everything a report says, built once from the database and the filters; every
 * renderer and `check` only print it. */
#ifndef IOR_REPORTS_MODEL_H
#define IOR_REPORTS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/axis.h"
#include "db/metric.h"
#include "db/scan.h"
#include "kernel/sched_history.h"
#include "judge/alerts.h"
#include "judge/boot_verdict.h"
#include "judge/changes.h"
#include "judge/stored.h"
#include "judge/verdicts.h"
#include "stats/changepoint.h"
#include "stats/compare.h"
#include "reports/section.h"
#include "judge/table.h"

/* What a renderer needs beyond the tables (struct ior_renderer.parts); the builder computes only those. */
enum ior_report_part {
	IOR_REPORT_ALERTS = 1u << 0,
	IOR_REPORT_CHANGES = 1u << 1,
	IOR_REPORT_VERDICTS = 1u << 2,   /* only when a baseline is given */
	IOR_REPORT_DETAIL = 1u << 3,     /* every sample's bytes, CPU, latency, time (the CSV) */
	IOR_REPORT_TABLES = 1u << 4,     /* rt: groups, cells, statistics, series (the others need them) */
	IOR_REPORT_QUESTIONS = 1u << 5,  /* the comparisons the matrices declared (or opts.questions), answered */
	IOR_REPORT_BEST = 1u << 6,       /* each device's significantly best scheduler (ior_rt_cell.best_significant) */
	IOR_REPORT_BISECT = 1u << 7,     /* the bisections, their commits and culprits (model_bisect.c) */
	IOR_REPORT_PAIRS = 1u << 8,      /* the kernel pairs the answer judges (ior_report.pairs) */
};
#define IOR_REPORT_ALL (IOR_REPORT_TABLES | IOR_REPORT_ALERTS | IOR_REPORT_CHANGES | IOR_REPORT_VERDICTS | \
			IOR_REPORT_QUESTIONS | IOR_REPORT_BEST | IOR_REPORT_PAIRS)

struct ior_report_opts {
	/* The view: what the report shows. Alerts and change points are judged over every kernel
	 * and device of the host (the peers they need), then kept to the view. */
	const char *host, *kernel, *device, *scheduler, *engine, *since;
	const char *vm_run;                 /* only the runs of that vm run's boots (vm run --boots auto) */
	const char *baseline, *candidate;   /* verdicts when baseline is set; candidate NULL: the host's newest kernel */
	enum ior_axis axis;                 /* what baseline and candidate name (A and B): a kernel by default */
	unsigned metrics;                   /* IOR_METRIC_BIT set the verdicts judge; 0: IOR_METRICS_DEFAULT */
	const struct ior_judge_question *questions;  /* comparisons asked for (a matrix's compare key), answered first */
	size_t nquestions;
	bool alerts_only;                   /* --alerts: only variance alerts and regressions, most severe first */
	bool alerts_fail;                   /* --fail-on alert: JUnit fails the alert cases (otherwise they inform) */
	const char *origin;                 /* kcidb: the submitting CI system's name, prefixing every id; NULL "ioregress" */
	unsigned parts;
	struct ior_alert_opts alerts;
	struct ior_cp_opts changes;
	struct ior_compare_opts compare;
};
void ior_report_opts_default(struct ior_report_opts *o);

struct ior_report_sample_detail {
	int64_t sample_id;
	IOR_MEASURES_MEMBER;
	const char *fill;
	char measured_at[32];
};

/* A scratch device filled before its run measured (not part of any sample). */
struct ior_report_fill {
	int64_t run_id;
	const char *host, *kernel, *device, *target, *fill;
	uint64_t bytes;
	double seconds;
	bool in_view;
};

/* A scheduler offered on the previous kernel of the host and not on this one, or the reverse. */
struct ior_report_sched_change {
	const char *name;
	bool offered_before, offered_now;
	enum ior_sched_change kind;
	char text[320];                     /* ior_sched_explain's words */
};

/* The git commit a kernel was built from (run --kernel-tree / --repo); strings interned, NULL unknown. */
struct ior_report_commit {
	const char *sha, *describe, *subject, *author_name, *author_email, *author_date;
	const char *repository_url, *branch;  /* where the run's tree fetched it from, NULL unknown */
};

struct ior_report_kernel {
	const char *host, *release;
	struct ior_report_commit commit;    /* sha NULL: none recorded */
	const char *config_hash;            /* sha256 of its config (a tree build's identity), NULL unknown */
	const char *machine;                /* `uname -m` of the kernel (its build's architecture), NULL unknown */
	const char *compiler;               /* its config's CONFIG_CC_VERSION_TEXT, NULL unknown */
	size_t other_commits;               /* more commits recorded under this release on this host (other builds) */
	const char *offered;                /* space separated, NULL when nothing was recorded */
	char *unavailable;                  /* schedulers the matrix asked for and this kernel lacked; NULL when none */
	struct ior_report_sched_change *changes;  /* against the host's previous kernel */
	size_t nchanges;
	bool in_view;
};

/* A commit (or packaged kernel) a bisection built, marked or measured (strings interned, NULL unknown). */
struct ior_report_bisect_commit {
	const char *id, *build, *image, *mark;  /* build "ok"/"build failed"; mark good, bad, skip */
	bool good_end, bad_end, culprit;
	size_t n;                           /* samples measured on it */
	double median;                      /* of those samples; NAN without any */
};

/* One bisection (`ioregress bisect`), newest last. */
struct ior_report_bisect {
	int64_t id;
	const char *source, *repo, *good, *bad, *status, *result, *started_at;
	const char *culprit;                /* the first bad commit it named, NULL when none */
	bool higher_is_better;
	struct ior_report_bisect_commit *commits;
	size_t ncommits;
};

/* One change point in view as the answer names it (model_answer.c). */
struct ior_report_change_ref {
	size_t change, at;                  /* r->changes[change].cp[at] */
	double before, after;               /* the series' level (the median of its kernels' medians) before and after it */
	bool worse;                         /* by the metric's direction */
};

/* The kernel pairs the answer names one by one; past it a summary and the pairs with a regression
 * (render_answer.c), and the Kernel pairs section lists every pair (model_sections.c). */
#define IOR_ANSWER_PAIRS_MAX 6

/* What the kernel answer says, chosen by the model (model_answer.c) so that render_answer.c only words it. */
struct ior_report_headline {
	size_t kernels;                     /* in view */
	const char *one;                    /* the first of them, NULL when none */
	size_t *worst;                      /* the pairs with a regression (index into pairs), the largest first */
	size_t nworst;
	size_t pairs_regressed, pairs_improved, pairs_untold;  /* pairs with a regression, an improvement, a cell not told */
	size_t ncps_in_view;                /* change points in view */
	struct ior_report_change_ref *cps;  /* each of them, the largest first (with tables; ncps 0 without) */
	size_t ncps;
};

/* What is in view, as indexes in each list's order (model_view.c): renderers walk these and print,
 * and never test a row's in_view or the filters themselves. Per rt group only with tables. */
struct ior_report_view {
	size_t *kernels, nkernels;          /* into kernels */
	size_t *stored, nstored;            /* into cells (the stored cells) */
	size_t *not_run, nnot_run;          /* into cells: in view, with a status other than ok */
	size_t *fills, nfills;              /* into fills */
	size_t *boots, nboots;              /* into boots */
	size_t *changes, nchanges;          /* into changes */
	size_t *verdicts, nverdicts;        /* into verdicts */
	size_t *trends, ntrends;            /* into alerts: the cell alerts in view with a trend */
	size_t *groups, ngroups;            /* into rt->groups: the groups with a cell in view */
	size_t **cells, *ncells;            /* per rt group: its cells in view */
	size_t **devices, *ndevices;        /* per rt group: its devices in view (--device) */
	size_t *rows;                       /* what cells and devices point into */
};

struct ior_report {
	struct ior_report_opts opts;        /* as given (strings borrowed from the caller) */
	struct ior_tables *rt;              /* NULL without IOR_REPORT_TABLES (the CSV needs only the cells) */
	/* every group, device and cell of rt: shown or only there as a peer */
	bool *group_in_view;                /* per rt group */
	bool **cell_in_view;                /* per rt group, per cell */
	struct ior_report_kernel *kernels;  /* host, then version order */
	size_t nkernels;
	size_t nkernel_commits;             /* in-view kernels with a commit recorded */
	struct ior_stored stored;           /* every stored cell, sample and vm boot, and the kernels they name */
	struct ior_report_sample_detail *detail;  /* per sample of stored; NULL unless IOR_REPORT_DETAIL */
	struct ior_report_fill *fills;
	size_t nfills;
	size_t nboots_not_ok;               /* stored boots in view and not "ok" */
	bool boots_tcg;                     /* a boot in view ran under TCG: the figures compare kernels, not devices */
	struct ior_alert *alerts;
	size_t nalerts;
	bool *alert_in_view;
	size_t *alert_order;                /* in-view alerts, most severe first */
	size_t nalert_order;
	/* per rt group, found once so a renderer never walks every alert or cell for every group:
	 * group g's in-view alerts are group_alerts[group_alert_at[g] .. group_alert_at[g + 1]) in
	 * alerts order, its in-view cells with warm-ups likewise in group_warm, in cell order */
	size_t *group_alert_at, *group_alerts;
	size_t *group_warm_at, *group_warm;
	struct ior_series_changes *changes;
	size_t nchanges;
	struct ior_judge_verdict *verdicts;
	size_t nverdicts;
	const char *baseline, *candidate;   /* A and B of the verdicts (kernels unless axis says), NULL without verdicts */
	enum ior_axis axis;
	size_t verdict_only_baseline;       /* baseline cells without candidate samples */
	size_t verdict_unit_mismatch;       /* pairs left out because A and B measure in different units */
	unsigned metrics_judged;            /* IOR_METRIC_BIT of each metric some verdict judged */
	struct ior_judge_pair *pairs;      /* with IOR_REPORT_PAIRS on the kernel axis, in kernel order: the
					       newest while they take IOR_JUDGE_PAIR_VERDICTS comparisons */
	size_t npairs, pairs_total;         /* judged, and all there are */
	bool pairs_baseline;                /* the pairs are kernels against the baseline, not neighbours */
	struct ior_judge_answer *answers;  /* opts.questions, in their order */
	size_t nanswers;
	size_t regressions, improvements, inconclusive, unchanged;
	size_t *regression_order;           /* in-view regressions, largest change first */
	size_t nregression_order;
	struct ior_sched_common *common;    /* per verdict host: the schedulers both kernels offered */
	const char **common_hosts;
	size_t ncommon;
	size_t nnot_ok;                     /* in-view cells with a status other than ok */
	struct ior_report_view view;        /* what is in view, as index lists */
	struct ior_report_headline headline;  /* the kernel answer's choices (with tables) */
	struct ior_sections *sections;      /* the tabular sections, only rows in view (model_sections.c); with tables */
	struct ior_report_bisect *bisects;  /* with IOR_REPORT_BISECT */
	size_t nbisects;
	struct ior_intern *pool;
};

/* What judge/ reads of the report: its tables, stored samples and view (db NULL: the value metric only). */
void ior_report_judge_input(const struct ior_report *r, struct ior_db *db, struct ior_judge_input *in);

/* Builds the model. IOR_ENOTFOUND when a verdict kernel has no samples. */
int ior_report_build(struct ior_report **out, struct ior_db *db, const struct ior_report_opts *o);
void ior_report_free(struct ior_report *r);  /* NULL is a no-op */

/* "regression" for --fail-on: true when a verdict in view is a regression; "alert": a
 * variance alert or a regression in view. */
bool ior_report_has_regression(const struct ior_report *r);
bool ior_report_has_alert(const struct ior_report *r);
/* No sample in view: the filters left nothing. */
bool ior_report_is_empty(const struct ior_report *r);

#endif
