/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A kernel build's progress on stderr while make runs: objects compiled (of the total a full build
 * of this build directory made last time), elapsed, and for a cold build the time left. */
#ifndef IOR_VM_KERNEL_BUILD_PROGRESS_H
#define IOR_VM_KERNEL_BUILD_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

struct ior_kbuild_progress;

/* Starts a thread reading make's log (from its present end) every few seconds; out is the build
 * directory (its objects.count), build the make O= directory (a cold build has no vmlinux there). */
int ior_kbuild_progress_start(struct ior_kbuild_progress **p, const char *what, const char *log, const char *out,
			      const char *build);

/* Stops it (NULL: nothing); after a make that succeeded, the objects in build are counted into
 * out/objects.count for the next build's total. */
void ior_kbuild_progress_stop(struct ior_kbuild_progress *p, bool succeeded);

/* One progress line's text for n objects compiled after elapsed seconds: total 0 when unknown,
 * cold when the build started from nothing (then the time left is estimated), now the step make
 * printed last ("" when none). */
void ior_kbuild_progress_line(char *out, unsigned long len, const char *what, long n, long total, bool cold,
			      double elapsed, const char *now);

/* Reads the compile lines of make's quiet output ("  CC      init/main.o", "  AS ...",
 * "  HOSTCC ...") from byte from of log: adds them to *n, leaves the last step's text ("LD vmlinux")
 * in now and moves *from past the last whole line (one make is still writing is read next time). */
void ior_kbuild_progress_scan(const char *log, long *from, long *n, char *now, size_t now_len);

#endif
