/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The test-bed for the suites of issue 36: a Debian 12 guest under qemu that stands in for a real
 * machine (tests/machine/build-image.sh builds it once, tests/machine/boot.sh boots it), booted
 * per test on an overlay, reached over SSH on a free port of 127.0.0.1, and ended by its pid. */
#ifndef IOR_TESTS_MACHINE_TESTBED_H
#define IOR_TESTS_MACHINE_TESTBED_H

#include "common/spawn.h"

#include <stdbool.h>
#include <stddef.h>

#define IOR_TESTBED_PATH 4096

struct ior_testbed {
	/* The cached test-bed (ior_testbed_image). */
	char image[IOR_TESTBED_PATH];      /* its directory: root.img, vmlinuz, initrd.img, machine.env */
	char key[IOR_TESTBED_PATH];        /* root's private SSH key (0600) */
	char default_kernel[128];          /* the release qemu boots (-kernel), and every reset comes back to */
	char second_kernel[128];           /* the other release installed in the guest's /boot */

	/* One boot (ior_testbed_boot). */
	char dir[IOR_TESTBED_PATH];        /* this boot's directory, under the test's /tmp directory */
	char ssh_config[IOR_TESTBED_PATH]; /* `ssh -F ssh_config ior-machine` logs in as root */
	char console[IOR_TESTBED_PATH];    /* the guest's serial console */
	char data_disk[IOR_TESTBED_PATH];  /* the sparse file the guest sees as /dev/vdb */
	char target[64];                   /* "ssh://root@127.0.0.1:PORT" */
	int port;                          /* forwarded to the guest's port 22 */
	double boot_s;                     /* from qemu's start to SSH answering */
	struct ior_spawn qemu;
	bool running;
};

/* ssh's options for the test-bed (port, key, no host key check, batch mode, keepalives), to put
 * between "ssh" and the host: "-F" ssh_config; the host is "ior-machine". */
#define IOR_TESTBED_HOST "ior-machine"

/* Builds the test-bed once or finds it in the cache (IOR_MACHINE_CACHE, else
 * /var/tmp/ioregress-machine) and fills image, key and the kernels. Skips the program (77) when it
 * cannot be built here: not root, no qemu or mmdebstrap, no way to reach deb.debian.org. */
int ior_testbed_image(struct ior_testbed *m);

/* Boots the guest's default kernel on a new overlay in the test directory (name: its
 * subdirectory), with a data disk of IOR_MACHINE_DATA_SIZE (default 2G), and waits up to
 * deadline_s for SSH. qemu dies with the test, and every booted test-bed is stopped at exit. */
int ior_testbed_boot(struct ior_testbed *m, const char *name, double deadline_s);

/* Runs command on the guest as root; its stdout (and stderr) into out, trailing newline removed
 * (out may be NULL). Returns ssh's exit status (255: no connection), or -1 when ssh could not run
 * or outlived limit_s. */
int ior_testbed_ssh(struct ior_testbed *m, const char *command, char *out, size_t len, double limit_s);

/* Copies a local file to the guest's path, or the guest's path to a local file (scp). */
int ior_testbed_put(struct ior_testbed *m, const char *local, const char *remote);
int ior_testbed_get(struct ior_testbed *m, const char *remote, const char *local);

/* Puts this build's ioregress (binary: a path; NULL: IOR_BINARY, as ctest sets it) on the guest as
 * /usr/local/bin/ioregress and checks that it runs there (`ioregress --version`): the image holds
 * every library it links, the sanitize build's runtimes included. */
int ior_testbed_install_ioregress(struct ior_testbed *m, const char *binary);

/* The guest's /proc/sys/kernel/random/boot_id (len >= 40); IOR_OK or an error. */
int ior_testbed_boot_id(struct ior_testbed *m, char *out, size_t len);

/* Waits up to deadline_s for SSH to answer with a boot id other than old_boot_id (a kexec, a
 * reboot or a panic's reset has happened and the guest is back); the new one into out. */
int ior_testbed_wait_new_boot(struct ior_testbed *m, const char *old_boot_id, double deadline_s,
			      char *out, size_t len);

/* True while qemu runs. */
bool ior_testbed_running(struct ior_testbed *m);

/* Waits up to deadline_s for qemu to end by itself (the guest powered off); its exit status, or -1
 * when it did not end in time (it is then left running for ior_testbed_stop). */
int ior_testbed_wait_exit(struct ior_testbed *m, double deadline_s);

/* Ends qemu (SIGTERM, SIGKILL 5 s later, by its pid) and removes the overlay and the data disk. A
 * test-bed not booted or already stopped is left alone. */
void ior_testbed_stop(struct ior_testbed *m);

#endif
