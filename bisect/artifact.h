/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A bisection's build artifact: its hash (what tells two commits' builds apart), where it may lie,
 * and the store of copies kept while a bisection runs. */
#ifndef IOR_BISECT_ARTIFACT_H
#define IOR_BISECT_ARTIFACT_H

#include <stdbool.h>
#include <stddef.h>

/* Hex sha1 and its NUL. */
#define IOR_BISECT_ARTIFACT_HASH_LEN 41

/* The hash of a build artifact: a regular file's git blob hash, or for a directory the hash of its
 * sorted listing of names and contents' hashes (times and owners play no part). The artifact itself
 * may be a symlink (its target is hashed); inside a directory nothing is followed: a symlink is
 * hashed by its target's text, a FIFO, device or socket is listed by name and type and never opened,
 * and every file is opened without following or blocking and checked to be a regular file before it
 * is read. The walk is iterative (fts), so depth costs heap, not stack. IOR_ENOTFOUND when path does
 * not exist, IOR_EINVALID when it is neither a regular file nor a directory, IOR_EINTERRUPTED on a
 * stop request; hash gets hex text (len >= IOR_BISECT_ARTIFACT_HASH_LEN), "" on failure. */
int ior_bisect_artifact_hash(const char *path, char *hash, size_t len);

/* IOR_OK when path (absolute, or relative to the current directory) lies inside the work tree
 * tree, symlinks resolved; IOR_EREFUSED with the reason when it is outside (a copy put back there
 * would overwrite a file that is not the bisection's). A path that does not exist yet is judged by
 * its words. */
int ior_bisect_artifact_inside(const char *path, const char *tree);

/* The store of file artifacts' copies: a private directory under $TMPDIR (else /tmp) named
 * ioregress-artifacts.XXXXXX, holding a lock file its owner keeps locked while it runs. dir gets
 * its path. */
int ior_bisect_artifact_store_new(char *dir, size_t len, int *lock_fd);
/* Removes the store and what it holds, and releases its lock (lock_fd may be -1). */
void ior_bisect_artifact_store_remove(const char *dir, int lock_fd);
/* Removes the stores under $TMPDIR (else /tmp) that belong to this user and whose owner is gone
 * (their lock is free: a SIGKILLed run's); *removed gets how many (may be NULL). Stores of other
 * users, and anything that is not a directory of this user's, are left alone. */
int ior_bisect_artifact_stores_clean(size_t *removed);

#endif
