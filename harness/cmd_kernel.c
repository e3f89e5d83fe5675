/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ioregress kernel build`: build a kernel tree for a guest (logic in vm/kernel_build.c) and print
 * it as vm run takes it. */
#include "common/error.h"
#include "common/stop.h"
#include "harness/command_list.h"
#include "harness/kbuild_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kernel_args {
	struct ior_kbuild_opts kb;
	struct ior_cmd_list fragments;
};

static int cmd_kernel(int argc, char **argv, struct ior_cmd_ctx *ctx)
{
	struct kernel_args a = { .kb.progress = !ctx->quiet };
	struct ior_cmd_parsed p;
	int status = ior_cmd_parse_or_usage(&ior_cmd_kernel, argc, argv, &a, &p);
	if (status)
		return status;
	if (ior_cmd_kbuild_finish(&a.kb, &a.fragments)) {
		ior_cmd_error_last();
		return 2;
	}
	ior_stop_install_handlers();
	struct ior_kbuild b;
	int rc = ior_kernel_build(&b, &a.kb);
	if (rc) {
		ior_cmd_error_last();
		return rc == IOR_EINVALID ? 2 : 1;
	}
	char state[96] = "clean";
	if (b.dirty) /* its image is not the commit's: said, and kept apart from the commit's own */
		snprintf(state, sizeof(state), "local changes %.12s: never reused", b.local_changes);
	if (!ctx->quiet)
		fprintf(stderr, "kernel build: %s %s%s%s (%s), config %.12s, image %.12s, %s in %.1f s\n", b.release,
			b.commit.sha[0] ? b.commit.sha : "no commit", b.commit.describe[0] ? " " : "", b.commit.describe,
			state, b.config_hash, b.image_hash, b.reused ? "reused from the cache" : "built", b.seconds);
	printf("%s:%s\n", b.image, b.modules);
	return 0;
}

static const struct ior_cmd_opt build_options[] = {
	{ .name = "--tree", .value = IOR_CMD_FILE, .arg = "DIR", IOR_CMD_AT(struct kernel_args, kb.tree),
	  .help = "the kernel source tree (default: the current directory)" },
	IOR_CMD_ROWS_KBUILD(struct kernel_args, kb, fragments),
	{ .name = "--out", .value = IOR_CMD_FILE, .arg = "DIR", IOR_CMD_AT(struct kernel_args, kb.out),
	  .help = "the same as --build-dir" },
	{ 0 },
};

const struct ior_command ior_cmd_kernel = {
	.name = "kernel",
	.fn = cmd_kernel,
	.error_status = 1,
	.summary = "build a kernel tree for vm run and bisect: make O=, guest options merged in, cached",
	.subs = (const struct ior_cmd_sub[]){ { .name = "build", .options = build_options }, { 0 } },
	.description =
		"Builds bzImage and modules out of tree (make O=DIR/build) with -j the host's CPUs and ccache when it is "
		"installed, installs the modules into a staging tree, and prints PATH/bzImage:MODULES_DIR, the form "
		"vm run takes. The config starts from --config FILE or the make target --defconfig NAME (default "
		"tinyconfig), then the options every guest needs are merged in with scripts/kconfig/merge_config.sh "
		"(virtio-blk and virtio-pci, devtmpfs, the serial console, an initramfs, ACPI power-off, mq-deadline "
		"built in, kyber and bfq as modules, loop, and the system calls ioregress uses), then each --fragment "
		"in order (so a fragment may change a guest option), then make olddefconfig. A config that lost an "
		"option a guest cannot boot without is refused before anything is compiled.\n\n"
		"Each build is recorded in DIR/images/SHA-CONFIG/build.info: the commit (sha, describe, subject, "
		"author), the sha256 of the .config and of the bzImage. A build of a commit already built with the "
		"same config hash is reused without compiling (from the same inputs, without even configuring); a tree "
		"with changed tracked files (or no git "
		"repository) is built each time. The build stamps (time, user, host, version) are fixed, so commits "
		"compiling to the same code give byte-identical images. A failed build is an error quoting the first "
		"error lines of DIR/build.log.\n\n"
		"Exit status: 0 built or reused, 1 the build failed, 2 for bad arguments or a config a guest cannot "
		"boot with.",
	.options = (const struct ior_cmd_opt[]){ { 0 } },
};
