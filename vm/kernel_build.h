/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building a kernel tree for a guest: make O= with the guest's options merged in, modules installed
 * into a staging tree, builds cached by commit and config hash. */
#ifndef IOR_VM_KERNEL_BUILD_H
#define IOR_VM_KERNEL_BUILD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

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
	/* A kernel for a real machine (vm/kernel_deb.c): the config is the target's (config, fetched),
	 * ior_kbuild_deb_fragment is merged instead of the guest's options, and make bindeb-pkg packages
	 * it; the entry holds the linux-image .deb (deb), the bzImage and the config. */
	bool deb;
	const char *lsmod;                /* with deb: the target's /proc/modules, trimmed to as make
					   * localmodconfig does (LSMOD=), before the fragments; NULL: not trimmed */
};

/* One build, fresh or reused. */
struct ior_kbuild {
	char image[PATH_MAX];             /* …/images/KEY/bzImage */
	char modules[PATH_MAX];           /* …/images/KEY/lib/modules/RELEASE */
	char config[PATH_MAX];            /* …/images/KEY/config: the .config built */
	char release[128];
	struct ior_git_commit commit;     /* sha "" when the tree is no git work tree */
	bool dirty;                       /* tracked files differ from the commit: never reused, describe ends in
					   * "-dirty" and the entry is named by the changes too */
	char local_changes[65];           /* with dirty: sha256 of the diff from the commit to the tree */
	char config_hash[65];             /* sha256 of the .config built */
	char image_hash[65];              /* sha256 of the bzImage */
	char compiler[256];               /* the .config's CONFIG_CC_VERSION_TEXT, "" when it has none */
	bool reused;                      /* found in the cache: nothing was compiled */
	bool ccache;
	double seconds;                   /* this call's wall time */
	char log[PATH_MAX];               /* make's output */
	char deb_name[256];               /* with opts.deb: the linux-image package's file in the entry */
	char deb[PATH_MAX];               /* …/images/KEY/deb_name, "" without one */
};

/* Builds (or finds in the cache) the tree as it is checked out. A compiler error is
 * IOR_ERROR with the log's first error lines in the message; a bad option IOR_EINVALID.
 * Builds into one out directory are serialized by a lock on it. */
int ior_kernel_build(struct ior_kbuild *b, const struct ior_kbuild_opts *o);

/* The out directory for tree when none is given: ~/.cache/ioregress/builds/NAME-HASH; "" when
 * neither XDG_CACHE_HOME nor HOME is set (never a shared directory). */
void ior_kbuild_default_out(char *out, size_t len, const char *tree);
/* The folder those are made in (~/.cache/ioregress/builds), "" as above. */
void ior_kbuild_default_root(char *out, size_t len);

/* The journal of a build into the build directory out (held under its lock): begin refuses when a
 * make into out/build still runs (left by a build that was cut off: a second one would build beside
 * it), says so when the last build was cut off, and writes the journal; end removes it. */
int ior_kbuild_journal_begin(const char *out);
void ior_kbuild_journal_end(const char *out);
/* A live process whose arguments hold O=out/build (a make building there), 0 when none. */
pid_t ior_kbuild_live_make(const char *out);
/* recover's part: each default build directory (ior_kbuild_default_root) whose journal's build is
 * gone has the make it left ended (when it is ours) and its journal removed; one line each on
 * out, done and failed counted. */
int ior_kbuild_recover(FILE *out, unsigned *done, unsigned *failed);

/* What a kernel for a real machine gets over the target's own config, before the user's fragments:
 * no debug information (it doubles the build and makes a -dbg package nobody installs; BTF would
 * need pahole) and no trusted keys named by a path of the distribution's source tree (Debian's
 * config names debian/certs/..., which a tree from elsewhere does not have). */
extern const char ior_kbuild_deb_fragment[];

/* make bindeb-pkg's packages of release in the build directory out (written beside out/build): the
 * linux-image one moved into dir (its name into name), every other one it made (headers, libc-dev,
 * -dbg, .buildinfo, .changes) removed. IOR_ERROR naming out when there is no image package. */
int ior_kbuild_deb_collect(const char *out, const char *release, const char *dir, char *name, size_t len);

/* The Debian version of a build's package: 1.CONFIG12[.CHANGES12]-1, so two builds of one release
 * (the same commit, another config or other local changes) are other versions and a target that has
 * one installed installs the other. */
void ior_kbuild_deb_version(char *out, size_t len, const struct ior_kbuild *b);

/* The checks of a config's values that --config gets (no make or shell expansion in a value), on a
 * text from elsewhere: what and where name it in the error ("kernel config", "ssh://host:/boot/..."). */
int ior_kbuild_check_values(const char *text, const char *what, const char *where);

/* What --config and the fragments held when they were checked: what is merged and hashed is
 * what was checked, whatever happens to the files afterwards. */
struct ior_kbuild_texts {
	char *config;                     /* NULL without --config */
	size_t config_len;
	char **fragments;                 /* n texts, in o->fragments' order */
	size_t *fragment_lens;
	size_t n;
};

/* Reads --config and each --fragment through the descriptor it checks: a regular file; as root,
 * one no other user could have written (the rule of the matrix's include =); and no value holding
 * a make or shell expansion ('$(', '${', '`'), which kbuild's makefiles would run. */
int ior_kbuild_texts_load(struct ior_kbuild_texts *t, const struct ior_kbuild_opts *o);
void ior_kbuild_texts_free(struct ior_kbuild_texts *t);

/* The same checks alone, for a command that builds later (vm run --tree before its first checkout,
 * bisect start --kernel): the tree when o->tree is set and exists, --config and the fragments. */
int ior_kbuild_check_inputs(const struct ior_kbuild_opts *o);

/* The build directory from --build-dir as typed (relative: to the current directory), into out:
 * made private (ior_make_private_dir: judged before anything is created), and each entry ioregress
 * writes there by name judged too (ours, no link); build/ and images/ created. Errors name what
 * was typed. */
int ior_kbuild_out_prepare(char *out, size_t len, const char *typed);

/* Writes text to path, never through a symlink (O_NOFOLLOW). */
int ior_kbuild_write_private(const char *path, const char *text, size_t len);

/* sha256 of what the .config is made from besides the commit: the base config, the guest's
 * options, the fragments (their contents as t holds them; no file is keyed by its name), the localversion choice, the
 * compiler's and linker's versions and the variables that pick them. */
int ior_kbuild_inputs_hash(char hex[65], const struct ior_kbuild_opts *o, const struct ior_kbuild_texts *t);

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
