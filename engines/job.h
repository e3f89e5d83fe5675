/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fio job semantics shared by the aio and uring engines: option rows, regions, offsets, latency
 * histogram, job threads. */
#ifndef IOR_ENGINES_JOB_H
#define IOR_ENGINES_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/clock.h"
#include "engines/engine.h"
#include "engines/random_map.h"
#include "options/option.h"

/* ---- options: one struct and one table of rows for every fio-style engine ---- */

enum ior_rw { IOR_RW_READ, IOR_RW_WRITE, IOR_RW_RANDREAD, IOR_RW_RANDWRITE, IOR_RW_RANDRW, IOR_RW_COUNT };

struct ior_job_opts {
	int rw;            /* enum ior_rw */
	double rwmixread;  /* randrw: fraction of reads */
	uint64_t bs;
	uint64_t iodepth;
	uint64_t iodepth_batch; /* requests per submit call, fio's iodepth_batch_submit */
	uint64_t iodepth_batch_complete; /* most completions per reap call, fio's iodepth_batch_complete_max */
	uint64_t numjobs;
	uint64_t size;     /* per job, like fio; 0 = the device divided between the jobs */
	double runtime;    /* seconds; > 0 makes the job time-based (loops over its region) */
	double ramp_time;  /* seconds of I/O before the figures start */
	bool direct;
};

extern const struct ior_option ior_job_rows[];

bool ior_job_writes(const struct ior_job_opts *o);
/* A repetition's seconds: ramp_time + runtime for a time-based job, -1 for a size-based one. */
double ior_job_duration(const void *opts);

/* ---- offsets: each block of a job's region exactly once per pass, in fio's order ---- */

/* Sequential, or fio's random map: a uniformly drawn block, or when that one is used already in
 * this pass the next free block after it (fio's axmap_next_free). The second rule is not uniform:
 * late in a pass, blocks follow blocks already read (64% of 4k reads over 64 MiB in fio's own
 * order, 50% in a uniform one), which a buffered loop device's backing file serves from the
 * readahead of the earlier read: on a loop over a file in /tmp here, fio's randread sent 24% fewer
 * reads to the host's disk than a uniform permutation and measured 1.3-2x the IOPS. */
struct ior_offsets {
	uint64_t nblocks, pos, x;
	bool random;
	struct ior_random_map map;   /* random: the blocks used in this pass */
};
/* Allocates the random map (a bit per block, as fio's); IOR_ERROR when memory runs out. */
int ior_offsets_init(struct ior_offsets *g, uint64_t nblocks, bool random, uint64_t seed);
/* Starts again from a new seed at the start of a pass. */
void ior_offsets_reseed(struct ior_offsets *g, uint64_t seed);
void ior_offsets_free(struct ior_offsets *g);
/* The next block index; starts a new pass (the map cleared) after the last one. */
uint64_t ior_offsets_next(struct ior_offsets *g);

/* ---- latency histogram: fio's log-linear buckets, fixed size ---- */

#define IOR_LAT_BITS 6
#define IOR_LAT_VAL (1u << IOR_LAT_BITS)
#define IOR_LAT_GROUPS 32
#define IOR_LAT_BUCKETS (IOR_LAT_GROUPS * IOR_LAT_VAL) /* up to ~137 s at ~1.6% resolution */

struct ior_lat_hist {
	uint64_t count[IOR_LAT_BUCKETS];
	uint64_t n;
	uint64_t sum_ns;     /* for the mean, exact where percentiles are bucketed (wraps after 584 years) */
};
void ior_lat_add(struct ior_lat_hist *h, uint64_t ns);
void ior_lat_merge(struct ior_lat_hist *into, const struct ior_lat_hist *from);
/* The mean in nanoseconds; 0 when empty. */
double ior_lat_mean(const struct ior_lat_hist *h);
/* The value in nanoseconds below which fraction p (0..1) of the samples fall; 0 when empty. */
double ior_lat_percentile(const struct ior_lat_hist *h, double p);
/* Bucket index of a value and the middle of a bucket, exposed for tests. */
unsigned ior_lat_index(uint64_t ns);
double ior_lat_value(unsigned index);

/* ---- the data pattern writes carry, so a read-back can check where each sector landed ---- */

#define IOR_PATTERN_MAGIC 0x696f7265677265ULL /* "ioregre" */
/* Stamps each 512-byte sector of buf with its device offset and the magic. */
void ior_pattern_stamp(void *buf, uint64_t len, uint64_t offset);
/* True when every sector of buf carries the stamp for its offset. */
bool ior_pattern_check(const void *buf, uint64_t len, uint64_t offset);

/* ---- the job runner: threads, regions, phases; the engine supplies the queue ---- */

struct ior_job_io {
	void *buf;
	uint64_t len;       /* bs */
	uint64_t offset;
	bool write;
	int64_t result;     /* bytes, or -errno, filled by the backend's reap */
	uint64_t start_ns;  /* just before the submit call: where fio's lat starts */
	uint64_t issued_ns; /* when the submit call returned: where fio's clat starts */
	void *priv;         /* backend's per-request area (an iocb) */
};

struct ior_job_thread; /* one job: its thread, region, counters */

/* What an engine does for one job thread. Each returns 0 or a negative
 * ior_status with the message set. */
struct ior_job_backend {
	const char *name;
	size_t priv_size;    /* bytes of ior_job_io.priv per request */
	int (*setup)(void **ctx, int fd, unsigned iodepth, struct ior_job_io *ios);
	/* Queues n prepared requests and hands them to the kernel. A kernel that keeps refusing them
	 * (EAGAIN: its queue is full of requests that do not complete) is retried for at most
	 * timeout_ns, then IOR_ETIMEDOUT: never a spin without end (this retry loop was the one
	 * wait in the engines without a deadline). */
	int (*submit)(void *ctx, struct ior_job_io **ios, unsigned n, uint64_t timeout_ns);
	/* Waits for at least min completions, at most timeout_ns, and stores up to max of them in
	 * done; *ndone = 0 when the time ran out (never an endless wait: a lost completion must
	 * fail the cell, not hang the run). */
	int (*reap)(void *ctx, unsigned min, unsigned max, struct ior_job_io **done, unsigned *ndone,
		    uint64_t timeout_ns);
	/* Undoes setup. lost: requests are still in flight and may never complete, so nothing
	 * may wait for them (aio's io_destroy would wait for ever). */
	void (*teardown)(void *ctx, bool lost);
};

struct ior_job;
/* Opens the target (O_DIRECT when asked) and checks sizes and alignment;
 * refuses writes to a device whose destructive is not set. */
int ior_job_create(struct ior_job **out, const struct ior_job_backend *backend, const struct ior_engine_args *args);
/* Runs every job thread through ramp and measured phases and fills the sample. */
int ior_job_run(struct ior_job *job, struct ior_sample *out);
void ior_job_free(struct ior_job *job);

/* The engine hooks every engine on a job backend shares (aio, uring): measure, cleanup and
 * option_flags of their tables; only init differs, by the backend it passes ior_job_create. */
int ior_job_engine_measure(void *state, struct ior_sample *out);
void ior_job_engine_cleanup(void *state);
unsigned ior_job_engine_option_flags(const void *opts);

/* The headline: MiB/s when bs >= 64 KiB (throughput-bound), IOPS below (operation-bound). */
#define IOR_JOB_BW_MIN_BS (64u * 1024)

#endif
