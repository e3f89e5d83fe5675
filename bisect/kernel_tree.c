/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bisect start --kernel: the config stored once in its columns and read back for every run, and the
 * answer's describe and config lines. */
#include "bisect/kernel_tree.h"

#include "common/error.h"
#include "kernel/git_info.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A path made absolute: a file that must exist, or a directory that may not yet. */
static int absolute(char **out, const char *opt, const char *value, bool must_exist)
{
	char abs[PATH_MAX], cwd[PATH_MAX];
	if (must_exist && !realpath(value, abs))
		return ior_error_set(IOR_ENOTFOUND, "%s: cannot find '%s'", opt, value);
	if (!must_exist)
		snprintf(abs, sizeof(abs), "%s%s%s", value[0] == '/' ? "" : getcwd(cwd, sizeof(cwd)) ? cwd : ".",
			 value[0] == '/' ? "" : "/", value);
	*out = strdup(abs);
	return *out ? IOR_OK : ior_error_set(IOR_ERROR, "out of memory");
}

int ior_bisect_kernel_tree_start(struct ior_db *db, int64_t id, const struct ior_kbuild_opts *kb)
{
	struct ior_bisect_kconfig k = { .nice = kb->nice };
	/* another user's config, or a value make would run, is refused now rather than at the first build */
	int rc = ior_kbuild_check_inputs(kb);
	if (!rc && kb->config)
		rc = absolute(&k.config, "--config", kb->config, true);
	else if (!rc && !(k.defconfig = strdup(kb->defconfig ? kb->defconfig : "tinyconfig")))
		rc = ior_error_set(IOR_ERROR, "out of memory");
	if (!rc && kb->nfragments && !(k.fragments = calloc(kb->nfragments, sizeof(*k.fragments))))
		rc = ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; !rc && i < kb->nfragments; i++, k.nfragments++)
		rc = absolute(&k.fragments[i], "--fragment", kb->fragments[i], true);
	if (!rc && kb->out)
		rc = absolute(&k.build_dir, "--build-dir", kb->out, false);
	if (!rc)
		rc = ior_bisect_kconfig_set(db, id, &k);
	ior_bisect_kconfig_free(&k);
	return rc;
}

void ior_bisect_kernel_tree_opts(struct ior_kbuild_opts *kb, const struct ior_bisect_kconfig *k, const char *tree)
{
	*kb = (struct ior_kbuild_opts){ .tree = tree, .config = k->config, .defconfig = k->config ? NULL : k->defconfig,
					.fragments = (const char *const *)k->fragments, .nfragments = k->nfragments,
					.out = k->build_dir, .nice = k->nice, .progress = true };
}

int ior_bisect_kernel_tree_answer(FILE *out, struct ior_db *db, const struct ior_bisect_info *b,
				  const struct ior_bisect_kconfig *k, const char *culprit)
{
	char hash[1024] = "", args[8192];
	bool found = false;
	if (culprit) {
		struct ior_git_commit c;
		if (ior_git_lookup(&c, b->repo, culprit) == IOR_OK)
			fprintf(out, "  describe: %s\n", c.describe[0] ? c.describe : "-");
		ior_error_clear();
		if (ior_bisect_config_hash_get(db, b->id, culprit, &found, hash, sizeof(hash)))
			return IOR_ERROR;
	}
	if (ior_bisect_kconfig_format(k, args, sizeof(args)))
		return IOR_ERROR;
	fprintf(out, "kernel config: %s%s%.64s\n", args, found ? "; the culprit's config hash " : "", found ? hash : "");
	return IOR_OK;
}
