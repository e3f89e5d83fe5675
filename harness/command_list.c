/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The array of commands, written from command_list.h's one list (the guest binary's subset of it). */
#include "harness/command_list.h"

#define IOR_COMMAND_ENTRY(verb) &ior_cmd_##verb,
#ifdef IOR_GUEST_BINARY
const struct ior_command *const ior_commands[] = { IOR_GUEST_COMMAND_LIST(IOR_COMMAND_ENTRY) };
#else
const struct ior_command *const ior_commands[] = { IOR_COMMAND_LIST(IOR_COMMAND_ENTRY) };
#endif

const size_t ior_command_count = sizeof(ior_commands) / sizeof(ior_commands[0]);
