/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where a kernel boots: one interface with three kinds (a qemu guest on this machine, another
 * machine over SSH, this machine across reboots), under `vm run`'s rounds, outcomes and merge. */
#ifndef IOR_VM_TARGET_H
#define IOR_VM_TARGET_H

#include "vm/vm.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct ior_db;
struct ior_db_target_step;

/* A boot op's answer when the machine it runs on is rebooting into the kernel (the local kind). */
#define IOR_VM_TARGET_REBOOTING 1

/* The kinds, in the order --target names them. */
enum ior_vm_target_kind {
	IOR_VM_TARGET_QEMU,   /* "qemu" (the default): a guest booted under qemu on this machine */
	IOR_VM_TARGET_SSH,    /* "ssh://[user@]host[:port]": another machine, through the system's ssh and scp */
	IOR_VM_TARGET_LOCAL,  /* "local": this machine, across reboots (a systemd one-shot unit runs each step) */
};

/* A parsed --target. name is what vm_boots.target stores: NULL/"" for qemu (rows from before the
 * column read the same), "ssh://user@host:port" as given (user and port only when given), "local". */
struct ior_vm_target_url {
	enum ior_vm_target_kind kind;
	char user[64];    /* "" : ssh's own choice (~/.ssh/config, then the local user) */
	char host[256];   /* a name or an address; [v6] brackets taken off */
	unsigned port;    /* 0: ssh's own choice */
	char name[400];
};
/* "qemu", "local" or ssh://[user@]host[:port] (host a name, an IPv4 address or [IPv6]); anything else
 * is IOR_EINVALID with what is wrong and the forms taken. A user or host that could be read as an
 * ssh option (a leading '-') or that holds blanks, quotes or shell characters is refused. */
int ior_vm_target_parse(struct ior_vm_target_url *u, const char *text);

/* How a kernel is booted once on a real machine; the default entry is never changed. */
enum ior_vm_target_boot {
	IOR_VM_TARGET_KEXEC,       /* kexec -l the installed image and initramfs, then systemctl kexec */
	IOR_VM_TARGET_BOOTLOADER,  /* grub-reboot to the kernel's entry, then systemctl reboot */
};

/* How the old kernel is stopped before the boot (systemctl(1)'s two ways). */
enum ior_vm_target_shutdown {
	IOR_VM_TARGET_SHUTDOWN_CLEAN,  /* systemctl kexec|reboot: every unit stopped in order (the default) */
	/* systemctl --force kexec|reboot: no unit is stopped; systemd-shutdown still sends every process
	 * SIGTERM (then SIGKILL), syncs and unmounts or remounts the file systems read-only. Services'
	 * ExecStop= and their order are skipped. The ssh kind only. */
	IOR_VM_TARGET_SHUTDOWN_FORCE,
};

/* The names --boot and --shutdown take and a plan stores ("kexec", "bootloader"; "clean", "force"),
 * one table each; a name not in it (or NULL) is the default, kexec and clean. */
const char *ior_vm_target_boot_name(enum ior_vm_target_boot b);
enum ior_vm_target_boot ior_vm_target_boot_from(const char *name);
const char *ior_vm_target_shutdown_name(enum ior_vm_target_shutdown s);
enum ior_vm_target_shutdown ior_vm_target_shutdown_from(const char *name);

/* What every kind but qemu takes from the command line (qemu takes struct ior_vm_machine). */
struct ior_vm_target_opts {
	struct ior_vm_target_url url;
	enum ior_vm_target_boot boot;
	enum ior_vm_target_shutdown shutdown;
	double boot_timeout_s;        /* from the boot command to the target answering SSH as the new boot */
	double run_timeout_s;         /* the target's `ioregress run` of the matrix */
	double connect_timeout_s;     /* ssh's ConnectTimeout for each command */
	unsigned retries;             /* a boot lost (SSH gone, past boot_timeout_s) is tried this many more times */
	const char *power_cycle;      /* a shell command run on the controller after a lost boot's tries, or NULL */
	bool keep_kernels;            /* leave installed what this run installed */
	const char *const *ssh_options; /* each passed as `-o VALUE` to ssh and scp, after ours */
	size_t nssh_options;
	const char *remote_ioregress; /* the target's ioregress (default "ioregress", found in its PATH) */
	bool reboot_this_machine;     /* --reboot-this-machine: the local kind's open refuses without it */
	/* A bisection's measurement (one vm run each): finish leaves the target on the kernel it booted and
	 * what was installed in place, for the next measurement; the bisection's end step (recover's undo,
	 * ior_vm_target_recover) boots the default kernel again and removes them. */
	bool stay;
	/* The kernel the plan returns the target to, when not the one it runs at open (a bisection's later
	 * measurements begin on a test kernel); NULL: that one. */
	const char *default_release;
};
void ior_vm_target_opts_default(struct ior_vm_target_opts *o);

/* One kernel as every kind sees it: resolved on the controller (vm's kernel: spec, release, package
 * version, and for a package its .deb in the cache), then readied by the kind. */
struct ior_vm_target_kernel {
	struct ior_vm_kernel k;
	char dir[PATH_MAX];          /* the kernel's scratch directory on the controller (the vm run's workdir) */
	char file[PATH_MAX + 32];    /* qemu: its initramfs; ssh and local: the .deb installed */
	bool ready;
	char error[512];             /* why it is not ready: each of its boots is recorded infra-error with it */
};

