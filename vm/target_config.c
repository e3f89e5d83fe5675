/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A real machine's kernel config (its /boot/config-$(uname -r), else /proc/config.gz) and loaded
 * modules, read over SSH in one connection and checked as --config is, the target named in errors. */
#include "vm/target_config.h"

#include "common/error.h"
#include "kernel/info.h"
#include "vm/ssh.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define FETCH_S 120.0 /* one cat of a config (a few hundred KiB) and /proc/modules */

int ior_vm_target_config_command(char *out, size_t len, bool modules)
{
	/* the file's bytes go as they are: a gzip stream is unpacked here (kernel/info.c reads both forms),
	 * so the target needs no gzip; the module list ends at the line "config", which no module is */
	int n = snprintf(out, len,
			 "r=$(uname -r); f=; if test -r \"/boot/config-$r\"; then f=\"/boot/config-$r\"; "
			 "elif test -r /proc/config.gz; then f=/proc/config.gz; fi; "
			 "echo \"release $r\"; echo \"source $f\"; %s"
			 "echo config; if test -n \"$f\"; then cat \"$f\"; fi",
			 modules ? "if test -r /proc/modules; then echo modules; cat /proc/modules; else echo 'modules none'; fi; "
				 : "");
	return n < 0 || (size_t)n >= len ? ior_error_set(IOR_ERROR, "the config command is too long") : IOR_OK;
}

/* The next line of [*p, end) into line (without its newline); false at the end. */
static bool next_line(const char **p, const char *end, char *line, size_t len)
{
	if (*p >= end)
		return false;
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	size_t n = (size_t)((nl ? nl : end) - *p);
	snprintf(line, len, "%.*s", (int)(n < len ? n : len - 1), *p);
	*p = nl ? nl + 1 : end;
	return true;
}

/* The config's bytes put in scratch once and read back through kernel/info.c, which gunzips a
 * gzip stream by its magic and says when one is cut short or corrupt. */
static int unpack(struct ior_vm_target_config *c, const char *bytes, size_t n, const char *scratch)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/target-config.%ld.raw", scratch, (long)getpid());
	int rc = ior_kbuild_write_private(path, bytes, n);
	if (!rc)
		rc = ior_kernel_config_load(&c->text, &c->len, path);
	unlink(path);
	if (rc)
		return ior_error_set(IOR_EINVALID, "cannot read the kernel config '%s': %s", c->where, ior_error_last());
	return IOR_OK;
}

/* A kernel config is text with CONFIG_ lines; anything else (an HTML page, a binary) is refused. */
static int check_text(const struct ior_vm_target_config *c)
{
	if (strlen(c->text) != c->len)
		return ior_error_set(IOR_EINVALID, "the kernel config '%s' holds a NUL byte: not a kernel config", c->where);
	if (strncmp(c->text, "CONFIG_", 7) && !strstr(c->text, "\nCONFIG_"))
		return ior_error_set(IOR_EINVALID, "'%s' is not a kernel config: no CONFIG_ line in its %zu bytes", c->where,
				     c->len);
	return ior_kbuild_check_values(c->text, "kernel config", c->where);
}

