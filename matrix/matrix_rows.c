/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Option rows of the [matrix] and [device NAME] sections, and the checks that span several keys. */
#include "matrix/matrix_internal.h"
#include "common/error.h"
#include "device/fill.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

/* The deadline's default is the engines' one number, written as the key's text ("30s"). */
#define DEADLINE_TEXT_(seconds) #seconds "s"
#define DEADLINE_TEXT(seconds) DEADLINE_TEXT_(seconds)

#define SETTING(field) offsetof(struct ior_matrix_settings, field)
#define DEVICE(field) offsetof(struct ior_matrix_device_opts, field)
#define JOB(field) offsetof(struct ior_matrix_job, field)

/* Why warm-up: a cell's first repetition can measure something else than the rest (a tmpfs
 * allocating its pages, a cache filling: the seed-loop tmpfs cell's first repetition ran at
 * 356 MiB/s against 1,600-1,800). The report flags such a cell (stats/trend.h); warmup = N
 * runs N repetitions first, stores them marked and judges only the others. */
#define WARMUP_HELP "repetitions run first for each cell, stored marked as warm-up and left out of verdicts, " \
		    "alerts and change points"

static const struct ior_option settings_rows[] = {
	{ .name = "repetitions", .type = IOR_OPT_UINT, .offset = SETTING(repetitions), .min = 1, .max = 10000,
	  .def = "3", .help = "measurements per cell (the minimum when max_repetitions is set)" },
	{ .name = "schedulers", .type = IOR_OPT_STRING, .offset = SETTING(schedulers), .def = "all",
	  .help = "'all' (every scheduler the kernel offers) or a list such as 'none mq-deadline bfq'" },
	{ .name = "drop_caches", .type = IOR_OPT_BOOL, .offset = SETTING(drop_caches), .def = "yes",
	  .help = "drop the page cache before each repetition" },
	{ .name = "alert_spread", .type = IOR_OPT_PERCENT, .offset = SETTING(alert_spread), .min = 0, .max = 100,
	  .def = "10%", .help = "flag a cell whose (max-min)/min exceeds this" },
	{ .name = "load_modules", .type = IOR_OPT_BOOL, .offset = SETTING(load_modules), .def = "no",
	  .help = "load the scheduler and block-driver modules (loop, null_blk) the matrix asks for" },
	{ .name = "max_repetitions", .type = IOR_OPT_UINT, .offset = SETTING(max_repetitions), .min = 0, .max = 10000,
	  .def = "0", .help = "adaptive repetitions: repeat up to this many times until target_cov is met; 0 = off" },
	{ .name = "target_cov", .type = IOR_OPT_PERCENT, .offset = SETTING(target_cov), .min = 0, .max = 1,
	  .def = "5%", .help = "adaptive repetitions stop once the coefficient of variation is below this" },
	{ .name = "order", .type = IOR_OPT_ENUM, .offset = SETTING(order), .def = "interleaved",
	  .choices = ior_matrix_order_names,
	  .help = "interleaved (repetition 1 of every cell of a device, then 2, ...: host drift spreads over the "
		  "cells compared), sequential (each cell's repetitions back to back) or random (seeded rounds)" },
	{ .name = "max_cells", .type = IOR_OPT_UINT, .offset = SETTING(max_cells), .min = 1, .max = 1e9,
	  .def = "10000", .help = "refuse a matrix that expands to more cells than this (devices x schedulers x engines, "
				  "after sweeps)" },
	{ .name = "compare", .type = IOR_OPT_STRING, .offset = SETTING(compare),
	  .help = "the comparisons the matrix exists for, which the report answers first: 'AXIS: A B', several "
		  "separated by commas (engine: tmpfs-sync-each nested-sync-each, scheduler: none bfq); AXIS is "
		  "kernel, scheduler, device, engine or host, A the reference" },
	{ .name = "order_seed", .type = IOR_OPT_UINT, .offset = SETTING(order_seed), .min = 0, .max = 4294967295.0,
	  .def = "0", .help = "order = random: the seed (0: chosen at run time); the run records the one used" },
	{ .name = "warmup", .type = IOR_OPT_UINT, .offset = SETTING(warmup), .min = 0, .max = 10000, .def = "0",
	  .help = WARMUP_HELP " (an engine's own warmup wins)" },
	{ .name = "decide_schedulers", .type = IOR_OPT_BOOL, .offset = SETTING(decide_schedulers), .def = "no",
	  .help = "with max_repetitions: a device's cells of one engine take rounds together until the verdict names "
		  "the best scheduler or finds them within noise, or the cap (instead of each cell's target_cov)" },
	{ .name = "deadline", .type = IOR_OPT_DURATION, .offset = SETTING(deadline), .min = 0.1, .max = 86400,
	  .def = DEADLINE_TEXT(IOR_ENGINE_DEADLINE_SECONDS),
	  .help = "how long past a repetition's expected end (runtime + ramp_time), or without progress, an engine "
		  "waits for its requests or its tool before it fails the cell with the reason and the run goes on (a "
		  "job thread still inside a kernel call a deadline past that call's own timeout is left behind, and so is an "
		  "hdparm or dd read, write or flush still in the kernel a deadline after it began)" },
	IOR_OPTION_END
};

static const struct ior_option job_rows[] = {
	{ .name = "warmup", .type = IOR_OPT_UINT, .offset = JOB(warmup), .min = 0, .max = 10000,
	  .help = WARMUP_HELP " (default: [matrix] warmup)" },
	IOR_OPTION_END
};

