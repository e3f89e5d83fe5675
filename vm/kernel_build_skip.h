/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The steps of a kernel build that are skipped when their inputs did not change (stamps in the
 * build directory): the config when no Kconfig file, base config, kconfig tool or fragment
 * changed; modules_install when no module changed. */
#ifndef IOR_VM_KERNEL_BUILD_SKIP_H
#define IOR_VM_KERNEL_BUILD_SKIP_H

#include <stdbool.h>
#include <stddef.h>

/* A growing text hashed in one piece (the inputs of a step): add sets failed when out of memory. */
struct ior_kbuild_text {
	char *s;
	size_t len, cap;
	bool failed;
};
void ior_kbuild_text_add(struct ior_kbuild_text *t, const void *p, size_t n);

/* sha256 over inputs (ior_kbuild_inputs_hash's hex: base config, guest options, fragments,
 * compilers) and what make's config targets read in tree: each Kconfig file the last build's
 * Kconfig read (build/include/config/auto.conf.cmd), kernel/configs, arch/x86/configs,
 * scripts/kconfig and the top Makefile. IOR_ENOTFOUND when no build left that list. */
int ior_kbuild_config_stamp(char hex[65], const char *inputs, const char *tree, const char *build);

/* sha256 over the modules a build made in build: the release, modules.order, modules.builtin(.modinfo)
 * and each listed module's contents. IOR_ENOTFOUND without a modules.order. */
int ior_kbuild_modules_stamp(char hex[65], const char *build, const char *release);

/* A stamp file: the hash on its first line, extra (may be NULL) on the second. read returns
 * IOR_ENOTFOUND when there is none (no message set). */
int ior_kbuild_stamp_read(const char *path, char hex[65], char *extra, size_t len);
int ior_kbuild_stamp_write(const char *path, const char *hex, const char *extra);

#endif
