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

const char *ior_axis_pick(enum ior_axis a, const char *host, const char *kernel, const char *engine,
			  const char *device, const char *scheduler)
{
	switch (a) {
	case IOR_AXIS_KERNEL: return kernel;
	case IOR_AXIS_SCHEDULER: return scheduler;
	case IOR_AXIS_DEVICE: return device;
	case IOR_AXIS_ENGINE: return engine;
	case IOR_AXIS_HOST: return host;
	case IOR_AXIS_COUNT: break;
	}
	return NULL;
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
