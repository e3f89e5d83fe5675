/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The running kernel's record: release, version string, machine, cmdline, commit, config hash and
 * its I/O-scheduler options. */
#ifndef IOR_KERNEL_INFO_H
#define IOR_KERNEL_INFO_H

#include <stdbool.h>
#include <stddef.h>

struct ior_kernel_info {
	char release[128];     /* uname -r */
	char version[256];     /* uname -v */
	char machine[64];      /* uname -m */
	char hostname[256];
	char cmdline[4096];    /* /proc/cmdline, trailing newline removed */
	char commit[41];       /* from -gSHA in the release, "" if none */
	char config_path[256]; /* /proc/config.gz or /boot/config-RELEASE, "" if none found */
	char config_hash[65];  /* sha256 of the uncompressed config, "" if none */
	char iosched_config[1024]; /* CONFIG_*IOSCHED*, CONFIG_MQ_IOSCHED_*, CONFIG_BFQ_* lines, space separated */
	char compiler[256];    /* the config's CONFIG_CC_VERSION_TEXT ("gcc (Debian 12.2.0-14) 12.2.0"), "" if none */
};

/* Fills the record for the running kernel. A kernel without a config (no /proc/config.gz,
 * no /boot/config-RELEASE) is not an error: config_path, config_hash and iosched_config
 * stay "". Fails only when uname or /proc/cmdline cannot be read, or a config that exists
 * cannot be read. */
int ior_kernel_info_read(struct ior_kernel_info *out);

/* This boot's identity (/proc/sys/kernel/random/boot_id), "" when unknown: a process number
 * from another boot names nobody. */
void ior_kernel_boot_id(char *out, size_t len);

/* True while process pid of boot boot_id still runs on this machine: the owner of a journal entry, a
 * kernel build or a plan of boots. A pid recorded in another boot (or none) is nobody's. */
bool ior_kernel_process_alive(int pid, const char *boot_id);

/* --- kernel configs, for any kernel (an extracted package's boot/config-VER too) --- */

/* Finds a kernel's config: /proc/config.gz when release is the running kernel's, else
 * BOOT_DIR/config-RELEASE (boot_dir NULL = "/boot"). Writes "" and returns 0 when none. */
int ior_kernel_config_find(char *path, size_t len, const char *release, const char *boot_dir);

/* Reads a config, gunzipping when the file is gzip (by its magic, not its name).
 * *text is NUL-terminated and malloc'd; the caller frees it. */
int ior_kernel_config_load(char **text, size_t *len, const char *path);

/* Lowercase hex sha256 of data. */
int ior_kernel_config_sha256(char hex[65], const void *data, size_t len);

/* The I/O-scheduler options of a config, space separated: "CONFIG_MQ_IOSCHED_DEADLINE=y
 * CONFIG_MQ_IOSCHED_KYBER=m CONFIG_IOSCHED_BFQ=m CONFIG_BFQ_GROUP_IOSCHED=y"; options
 * written "# CONFIG_X is not set" appear as CONFIG_X=n. Cut at a whole option when out is small. */
void ior_kernel_config_iosched(char *out, size_t len, const char *text);

/* One option's value: 'y', 'm', 'n' (not set or absent), or the first character of a
 * string/number value. */
char ior_kernel_config_value(const char *text, const char *option);

/* A string option's value without its quotes and escapes, "" when absent or not a string. */
void ior_kernel_config_string(char *out, size_t len, const char *text, const char *option);

#endif
