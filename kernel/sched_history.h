/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Upstream I/O-scheduler history (which kernels had which scheduler, in which queue type, default
 * when) and explanations of changes between kernels. */
#ifndef IOR_KERNEL_SCHED_HISTORY_H
#define IOR_KERNEL_SCHED_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

enum ior_queue_type {
	IOR_QUEUE_LEGACY, /* the single-queue request path, removed in 5.0 */
	IOR_QUEUE_BLK_MQ, /* multi-queue block layer, from 3.13 */
};

struct ior_sched_info {
	const char *name;          /* as sysfs lists it */
	const char *module;        /* module name (modules.builtin, .ko), NULL when not a module */
	const char *config;        /* its Kconfig option, NULL when none */
	const char *first;         /* first upstream series with it: "2.6.0", "4.12" */
	const char *removed;       /* first series without it, NULL while upstream */
	enum ior_queue_type queue;
	const char *default_from;  /* upstream default from this series... */
	const char *default_until; /* ...until this one (NULL: still); both NULL when never */
	const char *default_note;  /* for which devices, "" when all */
};

/* The whole table, oldest first. */
const struct ior_sched_info *ior_sched_history(size_t *n);

/* The row for a scheduler name, NULL when unknown. */
const struct ior_sched_info *ior_sched_lookup(const char *name);

/* True when upstream's tree at release's series carried the scheduler. */
bool ior_sched_upstream(const struct ior_sched_info *s, const char *release);

/* The scheduler that a name selects on a blk-mq device of that kernel: "mq-deadline" for
 * "deadline" from 4.12 on, the name itself otherwise. */
const char *ior_sched_resolve(const char *name, const char *release);

enum ior_sched_change {
	IOR_SCHED_UNCHANGED,   /* offered on both or on neither */
	IOR_SCHED_UPSTREAM,    /* added or removed upstream between the two */
	IOR_SCHED_QUEUE_TYPE,  /* both existed, but only for the other queue type (3.13 to 4.20) */
	IOR_SCHED_UNEXPLAINED, /* a config or module packaging change */
};

/* Explains a scheduler offered on one kernel and not the other, into buf:
 * "anticipatory: offered on 2.6.32, absent on 2.6.33-rc5 — removed upstream in 2.6.33".
 * Returns the kind of change (buf is "" for IOR_SCHED_UNCHANGED). */
enum ior_sched_change ior_sched_explain(char *buf, size_t len, const char *name, const char *kernel_a,
					const char *kernel_b, bool offered_a, bool offered_b);

/* --- the schedulers several kernels have in common ---------------------------- */

#define IOR_SCHED_MAX 32

struct ior_sched_left_out {
	char name[32];
	enum ior_sched_change kind; /* UPSTREAM, QUEUE_TYPE or UNEXPLAINED (the least explained wins) */
	char reason[512];           /* "not offered on 2.6.33-rc5 — removed upstream in 2.6.33" */
};

struct ior_sched_common {
	char common[512];           /* space separated, in first-seen order */
	size_t n_left_out;
	struct ior_sched_left_out left_out[IOR_SCHED_MAX];
};

/* offered[i] is kernels[i]'s sysfs-style list ("noop [cfq] deadline": tokens, brackets
 * ignored). Fills the schedulers every kernel offers and, for each other one, why it was
 * left out. IOR_EINVALID when more than IOR_SCHED_MAX distinct names appear. */
int ior_sched_common_set(struct ior_sched_common *out, const char *const *kernels,
			 const char *const *offered, size_t n);

/* True when the sysfs-style list holds name as a token ("[mq-deadline] none" holds "none"). */
bool ior_sched_list_has(const char *list, const char *name);

#endif
