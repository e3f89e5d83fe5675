/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress report`: the stored samples as the field report's tables, with spreads and variance alerts, as text or JSON. */
#include "common/error.h"
#include "db/db.h"
#include "harness/commands.h"
#include "options/option.h"
#include "reports/alerts.h"
#include "reports/changepoint.h"
#include "reports/report.h"
#include "reports/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct report_args {
	struct ior_db_filter filter;
	bool json;
	struct ior_alert_opts alerts;
};

static int parse_args(struct report_args *a, int argc, char **argv)
{
	ior_alert_opts_default(&a->alerts);
	for (int i = 1; i < argc; i++) {
		const char *v;
		bool missing = false;
		if (ior_cmd_filter_option(argc, argv, &i, IOR_FILTER_HOST | IOR_FILTER_KERNEL | IOR_FILTER_DEVICE,
					  &a->filter, &missing))
			continue;
		if ((v = ior_cmd_option_value(argc, argv, &i, "--format", &missing))) {
			if (strcmp(v, "text") && strcmp(v, "json"))
				return ior_error_set(IOR_EINVALID, "--format: '%s' is not text or json", v);
			a->json = !strcmp(v, "json");
		} else if ((v = ior_cmd_option_value(argc, argv, &i, "--alert-spread", &missing))) {
			if (ior_parse_percent(v, &a->alerts.floor))
				return ior_error_wrap(IOR_EINVALID, "--alert-spread");
		} else if (missing) {
			return ior_error_set(IOR_EINVALID, "option '%s' needs a value", argv[i]);
		} else {
			return ior_cmd_unknown_argument(&ior_cmd_report, argv[i]);
		}
	}
	return IOR_OK;
}

/* Alerts compare a device with other devices and other kernels, so they are
 * computed over every kernel and device of the host, then kept to the filter.
 * The alerts point into ctx_rows, which the caller frees after rendering. */
static int context_alerts(const struct report_args *a, struct ior_db *db, struct ior_db_row **ctx_rows,
			  size_t *nctx, struct ior_alert **alerts, size_t *n)
{
	struct ior_db_filter f = { .host = a->filter.host };
	struct ior_rt *rt = NULL;
	int rc = ior_db_samples(db, &f, ctx_rows, nctx);
	if (!rc)
		rc = ior_rt_build(&rt, *ctx_rows, *nctx);
	if (!rc)
		rc = ior_alerts_compute(alerts, n, rt, &a->alerts);
	ior_rt_free(rt);
	size_t kept = 0;
	for (size_t i = 0; !rc && i < *n; i++) {
		if (a->filter.device && strcmp((*alerts)[i].device, a->filter.device))
			continue;
		(*alerts)[kept++] = (*alerts)[i];
	}
	if (!rc)
		*n = kept;
	return rc;
}

static int render(const struct report_args *a, struct ior_db *db, struct ior_db_row *rows, size_t n)
{
	struct ior_rt *rt = NULL;
	struct ior_alert *alerts = NULL;
	struct ior_db_row *ctx_rows = NULL;
	size_t nalerts = 0, nctx = 0;
	int rc = ior_rt_build(&rt, rows, n);
	if (!rc)
		rc = context_alerts(a, db, &ctx_rows, &nctx, &alerts, &nalerts);
	if (!rc)
		rc = a->json ? ior_report_json(stdout, rt, alerts, nalerts) : ior_report_text(stdout, rt, alerts, nalerts);
	if (!rc && !a->json) {
		struct ior_cp_opts cp;
		ior_cp_opts_default(&cp);
		rc = ior_report_changes(stdout, rt, &cp);
	}
	free(alerts);
	ior_rt_free(rt);
	ior_db_rows_free(ctx_rows, nctx);
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
	struct ior_db_row *rows = NULL;
	size_t n = 0;
	if (ior_db_samples(ctx->db, &a.filter, &rows, &n)) {
		ior_cmd_error("cannot read samples from '%s'", ctx->db_path);
		return 1;
	}
	int rc = render(&a, ctx->db, rows, n);
	ior_db_rows_free(rows, n);
	if (rc) {
		ior_cmd_error("cannot render the report");
		return 1;
	}
	return 0;
}

static const struct ior_cmd_opt report_options[] = {
	{ .name = "--format", .value = IOR_CMD_CHOICE, .arg = "text|json", .choices = "text json",
	  .help = "text tables (default) or one JSON document" },
	IOR_CMD_ROW_HOST,
	IOR_CMD_ROW_KERNEL,
	IOR_CMD_ROW_DEVICE,
	{ .name = "--alert-spread", .value = IOR_CMD_NUMBER, .arg = "PERCENT",
	  .help = "flag a cell or device whose (max-min)/min spread exceeds PERCENT (default 10%)" },
	{ 0 },
};

const struct ior_command ior_cmd_report = {
	.name = "report",
	.fn = cmd_report,
	.flags = IOR_CMD_NEEDS_DB | IOR_CMD_DB_EXISTS,
	.error_status = 1,
	.summary = "report the stored samples: per kernel tables, spreads and alerts",
	.description = "Prints, per host and kernel, the field report's tables: each device's value per "
		       "scheduler and engine with totals, shares and min-max spreads, then variance alerts and "
		       "change points over the kernels in version order. Alerts compare a device with the other "
		       "devices and kernels of its host, so they are computed before the filters apply.",
	.options = report_options,
};
