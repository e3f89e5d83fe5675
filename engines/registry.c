/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The list of all engines (stress-ng's explicit-list model): add a line to IOR_ENGINES to register one. */
#include "engines/engine.h"
#include "common/error.h"
#include "common/suggest.h"

#include <stdio.h>
#include <string.h>

/* One X(name) per engine; each engine file defines `const struct ior_engine_ops ior_engine_<name>`. */
#define IOR_ENGINES(X) \
	X(hdparm) \
	X(aio) \
	X(uring) \
	X(dd) \
	X(loop) \
	X(fio) \
	X(exec)

#define DECLARE(name) extern const struct ior_engine_ops ior_engine_##name;
IOR_ENGINES(DECLARE)
#undef DECLARE

#define ENTRY(name) &ior_engine_##name,
static const struct ior_engine_ops *const engines[] = { IOR_ENGINES(ENTRY) };
#undef ENTRY

size_t ior_engine_count(void)
{
	return sizeof(engines) / sizeof(engines[0]);
}

const struct ior_engine_ops *ior_engine_at(size_t i)
{
	return i < ior_engine_count() ? engines[i] : NULL;
}

/* fio's ioengine names for the engines that follow fio's job semantics, so a fio user's
 * "type = libaio" is pointed at the right one. */
static const struct {
	const char *fio, *ours;
} fio_names[] = {
	{ .fio = "libaio", .ours = "aio" },
	{ .fio = "io_uring", .ours = "uring" },
	{ .fio = "psync", .ours = "dd" },
	{ .fio = "sync", .ours = "dd" },
};

const struct ior_engine_ops *ior_engine_find(const char *name)
{
	struct ior_suggestion near;
	ior_suggest_init(&near);
	char list[256] = "";
	for (size_t i = 0; i < ior_engine_count(); i++) {
		if (strcmp(engines[i]->name, name) == 0)
			return engines[i];
		ior_suggest_consider(&near, name, engines[i]->name);
		size_t used = strlen(list);
		snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "", engines[i]->name);
	}
	const char *hint = near.best;
	for (size_t i = 0; i < sizeof(fio_names) / sizeof(fio_names[0]); i++)
		if (strcmp(fio_names[i].fio, name) == 0)
			hint = fio_names[i].ours;
	if (hint)
		ior_error_set(IOR_ENOTFOUND, "unknown engine type '%s' (did you mean '%s'?; engine types: %s)", name,
			      hint, list);
	else
		ior_error_set(IOR_ENOTFOUND, "unknown engine type '%s' (engine types: %s)", name, list);
	return NULL;
}

int ior_engine_validate(const struct ior_engine_ops *ops)
{
	if (!ops || !ops->name)
		return ior_error_set(IOR_ERROR, "engine without a name");
	if (!ops->init || !ops->measure || !ops->cleanup)
		return ior_error_set(IOR_ERROR, "engine '%s' lacks a required hook (init, measure, cleanup)", ops->name);
	if (ops->options && ops->options_size == 0)
		return ior_error_set(IOR_ERROR, "engine '%s' has option rows but no options_size", ops->name);
	return IOR_OK;
}
