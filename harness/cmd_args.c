/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The error lines commands print and the value parsers their rows share (in the library, so commands run in tests). */
#include "common/error.h"
#include "db/db.h"
#include "harness/command.h"
#include "measure/metric.h"
#include "reports/render.h"

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

int ior_cmd_parse_format(void *field, const char *value)
{
	return ior_renderer_find(field, value);
}

int ior_cmd_parse_origin(void *field, const char *value)
{
	if (ior_kcidb_origin_check(value))
		return IOR_EINVALID;
	*(const char **)field = value;
	return IOR_OK;
}

int ior_cmd_parse_metrics(void *field, const char *value)
{
	return ior_metric_parse_list(field, value);
}

int ior_cmd_parse_metric(void *field, const char *value)
{
	return ior_metric_find(field, value);
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
