/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Undoing what a killed run changed on this machine, from the undo journal: schedulers, loop
 * devices, mounts, files, modules. */
#ifndef IOR_RUN_RECOVER_H
#define IOR_RUN_RECOVER_H

#include <stdbool.h>
#include <stdio.h>

struct ior_db;

struct ior_recover_summary {
	unsigned undone, skipped_live, failed;
	unsigned runs_marked;      /* runs left "running" by a dead process, now "interrupted" */
};

/* Undoes every pending journal entry of this host's runs whose process is gone (or whose
 * boot is over), newest first, printing one line per action to out. Entries of a live run
 * are left alone. */
int ior_recover(struct ior_db *db, FILE *out, struct ior_recover_summary *s);

/* True when a run with this pid and boot id is still alive on this machine. */
bool ior_run_owner_alive(int pid, const char *boot_id);

#endif
