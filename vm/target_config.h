/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A real machine's kernel config and loaded modules, read over SSH, for a tree built to boot there:
 * its /boot/config-$(uname -r), else /proc/config.gz, and /proc/modules for localmodconfig. */
#ifndef IOR_VM_TARGET_CONFIG_H
#define IOR_VM_TARGET_CONFIG_H

#include "vm/kernel_build.h"
#include "vm/target.h"

#include <stdbool.h>
#include <stddef.h>

struct ior_vm_target_config {
	char target[400];     /* the target's name as --target gave it */
	char release[128];    /* its uname -r */
	char source[300];     /* the file the config came from there: /boot/config-RELEASE or /proc/config.gz */
	char where[720];      /* "TARGET:SOURCE", what errors name */
	char *text;           /* the config, gunzipped, NUL-terminated */
	size_t len;
	char *modules;        /* its /proc/modules (lsmod's input to localmodconfig), NULL when not asked */
	size_t modules_len;
};

/* The shell command the target runs: a header (release, source, modules N) then, when asked, its
 * /proc/modules (N bytes), then "config" and the file's bytes as they are (gzip or text). */
int ior_vm_target_config_command(char *out, size_t len, bool modules);

/* What that command printed (out, len bytes) into c; scratch is a private directory where the
 * bytes are put once to be gunzipped. Errors name the target and the file: no readable config (neither
 * /boot/config-RELEASE nor /proc/config.gz), not a config (no CONFIG_ line; a corrupt gzip stream),
 * a value holding a make or shell expansion, no module list when one was asked for. */
int ior_vm_target_config_parse(struct ior_vm_target_config *c, const char *target, const char *out, size_t len,
			       bool modules, const char *scratch);

/* Reads it from the target over SSH (its own ssh configuration and --ssh-option, no root needed:
 * both files are readable by anyone), then as ior_vm_target_config_parse. */
int ior_vm_target_config_fetch(struct ior_vm_target_config *c, const struct ior_vm_target_opts *t, bool modules,
			       const char *scratch);

/* The config and the module list written into dir as TARGET-config and TARGET-modules (the target's
 * name made a file name), their paths into config and modules ("" when not fetched). */
int ior_vm_target_config_write(const struct ior_vm_target_config *c, const char *dir, char *config, size_t clen,
			       char *modules, size_t mlen);

void ior_vm_target_config_free(struct ior_vm_target_config *c);

/* `vm run --target ssh://… --tree DIR REV…`: each revision built with the target's config (o->config
 * when given instead), trimmed to its loaded modules with localmodconfig, packaged with make
 * bindeb-pkg into o->out (default: the tree's build directory with -deb), its linux-image .deb
 * into specs[i] (the KERNEL vm run installs there). Errors of the config name the target. */
int ior_vm_target_tree_build(struct ior_kbuild *builds, char (*specs)[IOR_VM_SPEC_MAX], struct ior_kbuild_opts *o,
			     const struct ior_vm_target_opts *t, bool localmodconfig, const char *const *revs, size_t n);

#endif
