/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The upstream I/O-scheduler history as a table, one row per scheduler with its source, and lookups on it. */
#include "kernel/sched_history.h"

#include "kernel/version.h"

#include <string.h>

/* Series are compared, not releases: a scheduler removed "in 2.6.33" is already gone
 * from 2.6.33-rc1, and a stable 2.6.32.y still has it. */
static const struct ior_sched_info history[] = {
	/* anticipatory: the 2.6.0 default, replaced as default by cfq in 2.6.18 (kernelnewbies
	 * Linux_2_6_18: "make CFQ the default I/O scheduler"); removed by Jens Axboe's
	 * "block: Remove the anticipatory IO scheduler" (merged for 2.6.33, kernelnewbies
	 * Linux_2_6_33, LWN 2.6.33 merge window summary). Module as-iosched, Kconfig IOSCHED_AS. */
	{ "anticipatory", "as-iosched", "CONFIG_IOSCHED_AS", "2.6.0", "2.6.33", IOR_QUEUE_LEGACY,
	  "2.6.0", "2.6.18", "" },
	/* noop: in 2.6.0 (block/noop-iosched.c); removed with the whole legacy request path by
	 * "block: remove legacy IO schedulers" (Jens Axboe, merged for 5.0; kernelnewbies Linux_5.0:
	 * "the legacy (non-multiqueue) block layer code has been removed"). */
	{ "noop", "noop-iosched", "CONFIG_IOSCHED_NOOP", "2.6.0", "5.0", IOR_QUEUE_LEGACY, NULL, NULL, "" },
	/* deadline: in 2.6.0 (block/deadline-iosched.c); removed in 5.0 with the legacy path
	 * (same commit as noop). */
	{ "deadline", "deadline-iosched", "CONFIG_IOSCHED_DEADLINE", "2.6.0", "5.0", IOR_QUEUE_LEGACY,
	  NULL, NULL, "" },
	/* cfq: merged in 2.6.6 (Jens Axboe's Completely Fair Queueing, LWN "The CFQ I/O scheduler");
	 * default from 2.6.18 (kernelnewbies Linux_2_6_18); removed in 5.0 with the legacy path
	 * ("block: remove legacy IO schedulers"). */
	{ "cfq", "cfq-iosched", "CONFIG_IOSCHED_CFQ", "2.6.6", "5.0", IOR_QUEUE_LEGACY, "2.6.18", "5.0", "" },
	/* none: what a blk-mq queue without a scheduler shows; blk-mq merged in 3.13
	 * (kernelnewbies Linux_3.13, "multiqueue block layer"). The default for devices with
	 * several hardware queues ("block: get rid of blk-mq default scheduler choice Kconfig
	 * entries", 4.12). No module. */
	{ "none", NULL, NULL, "3.13", NULL, IOR_QUEUE_BLK_MQ, "3.13", NULL, "blk-mq devices with several hardware queues" },
	/* mq-deadline: "blk-mq-sched: add framework for MQ capable IO schedulers" and
	 * block/mq-deadline.c, merged for 4.11 (kernelnewbies Linux_4.11). Default for single-queue blk-mq devices from 4.12
	 * (same Kconfig commit as none). Module mq-deadline, Kconfig MQ_IOSCHED_DEADLINE. */
	{ "mq-deadline", "mq-deadline", "CONFIG_MQ_IOSCHED_DEADLINE", "4.11", NULL, IOR_QUEUE_BLK_MQ,
	  "4.12", NULL, "single-queue blk-mq devices" },
	/* kyber: Omar Sandoval's "blk-mq: introduce Kyber multiqueue I/O scheduler", merged for
	 * 4.12 (kernelnewbies Linux_4.12, LWN "Two new block I/O schedulers for 4.12").
	 * Module kyber-iosched, Kconfig MQ_IOSCHED_KYBER. */
	{ "kyber", "kyber-iosched", "CONFIG_MQ_IOSCHED_KYBER", "4.12", NULL, IOR_QUEUE_BLK_MQ, NULL, NULL, "" },
	/* bfq: Paolo Valente's "block, bfq: introduce the BFQ-v0 I/O scheduler as an extra
	 * scheduler", merged for 4.12 (same LWN article and kernelnewbies Linux_4.12).
	 * Module bfq, Kconfig IOSCHED_BFQ. */
	{ "bfq", "bfq", "CONFIG_IOSCHED_BFQ", "4.12", NULL, IOR_QUEUE_BLK_MQ, NULL, NULL, "" },
};

/* "deadline" as a name for mq-deadline on blk-mq: the elevator_alias field ("elevator: allow
 * name aliases", Jens Axboe, 2017). The release it first shipped in is taken as 4.12 here
 * and was not checked against a git tree while writing this table. */
static const char alias_name[] = "deadline", alias_target[] = "mq-deadline", alias_first[] = "4.12";

const struct ior_sched_info *ior_sched_history(size_t *n)
{
	*n = sizeof(history) / sizeof(history[0]);
	return history;
}

const struct ior_sched_info *ior_sched_lookup(const char *name)
{
	for (size_t i = 0; name && i < sizeof(history) / sizeof(history[0]); i++)
		if (strcmp(history[i].name, name) == 0)
			return &history[i];
	return NULL;
}

bool ior_sched_upstream(const struct ior_sched_info *s, const char *release)
{
	long series = ior_kver_series(release);
	if (!s || series < 0)
		return false;
	return series >= ior_kver_series(s->first) && (!s->removed || series < ior_kver_series(s->removed));
}

const char *ior_sched_resolve(const char *name, const char *release)
{
	if (strcmp(name, alias_name) == 0 && ior_kver_series(release) >= ior_kver_series(alias_first))
		return alias_target;
	return name;
}
