/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Report renderers: the field report's text layout and JSON, each writing one stream from the model and its alerts. */
#ifndef IOR_REPORTS_REPORT_H
#define IOR_REPORTS_REPORT_H

#include <stdio.h>

#include "reports/alerts.h"
#include "reports/table.h"

/* For each host and kernel (version order) and engine: one row per device and
 * scheduler with one column per repetition, the total, the share of the
 * device's total, '*' on the best scheduler (by the metric's direction), the
 * ratio between devices; then per device min, max and spread; then the alerts. */
int ior_report_text(FILE *out, const struct ior_rt *rt, const struct ior_alert *alerts, size_t nalerts);

/* The same content as one JSON document. */
int ior_report_json(FILE *out, const struct ior_rt *rt, const struct ior_alert *alerts, size_t nalerts);

/* For every cell measured on three or more kernels of one host (version order), the
 * change points of its series: which kernel a change arrived in, its size, its p-value. */
struct ior_cp_opts;
int ior_report_changes(FILE *out, const struct ior_rt *rt, const struct ior_cp_opts *opts);

#endif