static const struct ior_option device_rows[] = {
	{ .name = "path", .type = IOR_OPT_STRING, .offset = DEVICE(path),
	  .help = "an existing block device, e.g. /dev/sdb" },
	{ .name = "loop", .type = IOR_OPT_SIZE, .offset = DEVICE(loop), .min = 1 << 20, .max = 16.0 * (1ull << 40),
	  .help = "size of a scratch loop device the harness creates and removes" },
	{ .name = "backing_dir", .type = IOR_OPT_STRING, .offset = DEVICE(backing_dir), .def = "/tmp",
	  .help = "directory for the loop device's backing file" },
	{ .name = "direct_io", .type = IOR_OPT_BOOL, .offset = DEVICE(direct_io), .def = "no",
	  .help = "attach the loop device with --direct-io=on" },
	{ .name = "destructive", .type = IOR_OPT_BOOL, .offset = DEVICE(destructive), .def = "no",
	  .help = "allow engines that write to the device" },
	{ .name = "fill", .type = IOR_OPT_ENUM, .offset = DEVICE(fill), .def = "random", .choices = ior_fill_names,
	  .help = "what a scratch device's file holds before the first measurement: random (data no layer can "
		  "compress or deduplicate, as fio writes), zeros, or sparse (holes: reads measure the filesystem)" },
	IOR_OPTION_END
};

const char *const ior_matrix_order_names[IOR_ORDER_COUNT + 1] = {
	[IOR_ORDER_INTERLEAVED] = "interleaved",
	[IOR_ORDER_SEQUENTIAL] = "sequential",
	[IOR_ORDER_RANDOM] = "random",
	[IOR_ORDER_COUNT] = NULL,
};

const struct ior_option *ior_matrix_settings_options(void)
{
	return settings_rows;
}

const struct ior_option *ior_matrix_device_options(void)
{
	return device_rows;
}

const struct ior_option *ior_matrix_job_options(void)
{
	return job_rows;
}

uint64_t ior_matrix_warmup(const struct ior_matrix *m, const struct ior_matrix_engine *e)
{
	return e->job.warmup_set ? e->job.warmup : m->settings.warmup;
}

bool ior_matrix_valid_name(const char *name)
{
	size_t n = 0;
	for (; name[n]; n++)
		if (!isalnum((unsigned char)name[n]) && name[n] != '_' && name[n] != '-')
			return false;
	return n > 0 && n <= IOR_MATRIX_NAME_MAX;
}

/* "all", or names separated by spaces or commas, each once. */
static int check_schedulers(const char *list)
{
	if (strcmp(list, "all") == 0)
		return IOR_OK;
	for (const char *p = list; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_- ,\t", *p))
			return ior_error_set(IOR_EINVALID,
					     "unexpected '%c' in '%s' (write 'all' or names separated by spaces or commas)",
					     *p, list);
	const char *seps = " ,\t";
	size_t count = 0;
	for (const char *p = list + strspn(list, seps); *p; p += strspn(p, seps)) {
		size_t len = strcspn(p, seps);
		if (len == 3 && strncmp(p, "all", 3) == 0)
			return ior_error_set(IOR_EINVALID, "'all' cannot be mixed with names in '%s'", list);
		for (const char *q = p + len + strspn(p + len, seps); *q; q += strspn(q, seps)) {
			size_t qlen = strcspn(q, seps);
			if (qlen == len && strncmp(p, q, len) == 0)
				return ior_error_set(IOR_EINVALID, "'%.*s' is listed twice", (int)len, p);
			q += qlen;
		}
		count++;
		p += len;
	}
	if (count == 0)
		return ior_error_set(IOR_EINVALID, "no scheduler named in '%s'", list);
	return IOR_OK;
}

int ior_matrix_check_settings(const struct ior_matrix_settings *s, const char **key)
{
	*key = "schedulers";
	if (check_schedulers(s->schedulers ? s->schedulers : ""))
		return IOR_EINVALID;
	*key = "max_repetitions";
	if (s->max_repetitions && s->max_repetitions < s->repetitions)
		return ior_error_set(IOR_EINVALID, "%llu is below repetitions (%llu), which is the minimum",
				     (unsigned long long)s->max_repetitions, (unsigned long long)s->repetitions);
	*key = NULL;
	return IOR_OK;
}

int ior_matrix_check_device(const struct ior_matrix_device_opts *o, const char **key)
{
	*key = NULL;
	if (!o->path && !o->loop)
		return ior_error_set(IOR_EINVALID, "needs 'path = /dev/...' (an existing device) or 'loop = SIZE' (a scratch loop device)");
	if (o->path && o->loop)
		return ior_error_set(IOR_EINVALID, "has both 'path' and 'loop': give one");
	*key = "path";
	if (o->path && o->path[0] != '/')
		return ior_error_set(IOR_EINVALID, "'%s' is not an absolute path", o->path);
	*key = "backing_dir";
	if (o->backing_dir && o->backing_dir[0] != '/')
		return ior_error_set(IOR_EINVALID, "'%s' is not an absolute path", o->backing_dir);
	*key = NULL;
	return IOR_OK;
}

int ior_matrix_check_device_key(const struct ior_matrix_device_opts *o, const char *key)
{
	if (o->path && (strcmp(key, "backing_dir") == 0 || strcmp(key, "direct_io") == 0 || strcmp(key, "fill") == 0))
		return ior_error_set(IOR_EINVALID, "only applies to a loop device (this one has 'path = %s')", o->path);
	return IOR_OK;
}
