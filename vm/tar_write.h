/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A ustar writer limited to what the guest puts on its results disk: regular files, short names. */
#ifndef IOR_VM_TAR_WRITE_H
#define IOR_VM_TAR_WRITE_H

#include <stddef.h>
#include <stdint.h>

/* Why not libarchive here: it is the guest binary's only way to libxml2 and ICU (31 of the
 * initramfs's 60 MB, issue 38), and what the guest writes is three small members. The host reads
 * the disk with libarchive (vm/results.c), as it reads what busybox tar writes in the init. */

/* The longest member name a ustar header holds without its prefix field. */
#define IOR_VM_TAR_NAME_MAX 99

/* One regular file member (mode 0644) of len bytes from data, padded to the 512-byte block. */
int ior_vm_tar_member(int fd, const char *name, const void *data, size_t len);

/* One regular file member of size bytes read from the descriptor in; a short read is an error
 * (the member's size is already in its header). */
int ior_vm_tar_member_fd(int fd, const char *name, int in, uint64_t size);

/* The end of the archive: two zero blocks, so a reader stops here and never reads an older, longer
 * archive left further on the disk. */
int ior_vm_tar_end(int fd);

#endif