int ior_vm_target_config_parse(struct ior_vm_target_config *c, const char *target, const char *out, size_t len,
			       bool modules, const char *scratch)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->target, sizeof(c->target), "%s", target);
	const char *p = out ? out : "", *end = p + (out ? len : 0);
	char line[512];
	bool got_release = false, got_source = false, got_modules = false, none = false;
	const char *mods = NULL, *mods_end = NULL;
	while (next_line(&p, end, line, sizeof(line))) {
		if (!strncmp(line, "release ", 8)) {
			snprintf(c->release, sizeof(c->release), "%s", line + 8);
			got_release = true;
		} else if (!strcmp(line, "source") || !strncmp(line, "source ", 7)) {
			snprintf(c->source, sizeof(c->source), "%s", line[6] ? line + 7 : "");
			got_source = true;
		} else if (!strcmp(line, "modules none")) {
			got_modules = none = true;
		} else if (!strcmp(line, "modules")) {
			got_modules = true;
			mods = p;
			const char *q = p;
			/* up to the line "config" */
			while (q < end && !(end - q >= 7 && !strncmp(q, "config\n", 7)))
				q = memchr(q, '\n', (size_t)(end - q)) ? (const char *)memchr(q, '\n', (size_t)(end - q)) + 1 : end;
			mods_end = q;
			p = q;
		} else if (!strcmp(line, "config")) {
			break;
		} else {
			return ior_error_set(IOR_ERROR, "'%s' answered the config command with '%.80s'", target, line);
		}
	}
	snprintf(c->where, sizeof(c->where), "%s:%s", target, c->source[0] ? c->source : "/boot/config-RELEASE");
	if (!got_release || !got_source || (modules && !got_modules))
		return ior_error_set(IOR_ERROR, "'%s' answered the config command without its %s", target,
				     !got_release ? "release" : !got_source ? "config's file" : "modules");
	if (!c->source[0])
		return ior_error_set(IOR_ENOTFOUND, "'%s' has no readable kernel config: neither /boot/config-%s nor "
				     "/proc/config.gz (CONFIG_IKCONFIG_PROC) is there to read (give --config FILE)", target,
				     c->release);
	if (modules && none)
		return ior_error_set(IOR_EUNSUPPORTED, "'%s' has no /proc/modules (its kernel loads no modules): "
				     "--localmodconfig has no module list to keep", target);
	int rc = unpack(c, p, (size_t)(end - p), scratch);
	if (!rc)
		rc = check_text(c);
	if (!rc && modules) {
		c->modules_len = (size_t)(mods_end - mods);
		c->modules = malloc(c->modules_len + 1);
		if (!c->modules)
			return ior_error_set(IOR_ERROR, "out of memory");
		memcpy(c->modules, mods, c->modules_len);
		c->modules[c->modules_len] = '\0';
		if (strlen(c->modules) != c->modules_len)
			rc = ior_error_set(IOR_EINVALID, "the module list of '%s' holds a NUL byte", target);
	}
	return rc;
}

int ior_vm_target_config_fetch(struct ior_vm_target_config *c, const struct ior_vm_target_opts *t, bool modules,
			       const char *scratch)
{
	memset(c, 0, sizeof(*c));
	struct ior_vm_ssh s = { .url = &t->url, .options = t->ssh_options, .noptions = t->nssh_options,
				.connect_timeout_s = t->connect_timeout_s, .sudo = "" };
	char cmd[1024];
	int rc = ior_vm_target_config_command(cmd, sizeof(cmd), modules);
	struct ior_spawn r = { 0 };
	if (!rc)
		rc = ior_vm_ssh_run(&s, cmd, t->connect_timeout_s + FETCH_S, &r);
	if (!rc && ior_vm_ssh_lost(&r))
		rc = ior_error_set(IOR_ETIMEDOUT, "cannot reach '%s' to read its kernel config%s%s", t->url.name,
				   r.err[0] ? ": " : (r.timed_out ? " (past the deadline)" : ""), r.err);
	else if (!rc && !(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0))
		rc = ior_error_set(IOR_ERROR, "reading the kernel config of '%s' failed (status %d)%s%s", t->url.name,
				   WIFEXITED(r.status) ? WEXITSTATUS(r.status) : -1, r.err[0] ? ": " : "", r.err);
	if (!rc)
		rc = ior_vm_target_config_parse(c, t->url.name, r.out, r.out_len, modules, scratch);
	ior_spawn_free(&r);
	return rc;
}

/* The target's name as a file name: its letters, digits, dots and dashes, the rest '-'. */
static void file_name(char *out, size_t len, const char *target)
{
	const char *s = strstr(target, "://") ? strstr(target, "://") + 3 : target;
	size_t j = 0;
	for (; *s && j + 1 < len; s++)
		out[j++] = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '.' ? *s
															    : '-';
	out[j] = '\0';
}

int ior_vm_target_config_write(const struct ior_vm_target_config *c, const char *dir, char *config, size_t clen,
			       char *modules, size_t mlen)
{
	char name[200];
	file_name(name, sizeof(name), c->target);
	snprintf(config, clen, "%s/target-%s.config", dir, name);
	int rc = ior_kbuild_write_private(config, c->text, c->len);
	if (modules)
		modules[0] = '\0';
	if (!rc && c->modules && modules) {
		snprintf(modules, mlen, "%s/target-%s.modules", dir, name);
		rc = ior_kbuild_write_private(modules, c->modules, c->modules_len);
		/* streamline_config.pl runs an executable LSMOD file instead of reading it: never one */
		if (!rc && chmod(modules, 0644) != 0)
			rc = ior_error_errno(IOR_ERROR, errno, "cannot chmod '%s'", modules);
	}
	return rc;
}

void ior_vm_target_config_free(struct ior_vm_target_config *c)
{
	free(c->text);
	free(c->modules);
	c->text = c->modules = NULL;
}
