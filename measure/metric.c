/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The metric table written from IOR_METRIC_LIST, the derived metrics' SQL, and finding metrics by
 * name (see metric.h). */
#include "measure/metric.h"

#include "common/error.h"
#include "common/suggest.h"

#include <stdio.h>
#include <string.h>

/* How a derived metric is computed from a sample's columns, in SQL (db/metric.c reads it so).
 * The block layer's own behaviour comes from the device's request counters: counts, not times,
 * so they hold still where the CPU's speed does not (a TCG guest, a loaded host). A direction
 * that moved no sectors is left out (DATA_IOS): a read cell's stray writes are flushes (hdparm's
 * BLKFLSBUF: 2 a repetition in a guest), not requests of the transfer. */
#define DATA_IOS "(CASE WHEN rd_sectors > 0 THEN rd_ios ELSE 0 END + CASE WHEN wr_sectors > 0 THEN wr_ios ELSE 0 END)"
#define DATA_MERGES "(CASE WHEN rd_sectors > 0 THEN rd_merges ELSE 0 END + CASE WHEN wr_sectors > 0 THEN wr_merges ELSE 0 END)"
#define SQL_CPU "usr_s + sys_s"
#define WHERE_CPU NULL
#define SQL_CPU_PER_GIB "(usr_s + sys_s) / (bytes / 1073741824.0)"
#define WHERE_CPU_PER_GIB "bytes > 0"
#define SQL_REQ_KIB "(rd_sectors + wr_sectors) / 2.0 / " DATA_IOS
#define WHERE_REQ_KIB DATA_IOS " > 0"
#define SQL_MERGE_PCT "100.0 * " DATA_MERGES " / (" DATA_IOS " + " DATA_MERGES ")"
#define WHERE_MERGE_PCT DATA_IOS " > 0"
#define SQL_REQ_PER_GIB DATA_IOS " / ((rd_sectors + wr_sectors) / 2097152.0)"
#define WHERE_REQ_PER_GIB DATA_IOS " > 0"

/* The headline and the stored metrics are read from their own column. */
#define COLUMN_HEADLINE(id, nm) #nm
#define COLUMN_COLUMN(id, nm) #nm
#define COLUMN_DERIVED(id, nm) SQL_##id
#define COLUMN_COUNTERS(id, nm) SQL_##id
#define WHERE_HEADLINE(id) NULL
#define WHERE_COLUMN(id) NULL
#define WHERE_DERIVED(id) WHERE_##id
#define WHERE_COUNTERS(id) WHERE_##id

#define ROW(id, nm, u, hib, k, g, text) \
	[IOR_METRIC_##id] = { .name = #nm, .unit = u, .higher_is_better = hib, .kind = IOR_METRIC_KIND_##k, \
			      .group = IOR_MEASURE_##g, .stored = IOR_METRIC_KIND_##k == IOR_METRIC_KIND_COLUMN, \
			      .column = COLUMN_##k(id, nm), .where = WHERE_##k(id), .help = text },
static const struct ior_metric_info metrics[IOR_METRIC_COUNT] = { IOR_METRIC_LIST(ROW) };

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
	char names[512] = "";
	size_t len = 0;
	for (int m = 0; m < IOR_METRIC_COUNT && len < sizeof(names); m++)
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", m ? ", " : "", metrics[m].name);
	return ior_error_set(IOR_EINVALID, "'%s' is not a metric (%s; 'all' for every one)", name, names);
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
