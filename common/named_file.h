/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Files opened by a name a user gave: read only when regular, written without ever turning a
 * device, a pipe or a link into a regular file. */
#ifndef IOR_COMMON_NAMED_FILE_H
#define IOR_COMMON_NAMED_FILE_H

#include <stdio.h>
#include <sys/stat.h>

/* What st_mode is, for messages: "a regular file", "a character device", "a FIFO", ... */
const char *ior_file_kind(mode_t mode);

/* Opens path for reading (O_RDONLY | O_CLOEXEC, plus extra flags) into *fd and fills *st (st may
 * be NULL) when it is a regular file. A FIFO, a device or a directory is refused with
 * IOR_EINVALID ("cannot read WHAT'PATH': a FIFO, not a regular file") without blocking (the open
 * does not wait for a FIFO's writer); a missing file is IOR_ENOTFOUND. what names the file's
 * role, ending in a space ("matrix ", "CSV ") or "". */
int ior_open_regular(const char *path, int extra_flags, const char *what, int *fd, struct stat *st);
/* The same as a stream opened "r" (st may be NULL). */
int ior_fopen_regular(const char *path, const char *what, FILE **f, struct stat *st);

/* A file being written by the name a user gave (report -o FILE):
 * - missing or a regular file: written to a new file beside it (mkstemp, O_EXCL) and renamed over
 *   it when done, so a failed write leaves the old file whole and nobody sees half a file;
 * - a symbolic link (owned by the caller or root): the same at what it points to, so the link
 *   stays a link (/dev/stdout, a link into a web root);
 * - a character device, a FIFO or a socket (/dev/null, /dev/stdout's pipe): written through, in
 *   place; the node stays a node;
 * - a block device or a directory: refused (a report over a disk destroys its data).
 * Zeroed when unused; f is open between ior_outfile_open and ior_outfile_close. */
struct ior_outfile {
	FILE *f;
	char *path;  /* the name written in the end (a link's target) */
	char *tmp;   /* the temporary file renamed over path, or NULL when written through */
};

/* Opens path for writing; a new file gets mode & ~umask. IOR_EINVALID/IOR_EREFUSED with the
 * reason for what is refused, IOR_ERROR when it cannot be opened. */
int ior_outfile_open(struct ior_outfile *o, const char *path, mode_t mode);

/* Ends the writing: with rc IOR_OK, flushes and closes (and renames the temporary into place),
 * returning the first error; otherwise removes the temporary and returns rc. Always frees o. */
int ior_outfile_close(struct ior_outfile *o, int rc);

#endif
