/* SPDX-License-Identifier: GPL-2.0-or-later */
/* qemu's side of requests that never completed: when the guest says a device stopped answering, the
 * host asks qemu's monitor for the scratch disk's virtqueue, which tells requests qemu still holds
 * from completions it made that the guest never took. */
#include "vm/internal.h"

#include <stdio.h>
#include <string.h>

/* The scratch disk is the first -drive (vda): qemu's first anonymous virtio device. 7.2's monitor
 * has the command; an older qemu answers "unknown command", and the reason then says nothing. */
#define SCRATCH_QUEUE "/machine/peripheral-anon/device[0]/virtio-backend"

const char ior_vm_virtqueue_command[] = "info virtio-queue-status " SCRATCH_QUEUE " 0\n";

/* The number after "label:" in text, or -1. */
static long field(const char *text, const char *label)
{
	const char *p = strstr(text, label);
	long v = -1;
	if (p && sscanf(p + strlen(label), " %ld", &v) != 1)
		v = -1;
	return v;
}

bool ior_vm_virtqueue_head(const char *console, char *out, size_t len)
{
	const char *at = console ? strstr(console, SCRATCH_QUEUE ":") : NULL;
	if (!at)
		return false;
	long inuse = field(at, "inuse:"), used = field(at, "used_idx:"), avail = field(at, "last_avail_idx:");
	if (inuse < 0 || used < 0 || avail < 0)
		return false;
	/* inuse: requests qemu took from the ring and has not completed; the indexes are free-running */
	/* with none in use, what qemu took it completed: the guest missed those completions (an interrupt
	 * lost), or qemu never heard of the new requests (a notification lost: its shadow of the guest's
	 * ring index stopped where it last read it) */
	const char *meaning = inuse > 0 ? "qemu still holds them: the emulated disk never completed them"
			      : used == avail ? "qemu holds none: it completed every request it took, so the guest missed "
						"the completions or qemu never heard of the new requests"
					      : "qemu holds none and has not completed all it took";
	snprintf(out, len, "qemu's virtqueue of vda: %ld in use, last_avail_idx %ld, used_idx %ld (%s)", inuse, avail, used,
		 meaning);
	return true;
}
