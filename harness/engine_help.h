/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress help engines` and `help engine NAME`: every engine with its one-line help, and an
 * engine's keys from its own option rows, so the text cannot drift from the code. */
#ifndef IOR_HARNESS_ENGINE_HELP_H
#define IOR_HARNESS_ENGINE_HELP_H

#include <stdio.h>

/* One line per registered engine: its type name and help. */
void ior_help_engines(FILE *out);
/* NAME's keys: type, range, default and help, one row each; IOR_ENOTFOUND with "did you mean"
 * (and fio's names mapped) when there is no such engine. */
int ior_help_engine(FILE *out, const char *name);

#endif
