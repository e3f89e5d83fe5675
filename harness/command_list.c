/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The array of commands, written from command_list.h's one list. */
#include "harness/command_list.h"

#define IOR_COMMAND_ENTRY(verb) &ior_cmd_##verb,
const struct ior_command *const ior_commands[] = { IOR_COMMAND_LIST(IOR_COMMAND_ENTRY) };

const size_t ior_command_count = sizeof(ior_commands) / sizeof(ior_commands[0]);
