/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to vm/: the guest's init script, the console watchdog and the results disk. */
#ifndef IOR_VM_INTERNAL_H
#define IOR_VM_INTERNAL_H

#include "vm/vm.h"

/* Lines the init prints: the watchdog's signs of life (never the exit status: that goes out
 * on the results disk). */
#define IOR_VM_MARK_UP "ioregress-init: up"
#define IOR_VM_MARK_DONE "ioregress-init: done"

/* The monitor command that shows the scratch disk's virtqueue (sent when the guest prints
 * IOR_VM_MARK_STUCK), and its answer read back from the console: "qemu's virtqueue of vda: N in use,
 * last_avail_idx A, used_idx U (what that means)"; false when the console holds none. */
extern const char ior_vm_virtqueue_command[];
bool ior_vm_virtqueue_head(const char *console, char *out, size_t len);

/* The /init the initramfs carries (busybox sh). */
extern const char ior_vm_init_script[];

/* Console limit kept in the database: a guest printing without end cannot fill the disk. */
#define IOR_VM_CONSOLE_MAX (4u << 20)

/* Reads the tar the guest wrote to the raw results disk: guest_status from ./status (-1 when
 * absent) and the guest's database into dir (db_path "" when absent). */
int ior_vm_results_read(const char *disk, const char *dir, int *guest_status, char *db_path, size_t len);

/* The head of the first oops or panic in a console log: "FAULT LINE; RIP: fn+off/len; trace:
 * f1 < f2 < f3" (time stamps dropped); "" when the log holds none. */
void ior_vm_oops_head(const char *console, char *out, size_t len);

/* After sysrq w on a hang: "blocked: NAME (pid N) state:D: f1 < f2 < f3" for each blocked task it
 * listed (up to 3), or that it listed none, then what sysrq l found running on each CPU and where
 * sysrq t found the run's own tasks sleeping. False when the console holds no sysrq w output (the
 * guest never answered: frozen, or its serial line dead). */
bool ior_vm_blocked_head(const char *console, char *out, size_t len);

/* A file of size bytes (sparse), for a guest disk. */
int ior_vm_disk_create(const char *path, uint64_t size);

/* A kernel package's .deb unpacked once into tree (dpkg-deb -x, depmod; done is the marker written
 * last), k's image, modules, release and deb filled from it; name is what errors call it. */
int ior_vm_kernel_unpack(struct ior_vm_kernel *k, const char *deb, const char *tree, const char *done, const char *name);
/* KERNEL given as a .deb file (make bindeb-pkg's, or any kernel image package): its Package and
 * Version read with dpkg-deb -f, its release from the package's name, unpacked once into
 * cache_dir/PACKAGE_VERSION for a qemu guest; installed as it is on a real machine. */
int ior_vm_kernel_resolve_deb(struct ior_vm_kernel *k, const char *spec, const char *cache_dir);

/* mkdir -p. */
int ior_vm_mkdir_p(const char *path);

/* The scratch disk filled by an earlier vm run (fill: enum ior_fill), kept in cache_dir as
 * scratch-MBM-FILL.img: take moves it to path when it is there, our own plain file, of its size
 * and with no hole (true), so this vm run writes no fill; keep moves path back at the end. Every
 * boot of one vm run already measured the disk the earlier boots wrote to; a kept one carries that
 * over to the next vm run, as a longer vm run would. */
bool ior_vm_scratch_take(const char *cache_dir, unsigned mb, int fill, const char *path);
void ior_vm_scratch_keep(const char *cache_dir, unsigned mb, int fill, const char *path);

#endif
