/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Root must not run a matrix or write a database that another user could have altered (see trust.h). */
#include "common/trust.h"
#include "common/error.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool writable_by_others(const struct stat *st)
{
	return (st->st_mode & S_IWOTH) || ((st->st_mode & S_IWGRP) && st->st_gid != 0 && st->st_gid != getegid());
}

int ior_check_trusted_stat(const struct stat *st, const char *path, const char *what)
{
	if (geteuid() != 0)
		return IOR_OK; /* an ordinary user can only hurt what they could hurt anyway */
	if (st->st_uid != 0)
		return ior_error_set(IOR_EREFUSED, "refusing %s '%s' as root: it belongs to uid %u, who could have "
				     "changed it (chown root, or run as that user)", what, path, (unsigned)st->st_uid);
	if ((st->st_mode & S_IWOTH) || ((st->st_mode & S_IWGRP) && st->st_gid != 0))
		return ior_error_set(IOR_EREFUSED, "refusing %s '%s' as root: it is writable by %s (chmod go-w)", what,
				     path, (st->st_mode & S_IWOTH) ? "every user" : "its group");
	return IOR_OK;
}

int ior_check_trusted_file(const char *path, const char *what)
{
	if (geteuid() != 0)
		return IOR_OK;
	struct stat st;
	if (stat(path, &st) != 0)
		return errno == ENOENT ? IOR_OK : ior_error_errno(IOR_ERROR, errno, "cannot check %s '%s'", what, path);
	return ior_check_trusted_stat(&st, path, what);
}

static int private_stat(const struct stat *st, bool sticky_ok, const char *path, const char *what)
{
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return ior_error_set(IOR_EREFUSED, "refusing %s '%s': it belongs to uid %u, who could change what is "
				     "in it", what, path, (unsigned)st->st_uid);
	if (writable_by_others(st) && !(sticky_ok && S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX)))
		return ior_error_set(IOR_EREFUSED, "refusing %s '%s': it is writable by %s (chmod go-w)", what, path,
				     (st->st_mode & S_IWOTH) ? "every user" : "its group");
	return IOR_OK;
}

int ior_check_private_entry(const struct stat *st, bool want_dir, const char *path, const char *what)
{
	if (S_ISLNK(st->st_mode))
		return ior_error_set(IOR_EREFUSED, "refusing %s '%s': it is a symbolic link", what, path);
	if (want_dir ? !S_ISDIR(st->st_mode) : !S_ISREG(st->st_mode))
		return ior_error_set(IOR_EREFUSED, "refusing %s '%s': it is not a %s", what, path,
				     want_dir ? "directory" : "regular file");
	return private_stat(st, false, path, what);
}

int ior_check_private_dir(const char *path, const char *what)
{
	if (path[0] != '/')
		return ior_error_set(IOR_EINVALID, "%s '%s' is not an absolute path", what, path);
	char p[PATH_MAX];
	if (snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p))
		return ior_error_set(IOR_EINVALID, "%s '%s' is too long", what, path);
	size_t len = strlen(p);
	while (len > 1 && p[len - 1] == '/')
		p[--len] = '\0';
	struct stat st;
	/* each parent may be reached through a symlink its own (checked) parent holds: stat follows it
	 * and judges what it names */
	for (char *s = p + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		int rc = stat(p, &st) ? ior_error_errno(IOR_ERROR, errno, "cannot check %s '%s'", what, p)
				      : private_stat(&st, true, p, what);
		*s = '/';
		if (rc)
			return rc;
	}
	if (stat("/", &st) || private_stat(&st, false, "/", what))
		return ior_error_set(IOR_EREFUSED, "refusing %s '%s': '/' is not root's", what, path);
	if (lstat(p, &st))
		return ior_error_errno(IOR_ERROR, errno, "cannot check %s '%s'", what, p);
	return ior_check_private_entry(&st, true, p, what);
}
