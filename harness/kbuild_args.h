/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel-tree config options that kernel build, vm run --tree and bisect run share: one parser, one set of rows. */
#ifndef IOR_HARNESS_KBUILD_ARGS_H
#define IOR_HARNESS_KBUILD_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "vm/kernel_build.h"

/* Matches --config, --defconfig, --fragment, --build-dir or --nice at argv[*i] into o (fragments:
 * storage for max of them): *matched false when argv[*i] is none of them, *missing when one
 * matched without its value. IOR_EINVALID for a bad value or --config with --defconfig. */
int ior_cmd_kbuild_option(struct ior_kbuild_opts *o, const char **fragments, size_t max, int argc, char **argv, int *i,
			  bool *missing, bool *matched);

#define IOR_CMD_ROWS_KBUILD                                                                                        \
	{ .name = "--config", .value = IOR_CMD_FILE, .arg = "FILE",                                                 \
	  .help = "the kernel config to start from (instead of --defconfig)" },                                     \
	{ .name = "--defconfig", .value = IOR_CMD_TEXT, .arg = "NAME",                                              \
	  .help = "the make target that writes the starting config: tinyconfig (default), defconfig, ..." },        \
	{ .name = "--fragment", .value = IOR_CMD_FILE, .arg = "FILE", .repeat = true,                               \
	  .help = "a config fragment merged after the guest's options (scripts/kconfig/merge_config.sh)" },         \
	{ .name = "--build-dir", .value = IOR_CMD_FILE, .arg = "DIR",                                               \
	  .help = "where the tree is built (DIR/build) and its images cached (DIR/images) "                         \
		  "(default ~/.cache/ioregress/builds/TREE-HASH)" },                                                \
	{ .name = "--nice", .value = IOR_CMD_NUMBER, .arg = "N",                                                    \
	  .help = "run make under nice -n N (default 0): a build on a shared machine" }

#endif
