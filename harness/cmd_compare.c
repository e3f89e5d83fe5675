/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress compare --by AXIS A B`: every cell on A against the cell that differs from it only in
 * that axis on B, with check's verdicts and exit statuses. */
#include "common/error.h"
#include "harness/command_list.h"
#include "harness/judge.h"

#include <stdio.h>
#include <string.h>

struct compare_args {
	struct ior_judge_args j;
};

static int parse_axis(void *field, const char *value)
{
	return ior_axis_find(field, value);
}

static const char *axis_filter_value(const struct ior_db_filter *f, enum ior_axis axis)
{
	return ior_axis_pick(axis, f->host, f->kernel, f->engine, f->device, f->scheduler);
}

/* The checks after the options: the axis, A and B. */
static int check_args(struct ior_judge_args *a, const struct ior_cmd_list *names)
{
	if (a->opts.axis == IOR_AXIS_COUNT)
		return ior_error_set(IOR_EINVALID, "'compare' needs --by kernel|scheduler|device|engine|host");
	const char *by = ior_axis_name(a->opts.axis);
	if (names->n > 2)
		return ior_error_set(IOR_EINVALID, "'compare' takes two names, A and B; '%s' is a third", names->v[2]);
	if (names->n < 2)
		return ior_error_set(IOR_EINVALID, "'compare --by %s' needs two %s names, A (the reference) and B", by, by);
	if (!strcmp(names->v[0], names->v[1]))
		return ior_error_set(IOR_EINVALID, "A and B are the same %s '%s'", by, names->v[0]);
	if (axis_filter_value(&a->filter, a->opts.axis))
		return ior_error_set(IOR_EINVALID, "--%s: the %s is what --by %s compares; name the two as A and B", by, by,
				     by);
	a->opts.baseline = names->v[0];
	a->opts.candidate = names->v[1];
	return ior_judge_finish(a);
}

static int cmd_compare(int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	struct compare_args a;
	ior_judge_args_init(&a.j);
	a.j.opts.axis = IOR_AXIS_COUNT; /* none until --by names one */
	struct ior_cmd_parsed p;
	int status = ior_cmd_parse_or_usage(&ior_cmd_compare, argc, argv, &a, &p);
	if (status)
		return status;
	if (check_args(&a.j, &p.operands))
		return ior_judge_fail();
	return ior_judge_run(&a.j, ctx->db);
}

static const struct ior_cmd_opt compare_options[] = {
	{ .name = "--by", .value = IOR_CMD_CHOICE, .arg = "kernel|scheduler|device|engine|host",
	  .choices = "kernel scheduler device engine host", .required = true, .kind = IOR_CMD_PARSE, .parse = parse_axis,
	  IOR_CMD_AT(struct compare_args, j.opts.axis),
	  .help = "the axis compared: A and B are two of its names, and each cell on A is judged against the cell "
		  "on B that differs from it only there (an engine's parameters may differ too)" },
	IOR_CMD_ROW_HOST(struct compare_args, j.filter),
	IOR_CMD_ROW_KERNEL(struct compare_args, j.filter),
	IOR_CMD_ROW_DEVICE(struct compare_args, j.filter),
	IOR_CMD_ROW_SCHEDULER(struct compare_args, j.filter),
	IOR_CMD_ROW_ENGINE(struct compare_args, j.filter),
	IOR_JUDGE_ROW_METRIC(struct compare_args, j),
	IOR_JUDGE_ROW_MIN_EFFECT(struct compare_args, j),
	IOR_JUDGE_ROW_FORMAT(struct compare_args, j),
	IOR_JUDGE_ROW_ORIGIN(struct compare_args, j),
	{ 0 },
};

const struct ior_command ior_cmd_compare = {
	.name = "compare",
	.fn = cmd_compare,
	.flags = IOR_CMD_NEEDS_DB | IOR_CMD_DB_EXISTS,
	.error_status = IOR_JUDGE_ERROR,
	.summary = "compare two schedulers, devices, engines, hosts or kernels cell by cell, with check's verdicts",
	.operands = "A B",
	.description = "Judges B against A (the reference) on every cell that differs only along the --by axis: "
		       "two schedulers of each device, two devices under each scheduler, two engines (say a "
		       "plain and a nested loop device), two hosts or two kernels. The statistics, the verdicts "
		       "and their words are check's: the ratio of medians with its 95% confidence interval, "
		       "Welch's test on log values and the rank test, the minimum effect and the direction of "
		       "each metric (--metric). The filter of the compared axis is not taken: it is A and B. "
		       "'compare --by kernel A B' is 'check --baseline A --candidate B'.\n\n"
		       "Exit status: 0 no regression, 1 a regression (B worse than A), 125 inconclusive, 128 "
		       "or more on an error.",
	.options = compare_options,
};
