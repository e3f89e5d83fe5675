/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The argument helpers every cmd_<verb>.c parses with, and the error line they print (in the library, so commands run in tests). */
#include "common/error.h"
#include "db/db.h"
#include "harness/command.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void ior_cmd_error(const char *fmt, ...)
{
	fputs("error: ", stderr);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	const char *detail = ior_error_last();
	if (*detail)
		fprintf(stderr, ": %s", detail);
	fputc('\n', stderr);
}

void ior_cmd_error_last(void)
{
	char msg[1024];
	snprintf(msg, sizeof(msg), "%s", ior_error_last());
	ior_error_clear();
	ior_cmd_error("%s", msg);
}

bool ior_cmd_option(int argc, char **argv, int *i, const char *key, const char **value)
{
	size_t len = strlen(key);
	const char *arg = argv[*i];
	if (strncmp(arg, key, len) || (arg[len] && arg[len] != '='))
		return false;
	if (arg[len] == '=')
		*value = arg[len + 1] ? arg + len + 1 : NULL;
	else
		*value = *i + 1 < argc ? argv[++*i] : NULL;
	return true;
}

const char *ior_cmd_option_value(int argc, char **argv, int *i, const char *key, bool *missing)
{
	const char *v = NULL;
	if (!ior_cmd_option(argc, argv, i, key, &v))
		return NULL;
	*missing |= v == NULL;
	return v;
}

bool ior_cmd_filter_option(int argc, char **argv, int *i, unsigned accepted, struct ior_db_filter *f,
			   bool *missing)
{
	const struct {
		unsigned bit;
		const char *key;
		const char **slot;
	} opts[] = {
		{ IOR_FILTER_HOST, "--host", &f->host },
		{ IOR_FILTER_KERNEL, "--kernel", &f->kernel },
		{ IOR_FILTER_DEVICE, "--device", &f->device },
		{ IOR_FILTER_SCHEDULER, "--scheduler", &f->scheduler },
		{ IOR_FILTER_ENGINE, "--engine", &f->engine },
	};
	for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
		if (!(accepted & opts[k].bit))
			continue;
		const char *v = ior_cmd_option_value(argc, argv, i, opts[k].key, missing);
		if (v) {
			*opts[k].slot = v;
			return true;
		}
		if (*missing)
			return false;
	}
	return false;
}

bool ior_cmd_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return true;
	}
	return false;
}
