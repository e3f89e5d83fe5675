/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The stored measures' column table (binding, reading, the SQL lists) and the metric table (names,
 * units, directions, columns), and reading one metric of a stored cell (see metric.h). */
#include "db/metric.h"

#include "common/error.h"
#include "common/suggest.h"
#include "db/internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REAL(field, grp, csv) { .name = #field, .offset = offsetof(struct ior_measures, field), .group = grp, .in_csv = csv }
#define COUNT(field, grp, csv) \
	{ .name = #field, .integer = true, .offset = offsetof(struct ior_measures, field), .group = grp, .in_csv = csv }
#define BLK(field) \
	{ .name = #field, .integer = true, .offset = offsetof(struct ior_measures, blk.field), \
	  .group = IOR_MEASURE_BLKSTAT }
static const struct ior_measure_column measure_columns[] = {
	COUNT(bytes, IOR_MEASURE_TIMED, true),
	COUNT(ios, IOR_MEASURE_TIMED, true),
	REAL(wall_s, IOR_MEASURE_TIMED, true),
	REAL(usr_s, IOR_MEASURE_TIMED, true),
	REAL(sys_s, IOR_MEASURE_TIMED, true),
	REAL(lat_p50_us, IOR_MEASURE_LATENCY, true),
	REAL(lat_p99_us, IOR_MEASURE_LATENCY, true),
	REAL(lat_p999_us, IOR_MEASURE_LATENCY, true),
	REAL(lat_mean_us, IOR_MEASURE_LATENCY, true),
	REAL(clat_p50_us, IOR_MEASURE_CLAT, true),
	REAL(clat_p99_us, IOR_MEASURE_CLAT, true),
	REAL(clat_p999_us, IOR_MEASURE_CLAT, true),
	REAL(clat_mean_us, IOR_MEASURE_CLAT, true),
	BLK(rd_ios),
	BLK(rd_merges),
	BLK(rd_sectors),
	BLK(wr_ios),
	BLK(wr_merges),
	BLK(wr_sectors),
};
#undef REAL
#undef COUNT
#undef BLK
#define NCOLUMNS (sizeof(measure_columns) / sizeof(measure_columns[0]))

size_t ior_measure_column_count(void)
{
	return NCOLUMNS;
}

const struct ior_measure_column *ior_measure_column_at(size_t i)
{
	return i < NCOLUMNS ? &measure_columns[i] : NULL;
}

bool ior_measures_known(const struct ior_measures *m, enum ior_measure_group g)
{
	switch (g) {
	case IOR_MEASURE_LATENCY:
		return m->has_latency;
	case IOR_MEASURE_CLAT:
		return m->has_clat;
	case IOR_MEASURE_BLKSTAT:
		return m->has_blkstat;
	case IOR_MEASURE_TIMED:
		break;
	}
	return m->wall_s > 0;
}

static bool *group_flag(struct ior_measures *m, enum ior_measure_group g)
{
	return g == IOR_MEASURE_LATENCY ? &m->has_latency : g == IOR_MEASURE_CLAT ? &m->has_clat :
	       g == IOR_MEASURE_BLKSTAT ? &m->has_blkstat : NULL;
}

uint64_t ior_measures_u64(const struct ior_measures *m, const struct ior_measure_column *c)
{
	uint64_t v;
	memcpy(&v, (const char *)m + c->offset, sizeof(v));
	return v;
}

double ior_measures_real(const struct ior_measures *m, const struct ior_measure_column *c)
{
	double v;
	memcpy(&v, (const char *)m + c->offset, sizeof(v));
	return v;
}

void ior_db_bind_measures(sqlite3_stmt *st, int first, const struct ior_measures *m)
{
	for (size_t i = 0; i < NCOLUMNS; i++) {
		const struct ior_measure_column *c = &measure_columns[i];
		int at = first + (int)i;
		if (c->group != IOR_MEASURE_TIMED && !ior_measures_known(m, c->group))
			sqlite3_bind_null(st, at);
		else if (c->integer)
			sqlite3_bind_int64(st, at, ior_measures_u64(m, c) > INT64_MAX ? INT64_MAX :
						   (int64_t)ior_measures_u64(m, c));
		else
			sqlite3_bind_double(st, at, ior_measures_real(m, c));
	}
}

void ior_db_read_measures(sqlite3_stmt *st, int first, struct ior_measures *m)
{
	memset(m, 0, sizeof(*m));
	bool seen[IOR_MEASURE_BLKSTAT + 1] = { false };
	for (size_t i = 0; i < NCOLUMNS; i++) {
		const struct ior_measure_column *c = &measure_columns[i];
		int at = first + (int)i;
		bool *flag = group_flag(m, c->group);
		/* a group is there when its first column is (an import's metric row may fill in a later
		 * one alone: the sample still has no latency figures as a whole) */
		if (flag && !seen[c->group])
			*flag = sqlite3_column_type(st, at) != SQLITE_NULL;
		seen[c->group] = true;
		if (c->integer) {
			int64_t v = sqlite3_column_int64(st, at);
			uint64_t u = v > 0 ? (uint64_t)v : 0;
			memcpy((char *)m + c->offset, &u, sizeof(u));
		} else {
			double v = sqlite3_column_double(st, at);
			memcpy((char *)m + c->offset, &v, sizeof(v));
		}
	}
}

char *ior_db_measures_sql(const char *tmpl, int first_param)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	if (!f)
		return NULL;
	for (const char *p = tmpl; *p;) {
		bool names = !strncmp(p, IOR_SQL_MEASURES, strlen(IOR_SQL_MEASURES));
		bool params = !strncmp(p, IOR_SQL_MEASURE_PARAMS, strlen(IOR_SQL_MEASURE_PARAMS));
		if (!names && !params) {
			fputc(*p++, f);
			continue;
		}
		for (size_t i = 0; i < NCOLUMNS; i++)
			if (names)
				fprintf(f, "%s%s", i ? ", " : "", measure_columns[i].name);
			else
				fprintf(f, "%s?%d", i ? ", " : "", first_param + (int)i);
		p += strlen(names ? IOR_SQL_MEASURES : IOR_SQL_MEASURE_PARAMS);
	}
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

/* A metric read straight from its measures column (one of measure_columns), which an import may carry. */
#define STORED(col) .name = #col, .column = #col, .stored = true

/* Latency, time and CPU are costs: lower is better. CPU per GiB is the field's cost of a
 * transfer: a kernel that moves the same bytes at the same rate with more CPU got worse. */
static const struct ior_metric_info metrics[IOR_METRIC_COUNT] = {
	[IOR_METRIC_VALUE] = { .name = "value", .column = "value", .higher_is_better = true,
			       .help = "the headline figure (its unit and direction are the engine's)" },
	[IOR_METRIC_LAT_P50] = { STORED(lat_p50_us), .unit = "us", .help = "median total latency" },
	[IOR_METRIC_LAT_P99] = { STORED(lat_p99_us), .unit = "us", .help = "99th percentile total latency (the tail)" },
	[IOR_METRIC_LAT_P999] = { STORED(lat_p999_us), .unit = "us", .help = "99.9th percentile total latency" },
	[IOR_METRIC_LAT_MEAN] = { STORED(lat_mean_us), .unit = "us", .help = "mean total latency" },
	[IOR_METRIC_CLAT_P50] = { STORED(clat_p50_us), .unit = "us", .help = "median completion latency" },
	[IOR_METRIC_CLAT_P99] = { STORED(clat_p99_us), .unit = "us", .help = "99th percentile completion latency" },
	[IOR_METRIC_CLAT_P999] = { STORED(clat_p999_us), .unit = "us", .help = "99.9th percentile completion latency" },
	[IOR_METRIC_CLAT_MEAN] = { STORED(clat_mean_us), .unit = "us", .help = "mean completion latency" },
	[IOR_METRIC_WALL] = { STORED(wall_s), .unit = "s", .help = "elapsed seconds of the timed part" },
	[IOR_METRIC_USR] = { STORED(usr_s), .unit = "s", .help = "user CPU seconds" },
	[IOR_METRIC_SYS] = { STORED(sys_s), .unit = "s", .help = "system CPU seconds" },
	[IOR_METRIC_CPU] = { .name = "cpu_s", .unit = "s", .column = "usr_s + sys_s",
			     .help = "user and system CPU seconds (derived)" },
	[IOR_METRIC_CPU_PER_GIB] = { .name = "cpu_s_per_gib", .unit = "s/GiB",
				     .column = "(usr_s + sys_s) / (bytes / 1073741824.0)", .where = "bytes > 0",
				     .help = "CPU seconds per GiB moved (derived; needs bytes)" },
	/* The block layer's own behaviour, from the device's request counters: counts, not times, so
	 * they hold still where the CPU's speed does not (a TCG guest, a loaded host). Bigger
	 * requests and more bios merged into them mean fewer requests for the same bytes: better.
	 * A direction that moved no sectors is left out (DATA_IOS): a read cell's stray writes are
	 * flushes (hdparm's BLKFLSBUF: 2 a repetition in a guest), not requests of the transfer. */
#define DATA_IOS "(CASE WHEN rd_sectors > 0 THEN rd_ios ELSE 0 END + CASE WHEN wr_sectors > 0 THEN wr_ios ELSE 0 END)"
#define DATA_MERGES "(CASE WHEN rd_sectors > 0 THEN rd_merges ELSE 0 END + CASE WHEN wr_sectors > 0 THEN wr_merges ELSE 0 END)"
	[IOR_METRIC_REQ_KIB] = { .name = "req_kib", .unit = "KiB", .higher_is_better = true,
				 .column = "(rd_sectors + wr_sectors) / 2.0 / " DATA_IOS,
				 .where = DATA_IOS " > 0",
				 .help = "average request size the device saw (derived from its stat counters)" },
	[IOR_METRIC_MERGE_PCT] = { .name = "merge_pct", .unit = "%", .higher_is_better = true,
				   .column = "100.0 * " DATA_MERGES " / (" DATA_IOS " + " DATA_MERGES ")",
				   .where = DATA_IOS " > 0",
				   .help = "share of bios merged into another request (derived, iostat's %rrqm/%wrqm)" },
	[IOR_METRIC_REQ_PER_GIB] = { .name = "req_per_gib", .unit = "req/GiB",
				     .column = DATA_IOS " / ((rd_sectors + wr_sectors) / 2097152.0)",
				     .where = DATA_IOS " > 0",
				     .help = "requests per GiB the device moved (derived from its stat counters)" },
#undef DATA_IOS
#undef DATA_MERGES
#undef STORED
};

const struct ior_metric_info *ior_metric_info(enum ior_metric m)
{
	return m < IOR_METRIC_COUNT ? &metrics[m] : &metrics[IOR_METRIC_VALUE];
}

int ior_metric_find(enum ior_metric *out, const char *name)
{
	struct ior_suggestion near;
	ior_suggest_init(&near);
	for (int m = 0; m < IOR_METRIC_COUNT; m++) {
		if (!strcmp(name, metrics[m].name)) {
			*out = (enum ior_metric)m;
			return IOR_OK;
		}
		ior_suggest_consider(&near, name, metrics[m].name);
	}
	for (int m = 0; !near.best && *name && m < IOR_METRIC_COUNT; m++)
		if (!strncmp(name, metrics[m].name, strlen(name)))
			near.best = metrics[m].name;  /* "lat_p99" means lat_p99_us more likely than lat_p50_us */
	if (near.best)
		return ior_error_set(IOR_EINVALID, "'%s' is not a metric (did you mean '%s'?)", name, near.best);
	return ior_error_set(IOR_EINVALID, "'%s' is not a metric (value, lat_p50_us, lat_p99_us, lat_p999_us, wall_s, "
			     "usr_s, sys_s, cpu_s_per_gib, req_kib, merge_pct, req_per_gib, ...; 'all' for every one)", name);
}

int ior_metric_parse_list(unsigned *out, const char *text)
{
	if (!strcmp(text, "all")) {
		*out = IOR_METRICS_ALL;
		return IOR_OK;
	}
	unsigned set = 0;
	const char *p = text;
	do {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char name[64];
		if (!len || len >= sizeof(name))
			return ior_error_set(IOR_EINVALID, "'%s' is not a list of metrics", text);
		memcpy(name, p, len);
		name[len] = '\0';
		enum ior_metric m;
		if (ior_metric_find(&m, name))
			return IOR_EINVALID;
		set |= IOR_METRIC_BIT(m);
		p = end ? end + 1 : NULL;
	} while (p);
	*out = set;
	return IOR_OK;
}

struct ior_metric_reader {
	struct ior_db *db;
	sqlite3_stmt *st;
};

int ior_metric_reader_open(struct ior_metric_reader **out, struct ior_db *db, enum ior_metric m)
{
	*out = NULL;
	const struct ior_metric_info *mi = ior_metric_info(m);
	char sql[1536];
	/* where keeps a derived figure from dividing by nothing (a cell that moved no bytes); warm-ups
	 * are never judged */
	snprintf(sql, sizeof(sql),
		 "SELECT %s FROM samples WHERE cell_id = ?1 AND warmup = 0 AND (%s) IS NOT NULL AND (%s) ORDER BY rep",
		 mi->column, mi->column, mi->where ? mi->where : "1");
	struct ior_metric_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return ior_error_set(IOR_ERROR, "out of memory");
	r->db = db;
	if (sqlite3_prepare_v2(db->h, sql, -1, &r->st, NULL) != SQLITE_OK) {
		free(r);
		return ior_db_fail(db, "cannot read metrics from");
	}
	*out = r;
	return IOR_OK;
}

int ior_metric_reader_read(struct ior_metric_reader *r, int64_t cell_id, double **values, size_t *n)
{
	sqlite3_reset(r->st);
	sqlite3_bind_int64(r->st, 1, cell_id);
	int rc;
	while ((rc = sqlite3_step(r->st)) == SQLITE_ROW) {
		double *v = realloc(*values, (*n + 1) * sizeof(*v));
		if (!v)
			return ior_error_set(IOR_ERROR, "out of memory");
		v[(*n)++] = sqlite3_column_double(r->st, 0);
		*values = v;
	}
	return rc == SQLITE_DONE ? IOR_OK : ior_db_fail(r->db, "cannot read samples from");
}

void ior_metric_reader_close(struct ior_metric_reader *r)
{
	if (!r)
		return;
	sqlite3_finalize(r->st);
	free(r);
}
