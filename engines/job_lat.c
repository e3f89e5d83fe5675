/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Latency histogram with fio's log-linear buckets: fixed memory, about 1.6% resolution. */
#include "engines/job.h"

unsigned ior_lat_index(uint64_t ns)
{
	if (ns < 2 * IOR_LAT_VAL)
		return (unsigned)ns;
	unsigned msb = 63 - (unsigned)__builtin_clzll(ns);
	unsigned shift = msb - IOR_LAT_BITS;
	unsigned idx = ((shift + 1) << IOR_LAT_BITS) + (unsigned)((ns >> shift) & (IOR_LAT_VAL - 1));
	return idx < IOR_LAT_BUCKETS ? idx : IOR_LAT_BUCKETS - 1;
}

double ior_lat_value(unsigned index)
{
	if (index < 2 * IOR_LAT_VAL)
		return index;
	unsigned shift = (index >> IOR_LAT_BITS) - 1;
	double low = (double)((uint64_t)(IOR_LAT_VAL + (index & (IOR_LAT_VAL - 1))) << shift);
	return low + (double)(1ULL << shift) / 2;
}

void ior_lat_add(struct ior_lat_hist *h, uint64_t ns)
{
	h->count[ior_lat_index(ns)]++;
	h->n++;
	h->sum_ns += ns;
}

void ior_lat_merge(struct ior_lat_hist *into, const struct ior_lat_hist *from)
{
	for (unsigned i = 0; i < IOR_LAT_BUCKETS; i++)
		into->count[i] += from->count[i];
	into->n += from->n;
	into->sum_ns += from->sum_ns;
}

double ior_lat_mean(const struct ior_lat_hist *h)
{
	return h->n ? (double)h->sum_ns / (double)h->n : 0;
}

double ior_lat_percentile(const struct ior_lat_hist *h, double p)
{
	if (h->n == 0)
		return 0;
	/* The smallest bucket whose cumulative count reaches p of all samples. */
	double want = p * (double)h->n;
	uint64_t seen = 0;
	for (unsigned i = 0; i < IOR_LAT_BUCKETS; i++) {
		seen += h->count[i];
		if (seen > 0 && (double)seen >= want)
			return ior_lat_value(i);
	}
	return ior_lat_value(IOR_LAT_BUCKETS - 1);
}
