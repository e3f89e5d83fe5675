/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest as the run's watcher (see guest.h): heartbeats on the console, samples onto the results
 * disk as they are stored. */
#include "vm/guest.h"

void ior_vm_guest_on_start(void *disk, int64_t run_id, size_t cells)
{
	(void)disk;
	/* the guest's clock at the run's first heartbeat: what the run did before measuring */
	ior_vm_guest_beat(0, "run %lld: %zu cells (the guest up %.1f s)", (long long)run_id, cells, ior_vm_guest_uptime());
}

void ior_vm_guest_on_beat(void *disk, double expect_s, const char *text)
{
	(void)disk;
	ior_vm_guest_beat(expect_s, "%s", text);
}

void ior_vm_guest_on_ticking(void *disk, bool on, const char *what)
{
	(void)disk;
	ior_vm_guest_ticking(on, what);
}

void ior_vm_guest_on_stuck(void *disk, const char *device)
{
	(void)disk;
	ior_vm_guest_stuck(device);
}

int ior_vm_guest_on_results(void *disk, struct ior_db *db)
{
	return ior_vm_guest_commit(db, disk, -1);
}
