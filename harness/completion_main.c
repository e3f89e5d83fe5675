/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The build's completion writer: prints the bash completion script for the commands ioregress has
 * (cmake/Install.cmake installs its output). */
#include "harness/command_list.h"
#include "harness/completion.h"

#include <stdio.h>

int main(void)
{
	if (ior_completion_bash(stdout, ior_commands, ior_command_count) != 0 || fclose(stdout) != 0) {
		perror("ior_completion: cannot write the completion script");
		return 1;
	}
	return 0;
}
