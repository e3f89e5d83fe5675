/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The real-machine options that vm run and bisect run share (--target and what a target takes): one set
 * of rows, one check. */
#ifndef IOR_HARNESS_TARGET_ARGS_H
#define IOR_HARNESS_TARGET_ARGS_H

#include <stdbool.h>

#include "harness/command.h"
#include "vm/target.h"

struct ior_cmd_target {
	const char *target;              /* --target; NULL: a qemu guest on this machine */
	const char *boot;                /* --boot kexec|bootloader */
	const char *shutdown;            /* --shutdown clean|force */
	struct ior_cmd_list ssh_options;
	int retries;                     /* --retries; -1 until given (IOR_CMD_TARGET_INIT) */
	bool keep_kernels;
	const char *power_cycle, *target_ioregress;
	struct ior_vm_target_opts t;     /* a real machine's options, filled by ior_cmd_target_finish */
};
#define IOR_CMD_TARGET_INIT { .retries = -1 }

/* The first option given that only a real machine takes, or NULL (the boot row named "--boot"). */
const char *ior_cmd_target_only(const struct ior_cmd_target *a);

/* After parsing: --target read into a->t.url (IOR_EINVALID, with the forms taken, when it is none) and
 * *real set for a real machine, whose options fill a->t (boot_timeout_s and run_timeout_s when not 0,
 * else the kind's defaults). For a qemu guest an option only a real machine takes is IOR_EINVALID. */
int ior_cmd_target_finish(struct ior_cmd_target *a, double boot_timeout_s, double run_timeout_s, bool *real);

/* --boot kexec|bootloader under the name given (bisect run has a --boot of its own: --target-boot), into
 * the struct ior_cmd_target at member m of type. */
#define IOR_CMD_ROW_TARGET_BOOT(type, m, option_name)                                                              \
	{ .name = option_name, .value = IOR_CMD_CHOICE, .arg = "kexec|bootloader", IOR_CMD_AT(type, m.boot),          \
	  .choices = "kexec bootloader",                                                                           \
	  .help = "a real machine: kexec (default: kexec -l the installed kernel with the running command line, then " \
		  "systemctl kexec) or bootloader (grub-reboot to its entry once, then a reboot); the default boot entry " \
		  "is never changed" }

/* --target (its help: target_help), --shutdown, --retries, --power-cycle, --keep-kernels, --ssh-option and
 * --target-ioregress, into the struct ior_cmd_target at member m of type. */
#define IOR_CMD_ROWS_TARGET(type, m, target_help)                                                                  \
	{ .name = "--target", .value = IOR_CMD_TEXT, .arg = "WHERE", IOR_CMD_AT(type, m.target), .help = target_help }, \
	{ .name = "--shutdown", .value = IOR_CMD_CHOICE, .arg = "clean|force", IOR_CMD_AT(type, m.shutdown),          \
	  .choices = "clean force",                                                                                \
	  .help = "an ssh target: how its running kernel stops before each boot: clean (default: systemctl kexec or " \
		  "reboot, every service stopped in order) or force (systemctl --force: no service's stop runs; every " \
		  "process still gets SIGTERM, then SIGKILL, and the file systems are unmounted or made read-only. " \
		  "Faster; for a machine whose services need no orderly stop)" },                                     \
	{ .name = "--retries", .value = IOR_CMD_NUMBER, .arg = "N", .kind = IOR_CMD_COUNT, .min = 0, .max = 20,       \
	  IOR_CMD_AT(type, m.retries),                                                                              \
	  .help = "a real machine: a boot lost (SSH gone, no answer by --boot-timeout) is tried N more times (default " \
		  "2), then --power-cycle, then recorded boot-failed with the reason" },                            \
	{ .name = "--power-cycle", .value = IOR_CMD_TEXT, .arg = "CMD", IOR_CMD_AT(type, m.power_cycle),              \
	  .help = "a real machine: a shell command run here when a boot is lost after its tries (an IPMI or PDU "    \
		  "command), with --boot-timeout as its deadline" },                                                \
	{ .name = "--keep-kernels", IOR_CMD_AT(type, m.keep_kernels),                                              \
	  .help = "a real machine: leave the kernel packages installed (default: what this run installed is purged at " \
		  "the end, and by recover)" },                                                                     \
	{ .name = "--ssh-option", .value = IOR_CMD_TEXT, .arg = "OPTION", .repeat = true,                          \
	  IOR_CMD_AT(type, m.ssh_options),                                                                          \
	  .help = "a real machine: passed to ssh and scp as -o OPTION (IdentityFile=..., UserKnownHostsFile=...)" }, \
	{ .name = "--target-ioregress", .value = IOR_CMD_TEXT, .arg = "PATH", IOR_CMD_AT(type, m.target_ioregress), \
	  .help = "a real machine: its ioregress (default ioregress in its PATH; it must be this version)" }

#endif
