/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a kernel build is made of, checked before anything is created or run: --config and the
 * fragments (read once; another user's refused as root; make expansions refused), the tree, and
 * the build directory (held private before anything is made in it). */
#include "vm/kernel_build.h"

#include "common/error.h"
#include "common/trust.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A full .config is some 300 KB; anything past this is no config. */
#define KBUILD_CONFIG_MAX (16 << 20)

/* kbuild writes string values into include/config/auto.conf, which its makefiles include and
 * expand ('$(shell ...)' in CONFIG_INITRAMFS_SOURCE runs when usr/Makefile reads it), and some
 * reach shell commands in recipes. No option of the kernel's needs any of these, so a value
 * holding one is refused, from root and from anyone else (their own build would run it too). */
static const char *const expansions[] = { "$(", "${", "`" };

int ior_kbuild_check_values(const char *text, const char *opt, const char *path)
{
	unsigned line = 0;
	for (const char *s = text; *s;) {
		size_t len = strcspn(s, "\n");
		line++;
		const char *eq = memchr(s, '=', len);
		for (size_t i = 0; eq && s[0] != '#' && i < sizeof(expansions) / sizeof(expansions[0]); i++) {
			if (memmem(eq, (size_t)(s + len - eq), expansions[i], strlen(expansions[i])))
				return ior_error_set(IOR_EINVALID, "%s '%s':%u: %.*s holds '%s': kbuild expands config values "
						     "in its makefiles and commands, so it would run as a command (no kernel "
						     "option needs one)", opt, path, line, (int)(eq - s), s, expansions[i]);
		}
		s += len + (s[len] == '\n');
	}
	return IOR_OK;
}

/* One file, read through the descriptor that was checked: a regular file, as root one no other
 * user could have written, no NUL byte, no make expansion in a value. */
static int load_one(char **text, size_t *len, const char *path, const char *opt)
{
	*text = NULL;
	*len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return ior_error_errno(errno == ENOENT ? IOR_ENOTFOUND : IOR_ERROR, errno,
				       errno == ENOENT ? "%s '%s' does not exist" : "cannot open %s '%s'", opt, path);
	struct stat st;
	int rc = fstat(fd, &st) ? ior_error_errno(IOR_ERROR, errno, "cannot open %s '%s'", opt, path) : IOR_OK;
	if (!rc && !S_ISREG(st.st_mode))
		rc = ior_error_set(IOR_EINVALID, "cannot read %s '%s': not a regular file", opt, path);
	if (!rc)
		rc = ior_check_trusted_stat(&st, path, opt);
	if (!rc && st.st_size > KBUILD_CONFIG_MAX)
		rc = ior_error_set(IOR_EINVALID, "%s '%s' is %lld bytes: no kernel config is that big", opt, path,
				   (long long)st.st_size);
	char *buf = rc ? NULL : malloc((size_t)st.st_size + 1);
	if (!rc && !buf)
		rc = ior_error_set(IOR_ERROR, "out of memory");
	size_t n = 0;
	for (ssize_t got = 1; !rc && got > 0 && n < (size_t)st.st_size; n += got > 0 ? (size_t)got : 0)
		if ((got = read(fd, buf + n, (size_t)st.st_size - n)) < 0)
			rc = ior_error_errno(IOR_ERROR, errno, "cannot read %s '%s'", opt, path);
	close(fd);
	if (!rc) {
		buf[n] = '\0';
		if (strlen(buf) != n)
			rc = ior_error_set(IOR_EINVALID, "%s '%s' is no config: it holds a NUL byte", opt, path);
	}
	if (!rc)
		rc = ior_kbuild_check_values(buf, opt, path);
	if (rc) {
		free(buf);
		return rc;
	}
	*text = buf;
	*len = n;
	return IOR_OK;
}

int ior_kbuild_texts_load(struct ior_kbuild_texts *t, const struct ior_kbuild_opts *o)
{
	memset(t, 0, sizeof(*t));
	t->fragments = calloc(o->nfragments + 1, sizeof(*t->fragments));
	t->fragment_lens = calloc(o->nfragments + 1, sizeof(*t->fragment_lens));
	if (!t->fragments || !t->fragment_lens) {
		ior_kbuild_texts_free(t);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	t->n = o->nfragments;
	int rc = o->config ? load_one(&t->config, &t->config_len, o->config, "--config") : IOR_OK;
	for (size_t i = 0; !rc && i < o->nfragments; i++)
		rc = load_one(&t->fragments[i], &t->fragment_lens[i], o->fragments[i], "--fragment");
	if (rc)
		ior_kbuild_texts_free(t);
	return rc;
}

void ior_kbuild_texts_free(struct ior_kbuild_texts *t)
{
	free(t->config);
	for (size_t i = 0; t->fragments && i < t->n; i++)
		free(t->fragments[i]);
	free(t->fragments);
	free(t->fragment_lens);
	memset(t, 0, sizeof(*t));
}

int ior_kbuild_check_inputs(const struct ior_kbuild_opts *o)
{
	char tree[PATH_MAX];
	int rc = IOR_OK;
	if (o->tree && realpath(o->tree, tree))
		rc = ior_check_trusted_tree(tree, "kernel tree");
	struct ior_kbuild_texts t;
	if (!rc && !(rc = ior_kbuild_texts_load(&t, o)))
		ior_kbuild_texts_free(&t);
	return rc;
}

/* What ioregress writes in the build directory by name: each there already must be ours and no
 * link (a directory that was once open to others may still hold what they planted). */
static const struct { const char *name; bool dir; } out_entries[] = {
	{ "build", true }, { "images", true }, { "lock", false }, { "build.log", false },
	{ "guest.config", false }, { "journal", false }, { "config.stamp", false }, { "modules.stamp", false },
	{ "objects.count", false },
};

int ior_kbuild_out_prepare(char *out, size_t len, const char *typed)
{
	char abs[PATH_MAX], cwd[PATH_MAX];
	if (typed[0] != '/') { /* relative to where we were started, as any file argument */
		if (!getcwd(cwd, sizeof(cwd)))
			return ior_error_errno(IOR_ERROR, errno, "--build-dir '%s': cannot tell the current directory", typed);
		snprintf(abs, sizeof(abs), "%s/%s", cwd, typed);
	} else {
		snprintf(abs, sizeof(abs), "%s", typed);
	}
	if (snprintf(out, len, "%s", abs) >= (int)len)
		return ior_error_set(IOR_EINVALID, "--build-dir '%s' is too long", typed);
	/* a link of the user's own (~/builds -> /data/builds) is followed once, here: from then on the
	 * directory it named is used and judged, whatever the link becomes */
	struct stat lst;
	char real[PATH_MAX];
	if (lstat(out, &lst) == 0 && S_ISLNK(lst.st_mode) && (lst.st_uid == 0 || lst.st_uid == geteuid()) &&
	    realpath(out, real) && strlen(real) < len)
		snprintf(out, len, "%s", real);
	int rc = ior_make_private_dir(out, "kernel build directory");
	for (size_t i = 0; !rc && i < sizeof(out_entries) / sizeof(out_entries[0]); i++) {
		char p[PATH_MAX + 32];
		struct stat st;
		snprintf(p, sizeof(p), "%s/%s", out, out_entries[i].name);
		if (lstat(p, &st) == 0)
			rc = ior_check_private_entry(&st, out_entries[i].dir, p, "kernel build directory's entry");
		else if (errno != ENOENT)
			rc = ior_error_errno(IOR_ERROR, errno, "cannot check '%s'", p);
		else if (out_entries[i].dir && mkdir(p, 0755) != 0)
			rc = ior_error_errno(IOR_ERROR, errno, "cannot create '%s'", p);
	}
	if (rc && strcmp(typed, out))
		ior_error_wrap(rc, "--build-dir '%s'", typed);
	return rc;
}

int ior_kbuild_write_private(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return ior_error_errno(IOR_ERROR, errno, errno == ELOOP ? "cannot write '%s': it is a symbolic link"
									: "cannot write '%s'", path);
	/* judged before it is emptied: a hard link to another file, or someone else's, is left alone */
	struct stat st;
	int rc = fstat(fd, &st) ? ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", path) : IOR_OK;
	if (!rc && st.st_nlink > 1)
		rc = ior_error_set(IOR_EREFUSED, "refusing to write '%s': it has other names (a hard link)", path);
	if (!rc)
		rc = ior_check_private_entry(&st, false, path, "file");
	if (!rc && ftruncate(fd, 0) != 0)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", path);
	size_t n = 0;
	for (ssize_t w = 1; !rc && n < len && w > 0; n += w > 0 ? (size_t)w : 0)
		if ((w = write(fd, text + n, len - n)) < 0)
			rc = ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", path);
	if (close(fd) != 0 && !rc)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", path);
	return rc;
}
