/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bisect start --kernel: the config arguments logged once and parsed back for every run, and the
 * answer's describe and config lines. */
#include "harness/bisect_kernel.h"

#include "common/error.h"
#include "common/spawn.h"
#include "harness/kbuild_args.h"
#include "kernel/git_info.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum arg_kind { TEXT, FILE_PATH, DIR_PATH };

/* " --opt 'value'": single quotes keep blanks; a value holding one cannot be written back. Paths
 * are made absolute: run may be started from another directory. */
static int add_arg(char *args, size_t len, const char *opt, const char *value, enum arg_kind kind)
{
	char abs[PATH_MAX], cwd[PATH_MAX];
	bool path = kind != TEXT;
	if (kind == FILE_PATH && !realpath(value, abs))
		return ior_error_set(IOR_ENOTFOUND, "%s: cannot find '%s'", opt, value);
	if (kind == DIR_PATH)
		snprintf(abs, sizeof(abs), "%s%s%s", value[0] == '/' ? "" : getcwd(cwd, sizeof(cwd)) ? cwd : ".",
			 value[0] == '/' ? "" : "/", value);
	if (strchr(value, '\''))
		return ior_error_set(IOR_EINVALID, "%s: '%s' holds a single quote", opt, value);
	size_t used = strlen(args);
	if ((size_t)snprintf(args + used, len - used, "%s%s '%s'", used ? " " : "", opt, path ? abs : value) >= len - used)
		return ior_error_set(IOR_EINVALID, "the kernel config arguments are too long");
	return IOR_OK;
}

int ior_bisect_kernel_start(struct ior_db *db, int64_t id, const struct ior_kbuild_opts *kb)
{
	char args[8192] = "", nice[16];
	/* another user's config, or a value make would run, is refused now rather than at the first build */
	int rc = ior_kbuild_check_inputs(kb);
	if (!rc)
		rc = add_arg(args, sizeof(args), "--defconfig", kb->defconfig ? kb->defconfig : "tinyconfig", TEXT);
	if (!rc && kb->config) {
		args[0] = '\0';
		rc = add_arg(args, sizeof(args), "--config", kb->config, FILE_PATH);
	}
	for (size_t i = 0; !rc && i < kb->nfragments; i++)
		rc = add_arg(args, sizeof(args), "--fragment", kb->fragments[i], FILE_PATH);
	if (!rc && kb->out)
		rc = add_arg(args, sizeof(args), "--build-dir", kb->out, DIR_PATH);
	snprintf(nice, sizeof(nice), "%d", kb->nice);
	if (!rc && kb->nice)
		rc = add_arg(args, sizeof(args), "--nice", nice, TEXT);
	return rc ? rc : ior_bisect_log(db, id, NULL, "kernel", args);
}

/* The config arguments bisect start --kernel logs, as the parser takes them back. */
static const struct ior_command logged_config = {
	.name = "kernel",
	.options = (const struct ior_cmd_opt[]){ IOR_CMD_ROWS_KBUILD(struct bisect_kernel, kb, fragment_list), { 0 } },
};

int ior_bisect_kernel_load(struct ior_db *db, int64_t id, struct bisect_kernel *k)
{
	memset(k, 0, sizeof(*k));
	int rc = ior_bisect_log_last(db, id, NULL, "kernel", &k->found, k->args, sizeof(k->args));
	if (rc || !k->found)
		return rc;
	/* read back with the rows bisect start took them by, after the verb the parser expects */
	char line[sizeof(k->args) + 16];
	snprintf(line, sizeof(line), "kernel %s", k->args);
	if ((rc = ior_argv_split(&k->argv, line)))
		return ior_error_wrap(rc, "the bisection's kernel config '%s'", k->args);
	int argc = 0;
	while (k->argv[argc])
		argc++;
	/* the parser reuses the array it is given: a copy, as k->argv's strings are freed one by one */
	if (!(k->words = calloc((size_t)argc + 1, sizeof(*k->words))))
		return ior_error_set(IOR_ERROR, "out of memory");
	memcpy(k->words, k->argv, (size_t)argc * sizeof(*k->words));
	struct ior_cmd_parsed p;
	rc = ior_cmd_parse(&logged_config, argc, k->words, k, &p);
	if (!rc)
		rc = ior_cmd_kbuild_finish(&k->kb, &k->fragment_list);
	return rc ? ior_error_wrap(rc, "the bisection's kernel config '%s'", k->args) : IOR_OK;
}

int ior_bisect_kernel_answer(FILE *out, struct ior_db *db, const struct ior_bisect_info *b, const struct bisect_kernel *k,
			     const char *culprit)
{
	char hash[1024] = "";
	bool found = false;
	if (culprit) {
		struct ior_git_commit c;
		if (ior_git_lookup(&c, b->repo, culprit) == IOR_OK)
			fprintf(out, "  describe: %s\n", c.describe[0] ? c.describe : "-");
		ior_error_clear();
		if (ior_bisect_log_last(db, b->id, culprit, "config", &found, hash, sizeof(hash)))
			return IOR_ERROR;
	}
	fprintf(out, "kernel config: %s%s%.64s\n", k->args, found ? "; the culprit's config hash " : "", found ? hash : "");
	return IOR_OK;
}

void ior_bisect_kernel_free(struct bisect_kernel *k)
{
	ior_argv_free(k->argv);
	k->argv = NULL;
	free(k->words);
	k->words = NULL;
}
