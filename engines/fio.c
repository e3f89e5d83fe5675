/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fio engine: runs the real fio binary (an argument list, no shell) with the cell's job options
 * and records its JSON figures and version. */
#include "engines/engine.h"
#include "engines/fio_json.h"
#include "common/spawn.h"
#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum fio_rw { RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE, RW_RANDRW, RW_RW, RW_COUNT };
/* By value; at RW_COUNT, the NULL that ends the choices. */
static const char *const rw_names[] = {
	[RW_READ] = "read", [RW_WRITE] = "write", [RW_RANDREAD] = "randread", [RW_RANDWRITE] = "randwrite",
	[RW_RANDRW] = "randrw", [RW_RW] = "rw", [RW_COUNT] = NULL,
};

struct fio_opts {
	int rw;
	uint64_t bs;
	uint64_t iodepth;
	uint64_t numjobs;
	uint64_t size;
	double runtime;
	double ramp_time;
	char *ioengine;
	bool direct;
	double rwmixread;
	char *binary;
};

#define FIO_OPT(field) offsetof(struct fio_opts, field)

static const struct ior_option fio_rows[] = {
	{ .name = "rw", .type = IOR_OPT_ENUM, .offset = FIO_OPT(rw),
	  .def = "read", .choices = rw_names, .help = "fio's rw" },
	{ .name = "bs", .type = IOR_OPT_SIZE, .offset = FIO_OPT(bs), .min = 512, .max = IOR_GIB,
	  .def = "4k", .help = "block size" },
	{ .name = "iodepth", .type = IOR_OPT_UINT, .offset = FIO_OPT(iodepth), .min = 1, .max = 65536,
	  .def = "1", .help = "I/Os in flight per job" },
	{ .name = "numjobs", .type = IOR_OPT_UINT, .offset = FIO_OPT(numjobs), .min = 1, .max = 1024,
	  .def = "1", .help = "jobs (fio processes)" },
	{ .name = "size", .type = IOR_OPT_SIZE, .offset = FIO_OPT(size), .def = "0",
	  .help = "region per job, jobs side by side (offset_increment); 0 = the whole target, shared" },
	{ .name = "runtime", .type = IOR_OPT_DURATION, .offset = FIO_OPT(runtime), .min = 0, .max = 86400,
	  .def = "0", .help = "time-based run of this length; 0 = until size is done" },
	{ .name = "ramp_time", .type = IOR_OPT_DURATION, .offset = FIO_OPT(ramp_time), .min = 0, .max = 86400,
	  .def = "0", .help = "warm-up excluded from the figures" },
	{ .name = "ioengine", .type = IOR_OPT_STRING, .offset = FIO_OPT(ioengine),
	  .def = "libaio", .help = "fio's ioengine" },
	{ .name = "direct", .type = IOR_OPT_BOOL, .offset = FIO_OPT(direct),
	  .def = "yes", .help = "O_DIRECT" },
	{ .name = "rwmixread", .type = IOR_OPT_PERCENT, .offset = FIO_OPT(rwmixread), .min = 0, .max = 1,
	  .def = "50%", .help = "share of reads for randrw and rw" },
	{ .name = "binary", .type = IOR_OPT_STRING, .offset = FIO_OPT(binary),
	  .def = "fio", .help = "the fio program (looked up in PATH)" },
	IOR_OPTION_END
};

#define FIO_MAX_ARGS 24

struct fio_state {
	struct fio_opts o;
	char args[FIO_MAX_ARGS][80];  /* option texts ("--bs=4096"), argv points into them */
	char filename[4200];
	char binary[256];             /* copies: the options blob's strings are not ours to keep */
	char ioengine[64];
	const char *argv[FIO_MAX_ARGS + 4];
	double limit_s;               /* fio is killed past it: runtime + ramp_time + the deadline; 0 = none */
};

static bool rw_writes(int rw)
{
	return rw != RW_READ && rw != RW_RANDREAD;
}

static const char *binary_of(const struct fio_opts *o)
{
	return o->binary && o->binary[0] ? o->binary : "fio";
}

