/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How much memory a guest gets: enough for the files its matrix keeps, which in a guest live in RAM
 * (the root is the initramfs, /tmp a tmpfs), so a matrix that runs on the host runs in a guest too. */
#include "vm/vm.h"

#include "common/error.h"

#include <stdio.h>

#define MIB (UINT64_C(1) << 20)

/* Rounded up to 256 MiB, a size qemu and a reader take at a glance. */
static unsigned round_mb(uint64_t bytes)
{
	uint64_t mb = (bytes + MIB - 1) / MIB;
	return (unsigned)((mb + 255) / 256 * 256);
}

unsigned ior_vm_memory_needed(uint64_t device_files, uint64_t cell_files)
{
	/* The scratch loop devices' files sit in /tmp, a tmpfs limited to half the guest's memory:
	 * twice their size, and 256 MiB for the rest of /tmp and the kernel. */
	/* A cell's loop stack mounts a tmpfs of its own; that, the loop device's page cache over it and
	 * the ext4 above take about four times its size, with 512 MiB for the rest: seed-loop.ini's 320
	 * MiB stack ran out of memory at 1024 MiB and ran at 2048 (stop 29). */
	uint64_t need = 2 * device_files + (cell_files ? 4 * cell_files + 512 * MIB : 256 * MIB);
	unsigned mb = round_mb(need);
	return mb > 512 ? mb : 512;
}

int ior_vm_size_memory(struct ior_vm_machine *m, uint64_t device_files, uint64_t cell_files, char *said, size_t len)
{
	unsigned need = ior_vm_memory_needed(device_files, cell_files);
	said[0] = '\0';
	if (m->memory_mb == 0) { /* not given: as much as the matrix needs, 512 MiB at least */
		m->memory_mb = need;
		if (need > 512)
			snprintf(said, len, "guest memory %u MiB, not 512: the matrix's files live in the guest's RAM "
				 "(%llu MiB of scratch loop devices, %llu MiB at most for one cell's own); --memory sets it",
				 need, (unsigned long long)(device_files / MIB), (unsigned long long)(cell_files / MIB));
		return IOR_OK;
	}
	/* given: refused only where the run cannot work, the devices' files larger than /tmp can hold */
	if (device_files > (uint64_t)m->memory_mb * MIB / 2)
		return ior_error_set(IOR_EINVALID, "--memory %u: the matrix's scratch loop devices (%llu MiB of files) do "
				     "not fit the guest's /tmp, a tmpfs of half its memory: give --memory %u or more, or "
				     "leave --memory out to have it sized", m->memory_mb,
				     (unsigned long long)(device_files / MIB), need);
	if (m->memory_mb < need)
		snprintf(said, len, "--memory %u is below the %u MiB this matrix's files are estimated to need in a guest "
			 "(%llu MiB of scratch loop devices, %llu MiB for one cell's own): the guest may run out of memory",
			 m->memory_mb, need, (unsigned long long)(device_files / MIB),
			 (unsigned long long)(cell_files / MIB));
	return IOR_OK;
}
