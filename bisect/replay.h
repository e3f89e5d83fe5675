/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `bisect log` and `bisect replay`: the bisection's log as a text file of its steps (start, build,
 * measure, mark, confirm) that replays into a new bisection with every sample. */
#ifndef IOR_BISECT_REPLAY_H
#define IOR_BISECT_REPLAY_H

#include <stdio.h>

#include "bisect/state.h"

int ior_bisect_log_print(FILE *out, struct ior_db *db, const struct ior_bisect_info *b);
/* Reads a log written by ior_bisect_log_print into a new bisection (the current one from then on);
 * name is the file's name for messages. */
int ior_bisect_replay(struct ior_db *db, FILE *in, const char *name, int64_t *id);

#endif
