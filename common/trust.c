/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Root must not run a matrix or write a database that another user could have altered (see trust.h). */
#include "common/trust.h"
#include "common/error.h"

#include <errno.h>
#include <fts.h>
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

/* path copied into p without trailing slashes; IOR_EINVALID when relative or too long. */
static int normalised(char p[PATH_MAX], const char *path, const char *what)
{
	if (path[0] != '/')
		return ior_error_set(IOR_EINVALID, "%s '%s' is not an absolute path", what, path);
	if (snprintf(p, PATH_MAX, "%s", path) >= PATH_MAX)
		return ior_error_set(IOR_EINVALID, "%s '%s' is too long", what, path);
	size_t len = strlen(p);
	while (len > 1 && p[len - 1] == '/')
		p[--len] = '\0';
	return IOR_OK;
}

/* The parent rule for each component of p (absolute, normalised) that ends before end: root's or
 * ours, writable by nobody else unless sticky. A component may be a symlink only when it is root's
 * or ours as well (another user's link in a sticky /tmp could be pointed elsewhere between two
 * looks); stat then judges what it names. */
static int check_parents(char *p, size_t end, const char *what)
{
	struct stat st;
	if (stat("/", &st) || private_stat(&st, false, "/", what))
		return ior_error_set(IOR_EREFUSED, "refusing %s '%s': '/' is not root's", what, p);
	int rc = IOR_OK;
	for (char *s = p + 1; !rc && (s = strchr(s, '/')) && (size_t)(s - p) < end; s++) {
		*s = '\0';
		if (lstat(p, &st))
			rc = ior_error_errno(IOR_ERROR, errno, "cannot check %s '%s'", what, p);
		else if (S_ISLNK(st.st_mode) && st.st_uid != 0 && st.st_uid != geteuid())
			rc = ior_error_set(IOR_EREFUSED, "refusing %s '%s': it is a symbolic link of uid %u, who could "
					   "point it elsewhere", what, p, (unsigned)st.st_uid);
		else if (stat(p, &st))
			rc = ior_error_errno(IOR_ERROR, errno, "cannot check %s '%s'", what, p);
		else
			rc = private_stat(&st, true, p, what);
		*s = '/';
	}
	return rc;
}

int ior_check_private_dir(const char *path, const char *what)
{
	char p[PATH_MAX];
	int rc = normalised(p, path, what);
	if (!rc)
		rc = check_parents(p, strlen(p), what);
	if (rc)
		return rc;
	struct stat st;
	if (lstat(p, &st))
		return ior_error_errno(IOR_ERROR, errno, "cannot check %s '%s'", what, p);
	return ior_check_private_entry(&st, true, p, what);
}

int ior_make_private_dir(const char *path, const char *what)
{
	char p[PATH_MAX];
	int rc = normalised(p, path, what);
	if (rc)
		return rc;
	size_t full = strlen(p), have = full;
	struct stat st;
	/* the deepest part that exists ... */
	while (have > 1) {
		p[have] = '\0';
		if (lstat(p, &st) == 0)
			break;
		if (errno != ENOENT)
			return ior_error_errno(IOR_ERROR, errno, "cannot check %s '%s'", what, p);
		char *slash = strrchr(p, '/');
		have = slash == p ? 1 : (size_t)(slash - p);
	}
	normalised(p, path, what);
	if (have == full)
		return ior_check_private_dir(p, what);
	/* ... is judged as a parent before anything is made below it (a directory of root's left in
	 * another user's home, or a tree made in one they can rename) */
	rc = check_parents(p, have + 1, what);
	/* then the rest, one component at a time; one that appeared meanwhile is judged at the end */
	for (char *s = p + have + 1; !rc && (s = strchr(s, '/')); s++) {
		*s = '\0';
		if (mkdir(p, 0755) != 0 && errno != EEXIST)
			rc = ior_error_errno(IOR_ERROR, errno, "cannot create %s '%s'", what, p);
		*s = '/';
	}
	if (!rc && mkdir(p, 0755) != 0 && errno != EEXIST)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot create %s '%s'", what, p);
	return rc ? rc : ior_check_private_dir(p, what);
}

int ior_check_trusted_tree(const char *path, const char *what)
{
	if (geteuid() != 0)
		return IOR_OK;
	char p[PATH_MAX];
	int rc = normalised(p, path, what);
	if (!rc)
		rc = check_parents(p, strlen(p), what);
	char *const roots[] = { p, NULL };
	FTS *fts = rc ? NULL : fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
	if (!rc && !fts)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot read %s '%s'", what, p);
	for (FTSENT *e; !rc && fts && (e = fts_read(fts));) {
		if (e->fts_info == FTS_DP)
			continue;
		if (e->fts_info == FTS_DNR || e->fts_info == FTS_ERR || e->fts_info == FTS_NS)
			rc = ior_error_errno(IOR_ERROR, e->fts_errno, "cannot check %s '%s'", what, e->fts_path);
		else if (e->fts_info == FTS_SL || e->fts_info == FTS_SLNONE) /* a link's own mode means nothing */
			rc = e->fts_statp->st_uid == 0 ? IOR_OK
				: ior_error_set(IOR_EREFUSED, "refusing %s '%s' as root: its '%s' belongs to uid %u, who "
						"could have changed it (building a tree runs its code: chown -R root, or "
						"build as that user)", what, p, e->fts_path, (unsigned)e->fts_statp->st_uid);
		else if (ior_check_trusted_stat(e->fts_statp, e->fts_path, what) != IOR_OK)
			rc = ior_error_wrap(IOR_EREFUSED, "building %s '%s' runs its code", what, p);
	}
	if (fts)
		fts_close(fts);
	return rc;
}
