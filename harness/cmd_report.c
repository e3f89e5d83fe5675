/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress report`: builds the report model from the database and the filters and prints it with the renderer --format names. */
#include "common/error.h"
#include "db/db.h"
#include "harness/commands.h"
#include "harness/questions.h"
#include "options/option.h"
#include "reports/model.h"
#include "reports/render.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* --fail-on's condition held: distinct from 1 (error) and 2 (bad usage). */
enum { REPORT_FAILED_ON = 3 };

enum fail_on { FAIL_NEVER, FAIL_REGRESSION, FAIL_ALERT };

struct report_args {
	struct ior_report_opts opts;
	struct ior_db_filter filter;
	const struct ior_renderer *renderer;
	const char *output;
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

static int parse_value(struct report_args *a, const char *key, const char *v)
{
	if (!strcmp(key, "--format"))
		return ior_renderer_find(&a->renderer, v) ? ior_error_wrap(IOR_EINVALID, "--format") : IOR_OK;
	if (!strcmp(key, "--alert-spread"))
		return ior_parse_percent(v, &a->opts.alerts.floor) ? ior_error_wrap(IOR_EINVALID, "--alert-spread") : IOR_OK;
	if (!strcmp(key, "--min-effect"))
		return ior_parse_percent(v, &a->opts.compare.min_effect) ? ior_error_wrap(IOR_EINVALID, "--min-effect")
									  : IOR_OK;
	if (!strcmp(key, "--since")) {
		if (!iso_time(v))
			return ior_error_set(IOR_EINVALID, "--since: '%s' is not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM)", v);
		a->opts.since = v;
	} else if (!strcmp(key, "--fail-on")) {
		if (strcmp(v, "regression") && strcmp(v, "alert"))
			return ior_error_set(IOR_EINVALID, "--fail-on: '%s' is not regression or alert", v);
		a->fail_on = !strcmp(v, "regression") ? FAIL_REGRESSION : FAIL_ALERT;
	} else if (!strcmp(key, "-o") || !strcmp(key, "--output")) {
		a->output = v;
	} else if (!strcmp(key, "--origin")) {
		if (!*v || strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(v))
			return ior_error_set(IOR_EINVALID, "--origin: '%s' is not a KCIDB origin (lowercase letters, digits "
					     "and _)", v);
		a->opts.origin = v;
	} else if (!strcmp(key, "--baseline")) {
		a->opts.baseline = v;
	} else if (!strcmp(key, "--candidate")) {
		a->opts.candidate = v;
	} else if (!strcmp(key, "--metric")) {
		if (ior_metric_parse_list(&a->opts.metrics, v))
			return ior_error_wrap(IOR_EINVALID, "--metric");
	}
	return IOR_OK;
}

static int parse_args(struct report_args *a, int argc, char **argv)
{
	static const char *const keys[] = { "--format", "--alert-spread", "--min-effect", "--since", "--fail-on",
					    "-o", "--output", "--baseline", "--candidate", "--metric", "--origin" };
	ior_report_opts_default(&a->opts);
	ior_renderer_find(&a->renderer, "text");
	for (int i = 1; i < argc; i++) {
		bool missing = false, matched = false;
		if (ior_cmd_filter_option(argc, argv, &i, IOR_FILTER_HOST | IOR_FILTER_KERNEL | IOR_FILTER_DEVICE |
					  IOR_FILTER_SCHEDULER | IOR_FILTER_ENGINE, &a->filter, &missing))
			continue;
		if (!missing && !strcmp(argv[i], "--alerts")) {
			a->opts.alerts_only = true;
			continue;
		}
		for (size_t k = 0; !missing && !matched && k < sizeof(keys) / sizeof(keys[0]); k++) {
			const char *v = ior_cmd_option_value(argc, argv, &i, keys[k], &missing);
			if (v && parse_value(a, keys[k], v))
				return IOR_EINVALID;
			matched = v != NULL;
		}
		if (matched)
			continue;
		if (missing)
			return ior_error_set(IOR_EINVALID, "option '%s' needs a value", argv[i]);
		return ior_cmd_unknown_argument(&ior_cmd_report, argv[i]);
	}
	a->opts.host = a->filter.host;
	a->opts.kernel = a->filter.kernel;
	a->opts.device = a->filter.device;
	a->opts.scheduler = a->filter.scheduler;
	a->opts.engine = a->filter.engine;
	a->opts.parts = a->renderer->parts | (a->fail_on == FAIL_ALERT ? IOR_REPORT_ALERTS : 0) |
			(a->fail_on != FAIL_NEVER ? IOR_REPORT_VERDICTS : 0) |
			(a->opts.alerts_only ? IOR_REPORT_ALERTS | IOR_REPORT_VERDICTS : 0);
	a->opts.alerts_fail = a->fail_on == FAIL_ALERT;
	if (a->opts.origin && strcmp(a->renderer->name, "kcidb"))
		return ior_error_set(IOR_EINVALID, "--origin needs --format kcidb");
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

/* -o FILE is written beside it under a name mkstemp makes (O_EXCL: a link planted at a name
 * we could guess is never followed) and renamed at the end: a failed report leaves no half file,
 * and the rename replaces a link at FILE rather than writing through it. */
static int render_to(const struct report_args *a, const struct ior_report *r)
{
	if (!a->output) {
		fast_stream(stdout);
		return ior_render(a->renderer, stdout, r);
	}
	char tmp[4096];
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", a->output) >= (int)sizeof(tmp))
		return ior_error_set(IOR_EINVALID, "cannot write '%s': the name is too long", a->output);
	int fd = mkstemp(tmp);
	if (fd < 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", a->output);
	mode_t mask = umask(0);
	umask(mask);
	FILE *f = fchmod(fd, 0666 & ~mask) == 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		int rc = ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", tmp);
		close(fd);
		unlink(tmp);
		return rc;
	}
	fast_stream(f);
	int rc = ior_render(a->renderer, f, r);
	if (fclose(f) && !rc)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", a->output);
	if (!rc && rename(tmp, a->output))
		rc = ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", a->output);
	if (rc)
		unlink(tmp);
	return rc;
}

static int cmd_report(int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	struct report_args a = { 0 };
	ior_error_clear();
	if (parse_args(&a, argc, argv)) {
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
	int rc = render_to(&a, r);
	int status = rc ? 1 : 0;
	if (rc)
		ior_cmd_error("cannot render the report");
	else if ((a.fail_on == FAIL_REGRESSION && ior_report_has_regression(r)) ||
		 (a.fail_on == FAIL_ALERT && ior_report_has_alert(r)))
		status = REPORT_FAILED_ON;
	ior_report_free(r);
	ior_questions_free(&q);
	return status;
}

static const struct ior_cmd_opt report_options[] = {
	{ .name = "--format", .value = IOR_CMD_CHOICE, .arg = "text|md|html|json|junit|csv|kcidb",
	  .choices = "text md html json junit csv kcidb",
	  .help = "text tables (default); Markdown to paste into a mail; one self-contained HTML page with "
		  "charts; JSON (reports/report.schema.json); JUnit XML (a regression fails, inconclusive is "
		  "skipped); CSV of every raw sample with its context; a KCIDB I/O v5.3 document for KernelCI's "
		  "common database" },
	{ .name = "--origin", .value = IOR_CMD_TEXT, .arg = "NAME",
	  .help = "with --format kcidb: the submitting CI system's name (lowercase letters, digits, _; default "
		  "ioregress), the start of every id; the same database always gives the same ids" },
	{ .name = "--output", .alias = "-o", .value = IOR_CMD_FILE, .arg = "FILE",
	  .help = "write the report to FILE (whole or not at all) instead of standard output" },
	IOR_CMD_ROW_HOST,
	IOR_CMD_ROW_KERNEL,
	IOR_CMD_ROW_DEVICE,
	IOR_CMD_ROW_SCHEDULER,
	IOR_CMD_ROW_ENGINE,
	{ .name = "--since", .value = IOR_CMD_TEXT, .arg = "DATE",
	  .help = "only runs started on or after DATE (YYYY-MM-DD or YYYY-MM-DDTHH:MM, UTC)" },
	{ .name = "--alerts", .value = IOR_CMD_FLAG,
	  .help = "only variance alerts and regressions, most severe first (and the change points found)" },
	{ .name = "--baseline", .value = IOR_CMD_TEXT, .arg = "KERNEL",
	  .help = "add verdicts: every cell of the candidate kernel against this one, as check judges them" },
	{ .name = "--candidate", .value = IOR_CMD_TEXT, .arg = "KERNEL",
	  .help = "the kernel judged against --baseline (default: each host's newest other kernel)" },
	{ .name = "--metric", .value = IOR_CMD_TEXT, .arg = "NAME[,NAME...]|all",
	  .help = "the metrics the verdicts (--baseline and the matrix's declared comparisons) judge, named as "
		  "sample_view's columns (value, lat_p99_us, wall_s, usr_s, sys_s, ...) or derived (cpu_s, "
		  "cpu_s_per_gib, req_kib, merge_pct, req_per_gib); default: value and lat_p99_us where the engine records it" },
	{ .name = "--fail-on", .value = IOR_CMD_CHOICE, .arg = "regression|alert", .choices = "regression alert",
	  .help = "exit 3 when the report holds a regression (needs --baseline), or a regression or a variance "
		  "alert: for CI" },
	{ .name = "--alert-spread", .value = IOR_CMD_NUMBER, .arg = "PERCENT",
	  .help = "flag a cell or device whose (max-min)/min spread exceeds PERCENT (default 10%)" },
	{ .name = "--min-effect", .value = IOR_CMD_NUMBER, .arg = "PERCENT",
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
