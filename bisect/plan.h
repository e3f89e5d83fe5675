/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A bisection's time budget turned into rounds per commit: from the ends' noise and gap, the time a
 * measurement and a build take as measured so far, and the looks left. */
#ifndef IOR_BISECT_PLAN_H
#define IOR_BISECT_PLAN_H

#include <stdbool.h>
#include <stddef.h>

/* What the plan is made from. Times in seconds; a time not yet measured is 0. */
struct ior_bisect_plan_in {
	double noise, gap;      /* the ends' per-measurement noise and their gap (log units, the gap signed) */
	size_t cal_rounds;      /* the rounds the noise was estimated from (its margin, judge.h) */
	double alpha;           /* of each look */
	size_t looks;           /* commits left to judge: about log2 of the candidates */
	size_t confirm;         /* the confirmation's first rounds (judge opts) */
	double left_s;          /* of the budget */
	double measure_s;       /* one measurement (with its boot, when each is one) */
	double build_s;         /* one build */
	size_t cap_max;         /* --cap given with --budget: the most rounds per commit; 0 none */
	size_t cap_floor;       /* rounds per commit taken when the budget affords them (default cap, 60) */
	bool sequential;        /* commits judged by the sequential ratio test (judge opts): a look stops when
				 * it is decided, expected after fewer rounds than its cap */
	size_t first;           /* the rounds before a commit's first look (judge opts) */
};

struct ior_bisect_plan {
	bool ok;                /* the gap can be found within the budget (and --cap) */
	size_t need;            /* the fewest rounds per commit that find the gap (95% power, with the margin); 0: none up to 10000 */
	size_t cap;             /* ok: rounds per commit chosen, from need up to 1.5 need (at least cap_floor) as the budget affords */
	size_t afford;          /* the most rounds per commit the budget affords (capped at 100000) */
	double seconds;         /* ok: the expected time to an answer (looks decided by need rounds) */
	double need_s;          /* the time an answer needs at `need` rounds: what a refusal states */
};

/* The rounds a look is expected to take with a cap of `rounds`: the cap itself for the looks' test;
 * for the sequential one Wald's expected sample number at the ends' noise and gap (no fewer than
 * `first`, no more than the cap). */
double ior_bisect_plan_look_rounds(const struct ior_bisect_plan_in *in, size_t rounds);

/* The time an answer is expected to take at `rounds` per look: each look a build and its expected
 * rounds (ior_bisect_plan_look_rounds) of three, then the confirmation (a build, and rounds of four:
 * the confirmation's first, or `rounds`). */
double ior_bisect_plan_seconds(const struct ior_bisect_plan_in *in, size_t rounds);

/* The rounds per commit the budget affords, regardless of the noise (0 when not even 5 fit; 100000
 * when the times are not measured yet). */
size_t ior_bisect_plan_afford(const struct ior_bisect_plan_in *in);

/* The plan: need from the noise and the gap, afford from the budget, cap between them. */
void ior_bisect_plan_make(struct ior_bisect_plan *out, const struct ior_bisect_plan_in *in);

/* "25 min", "40 s", "2 h 10 min": a time for a tester. */
void ior_bisect_plan_duration(char *buf, size_t len, double seconds);

#endif
