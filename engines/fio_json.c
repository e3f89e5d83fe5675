/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fio JSON output → struct ior_fio_result with json-c, every key checked for presence and type; see
 * engines/fio_json.h. */
#include "engines/fio_json.h"
#include "common/error.h"

#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* "a string", "an object", ... for messages. */
static const char *type_words(json_type t)
{
	switch (t) {
	case json_type_boolean: return "a boolean";
	case json_type_double: return "a number";
	case json_type_int: return "a whole number";
	case json_type_object: return "an object";
	case json_type_array: return "an array";
	case json_type_string: return "a string";
	default: return "null";
	}
}

static int get(json_object **out, json_object *obj, const char *path, const char *key, json_type want)
{
	const char *dot = path[0] ? "." : "";
	if (!json_object_object_get_ex(obj, key, out))
		return ior_error_set(IOR_EINVALID, "fio json: missing '%s%s%s'", path, dot, key);
	json_type t = json_object_get_type(*out);
	if (t != want && !(want == json_type_double && t == json_type_int))
		return ior_error_set(IOR_EINVALID, "fio json: '%s%s%s' is %s, expected %s", path, dot, key,
				     type_words(t), type_words(want));
	return IOR_OK;
}

static int get_number(double *out, json_object *obj, const char *path, const char *key)
{
	json_object *v;
	int rc = get(&v, obj, path, key, json_type_double);
	if (rc != IOR_OK)
		return rc;
	*out = json_object_get_double(v);
	if (!isfinite(*out) || *out < 0)
		return ior_error_set(IOR_EINVALID, "fio json: '%s.%s' is %g, expected a finite number ≥ 0", path, key, *out);
	return IOR_OK;
}

static int get_count(uint64_t *out, json_object *obj, const char *path, const char *key)
{
	json_object *v;
	int rc = get(&v, obj, path, key, json_type_int);
	if (rc != IOR_OK)
		return rc;
	int64_t x = json_object_get_int64(v);
	if (x < 0)
		return ior_error_set(IOR_EINVALID, "fio json: '%s.%s' is %lld, expected a count ≥ 0", path, key, (long long)x);
	*out = (uint64_t)x;
	return IOR_OK;
}

/* KEY.percentile ("clat_ns" or "lat_ns"): keys are "50.000000" etc. and values nanoseconds;
 * KEY.mean beside them. The whole object is optional for lat_ns, which fio 3.x always
 * writes but fills with percentiles only under --lat_percentiles=1. */
static int get_latency(struct ior_fio_lat *out, json_object *dir, const char *path, const char *key,
		       uint64_t total_ios, bool required)
{
	char p[64];
	json_object *obj, *pct;
	if (!required && !json_object_object_get_ex(dir, key, &obj))
		return IOR_OK;
	int rc = get(&obj, dir, path, key, json_type_object);
	if (rc != IOR_OK)
		return rc;
	snprintf(p, sizeof(p), "%s.%s", path, key);
	if (!json_object_object_get_ex(obj, "percentile", &pct)) {
		if (total_ios == 0 || !required)
			return IOR_OK; /* no I/O in this direction: fio leaves the percentiles out */
		return ior_error_set(IOR_EINVALID, "fio json: missing '%s.percentile'", p);
	}
	double mean = 0;
	if ((rc = get(&pct, obj, p, "percentile", json_type_object)) || (rc = get_number(&mean, obj, p, "mean")))
		return rc;
	snprintf(p, sizeof(p), "%s.%s.percentile", path, key);
	double ns[3];
	static const char *const keys[3] = { "50.000000", "99.000000", "99.900000" };
	for (int i = 0; rc == IOR_OK && i < 3; i++)
		rc = get_number(&ns[i], pct, p, keys[i]);
	if (rc != IOR_OK)
		return rc;
	if (ns[0] > ns[1] || ns[1] > ns[2])
		return ior_error_set(IOR_EINVALID, "fio json: '%s' is not ordered (p50 %g > p99 %g or p99 > p99.9 %g)",
				     p, ns[0], ns[1], ns[2]);
	*out = (struct ior_fio_lat){ .has = true, .p50_us = ns[0] / 1e3, .p99_us = ns[1] / 1e3,
				     .p999_us = ns[2] / 1e3, .mean_us = mean / 1e3 };
	return IOR_OK;
}

