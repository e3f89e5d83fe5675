/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Revisions of a kernel tree built for a real machine: with its own config read over SSH (trimmed
 * to its loaded modules on request), packaged with make bindeb-pkg, each .deb the KERNEL it installs. */
#include "vm/target_config.h"

#include "common/error.h"
#include "common/spawn.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A kernel tree has these at its top; checked before the target is asked for anything. */
static int kernel_tree(const char *tree)
{
	static const char *const need[] = { "Makefile", "Kconfig", "scripts/kconfig", "scripts/package" };
	char path[PATH_MAX + 40];
	struct stat st;
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", tree, need[i]);
		if (stat(path, &st) != 0)
			return ior_error_set(IOR_EINVALID, "'%s' is no kernel tree: it has no %s (make bindeb-pkg builds a "
					     "Linux source tree)", tree, need[i]);
	}
	return IOR_OK;
}

int ior_vm_target_tree_build(struct ior_kbuild *builds, char (*specs)[IOR_VM_SPEC_MAX], struct ior_kbuild_opts *o,
			     const struct ior_vm_target_opts *t, bool localmodconfig, const char *const *revs, size_t n)
{
	char typed[PATH_MAX], out[PATH_MAX], config[PATH_MAX + 300], modules[PATH_MAX + 300];
	int rc = kernel_tree(o->tree);
	if (!rc && !ior_spawn_in_path("dpkg-buildpackage"))
		rc = ior_error_set(IOR_EUNSUPPORTED, "make bindeb-pkg needs dpkg-buildpackage here (Debian: apt-get install "
				   "dpkg-dev fakeroot rsync cpio bc bison flex libelf-dev libssl-dev)");
	/* a tree's guest builds and its packages for a machine keep apart: one configuration would
	 * rebuild the other's objects on every switch */
	if (!rc && !o->out) {
		ior_kbuild_default_out(typed, sizeof(typed) - 8, o->tree);
		if (!typed[0])
			rc = ior_error_set(IOR_EINVALID, "no build directory for '%s': neither XDG_CACHE_HOME nor HOME is set "
					   "(give --build-dir DIR)", o->tree);
		strcat(typed, "-deb");
	} else if (!rc) {
		snprintf(typed, sizeof(typed), "%s", o->out);
	}
	if (!rc)
		rc = ior_kbuild_out_prepare(out, sizeof(out), typed);
	struct ior_vm_target_config c = { 0 };
	bool fetch = !o->config || localmodconfig;
	if (!rc && fetch)
		rc = ior_vm_target_config_fetch(&c, t, localmodconfig, out);
	if (!rc && fetch)
		rc = ior_vm_target_config_write(&c, out, config, sizeof(config), modules, sizeof(modules));
	if (rc) {
		ior_vm_target_config_free(&c);
		return rc;
	}
	if (o->progress && fetch)
		fprintf(stderr, "vm: %s: %s%s (running %s)%s%s\n", t->url.name, o->config ? "its modules from " : "its config ",
			o->config ? "/proc/modules" : c.source, c.release, localmodconfig ? ", trimmed to its loaded modules" : "",
			o->config ? "" : ": building with it");
	struct ior_kbuild_opts deb = *o;
	deb.out = out;
	deb.deb = true;
	if (!o->config)
		deb.config = config;
	deb.lsmod = localmodconfig ? modules : NULL;
	rc = ior_vm_tree_build(builds, specs, &deb, revs, n);
	if (rc && rc != IOR_EINTERRUPTED && fetch && !o->config)
		ior_error_wrap(rc, "a kernel for '%s' with its config '%s'", t->url.name, c.where);
	ior_vm_target_config_free(&c);
	return rc;
}
