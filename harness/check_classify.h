/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `check --baseline GOOD --bad BAD`: the candidate classified against both ends, printed, as git
 * bisect run's exit status. */
#ifndef IOR_HARNESS_CHECK_CLASSIFY_H
#define IOR_HARNESS_CHECK_CLASSIFY_H

#include <stdio.h>

#include "db/db.h"
#include "reports/model.h"

/* o carries the good end (baseline), the candidate and the filters. Returns 0 good, 1 bad,
 * 125 cannot tell, 128 on an error or when the ends differ on no cell (the message printed). */
int ior_check_classify(FILE *out, struct ior_db *db, const struct ior_report_opts *o, const char *bad);

#endif
