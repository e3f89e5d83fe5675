/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to the report model's files: the steps of ior_report_build. */
#ifndef IOR_REPORTS_MODEL_INTERNAL_H
#define IOR_REPORTS_MODEL_INTERNAL_H

#include "reports/intern.h"
#include "reports/model.h"

bool ior_report_cell_matches_view(const struct ior_report_opts *o, const char *kernel, const char *device,
				  const char *scheduler, const char *engine);

/* model_load.c: r->stored.cells, values, reps (and detail) from the database. */
int ior_report_load(struct ior_report *r, struct ior_db *db, const struct ior_db_scan_filter *f);
/* model_load.c: the VM boots of `vm run`. */
int ior_report_load_boots(struct ior_report *r, struct ior_db *db);
/* model_kernels.c: r->kernels, with offered lists when db is not NULL. */
int ior_report_kernels(struct ior_report *r, struct ior_db *db);
/* model_judge.c: change points of every in-view series of three kernels or more. */
int ior_report_changes_build(struct ior_report *r);
/* model_judge.c: baseline against candidate on every in-view series (db for the offered lists), the
 * kernel pairs the answer judges and the answers to opts.questions, as opts.parts asks. */
int ior_report_judge(struct ior_report *r, struct ior_db *db);
/* model_bisect.c: the bisections, each commit's samples summed up to their median. */
int ior_report_bisects_build(struct ior_report *r, struct ior_db *db);
void ior_report_bisects_free(struct ior_report *r);
/* model_groups.c: each rt group's in-view alerts and warm-up cells, for the renderers. */
int ior_report_groups_index(struct ior_report *r);
/* model_best.c: which scheduler of each device is significantly the best. */
int ior_report_best_build(struct ior_report *r);

/* model_view.c: r->view, from the in_view marks of everything built before. */
int ior_report_view_build(struct ior_report *r);
void ior_report_view_free(struct ior_report_view *v);
/* model_answer.c: r->headline, from the kernels, pairs and change points built before. */
int ior_report_headline_build(struct ior_report *r);
void ior_report_headline_free(struct ior_report_headline *h);

/* model_sections.c: r->sections from everything built before. */
int ior_report_sections_build(struct ior_report *r);

#endif