static int fio_supported(const void *opts)
{
	const char *bin = binary_of(opts);
	if (!ior_spawn_in_path(bin))
		return ior_error_set(IOR_EUNSUPPORTED, "fio: '%s' is not installed (not in PATH)", bin);
	return IOR_OK;
}

/* Builds the argument list once: the same for every repetition. */
static void build_argv(struct fio_state *s)
{
	const struct fio_opts *o = &s->o;
	size_t n = 0, a = 0;
	s->argv[a++] = s->binary;
#define ARG(...) (snprintf(s->args[n], sizeof(s->args[n]), __VA_ARGS__), s->argv[a++] = s->args[n++])
	ARG("--name=ioregress");
	s->argv[a++] = s->filename;
	ARG("--rw=%s", rw_names[o->rw]);
	ARG("--bs=%llu", (unsigned long long)o->bs);
	ARG("--iodepth=%llu", (unsigned long long)o->iodepth);
	ARG("--numjobs=%llu", (unsigned long long)o->numjobs);
	ARG("--ioengine=%s", s->ioengine);
	ARG("--direct=%d", o->direct ? 1 : 0);
	if (o->size)
		ARG("--size=%llu", (unsigned long long)o->size);
	/* Each job its own region, as the aio and uring engines do (fio's clones would all start at 0). */
	if (o->size && o->numjobs > 1)
		ARG("--offset_increment=%llu", (unsigned long long)o->size);
	if (o->runtime > 0) {
		ARG("--runtime=%llums", (unsigned long long)(o->runtime * 1000 + 0.5));
		ARG("--time_based");
	}
	if (o->ramp_time > 0)
		ARG("--ramp_time=%llums", (unsigned long long)(o->ramp_time * 1000 + 0.5));
	if (o->rw == RW_RANDRW || o->rw == RW_RW)
		ARG("--rwmixread=%d", (int)(o->rwmixread * 100 + 0.5));
	ARG("--group_reporting");
	ARG("--lat_percentiles=1"); /* total latency's percentiles too, beside clat's */
	ARG("--clat_percentiles=1");
	ARG("--output-format=json");
	ARG("--eta=never");
#undef ARG
	s->argv[a] = NULL;
}

static void fio_cleanup(void *state)
{
	free(state);
}

static int fio_init(void **state, const struct ior_engine_args *args)
{
	*state = NULL;
	const struct fio_opts *o = args->opts;
	const struct ior_target *t = args->target;
	if (rw_writes(o->rw) && !t->destructive)
		return ior_error_set(IOR_EREFUSED, "fio: refusing rw = %s on '%s' (%s): its device is not destructive = yes",
				     rw_names[o->rw], t->name ? t->name : t->path, t->path);
	if (strchr(t->path, ':'))
		return ior_error_set(IOR_EINVALID, "fio: target path '%s' has a ':', which fio reads as a list of files", t->path);
	if (t->size && o->size * o->numjobs > t->size)
		return ior_error_set(IOR_EINVALID, "fio: numjobs × size = %llu bytes exceeds the %llu bytes of '%s'",
				     (unsigned long long)(o->size * o->numjobs), (unsigned long long)t->size, t->path);
	const char *engine = o->ioengine && o->ioengine[0] ? o->ioengine : "libaio";
	if (strlen(engine) >= 48 || strlen(binary_of(o)) >= 256)
		return ior_error_set(IOR_EINVALID, "fio: ioengine or binary name is too long");
	struct fio_state *s = calloc(1, sizeof(*s));
	if (!s)
		return ior_error_set(IOR_ERROR, "fio: out of memory");
	s->o = *o;
	s->o.ioengine = s->o.binary = NULL;
	snprintf(s->binary, sizeof(s->binary), "%s", binary_of(o));
	snprintf(s->ioengine, sizeof(s->ioengine), "%s", engine);
	snprintf(s->filename, sizeof(s->filename), "--filename=%s", t->path);
	build_argv(s);
	/* a size-based job has no expected end: without one, only a stop request ends it */
	double margin = args->deadline_s;
	s->limit_s = o->runtime > 0 ? o->ramp_time + o->runtime + margin : 0;
	*state = s;
	return IOR_OK;
}

