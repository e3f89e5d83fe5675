/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one list of ioregress's commands, in the order `ioregress --help` shows them: main.c dispatches from it, the completion generator and the man-page test read it. */
#include "harness/commands.h"

const struct ior_command *const ior_commands[] = {
	&ior_cmd_run,
	&ior_cmd_probe,
	&ior_cmd_report,
	&ior_cmd_import,
	&ior_cmd_merge,
	&ior_cmd_vm,
	&ior_cmd_kernel,
	&ior_cmd_check,
	&ior_cmd_bisect,
	&ior_cmd_compare,
	&ior_cmd_recover,
	&ior_cmd_schedulers,
};

const size_t ior_command_count = sizeof(ior_commands) / sizeof(ior_commands[0]);
