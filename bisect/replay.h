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
/* The same from the file at path, which must be a regular file: a FIFO, a device (/dev/zero) or a
 * directory is refused (IOR_EINVALID) before a byte is read, as they would never end; opening does
 * not block. */
int ior_bisect_replay_file(struct ior_db *db, const char *path, int64_t *id);

#endif