/* One open target: the ops of its kind and the kind's own state. */
struct ior_vm_target;
struct ior_vm_target_ops {
	const char *kind;   /* "qemu", "ssh", "local" */
	/* Once, before anything is resolved: reach the target and check it (ssh: root or sudo, its
	 * ioregress --version equal to ours, kexec or grub-reboot there, the matrix's devices). An error
	 * here stops the vm run before any boot. */
	int (*open)(struct ior_vm_target *t, struct ior_db *db, const struct ior_vm_run_opts *o);
	/* Once per kernel: make k bootable (qemu: the initramfs; ssh: the .deb copied and installed,
	 * unless that package version is installed already, and recorded in db's target_installs).
	 * Returns IOR_OK with k->ready false and k->error set when this kernel cannot be booted (its boots
	 * are recorded infra-error and the others go on); an error only when nothing can go on. */
	int (*prepare)(struct ior_vm_target *t, struct ior_db *db, struct ior_vm_target_kernel *k);
	/* One boot of k and the matrix run on it, into b: outcome, reason, boot_s (the boot command to the
	 * first sign of the new kernel: init's line, or SSH answering), total_s, console (qemu's serial
	 * line, or the target's kernel log), boot_id, guest_status, and guest_db: the target's database
	 * copied into dir, the controller's file the caller merges and ties to the boot's row. Faults are
	 * outcomes (a kind retries lost boots itself, up to opts.retries and then opts.power_cycle, before
	 * it says boot-failed or hang). step is the stored step (NULL for qemu, which stores no plan): a
	 * kind sets its state booting (with from_boot_id) before the boot command and measuring once the
	 * kernel answered. IOR_EINTERRUPTED on a stop request; IOR_VM_TARGET_REBOOTING (local) when this
	 * process is about to end with the machine: the driver returns it without recording anything, and
	 * the next boot's process calls boot again with the step in state booting, to verify and measure. */
	int (*boot)(struct ior_vm_target *t, struct ior_db *db, const struct ior_vm_target_kernel *k,
		    const struct ior_db_target_step *step, int round, const char *dir, struct ior_vm_boot *b);
	/* Once at the end (and from recover, with nothing else open): what prepare installed is removed
	 * unless kept, and its target_installs rows closed; the target is left on its default kernel. */
	int (*finish)(struct ior_vm_target *t, struct ior_db *db);
	void (*free)(struct ior_vm_target *t);
};

struct ior_vm_target {
	const struct ior_vm_target_ops *ops;
	struct ior_vm_target_opts opts;
	char accel[8];              /* qemu: the accelerator chosen; "-" for a real machine */
	char accel_reason[256];     /* qemu: why; "" until the first kernel is ready */
	char host[128], machine[32];  /* where the boots ran (vm_boots.host_id): this machine for qemu, the target's
				       * `uname -n` and `uname -m` for a real machine (set by open) */
	/* Kept with the plan (its options), so a resumed run and recover find them. Before open, a resumed
	 * plan's values (resuming true); open keeps them where they still hold, else sets its own. */
	bool resuming;
	char workdir[200];          /* the target's work directory (ssh: /var/tmp/ioregress-target.XXXXXX) */
	char default_release[128];  /* the kernel the target ran when the plan began: booted again at its end */
	void *priv;                 /* the kind's own */
};

extern const struct ior_vm_target_ops ior_vm_target_qemu;
extern const struct ior_vm_target_ops ior_vm_target_ssh;
/* The local kind's ops, when built (another file implements them against this header). */
extern const struct ior_vm_target_ops ior_vm_target_local;

/* The kernel booted at position j (from 0) of round r (from 1) of n: the order rotated by one each
 * round (A B C, B C A, C A B), so no kernel always boots first and drift within a round falls on
 * every kernel alike over the rounds. The same for every kind. */
size_t ior_vm_round_slot(unsigned r, size_t j, size_t n);

/* The ssh kind's boot command on the target (run as root): kexec -l of release's installed image and
 * initramfs, then systemctl kexec; with --boot bootloader GRUB's one-time entry for release, then
 * systemctl reboot; a plain systemctl reboot when release is NULL. systemctl gets --force with
 * --shutdown force. The boot starts detached a second later, so the command itself returns. */
int ior_vm_target_ssh_boot_command(const struct ior_vm_target_opts *o, const char *release, char *out, size_t len);

/* The ssh kind's removal of what target_installs holds as installed on t and not yet removed: each
 * package purged with the target's dpkg (kept and marked so with keep_kernels), one line on out each;
 * a package whose kernel the target runs now is left, and said. */
int ior_vm_target_ssh_remove(struct ior_vm_target *t, struct ior_db *db, FILE *out);

/* recover's undo on a target (its name as target_installs holds it) of what a controller that is gone
 * installed there: reached with the user's own ssh configuration, then as ior_vm_target_ssh_remove. */
int ior_vm_target_recover(struct ior_db *db, const char *target, FILE *out);

/* The ops of a kind. */
const struct ior_vm_target_ops *ior_vm_target_ops_of(enum ior_vm_target_kind kind);

#endif
