/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Refusing input files that other users could have written, when ioregress runs as root. */
#ifndef IOR_HARNESS_TRUST_H
#define IOR_HARNESS_TRUST_H

/* IOR_OK, or IOR_EREFUSED when running as root and path (a matrix, a database) is writable
 * by a user other than root: owned by another user, group-writable by a non-root group, or
 * world-writable. A file that does not exist yet is fine (it will be created by root).
 * what names the file's role in the message. */
int ior_check_trusted_file(const char *path, const char *what);

#endif
