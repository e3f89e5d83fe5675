/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Parsing fio's --output-format=json into the figures the fio engine records; strict, since fio's
 * output is outside input. */
#ifndef IOR_ENGINES_FIO_JSON_H
#define IOR_ENGINES_FIO_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One of fio's latency objects (clat_ns, lat_ns) in microseconds. */
struct ior_fio_lat {
	bool has;                    /* its percentiles were present (absent when no I/O was done, and
				      * for lat_ns unless fio ran with --lat_percentiles=1) */
	double p50_us, p99_us, p999_us, mean_us;
};

struct ior_fio_dir {
	uint64_t io_bytes, total_ios;
	double bw_bytes;             /* bytes per second */
	double iops;
	double runtime_s;
	struct ior_fio_lat clat;     /* from the submit call's return to the completion */
	struct ior_fio_lat lat;      /* from just before the submit call: clat plus submission */
};

struct ior_fio_result {
	char version[32];            /* "fio-3.33" */
	struct ior_fio_dir read, write;
	double usr_s, sys_s;         /* CPU seconds over all jobs: usr_cpu% × job_runtime */
	int error;                   /* fio's per-job error (errno), 0 when none */
};

/* Parses text (len bytes, no NUL needed) as fio's JSON with group_reporting:
 * the first job of "jobs" is used. Lines before the first line that starts with
 * '{' (fio's notes on stdout) are skipped. Errors name the problem and the key path:
 * "fio json: 'jobs[0].read.io_bytes' is a string, expected a number". */
int ior_fio_json_parse(struct ior_fio_result *out, const char *text, size_t len);

#endif
