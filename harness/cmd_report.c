/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress report`: builds the report model from the database and the filters and prints it with
 * the renderer --format names. */
#include "common/error.h"
#include "common/named_file.h"
#include "db/db.h"
#include "harness/command_list.h"
#include "harness/questions.h"
#include "measure/metric.h"
#include "reports/model.h"
#include "reports/render.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* --fail-on's condition held: distinct from 1 (error) and 2 (bad usage). */
enum { REPORT_FAILED_ON = 3 };

enum fail_on { FAIL_NEVER, FAIL_REGRESSION, FAIL_ALERT };

struct report_args {
	struct ior_report_opts opts;
	struct ior_db_filter filter;
	const struct ior_renderer *renderer;
	const char *output;
	unsigned width;            /* --width: prose wrapped at this column; 0 for none */
	const char *fail_on_word;  /* --fail-on */
	enum fail_on fail_on;
};

/* YYYY-MM-DD, optionally followed by THH:MM[:SS[.sss]][Z]: compared as text with the stored UTC times. */
static bool iso_time(const char *s)
{
	static const char shape[] = "dddd-dd-dd";
	for (size_t i = 0; i < sizeof(shape) - 1; i++)
		if (shape[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != shape[i])
			return false;
	const char *t = s + 10;
	if (!*t)
		return true;
	if (*t != 'T' || !isdigit((unsigned char)t[1]) || !isdigit((unsigned char)t[2]) || t[3] != ':' ||
	    !isdigit((unsigned char)t[4]) || !isdigit((unsigned char)t[5]))
		return false;
	for (t += 6; *t; t++)
		if (!isdigit((unsigned char)*t) && !strchr(":.Z", *t))
			return false;
	return true;
}

/* The shape's numbers on the calendar and the clock: 2026-13-45 and 2026-02-30T25:61 have the shape
 * of a time and would compare as text with no meaning. */
static bool real_time(const char *s)
{
	int y = 0, mo = 0, d = 0, h = 0, mi = 0;
	double sec = 0;
	if (sscanf(s, "%4d-%2d-%2d", &y, &mo, &d) != 3)
		return false;
	if (s[10] == 'T' && sscanf(s + 11, "%2d:%2d:%lf", &h, &mi, &sec) < 2)
		return false;
	struct tm tm = { .tm_year = y - 1900, .tm_mon = mo - 1, .tm_mday = d };
	struct tm norm = tm;
	(void)timegm(&norm); /* moves 2026-02-30 to March: a day the month does not have */
	return mo >= 1 && mo <= 12 && d >= 1 && norm.tm_mon == tm.tm_mon && norm.tm_mday == tm.tm_mday && h < 24 &&
	       mi < 60 && sec >= 0 && sec < 61;
}

static int parse_since(void *field, const char *v)
{
	if (!iso_time(v) || !real_time(v))
		return ior_error_set(IOR_EINVALID, "'%s' is not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM)", v);
	*(const char **)field = v;
	return IOR_OK;
}

/* The checks between report's options, and what they imply for the model. */
static int check_args(struct report_args *a)
{
	a->fail_on = !a->fail_on_word ? FAIL_NEVER : !strcmp(a->fail_on_word, "regression") ? FAIL_REGRESSION : FAIL_ALERT;
	a->opts.host = a->filter.host;
	a->opts.kernel = a->filter.kernel;
	a->opts.device = a->filter.device;
	a->opts.scheduler = a->filter.scheduler;
	a->opts.engine = a->filter.engine;
	a->opts.parts = a->renderer->parts | (a->fail_on == FAIL_ALERT ? IOR_REPORT_ALERTS : 0) |
			(a->fail_on != FAIL_NEVER ? IOR_REPORT_VERDICTS : 0) |
			(a->opts.alerts_only ? IOR_REPORT_ALERTS | IOR_REPORT_VERDICTS : 0);
	a->opts.alerts_fail = a->fail_on == FAIL_ALERT;
	if (ior_render_check_opts(a->renderer, &a->opts))
		return IOR_EINVALID;
	if (a->width && a->renderer->wrap == IOR_WRAP_NONE)
		return ior_error_set(IOR_EINVALID, "--width wraps the prose of the text and md formats, not %s",
				     a->renderer->name);
	if (a->opts.candidate && !a->opts.baseline)
		return ior_error_set(IOR_EINVALID, "--candidate needs --baseline");
	if (a->fail_on == FAIL_REGRESSION && !a->opts.baseline)
		return ior_error_set(IOR_EINVALID, "--fail-on regression needs --baseline KERNEL");
	return IOR_OK;
}

/* A report is tens of megabytes at a million samples: one thread writes it, so stdio need not
 * lock per character, and a large buffer saves write calls. */
static void fast_stream(FILE *f)
{
	__fsetlocking(f, FSETLOCKING_BYCALLER);
	setvbuf(f, NULL, _IOFBF, 1 << 20);
}

/* -o FILE through common/named_file.h: a regular file is replaced whole at the end (a failed
 * report leaves no half file), a device, a FIFO or a link stays what it is. */
static int render_to(const struct report_args *a, const struct ior_report *r)
{
	if (!a->output) {
		fast_stream(stdout);
		return ior_render_width(a->renderer, stdout, r, a->width);
	}
	struct ior_outfile out;
	int rc = ior_outfile_open(&out, a->output, 0666);
	if (rc)
		return rc;
	fast_stream(out.f);
	return ior_outfile_close(&out, ior_render_width(a->renderer, out.f, r, a->width));
}

static int cmd_report(int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	struct report_args a = { 0 };
	ior_report_opts_default(&a.opts);
	ior_renderer_find(&a.renderer, "text");
	struct ior_cmd_parsed p;
	int status = ior_cmd_parse_or_usage(&ior_cmd_report, argc, argv, &a, &p);
	if (status)
		return status;
	if (check_args(&a)) {
		ior_cmd_error_last();
		return 2;
	}
	struct ior_questions q = { 0 };
	if ((a.opts.parts & IOR_REPORT_QUESTIONS) && ior_questions_load(&q, ctx->db, a.opts.host)) {
		ior_cmd_error("cannot read the declared comparisons from '%s'", ctx->db_path);
		return 1;
	}
	a.opts.questions = q.q;
	a.opts.nquestions = q.n;
	struct ior_report *r = NULL;
	if (ior_report_build(&r, ctx->db, &a.opts)) {
		ior_questions_free(&q);
		ior_cmd_error("cannot build the report from '%s'", ctx->db_path);
		return 1;
	}
	/* a filter naming what the database does not hold is a mistake ("2.6.3" for 2.6.33), not an
	 * empty answer: said with what it holds, before anything is written */
	if (ior_report_is_empty(r) && ior_db_filter_check(ctx->db, &a.filter)) {
		ior_cmd_error_last();
		ior_report_free(r);
		ior_questions_free(&q);
		return 1;
	}
	int rc = render_to(&a, r);
	status = rc ? 1 : 0;
	if (rc)
		ior_cmd_error("cannot render the report");
	else if ((a.fail_on == FAIL_REGRESSION && ior_report_has_regression(r)) ||
		 (a.fail_on == FAIL_ALERT && ior_report_has_alert(r)))
		status = REPORT_FAILED_ON;
	ior_report_free(r);
	ior_questions_free(&q);
	return status;
}

#define REPORT_AT(member) IOR_CMD_AT(struct report_args, member)
static const struct ior_cmd_opt report_options[] = {
	{ .name = "--format", .value = IOR_CMD_CHOICE, .arg = IOR_CMD_FORMAT_ARG, .choices = IOR_CMD_FORMAT_CHOICES,
	  .kind = IOR_CMD_PARSE, .parse = ior_cmd_parse_format, REPORT_AT(renderer),
	  .help = "text tables (default; with --width, for a mail); Markdown for a merge request or an issue; one self-contained HTML page with "
		  "charts; JSON (reports/report.schema.json); JUnit XML (a regression fails, inconclusive is "
		  "skipped); CSV of every raw sample with its context; a KCIDB I/O v5.3 document for KernelCI's "
		  "common database" },
	{ .name = "--origin", .value = IOR_CMD_TEXT, .arg = "NAME", .kind = IOR_CMD_PARSE, .parse = ior_cmd_parse_origin,
	  REPORT_AT(opts.origin), .help = IOR_CMD_ORIGIN_HELP },
	{ .name = "--output", .alias = "-o", .value = IOR_CMD_FILE, .arg = "FILE", REPORT_AT(output),
	  .help = "write the report to FILE (whole or not at all) instead of standard output" },
	{ .name = "--width", .value = IOR_CMD_NUMBER, .arg = "COLUMNS", .kind = IOR_CMD_COUNT, .min = 40, .max = 1000,
	  REPORT_AT(width),
	  .help = "wrap the prose of the text and md formats at COLUMNS (72 for a mail to a kernel list); tables "
		  "stay whole" },
	IOR_CMD_ROW_HOST(struct report_args, filter),
	IOR_CMD_ROW_KERNEL(struct report_args, filter),
	IOR_CMD_ROW_DEVICE(struct report_args, filter),
	IOR_CMD_ROW_SCHEDULER(struct report_args, filter),
	IOR_CMD_ROW_ENGINE(struct report_args, filter),
	{ .name = "--since", .value = IOR_CMD_TEXT, .arg = "DATE", .kind = IOR_CMD_PARSE, .parse = parse_since,
	  REPORT_AT(opts.since),
	  .help = "only runs started on or after DATE (YYYY-MM-DD or YYYY-MM-DDTHH:MM, UTC)" },
	{ .name = "--alerts", .value = IOR_CMD_FLAG, REPORT_AT(opts.alerts_only),
	  .help = "only variance alerts and regressions, most severe first (and the change points found)" },
	{ .name = "--baseline", .value = IOR_CMD_TEXT, .arg = "KERNEL", .complete = IOR_CMD_COMPLETE_RELEASE, REPORT_AT(opts.baseline),
	  .help = "add verdicts: every cell of the candidate kernel against this one, as check judges them" },
	{ .name = "--candidate", .value = IOR_CMD_TEXT, .arg = "KERNEL", .complete = IOR_CMD_COMPLETE_RELEASE, REPORT_AT(opts.candidate),
	  .help = "the kernel judged against --baseline (default: each host's newest other kernel)" },
	{ .name = "--metric", .value = IOR_CMD_TEXT, .arg = "NAME[,NAME...]|all", .kind = IOR_CMD_PARSE,
	  .complete = IOR_CMD_COMPLETE_METRIC, .parse = ior_cmd_parse_metrics, REPORT_AT(opts.metrics),
	  .help = "the metrics the verdicts (--baseline and the matrix's declared comparisons) judge, "
		  IOR_METRIC_HELP_NAMES "; default: value and lat_p99_us where the engine records it" },
	{ .name = "--fail-on", .value = IOR_CMD_CHOICE, .arg = "regression|alert", .choices = "regression alert",
	  REPORT_AT(fail_on_word),
	  .help = "exit 3 when the report holds a regression (needs --baseline), or a regression or a variance "
		  "alert: for CI" },
	{ .name = "--alert-spread", .value = IOR_CMD_NUMBER, .arg = "PERCENT", .kind = IOR_CMD_PERCENT,
	  REPORT_AT(opts.alerts.floor),
	  .help = "flag a cell or device whose (max-min)/min spread exceeds PERCENT (default 10%)" },
	{ .name = "--min-effect", .value = IOR_CMD_NUMBER, .arg = "PERCENT", .kind = IOR_CMD_PERCENT,
	  REPORT_AT(opts.compare.min_effect),
	  .help = "with --baseline: a significant change smaller than PERCENT of the baseline's median is no change" },
	{ 0 },
};

const struct ior_command ior_cmd_report = {
	.name = "report",
	.fn = cmd_report,
	.flags = IOR_CMD_NEEDS_DB | IOR_CMD_DB_EXISTS,
	.error_status = 1,
	.summary = "report the stored samples: tables, spreads, alerts, change points, verdicts",
	.description = "Builds one report from the database and prints it in the chosen format; every format "
		       "carries the same facts. Per host and kernel (version order) and engine, the field "
		       "report's tables: each device's values per scheduler with totals, shares, the best "
		       "scheduler and min-max spreads; the schedulers each kernel offered and what changed; "
		       "the scratch fills; every cell that did not run, with its reason; variance alerts; "
		       "change points over the kernels; with --baseline, verdicts as check gives them. Alerts "
		       "and change points compare a device with the other devices and kernels of its host, so "
		       "they are computed before the other filters apply.\n\n"
		       "Exit status: 0, 1 on an error, 2 on a bad argument or a missing database, 3 when "
		       "--fail-on's condition holds.",
	.options = report_options,
};