static void fill_sample(struct ior_sample *out, const struct fio_state *s, const struct ior_fio_result *r, double wall)
{
	const struct ior_fio_dir *rd = &r->read, *wr = &r->write;
	memset(out, 0, sizeof(*out));
	out->bytes = rd->io_bytes + wr->io_bytes;
	out->ios = rd->total_ios + wr->total_ios;
	/* The aio and uring engines' convention: IOPS below 64k blocks, MiB/s from 64k up. */
	if (s->o.bs < 65536) {
		out->value = rd->iops + wr->iops;
		out->unit = IOR_UNIT_IOPS;
	} else {
		out->value = (rd->bw_bytes + wr->bw_bytes) / IOR_MIB;
		out->unit = IOR_UNIT_MIB_S;
	}
	out->higher_is_better = true;
	out->wall_s = rd->runtime_s > wr->runtime_s ? rd->runtime_s : wr->runtime_s;
	if (out->wall_s == 0)
		out->wall_s = wall;
	out->usr_s = r->usr_s;
	out->sys_s = r->sys_s;
	/* Mixed jobs: the direction that did more I/O gives the percentiles. */
	const struct ior_fio_dir *lat = rd->total_ios >= wr->total_ios ? rd : wr;
	if (lat->clat.has) {
		out->has_clat = true;
		out->clat_p50_us = lat->clat.p50_us;
		out->clat_p99_us = lat->clat.p99_us;
		out->clat_p999_us = lat->clat.p999_us;
		out->clat_mean_us = lat->clat.mean_us;
	}
	if (lat->lat.has) {
		out->has_latency = true;
		out->lat_p50_us = lat->lat.p50_us;
		out->lat_p99_us = lat->lat.p99_us;
		out->lat_p999_us = lat->lat.p999_us;
		out->lat_mean_us = lat->lat.mean_us;
	}
	snprintf(out->detail, sizeof(out->detail), "%s rw=%s bs=%llu iodepth=%llu numjobs=%llu ioengine=%s direct=%d%s",
		 r->version, rw_names[s->o.rw], (unsigned long long)s->o.bs, (unsigned long long)s->o.iodepth,
		 (unsigned long long)s->o.numjobs, s->ioengine, s->o.direct ? 1 : 0,
		 lat == wr && rd->total_ios ? " (write latency)" : "");
}

static int fio_measure(void *state, struct ior_sample *out)
{
	struct fio_state *s = state;
	struct ior_spawn res = { .argv = s->argv, .out_to = IOR_SPAWN_OUT_CAPTURE, .limit_s = s->limit_s };
	int rc = ior_spawn_run(&res);
	if (rc == IOR_OK)
		rc = ior_spawn_check(&res, "fio");
	struct ior_fio_result r;
	if (rc == IOR_OK)
		rc = ior_fio_json_parse(&r, res.out, res.out_len);
	if (rc == IOR_OK && r.error)
		rc = ior_error_set(IOR_ERROR, "fio: the job failed with error %d (%s)", r.error, strerror(r.error));
	if (rc == IOR_OK && r.read.io_bytes + r.write.io_bytes == 0)
		rc = ior_error_set(IOR_ERROR, "fio: the job moved no data");
	if (rc == IOR_OK)
		fill_sample(out, s, &r, res.wall_s);
	ior_spawn_free(&res);
	return rc;
}

/* A read job is no writer: it may run on a device that is not destructive = yes. */
static unsigned fio_option_flags(const void *opts)
{
	return rw_writes(((const struct fio_opts *)opts)->rw) ? IOR_ENGINE_WRITES : 0;
}

static double fio_duration(const void *opts)
{
	const struct fio_opts *o = opts;
	return o->runtime > 0 ? o->ramp_time + o->runtime : -1;
}

const struct ior_engine_ops ior_engine_fio = {
	.name = "fio",
	.help = "the real fio binary with the cell's job options, figures from its JSON output",
	.flags = IOR_ENGINE_WRITES, /* upper bound; option_flags says which modes write */
	.options = fio_rows,
	.options_size = sizeof(struct fio_opts),
	.supported = fio_supported,
	.init = fio_init,
	.measure = fio_measure,
	.cleanup = fio_cleanup,
	.option_flags = fio_option_flags,
	.duration = fio_duration,
};
