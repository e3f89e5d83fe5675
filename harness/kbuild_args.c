/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel-tree config options that kernel build, vm run --tree and bisect run share. */
#include "harness/kbuild_args.h"

#include "common/error.h"
#include "harness/command.h"

#include <stdlib.h>
#include <string.h>

int ior_cmd_kbuild_option(struct ior_kbuild_opts *o, const char **fragments, size_t max, int argc, char **argv, int *i,
			  bool *missing, bool *matched)
{
	const char *v;
	*matched = true;
	if ((v = ior_cmd_option_value(argc, argv, i, "--config", missing)))
		o->config = v;
	else if ((v = ior_cmd_option_value(argc, argv, i, "--defconfig", missing)))
		o->defconfig = v;
	else if ((v = ior_cmd_option_value(argc, argv, i, "--fragment", missing))) {
		if (o->nfragments == max)
			return ior_error_set(IOR_EINVALID, "--fragment: at most %zu fragments", max);
		fragments[o->nfragments++] = v;
		o->fragments = fragments;
	} else if ((v = ior_cmd_option_value(argc, argv, i, "--build-dir", missing)))
		o->out = v;
	else if ((v = ior_cmd_option_value(argc, argv, i, "--nice", missing))) {
		char *end;
		long n = strtol(v, &end, 10);
		if (end == v || *end || n < 0 || n > 19)
			return ior_error_set(IOR_EINVALID, "--nice: '%s' is not a whole number from 0 to 19", v);
		o->nice = (int)n;
	} else
		*matched = false;
	if (!*missing && o->config && o->defconfig)
		return ior_error_set(IOR_EINVALID, "give --config FILE or --defconfig NAME, not both");
	return IOR_OK;
}

