/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside a guest of `vm run`: the heartbeat the host's watchdog reads, and the database committed
 * to the results disk as the run goes. */
#ifndef IOR_VM_GUEST_H
#define IOR_VM_GUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ior_db;

/* The guest's init exports this as the results disk's path (/dev/vdb): set only inside a guest. */
#define IOR_VM_RESULTS_ENV "IOR_VM_RESULTS"
/* The guest's init exports this as a file to create once the run's last commit (with its exit
 * status) is on the results disk: the init then leaves the disk as it is. */
#define IOR_VM_SENT_ENV "IOR_VM_SENT"
/* A console line that starts with this is a heartbeat: the host's watchdog is fed by these, not
 * by other console output, and shows their text as the guest's progress. */
#define IOR_VM_MARK_BEAT "ioregress-beat"
/* The heartbeat's text once the run has ended: "finished STATUS". */
#define IOR_VM_BEAT_FINISHED "finished"

/* A console line the guest prints when it gives up on a device's requests ("ioregress-stuck vda"):
 * the host then asks qemu where they are (its virtqueue), while qemu still holds that state. */
#define IOR_VM_MARK_STUCK "ioregress-stuck"
void ior_vm_guest_stuck(const char *device);

/* The results disk when running inside a guest, else NULL. */
const char *ior_vm_guest_results(void);

/* One heartbeat line on stderr (the guest's console): "ioregress-beat expect=S TEXT". expect_s is
 * how long the host should allow until the next one (the repetition's expected seconds, 0 when
 * unknown): a long quiet repetition is not a hang. */
void ior_vm_guest_beat(double expect_s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Seconds since the guest booted (/proc/uptime), to place a boot's steps; -1 when unreadable. */
double ior_vm_guest_uptime(void);

/* While on, the guest repeats a heartbeat with what every IOR_VM_TICK_S ("what  (running N s)"), for
 * something of unknown length (a size-based or exec repetition, a set-up): the host's watchdog then
 * stays fed while the guest answers, and a long quiet cell is not a hang; a wedged guest stops
 * ticking. The engines' own deadlines end stuck I/O; the boot's total timeout caps the rest. Off
 * when something announces its length, and at the run's end. */
#define IOR_VM_TICK_S 5   /* the host refuses an idle timeout under twice this */
void ior_vm_guest_ticking(bool on, const char *what);

/* Writes db (checkpointed first, so the file alone holds every committed sample) to the results
 * disk as the tar the host reads, with status when status >= 0, and flushes it to the disk: a hang
 * or panic after this loses nothing committed before it. */
int ior_vm_guest_commit(struct ior_db *db, const char *disk, int status);

/* The guest as the run's watcher: run/observer.h's members (the command wires them; vm/ sits below
 * run/), each taking the results disk (ior_vm_guest_results()) as ctx. start prints the first
 * heartbeat with the guest's uptime; results commits db to the disk (ior_vm_guest_commit). */
void ior_vm_guest_on_start(void *disk, int64_t run_id, size_t cells);
void ior_vm_guest_on_beat(void *disk, double expect_s, const char *text);
void ior_vm_guest_on_ticking(void *disk, bool on, const char *what);
void ior_vm_guest_on_stuck(void *disk, const char *device);
int ior_vm_guest_on_results(void *disk, struct ior_db *db);

#endif
