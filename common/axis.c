/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Names of the comparison axes and their lookup with a did-you-mean (see axis.h). */
#include "common/axis.h"

#include "common/error.h"
#include "common/suggest.h"

#include <string.h>

static const char *const names[IOR_AXIS_COUNT] = {
	[IOR_AXIS_KERNEL] = "kernel",
	[IOR_AXIS_SCHEDULER] = "scheduler",
	[IOR_AXIS_DEVICE] = "device",
	[IOR_AXIS_ENGINE] = "engine",
	[IOR_AXIS_HOST] = "host",
};

const char *ior_axis_name(enum ior_axis a)
{
	return a < IOR_AXIS_COUNT ? names[a] : "?";
}

int ior_axis_find(enum ior_axis *out, const char *name)
{
	struct ior_suggestion near;
	ior_suggest_init(&near);
	for (int a = 0; a < IOR_AXIS_COUNT; a++) {
		if (!strcmp(name, names[a])) {
			*out = (enum ior_axis)a;
			return IOR_OK;
		}
		ior_suggest_consider(&near, name, names[a]);
	}
	if (near.best)
		return ior_error_set(IOR_EINVALID, "'%s' is not an axis (did you mean '%s'?)", name, near.best);
	return ior_error_set(IOR_EINVALID, "'%s' is not an axis (kernel, scheduler, device, engine or host)", name);
}
