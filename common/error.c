/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-thread last-error message behind common/error.h. */
#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_message[IOR_ERROR_MAX];

int ior_error_set(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_message, sizeof(last_message), fmt, ap);
	va_end(ap);
	return code;
}

int ior_error_errno(int code, int errnum, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(last_message, sizeof(last_message), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(last_message))
		snprintf(last_message + n, sizeof(last_message) - (size_t)n, ": %s", strerror(errnum));
	return code;
}

int ior_error_wrap(int code, const char *fmt, ...)
{
	char previous[IOR_ERROR_MAX];
	memcpy(previous, last_message, sizeof(previous));
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(last_message, sizeof(last_message), fmt, ap);
	va_end(ap);
	if (previous[0] && n >= 0 && (size_t)n < sizeof(last_message))
		snprintf(last_message + n, sizeof(last_message) - (size_t)n, ": %s", previous);
	return code;
}

const char *ior_error_last(void)
{
	return last_message;
}

void ior_error_clear(void)
{
	last_message[0] = '\0';
}

int ior_error_save(struct ior_error_state *s, int code)
{
	s->code = code;
	memcpy(s->message, last_message, sizeof(s->message));
	return code;
}

int ior_error_restore(const struct ior_error_state *s, int code)
{
	if (s->code == IOR_OK)
		return code;
	memcpy(last_message, s->message, sizeof(last_message));
	return s->code;
}
