/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bisection's answer in words: the culprit with sha, subject, author and the evidence table, or
 * the range of candidates left with the evidence for each. */
#ifndef IOR_BISECT_EVIDENCE_H
#define IOR_BISECT_EVIDENCE_H

#include "bisect/graph.h"
#include "bisect/source.h"
#include "db/db.h"

/* How a commit whose build artifact matched a judged one's ends its reason: no look measured it. The
 * answer's row says more when confirmation measured it afterwards (the culprit's parent can be such a
 * commit), so that the row's n is not read against "not measured". */
#define IOR_BISECT_UNMEASURED ": not measured"

int ior_bisect_evidence_culprit(char **out, struct ior_db *db, int64_t id, struct ior_bisect_source *src,
				const struct ior_bisect_graph *g, size_t culprit, const char *parent, const char *good,
				const char *bad, const char *why);
int ior_bisect_evidence_range(char **out, struct ior_db *db, int64_t id, struct ior_bisect_source *src,
			      const struct ior_bisect_graph *g, const struct ior_bisect_left *left, const char *good,
			      const char *bad, const char *why);
/* What a kernel whose boots keep failing does, by failure's outcome ("panic after 3 boots: ..."):
 * "panics", "hangs", "does not boot" (boot-failed, or no words), else "cannot be measured". */
const char *ior_bisect_failure_verb(const char *failure);
/* Skipped candidates leave a range and node among them did not boot: "first kernel that does not
 * boot: ID" (or "panics", "hangs", by ior_bisect_failure_verb) with failure (its outcome and console
 * head), why, then the candidates and the evidence as for a range. */
int ior_bisect_evidence_unbootable(char **out, struct ior_db *db, int64_t id, const struct ior_bisect_graph *g,
				   const struct ior_bisect_left *left, size_t node, const char *failure, const char *good,
				   const char *bad, const char *why);

/* An end that cannot be built or measured stops the bisection: "stopped: the bad end ID does not
 * boot" (what), failure (the outcome, tries, reason and console head), the samples kept and what to do. */
int ior_bisect_evidence_end(char **out, bool bad_end, const char *end, const char *what, const char *failure,
			    size_t samples);

#endif
