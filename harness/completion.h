/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shell completion written from the command descriptors, so it knows exactly the commands, options
 * and values the parsers take. */
#ifndef IOR_HARNESS_COMPLETION_H
#define IOR_HARNESS_COMPLETION_H

#include "harness/command.h"

#include <stddef.h>
#include <stdio.h>

/* Writes a bash completion script for ioregress: the commands of list, each one's options and
 * aliases, the global options, the values of choice options, and files for FILE options and
 * file operands (matching the command's operand_glob). Returns 0, or -1 when out could not be
 * written. */
int ior_completion_bash(FILE *out, const struct ior_command *const *list, size_t n);

#endif
