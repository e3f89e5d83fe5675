/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress check`: a candidate kernel against a baseline, cell by cell, with the evidence table and git bisect run's exit statuses. */
#include "common/error.h"
#include "kernel/sched_history.h"
#include "db/db.h"
#include "harness/commands.h"
#include "options/option.h"
#include "reports/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

/* git bisect run: 0 good, 1 bad, 125 skip, and >= 128 aborts the bisection. */
enum { CHECK_GOOD = 0, CHECK_BAD = 1, CHECK_SKIP = 125, CHECK_ERROR = 128 };

struct check_args {
	const char *baseline, *candidate;
	struct ior_db_filter filter;
	struct ior_compare_opts cmp;
	struct utsname uts;
};

static int parse_args(struct check_args *a, int argc, char **argv)
{
	ior_compare_opts_default(&a->cmp);
	for (int i = 1; i < argc; i++) {
		const char *v;
		bool missing = false;
		/* the kernels are --baseline and --candidate, so --kernel is not a filter here */
		if (ior_cmd_filter_option(argc, argv, &i,
					  IOR_FILTER_HOST | IOR_FILTER_DEVICE | IOR_FILTER_SCHEDULER | IOR_FILTER_ENGINE,
					  &a->filter, &missing))
			continue;
		if ((v = ior_cmd_option_value(argc, argv, &i, "--baseline", &missing)))
			a->baseline = v;
		else if ((v = ior_cmd_option_value(argc, argv, &i, "--candidate", &missing)))
			a->candidate = v;
		else if ((v = ior_cmd_option_value(argc, argv, &i, "--min-effect", &missing))) {
			if (ior_parse_percent(v, &a->cmp.min_effect))
				return ior_error_wrap(IOR_EINVALID, "--min-effect");
		} else if (missing)
			return ior_error_set(IOR_EINVALID, "option '%s' needs a value", argv[i]);
		else
			return ior_cmd_unknown_argument(&ior_cmd_check, argv[i]);
	}
	if (!a->baseline)
		return ior_error_set(IOR_EINVALID, "'check' needs --baseline KERNEL");
	if (!a->candidate) {
		if (uname(&a->uts))
			return ior_error_set(IOR_ERROR, "cannot read the running kernel's release");
		a->candidate = a->uts.release;
	}
	if (!strcmp(a->baseline, a->candidate))
		return ior_error_set(IOR_EINVALID, "baseline and candidate are the same kernel '%s'", a->baseline);
	return IOR_OK;
}

static int load(struct ior_db *db, const struct check_args *a, const char *kernel, const char *role,
		struct ior_db_row **rows, size_t *n)
{
	struct ior_db_filter f = a->filter;
	f.kernel = kernel;
	if (ior_db_samples(db, &f, rows, n))
		return IOR_ERROR;
	if (*n == 0) {
		ior_db_rows_free(*rows, *n);
		*rows = NULL;
		return ior_error_set(IOR_ENOTFOUND, "no samples for %s kernel '%s'%s", role, kernel,
				     a->filter.host || a->filter.device || a->filter.scheduler || a->filter.engine
					     ? " matching the filters" : "");
	}
	return IOR_OK;
}

static bool same_cell(const struct ior_db_row *x, const struct ior_db_row *y)
{
	return !strcmp(x->host, y->host) && !strcmp(x->device, y->device) && !strcmp(x->scheduler, y->scheduler) &&
	       !strcmp(x->engine, y->engine) && !strcmp(x->params ? x->params : "", y->params ? y->params : "");
}

/* Values of every row of rows[] in the same cell as key. */
static size_t values_of(double *out, size_t cap, const struct ior_db_row *rows, size_t n, const struct ior_db_row *key)
{
	size_t k = 0;
	for (size_t i = 0; i < n && k < cap; i++)
		if (same_cell(&rows[i], key))
			out[k++] = rows[i].value;
	return k;
}

static bool seen_before(const struct ior_db_row *rows, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (same_cell(&rows[j], &rows[i]))
			return true;
	return false;
}

static void print_header(const struct check_args *a)
{
	printf("baseline %s, candidate %s: alpha %g, minimum effect %.1f%%\n", a->baseline, a->candidate,
	       a->cmp.alpha, a->cmp.min_effect * 100);
	printf("%-12s %-12s %-12s %-10s %3s %3s %10s %10s %8s %18s %9s %9s  %s\n", "host", "device", "scheduler",
	       "engine", "nA", "nB", "median A", "median B", "change", "95% CI", "p", "HL shift", "verdict");
}

static void print_row(const struct ior_db_row *r, const struct ior_comparison *c)
{
	char ci[40];
	snprintf(ci, sizeof(ci), "%+.1f%%..%+.1f%%", (c->ratio_lo - 1) * 100, (c->ratio_hi - 1) * 100);
	printf("%-12s %-12s %-12s %-10s %3zu %3zu %10.2f %10.2f %+7.1f%% %18s %9.3g %+9.2f  %s: %s\n", r->host,
	       r->device, r->scheduler, r->engine, c->na, c->nb, c->median_a, c->median_b, (c->ratio - 1) * 100, ci,
	       c->mw.p, c->hl_shift, ior_verdict_name(c->verdict), c->reason);
}

/* Compares every cell present on both kernels; returns the exit status. */
static int compare_all(const struct check_args *a, struct ior_db_row *base, size_t nb, struct ior_db_row *cand,
		       size_t nc)
{
	enum { CAP = 4096 };
	double *va = malloc(CAP * sizeof(*va)), *vb = malloc(CAP * sizeof(*vb));
	size_t compared = 0, regressions = 0, unsure = 0, only = 0;
	int status = CHECK_ERROR;
	if (!va || !vb)
		goto out;
	print_header(a);
	for (size_t i = 0; i < nb; i++) {
		if (seen_before(base, i))
			continue;
		size_t ka = values_of(va, CAP, base, nb, &base[i]), kb = values_of(vb, CAP, cand, nc, &base[i]);
		if (!kb) {
			only++;
			continue;
		}
		struct ior_compare_opts o = a->cmp;
		o.higher_is_better = base[i].higher_is_better;
		struct ior_comparison c;
		if (ior_compare(&c, va, ka, vb, kb, &o)) {
			ior_cmd_error("cannot compare '%s' %s %s", base[i].device, base[i].scheduler, base[i].engine);
			goto out;
		}
		print_row(&base[i], &c);
		compared++;
		regressions += c.verdict == IOR_VERDICT_REGRESSION;
		unsure += c.verdict == IOR_VERDICT_INCONCLUSIVE;
	}
	if (!compared) {
		ior_error_clear();
		ior_cmd_error("no cell was measured on both '%s' and '%s'", a->baseline, a->candidate);
		goto out;
	}
	if (only)
		printf("%zu baseline cell(s) have no candidate samples and were not compared\n", only);
	status = regressions ? CHECK_BAD : unsure ? CHECK_SKIP : CHECK_GOOD;
	printf("%zu cell(s) compared: %zu regression(s), %zu inconclusive: %s\n", compared, regressions, unsure,
	       status == CHECK_BAD ? "bad (exit 1)" : status == CHECK_SKIP ? "skip (exit 125)" : "good (exit 0)");
out:
	free(va);
	free(vb);
	return status;
}

/* The field tester dropped a vanished scheduler by hand to keep tables comparable: here the
 * comparison covers the schedulers both kernels offered, and says what it left out and why. */
static void print_left_out(struct ior_db *db, const struct check_args *a, const struct ior_db_row *base, size_t nb)
{
	for (size_t i = 0; i < nb; i++) {
		bool host_seen = false;
		for (size_t j = 0; j < i && !host_seen; j++)
			host_seen = strcmp(base[j].host, base[i].host) == 0;
		if (host_seen)
			continue;
		char *off_a = NULL, *off_b = NULL;
		if (ior_db_offered(db, base[i].host, a->baseline, &off_a) == IOR_OK &&
		    ior_db_offered(db, base[i].host, a->candidate, &off_b) == IOR_OK && off_a && off_b) {
			const char *kernels[] = { a->baseline, a->candidate };
			const char *offered[] = { off_a, off_b };
			struct ior_sched_common c;
			if (ior_sched_common_set(&c, kernels, offered, 2) == IOR_OK && c.n_left_out) {
				printf("%s: schedulers offered by both kernels: %s\n", base[i].host, c.common);
				for (size_t k = 0; k < c.n_left_out; k++)
					printf("  left out %s: %s\n", c.left_out[k].name, c.left_out[k].reason);
			}
		}
		free(off_a);
		free(off_b);
	}
}

static int cmd_check(int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	struct check_args a = { 0 };
	ior_error_clear();
	if (parse_args(&a, argc, argv)) {
		ior_cmd_error_last();
		return CHECK_ERROR;
	}
	struct ior_db_row *base = NULL, *cand = NULL;
	size_t nb = 0, nc = 0;
	int status = CHECK_ERROR;
	if (load(ctx->db, &a, a.baseline, "baseline", &base, &nb) ||
	    load(ctx->db, &a, a.candidate, "candidate", &cand, &nc)) {
		ior_cmd_error_last();
	} else {
		status = compare_all(&a, base, nb, cand, nc);
		if (status != CHECK_ERROR)
			print_left_out(ctx->db, &a, base, nb);
	}
	ior_db_rows_free(base, nb);
	ior_db_rows_free(cand, nc);
	return status;
}

static const struct ior_cmd_opt check_options[] = {
	{ .name = "--baseline", .value = IOR_CMD_TEXT, .arg = "KERNEL", .required = true,
	  .help = "the kernel release the candidate is judged against" },
	{ .name = "--candidate", .value = IOR_CMD_TEXT, .arg = "KERNEL",
	  .help = "the kernel release judged (default: the running kernel)" },
	IOR_CMD_ROW_HOST,
	IOR_CMD_ROW_DEVICE,
	IOR_CMD_ROW_SCHEDULER,
	IOR_CMD_ROW_ENGINE,
	{ .name = "--min-effect", .value = IOR_CMD_NUMBER, .arg = "PERCENT",
	  .help = "a significant change smaller than PERCENT of the baseline's median is no change" },
	{ 0 },
};

const struct ior_command ior_cmd_check = {
	.name = "check",
	.fn = cmd_check,
	.flags = IOR_CMD_NEEDS_DB | IOR_CMD_DB_EXISTS,
	.error_status = CHECK_ERROR,
	.summary = "compare a candidate kernel with a baseline; exit status for git bisect run",
	.description = "Compares every cell measured on both kernels: medians, the change with its 95% "
		       "confidence interval, the rank test's p and a verdict (regression, improvement, no change, "
		       "inconclusive). Schedulers offered by only one of the kernels are left out, with the reason.\n\n"
		       "Exit status: 0 good (no regression), 1 bad (a regression), 125 skip (inconclusive), "
		       "128 or more on an error, so 'git bisect run ioregress check ...' aborts rather than "
		       "marking a commit.",
	.options = check_options,
};
