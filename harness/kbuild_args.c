/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The check of the kernel-tree config options that kernel build, vm run --tree and bisect start --kernel share. */
#include "harness/kbuild_args.h"

#include "common/error.h"

int ior_cmd_kbuild_finish(struct ior_kbuild_opts *kb, const struct ior_cmd_list *fragments)
{
	if (fragments->n > 64)
		return ior_error_set(IOR_EINVALID, "--fragment: at most 64 fragments");
	kb->fragments = fragments->v;
	kb->nfragments = fragments->n;
	if (kb->config && kb->defconfig)
		return ior_error_set(IOR_EINVALID, "give --config FILE or --defconfig NAME, not both");
	return IOR_OK;
}
