/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside the bisect loop (bisect/driver.h): one run's state and the steps its files share --
 * measuring (drive_measure.c), calibration and the plan (calibrate.c), judging a candidate
 * (step.c), confirming the culprit (confirm.c) and the answer (answer.c). Not for outside bisect/. */
#ifndef IOR_BISECT_DRIVE_H
#define IOR_BISECT_DRIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "bisect/driver.h"
#include "bisect/plan.h"

struct ior_bisect_run {
	struct ior_bisect_driver *d;
	struct ior_bisect_graph g;
	char **good_ids, *bad_id;
	size_t ngood;
	char current[96];              /* what the source has prepared, "" unknown */
	struct ior_bisect_calibration cal;  /* the ends' gap, noise and drift from their rounds */
	bool boot_failed;              /* the last failed measurement was a kernel that did not boot */
	bool images_blind;             /* both ends built the same artifact: it tells no commit's build apart */
	const char *status;            /* the bisection's status as stored (started, running, ...) */
	size_t cap;                    /* rounds per commit now: --cap, or the budget's plan */
	size_t end_fails[2];           /* failed measurements in a row of the good and the bad end */
	/* the pace as measured in this run: what the plan and the time left are made from */
	struct timespec t0;
	double measure_s, build_s;     /* seconds spent measuring and building */
	size_t measures, builds;
	struct ior_bisect_plan plan;   /* the last plan (need 0 until there is one) */
	double plan_at;                /* elapsed seconds when it was made */
};

/* Progress lines (to d->out) and how commits are named in them. */
void ior_bisect_say(const struct ior_bisect_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *ior_bisect_short(const char *id);                                   /* short id */
const char *ior_bisect_named(const struct ior_bisect_run *r, const char *id);   /* short id (subject) */
double ior_bisect_elapsed(const struct ior_bisect_run *r);                     /* seconds since the run began */
const char *ior_bisect_times(const struct ior_bisect_run *r);                  /* "elapsed 3 min, about 20 min left" */
int ior_bisect_prepare(struct ior_bisect_run *r, const char *id);              /* id made current in the source */
int ior_bisect_stopped(void);                                                 /* IOR_EINTERRUPTED on a stop request */

/* Building and measuring (drive_measure.c). */
int ior_bisect_built(struct ior_bisect_run *r, const char *id, bool *ok, char *image, size_t len);
int ior_bisect_build_failure(struct ior_bisect_run *r, const char *id, char *out, size_t len);
int ior_bisect_end_stopped(struct ior_bisect_run *r, const char *end, const char *what, const char *failure);
int ior_bisect_measure_once(struct ior_bisect_run *r, const char *id, size_t round, bool *ok);
int ior_bisect_end_retry(struct ior_bisect_run *r, const char *end);
int ior_bisect_measure_round(struct ior_bisect_run *r, const char *const *ids, size_t k, size_t *failed);
int ior_bisect_ends_round(struct ior_bisect_run *r, const char *const *ends);

/* The ends, the noise and the plan (calibrate.c). */
int ior_bisect_looks_left(struct ior_bisect_run *r, size_t *looks);
int ior_bisect_ends_noise(struct ior_bisect_run *r, double *recent, double *all);
int ior_bisect_replan(struct ior_bisect_run *r, size_t looks, bool initial);
int ior_bisect_calibrate(struct ior_bisect_run *r, bool *refused, char *reason, size_t len);

/* One candidate judged and marked (step.c). */
int ior_bisect_mark_as(struct ior_bisect_run *r, const char *id, enum ior_bisect_mark m, const char *reason,
		       const char *event);
int ior_bisect_step(struct ior_bisect_run *r, size_t node, bool *undecided);

/* How a confirmation ended. */
enum ior_bisect_confirm_verdict {
	IOR_CONFIRM_CONFIRMED,   /* the culprit stays bad and its parent good, apart from each other */
	IOR_CONFIRM_OVERTURNED,  /* one of the two was judged the other way: its mark changed, bisect on */
	IOR_CONFIRM_UNDECIDED,   /* the two are the range */
	IOR_CONFIRM_AGAIN,       /* not yet apart: a larger target was logged, confirm again */
};

/* The culprit confirmed on fresh rounds (confirm.c). */
const char *ior_bisect_confirm_parent(const struct ior_bisect_run *r, size_t culprit);
int ior_bisect_confirm(struct ior_bisect_run *r, size_t culprit, enum ior_bisect_confirm_verdict *verdict, char *reason,
		       size_t len);
int ior_bisect_unjudge(struct ior_bisect_run *r, const size_t *nodes, size_t n, const char *why);

/* The answer (answer.c). */
int ior_bisect_ends_evidence(struct ior_bisect_run *r, char *buf, size_t len);
int ior_bisect_finish(struct ior_bisect_run *r, struct ior_bisect_result *res, const struct ior_bisect_left *left,
		      size_t culprit, const char *why);
int ior_bisect_unbootable_answer(struct ior_bisect_run *r, struct ior_bisect_result *res,
				 const struct ior_bisect_left *left, bool *found);

#endif
