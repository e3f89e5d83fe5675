/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one list of ioregress's commands, each defined in its cmd_<verb>.c: main.c dispatches from
 * it, the completion writer and the man-page test read it. */
#ifndef IOR_HARNESS_COMMAND_LIST_H
#define IOR_HARNESS_COMMAND_LIST_H

#include "harness/command.h"

/* Every command, in the order `ioregress --help` shows them; X(verb) names ior_cmd_<verb>. */
#define IOR_COMMAND_LIST(X) \
	X(run) X(probe) X(report) X(import) X(merge) X(vm) X(kernel) X(check) X(bisect) X(compare) X(recover) \
	X(schedulers)

/* The commands of the guest binary, ioregress-guest (built from these same files with
 * IOR_GUEST_BINARY): what a vm run guest's init runs, and nothing that links libgit2 or libarchive
 * (issue 38: each library the loader maps costs every boot under TCG). */
#define IOR_GUEST_COMMAND_LIST(X) X(run)

#define IOR_COMMAND_DECLARE(verb) extern const struct ior_command ior_cmd_##verb;
IOR_COMMAND_LIST(IOR_COMMAND_DECLARE)

/* The commands above as an array (command_list.c): the guest's in the guest binary. */
extern const struct ior_command *const ior_commands[];
extern const size_t ior_command_count;

#endif
