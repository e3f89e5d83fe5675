/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The work directory of vm run and bisect's boots (kernels' initramfs, the scratch and results
 * images): made journaled, so a SIGKILLed run leaves nothing `recover` does not remove. */
#ifndef IOR_VM_WORKDIR_H
#define IOR_VM_WORKDIR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ior_db;

/* The journal's kind for such a directory, and the prefix of its name under /tmp: recover removes
 * only a directory of this name that the user running it owns. */
#define IOR_VM_WORKDIR_KIND "tree"
#define IOR_VM_WORKDIR_PREFIX "ioregress-vm."

struct ior_vm_workdir {
	char path[64];      /* /tmp/ioregress-vm.XXXXXX */
	int64_t undo_id;    /* its journal entry in db, 0 when none */
};

/* This process as the owner of what it journals or installs: this machine's host row in db, and its
 * boot id (recover leaves a live owner's entries alone). */
int ior_vm_owner(struct ior_db *db, int64_t *host_id, char *boot_id, size_t len);

/* Creates the directory and journals it in db as this process's (host: this machine's name), before
 * anything is written into it. On a journal error the directory is removed again. */
int ior_vm_workdir_create(struct ior_vm_workdir *w, struct ior_db *db);

/* Removes the directory and everything in it, and closes its journal entry. */
void ior_vm_workdir_remove(struct ior_vm_workdir *w, struct ior_db *db);

/* Removes dir and everything in it, depth first; symlinks are removed as links, never followed. */
void ior_vm_remove_tree(const char *dir);

/* recover's undo of a journaled work directory whose process is gone: removed when it is a real
 * directory (not a symlink) /tmp/IOR_VM_WORKDIR_PREFIX... owned by this user; left alone with
 * the reason otherwise. One line on out either way. */
int ior_vm_workdir_recover(const char *path, FILE *out);

#endif
