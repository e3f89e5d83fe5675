/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Error convention shared by all modules: negative return codes plus a per-thread message
 * (libgit2's git_error_last model). */
#ifndef IOR_COMMON_ERROR_H
#define IOR_COMMON_ERROR_H

enum ior_status {
	IOR_OK = 0,
	IOR_ERROR = -1,        /* generic failure; the message says what */
	IOR_EINVALID = -2,     /* bad user input: matrix, CSV, arguments */
	IOR_ENOTFOUND = -3,    /* a named thing does not exist */
	IOR_EUNSUPPORTED = -4, /* cannot be done here: becomes a skip, not a failure */
	IOR_EINTERRUPTED = -5, /* a stop was requested (SIGINT/SIGTERM/SIGHUP) */
	IOR_EBUSY = -6,        /* someone else holds the resource */
	IOR_EREFUSED = -7,     /* a safety guard said no */
	IOR_ETIMEDOUT = -8,    /* a deadline passed: requests or a tool were given up on (the device may be stuck) */
};

/* Sets the thread's last error and returns code, so callers can write
 * `return ior_error_set(IOR_EINVALID, "...")`. */
int ior_error_set(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Like ior_error_set, with ": strerror(errno)" appended. */
int ior_error_errno(int code, int errnum, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Prefixes the current message ("prefix: old message"), for context added on the way up. */
int ior_error_wrap(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The last message set on this thread, or "" when none. Never NULL. */
const char *ior_error_last(void);

void ior_error_clear(void);

/* An error kept across clean-up that may set messages of its own (libgit2's git_error_save and
 * restore), or handed from a worker thread to the one that reports it. */
#define IOR_ERROR_MAX 1024
struct ior_error_state {
	int code;                      /* IOR_OK: nothing kept */
	char message[IOR_ERROR_MAX];
};
/* Keeps code with the thread's last message; returns code. */
int ior_error_save(struct ior_error_state *s, int code);
/* When s holds an error, makes its message the thread's last again and returns its code (the
 * first error is the one reported); otherwise returns code, what the clean-up itself returned. */
int ior_error_restore(const struct ior_error_state *s, int code);

#endif
