/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The measures' column table and reading and writing a field by its row (see measures.h). */
#include "measure/measures.h"

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

bool *ior_measures_group_flag(struct ior_measures *m, enum ior_measure_group g)
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

void ior_measures_set_u64(struct ior_measures *m, const struct ior_measure_column *c, uint64_t v)
{
	memcpy((char *)m + c->offset, &v, sizeof(v));
}

void ior_measures_set_real(struct ior_measures *m, const struct ior_measure_column *c, double v)
{
	memcpy((char *)m + c->offset, &v, sizeof(v));
}