static int parse_dir(struct ior_fio_dir *d, json_object *job, const char *name)
{
	json_object *dir;
	char path[32];
	int rc = get(&dir, job, "jobs[0]", name, json_type_object);
	if (rc != IOR_OK)
		return rc;
	snprintf(path, sizeof(path), "jobs[0].%s", name);
	double runtime_ms = 0;
	if ((rc = get_count(&d->io_bytes, dir, path, "io_bytes")) ||
	    (rc = get_count(&d->total_ios, dir, path, "total_ios")) ||
	    (rc = get_number(&d->bw_bytes, dir, path, "bw_bytes")) ||
	    (rc = get_number(&d->iops, dir, path, "iops")) ||
	    (rc = get_number(&runtime_ms, dir, path, "runtime")))
		return rc;
	d->runtime_s = runtime_ms / 1e3;
	if ((rc = get_latency(&d->clat, dir, path, "clat_ns", d->total_ios, true)))
		return rc;
	return get_latency(&d->lat, dir, path, "lat_ns", d->total_ios, false);
}

static int parse_job(struct ior_fio_result *out, json_object *job)
{
	double usr_pct, sys_pct, runtime_ms, error;
	int rc;
	if ((rc = get_number(&error, job, "jobs[0]", "error")) ||
	    (rc = parse_dir(&out->read, job, "read")) ||
	    (rc = parse_dir(&out->write, job, "write")) ||
	    (rc = get_number(&usr_pct, job, "jobs[0]", "usr_cpu")) ||
	    (rc = get_number(&sys_pct, job, "jobs[0]", "sys_cpu")) ||
	    (rc = get_number(&runtime_ms, job, "jobs[0]", "job_runtime")))
		return rc;
	/* Beyond int the cast is undefined, and a product of two huge figures is infinite (found by fuzz_fio_json). */
	if (error > INT_MAX)
		return ior_error_set(IOR_EINVALID, "fio json: 'jobs[0].error' is %g, expected an errno", error);
	out->error = (int)error;
	/* fio sums usr_time and run time over the group's jobs and divides: percent × summed run time gives CPU seconds back. */
	out->usr_s = usr_pct / 100 * runtime_ms / 1e3;
	out->sys_s = sys_pct / 100 * runtime_ms / 1e3;
	if (!isfinite(out->usr_s) || !isfinite(out->sys_s))
		return ior_error_set(IOR_EINVALID, "fio json: 'jobs[0]' CPU time out of range (usr_cpu %g, sys_cpu %g, job_runtime %g)",
				     usr_pct, sys_pct, runtime_ms);
	return IOR_OK;
}

static int parse_root(struct ior_fio_result *out, json_object *root)
{
	json_object *version, *jobs;
	int rc;
	if (!json_object_is_type(root, json_type_object))
		return ior_error_set(IOR_EINVALID, "fio json: the top level is %s, expected an object",
				     type_words(json_object_get_type(root)));
	if ((rc = get(&version, root, "", "fio version", json_type_string)) ||
	    (rc = get(&jobs, root, "", "jobs", json_type_array)))
		return rc;
	snprintf(out->version, sizeof(out->version), "%s", json_object_get_string(version));
	if (json_object_array_length(jobs) < 1)
		return ior_error_set(IOR_EINVALID, "fio json: 'jobs' is empty");
	json_object *job = json_object_array_get_idx(jobs, 0);
	if (!json_object_is_type(job, json_type_object))
		return ior_error_set(IOR_EINVALID, "fio json: 'jobs[0]' is %s, expected an object",
				     type_words(json_object_get_type(job)));
	return parse_job(out, job);
}

int ior_fio_json_parse(struct ior_fio_result *out, const char *text, size_t len)
{
	memset(out, 0, sizeof(*out));
	/* fio may print notes on stdout first; the JSON starts on the first line that begins with '{'. */
	const char *start = NULL;
	for (const char *line = text; line && line < text + len; ) {
		if (*line == '{') {
			start = line;
			break;
		}
		const char *nl = memchr(line, '\n', (size_t)(text + len - line));
		line = nl ? nl + 1 : NULL;
	}
	if (!start)
		return ior_error_set(IOR_EINVALID, "fio json: no JSON object in fio's output (%zu bytes)", len);
	len -= (size_t)(start - text);
	if (len > INT32_MAX)
		return ior_error_set(IOR_EINVALID, "fio json: output too large (%zu bytes)", len);
	json_tokener *tok = json_tokener_new();
	if (!tok)
		return ior_error_set(IOR_ERROR, "fio json: out of memory");
	json_object *root = json_tokener_parse_ex(tok, start, (int)len);
	enum json_tokener_error jerr = json_tokener_get_error(tok);
	size_t used = json_tokener_get_parse_end(tok);
	int rc = IOR_OK;
	if (!root && jerr == json_tokener_continue)
		rc = ior_error_set(IOR_EINVALID, "fio json: truncated after %zu bytes", len);
	else if (!root)
		rc = ior_error_set(IOR_EINVALID, "fio json: %s at byte %zu", json_tokener_error_desc(jerr), used);
	else
		rc = parse_root(out, root);
	json_object_put(root);
	json_tokener_free(tok);
	return rc;
}
