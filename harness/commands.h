/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every subcommand's descriptor, each defined in its cmd_<verb>.c, and the one list of them (command_list.c). */
#ifndef IOR_HARNESS_COMMANDS_H
#define IOR_HARNESS_COMMANDS_H

#include "harness/command.h"

extern const struct ior_command ior_cmd_run;
extern const struct ior_command ior_cmd_probe;
extern const struct ior_command ior_cmd_report;
extern const struct ior_command ior_cmd_import;
extern const struct ior_command ior_cmd_check;
extern const struct ior_command ior_cmd_bisect;
extern const struct ior_command ior_cmd_compare;
extern const struct ior_command ior_cmd_schedulers;
extern const struct ior_command ior_cmd_recover;
extern const struct ior_command ior_cmd_merge;
extern const struct ior_command ior_cmd_vm;
extern const struct ior_command ior_cmd_kernel;

/* Every command above, in the order `ioregress --help` shows them. */
extern const struct ior_command *const ior_commands[];
extern const size_t ior_command_count;

#endif
