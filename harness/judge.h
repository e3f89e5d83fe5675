/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What `check` and `compare` share: the rows of a verdict's options (--metric, --min-effect,
 * --format), building the verdicts and git bisect run's exit statuses. */
#ifndef IOR_HARNESS_JUDGE_H
#define IOR_HARNESS_JUDGE_H

#include <stdbool.h>

#include "db/db.h"
#include "harness/command.h"
#include "measure/metric.h"
#include "reports/model.h"
#include "reports/render.h"

/* git bisect run: 0 good, 1 bad, 125 skip, and >= 128 aborts the bisection. */
enum { IOR_JUDGE_GOOD = 0, IOR_JUDGE_BAD = 1, IOR_JUDGE_SKIP = 125, IOR_JUDGE_ERROR = 128 };

struct ior_judge_args {
	struct ior_db_filter filter;
	struct ior_report_opts opts;          /* opts.baseline and opts.candidate: A and B */
	const struct ior_renderer *renderer;  /* NULL: the verdict table */
};

void ior_judge_args_init(struct ior_judge_args *a);

/* After the options: the filters into the model's view, verdicts only; IOR_EINVALID when an option
 * only one format takes is wrong (--origin). */
int ior_judge_finish(struct ior_judge_args *a);

/* Builds the verdicts and prints them; the exit status (IOR_JUDGE_*), errors printed. */
int ior_judge_run(struct ior_judge_args *a, struct ior_db *db);

/* Prints the last error and returns IOR_JUDGE_ERROR. */
int ior_judge_fail(void);

/* The rows both commands list, into a struct ior_judge_args at member of type. */
#define IOR_JUDGE_ROW_METRIC(type, member) \
	{ .name = "--metric", .value = IOR_CMD_TEXT, .arg = "NAME[,NAME...]|all", .kind = IOR_CMD_PARSE, \
	  .complete = IOR_CMD_COMPLETE_METRIC, .parse = ior_cmd_parse_metrics, IOR_CMD_AT(type, member.opts.metrics), \
	  .help = "judge these metrics, " IOR_METRIC_HELP_NAMES "; latency, time, CPU and requests per GiB are " \
		  "better lower (default: value and lat_p99_us where the engine records it)" }
#define IOR_JUDGE_ROW_MIN_EFFECT(type, member) \
	{ .name = "--min-effect", .value = IOR_CMD_NUMBER, .arg = "PERCENT", .kind = IOR_CMD_PERCENT, \
	  IOR_CMD_AT(type, member.opts.compare.min_effect), \
	  .help = "a significant change smaller than PERCENT of the baseline's median is no change" }
#define IOR_JUDGE_ROW_ORIGIN(type, member) \
	{ .name = "--origin", .value = IOR_CMD_TEXT, .arg = "NAME", .kind = IOR_CMD_PARSE, \
	  .parse = ior_cmd_parse_origin, IOR_CMD_AT(type, member.opts.origin), .help = IOR_CMD_ORIGIN_HELP }
#define IOR_JUDGE_ROW_FORMAT(type, member) \
	{ .name = "--format", .value = IOR_CMD_CHOICE, .arg = IOR_CMD_FORMAT_ARG, .choices = IOR_CMD_FORMAT_CHOICES, \
	  .kind = IOR_CMD_PARSE, .parse = ior_cmd_parse_format, IOR_CMD_AT(type, member.renderer), \
	  .help = "print the report of the compared cells with its verdicts in this format instead of the verdict " \
		  "table (junit: one test case per compared cell for CI; kcidb: a KCIDB document, a regression a FAIL "\
		  "test with its issue); the exit status is the same" }

#endif
