/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scheduler module states through libkmod, for the running kernel or any module tree, and loading
 * with a record of what to unload. */
#ifndef IOR_KERNEL_MODULES_H
#define IOR_KERNEL_MODULES_H

#include <stdbool.h>
#include <stddef.h>

enum ior_mod_state {
	IOR_MOD_ABSENT,   /* neither built in nor in the tree (or config says not set) */
	IOR_MOD_LOADABLE, /* a module file exists in the tree */
	IOR_MOD_LOADED,   /* running kernel only: the module is live */
	IOR_MOD_BUILTIN,  /* modules.builtin lists it (or, without a tree, the config says =y) */
	IOR_MOD_NO_TREE,  /* the kernel has no module tree, and nothing else tells */
};

/* "absent", "loadable", "loaded", "built-in", "no module tree" (the db's module_state words). */
const char *ior_mod_state_name(enum ior_mod_state state);

/* The scheduler modules ioregress knows, oldest first: as-iosched, noop-iosched,
 * deadline-iosched, cfq-iosched, mq-deadline, kyber-iosched, bfq. */
const char *const *ior_kmod_scheduler_modules(size_t *n);

struct ior_kmod;

/* Opens one kernel's module tree: MODULES_DIR/RELEASE (modules_dir NULL = /lib/modules,
 * release NULL = the running kernel). A missing tree is not an error: the handle then
 * reports IOR_MOD_NO_TREE (or what the kernel's config says). The config is looked for
 * in /proc/config.gz (running kernel) or MODULES_DIR/../../boot/config-RELEASE, which is
 * /boot for /lib/modules and boot/ for an extracted Debian package. */
int ior_kmod_open(struct ior_kmod **out, const char *modules_dir, const char *release);
void ior_kmod_free(struct ior_kmod *k); /* NULL is a no-op; does not unload anything */

bool ior_kmod_has_tree(const struct ior_kmod *k);
bool ior_kmod_is_running(const struct ior_kmod *k); /* the tree is the running kernel's */
const char *ior_kmod_release(const struct ior_kmod *k);
const char *ior_kmod_tree(const struct ior_kmod *k);  /* MODULES_DIR/RELEASE */

/* One module's state. Names take '-' or '_' alike. */
int ior_kmod_state(struct ior_kmod *k, const char *module, enum ior_mod_state *state);

/* The module file for a loadable module, "" when it has none. */
int ior_kmod_path(struct ior_kmod *k, const char *module, char *path, size_t len);

/* The files to insert, in order, for module to be usable: what it depends on first, each file
 * once across calls (paths[0..*n) is appended to, at most max, each PATH_MAX long). A built-in
 * module adds nothing; one the tree does not have is IOR_ENOTFOUND. For building an initramfs. */
int ior_kmod_load_order(struct ior_kmod *k, const char *module, char (*paths)[4096], size_t max, size_t *n);

/* Loads module (and what it depends on) into the running kernel and records every module
 * this call inserted. Nothing is recorded for a module already loaded or built in. Refused
 * (IOR_EREFUSED) on a tree that is not the running kernel's; IOR_EUNSUPPORTED without a tree. */
int ior_kmod_load(struct ior_kmod *k, const char *module);

/* What ior_kmod_load inserted so far, in load order. */
size_t ior_kmod_loaded_count(const struct ior_kmod *k);
const char *ior_kmod_loaded_name(const struct ior_kmod *k, size_t i);

/* Removes what ior_kmod_load inserted, newest first, and nothing else. Keeps going past a
 * module that cannot be removed (in use) and returns the first error. */
int ior_kmod_unload_recorded(struct ior_kmod *k);

#endif
