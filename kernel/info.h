/* The running kernel's record: release, version string, machine, cmdline, commit, config hash and its I/O-scheduler options. */
#ifndef IOR_KERNEL_INFO_H
#define IOR_KERNEL_INFO_H

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
};

int ior_kernel_info_read(struct ior_kernel_info *out);

#endif
