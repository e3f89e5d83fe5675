/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Variance alerts: a device on a kernel (all its samples, the field report's view) or a cell whose
 * spread stands out. */
#ifndef IOR_JUDGE_ALERTS_H
#define IOR_JUDGE_ALERTS_H

#include <stddef.h>

#include "judge/table.h"
#include "stats/trend.h"

/*
 * The rule, for a device on a kernel (and likewise for a cell):
 *   spread > floor  AND  spread > ratio * (median spread of its peers)
 * A device's peers are the other devices on the same kernel and the same
 * device (same host and engine) on the other kernels. A cell's peers are the
 * other schedulers of its device on the same kernel and the same cell on the
 * other kernels: a cell alert means "this scheduler is odd", the device alert
 * covers "this device is odd". With no peers only the floor applies.
 *
 * Why: a spread means little alone. The field report's SSD RAID had 18.6% on
 * 2.6.30-2, in line with that device's behaviour; what made 2.6.32 (66.9%)
 * and 2.6.33-rc5 (54.6%) stand out is that they were several times what the
 * SATA RAID beside them showed (3-5%) and several times the same SSD on
 * another kernel. The median of the peers resists one other odd kernel or
 * device; twice the peers' median is the smallest multiple that is not within
 * the usual kernel-to-kernel wobble of a device (the seed data's SATA RAID
 * spreads 3.1-6.4% vary by 2x at most). The floor (10%, the matrix's
 * alert_spread) keeps very tight measures from alerting on spreads that
 * matter to no one: the field report's scheduler differences were 1-3%, so a
 * spread under 10% cannot hide a difference a tester is looking for.
 */
#define IOR_ALERT_FLOOR 0.10
/* The severity of a cell alert raised by its trend alone: just at its threshold. */
#define IOR_ALERT_TREND_SEVERITY 1.0
#define IOR_ALERT_PEER_RATIO 2.0

struct ior_alert_opts {
	double floor;       /* absolute spread floor, fraction; matrix alert_spread, --alert-spread */
	double peer_ratio;  /* how many times the peers' median spread */
};
void ior_alert_opts_default(struct ior_alert_opts *o);

enum ior_alert_kind { IOR_ALERT_DEVICE, IOR_ALERT_CELL };

/* Peers are listed by name in the words (up to this many per axis: for the other kernels,
 * the nearest ones in version order); every peer counts in the median. */
#define IOR_ALERT_PEERS_LISTED 8

struct ior_alert_peer {
	const char *label;        /* a device, scheduler or kernel */
	double spread;
};

/* One axis of comparison: "other devices on this kernel" or "the same device on other kernels". */
struct ior_alert_axis {
	size_t n;                 /* peers with a spread */
	double median;            /* NAN when n is 0 */
	struct ior_alert_peer listed[IOR_ALERT_PEERS_LISTED];
	size_t nlisted;
};

/* An alert as structured fields; ior_alert_describe() puts it in words. */
struct ior_alert {
	enum ior_alert_kind kind;
	const char *host, *kernel, *engine, *params, *device, *scheduler;  /* scheduler NULL for a device alert */
	size_t group, index;      /* the group in the model, and the device or cell in it */
	size_t n;
	double min, max, spread;
	double peer_median;       /* over both axes; NAN without peers */
	double threshold;         /* what the spread had to exceed: the floor, or peer_ratio x the peers' median */
	double floor, peer_ratio;
	double severity;          /* spread / threshold: how far past it, for "most severe first" */
	struct ior_alert_axis here, elsewhere;
	/* A cell's repetitions in one of its runs follow a trend (stats/trend.h): its spread is
	 * warm-up or drift, not plain noise, and a cell with a trend alerts even when its spread
	 * stays under the threshold (spread_alert false). Always none for a device. */
	struct ior_trend trend;
	bool spread_alert;        /* the spread rule alone would alert */
};

/* Every alert over the model, devices first within each group. */
int ior_alerts_compute(struct ior_alert **out, size_t *n, const struct ior_tables *rt, const struct ior_alert_opts *o);

/* The alert in words, with the comparison to its peers (a trend first, when the cell has one):
 * "device 'SSD RAID' on 2.6.32: spread 66.9% over 9 samples (...), 3.6x the peers' median ...". */
void ior_alert_describe(char *buf, size_t len, const struct ior_alert *a);

#endif
