/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel-tree config options that kernel build, vm run --tree and bisect start --kernel share:
 * one set of rows, one check. */
#ifndef IOR_HARNESS_KBUILD_ARGS_H
#define IOR_HARNESS_KBUILD_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/command.h"
#include "vm/kernel_build.h"

/* After parsing: the --fragment list into kb; IOR_EINVALID for --config with --defconfig. */
int ior_cmd_kbuild_finish(struct ior_kbuild_opts *kb, const struct ior_cmd_list *fragments);

/* --config, --defconfig, --fragment, --build-dir and --nice, into the struct ior_kbuild_opts at kb
 * and the struct ior_cmd_list at fragments of type. */
#define IOR_CMD_ROWS_KBUILD(type, kb, fragments)                                                                    \
	{ .name = "--config", .value = IOR_CMD_FILE, .arg = "FILE", IOR_CMD_AT(type, kb.config),                    \
	  .help = "the kernel config to start from (instead of --defconfig)" },                                     \
	{ .name = "--defconfig", .value = IOR_CMD_TEXT, .arg = "NAME", IOR_CMD_AT(type, kb.defconfig),              \
	  .help = "the make target that writes the starting config: tinyconfig (default), defconfig, ..." },        \
	{ .name = "--fragment", .value = IOR_CMD_FILE, .arg = "FILE", .repeat = true, IOR_CMD_AT(type, fragments),  \
	  .help = "a config fragment merged after the guest's options (scripts/kconfig/merge_config.sh)" },         \
	{ .name = "--build-dir", .value = IOR_CMD_FILE, .arg = "DIR", IOR_CMD_AT(type, kb.out),                     \
	  .help = "where the tree is built (DIR/build) and its images cached (DIR/images) "                         \
		  "(default ~/.cache/ioregress/builds/TREE-HASH)" },                                                \
	{ .name = "--nice", .value = IOR_CMD_NUMBER, .arg = "N", .kind = IOR_CMD_COUNT, .min = 0, .max = 19,        \
	  IOR_CMD_AT(type, kb.nice), .help = "run make under nice -n N (default 0): a build on a shared machine" }

#endif
