/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building a kernel tree for a guest: make O= with the guest's options merged in, modules installed
 * into a staging tree, builds cached by commit and config hash. */
#ifndef IOR_VM_KERNEL_BUILD_H
#define IOR_VM_KERNEL_BUILD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "kernel/git_info.h"

/* The options every guest needs, merged over the base config before the user's fragments
 * (so a fragment may still change them): virtio-blk over virtio-pci, devtmpfs, the serial
 * console, an initramfs, ACPI power-off, the block schedulers (kyber and bfq as modules, so
 * the guest's load_modules has something to load), loop, and the system calls ioregress uses
 * that tinyconfig leaves out (aio, io_uring, futex, file locks, timers). */
extern const char ior_kbuild_guest_fragment[];

struct ior_kbuild_opts {
	const char *tree;                 /* the kernel source tree (a git work tree for the cache) */
	const char *config;               /* a full .config to start from, or NULL */
	const char *defconfig;            /* else a make target making one: tinyconfig (default), defconfig... */
	const char *const *fragments;     /* merged after the guest's options, in order */
	size_t nfragments;
	const char *out;                  /* the build directory, the images and the logs; NULL: the cache */
	bool localversion;                /* LOCALVERSION=-gSHA12: the release names the commit (else none, not even
					   * the "+" of a commit past a tag, so comment-only commits build identical images) */
	unsigned jobs;                    /* make -j; 0: the host's CPUs */
	int nice;                         /* make runs under nice -n this, 0: not niced */
	bool progress;                    /* one line per stage on stderr */
};

/* One build, fresh or reused. */
struct ior_kbuild {
	char image[PATH_MAX];             /* …/images/KEY/bzImage */
	char modules[PATH_MAX];           /* …/images/KEY/lib/modules/RELEASE */
	char config[PATH_MAX];            /* …/images/KEY/config: the .config built */
	char release[128];
	struct ior_git_commit commit;     /* sha "" when the tree is no git work tree */
	bool dirty;                       /* tracked files differ from the commit: never cached */
	char config_hash[65];             /* sha256 of the .config built */
	char image_hash[65];              /* sha256 of the bzImage */
	bool reused;                      /* found in the cache: nothing was compiled */
	bool ccache;
	double seconds;                   /* this call's wall time */
	char log[PATH_MAX];               /* make's output */
};

/* Builds (or finds in the cache) the tree as it is checked out. A compiler error is
 * IOR_ERROR with the log's first error lines in the message; a bad option IOR_EINVALID.
 * Builds into one out directory are serialized by a lock on it. */
int ior_kernel_build(struct ior_kbuild *b, const struct ior_kbuild_opts *o);

/* The out directory for tree when none is given: ~/.cache/ioregress/builds/NAME-HASH; "" when
 * neither XDG_CACHE_HOME nor HOME is set (never a shared directory). */
void ior_kbuild_default_out(char *out, size_t len, const char *tree);

/* sha256 of what the .config is made from besides the commit: the base config, the guest's
 * options, the fragments (their contents), the localversion choice, the compiler's and linker's
 * versions and the variables that pick them. */
int ior_kbuild_inputs_hash(char hex[65], const struct ior_kbuild_opts *o);

/* Writes b's record (build.info) into dir, and reads one back: what vm run stores with a boot. */
int ior_kbuild_record_write(const struct ior_kbuild *b, const char *dir);
int ior_kbuild_record_read(struct ior_kbuild *b, const char *dir);

/* vm run's KERNEL operand: PATH/bzImage:MODULES_DIR. */
#define IOR_VM_SPEC_MAX (2 * PATH_MAX + 2)

/* Checks out each revision of o->tree in turn (detached; local changes stop it) and builds it
 * into builds[i], its vm run operand into specs[i]; HEAD is checked out again at the end. */
int ior_vm_tree_build(struct ior_kbuild *builds, char (*specs)[IOR_VM_SPEC_MAX], const struct ior_kbuild_opts *o,
		      const char *const *revs, size_t n);

struct ior_db;
/* Ties the commit of each build to the kernel rows of the runs its boots (vm_boots.kernel =
 * specs[i]) merged, as run --kernel-tree does. */
int ior_vm_tree_record_commits(struct ior_db *db, const struct ior_kbuild *builds, char (*specs)[IOR_VM_SPEC_MAX],
			       size_t n);

#endif
