/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Refusing files and directories that other users could have written, when ioregress acts on them. */
#ifndef IOR_COMMON_TRUST_H
#define IOR_COMMON_TRUST_H

#include <stdbool.h>
#include <sys/stat.h>

/* IOR_OK, or IOR_EREFUSED when running as root and path (a matrix, a database) is writable
 * by a user other than root: owned by another user, group-writable by a non-root group, or
 * world-writable. A file that does not exist yet is fine (it will be created by root).
 * what names the file's role in the message. */
int ior_check_trusted_file(const char *path, const char *what);

/* The same rule on what fstat or lstat said of an open file (path only names it in messages):
 * no window between the check and the use. */
int ior_check_trusted_stat(const struct stat *st, const char *path, const char *what);

/* For a directory ioregress writes into and then runs or unpacks from (the kernel cache), as any
 * user: every component of path must belong to root or the caller and be writable by nobody
 * else (a sticky directory such as /tmp is allowed above the last component, where another
 * user cannot rename what is ours), and the last component must be a directory, not a symlink. */
int ior_check_private_dir(const char *path, const char *what);

/* ior_check_private_dir for a directory that may not exist yet: the deepest part of path that
 * exists is judged by the rule for parents before anything is created below it, then the rest is
 * created (0755) and path judged as a whole. Nothing is left behind where the check fails. */
int ior_make_private_dir(const char *path, const char *what);

/* For a source tree root builds (building runs the tree's own scripts and makefiles): as root,
 * every file, directory and link in it must be root's and, but for links, writable by nobody
 * else; its parents follow ior_check_private_dir's rule. IOR_OK for any other user. */
int ior_check_trusted_tree(const char *path, const char *what);

/* An entry of such a directory, by what lstat said: a regular file or directory (want_dir),
 * never a symlink, belonging to root or the caller and writable by nobody else. */
int ior_check_private_entry(const struct stat *st, bool want_dir, const char *path, const char *what);

#endif
