/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading and writing files by a name a user gave (see named_file.h). */
#include "common/named_file.h"

#include "common/error.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *ior_file_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "a regular file";
	case S_IFDIR: return "a directory";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFIFO: return "a FIFO";
	case S_IFSOCK: return "a socket";
	case S_IFLNK: return "a symbolic link";
	default: return "not a regular file";
	}
}

int ior_open_regular(const char *path, int extra_flags, const char *what, int *fd, struct stat *st)
{
	*fd = -1;
	struct stat own;
	if (!st)
		st = &own;
	/* a device is not even opened (a tape rewinds, a tty may become ours); a FIFO swapped in
	 * after this look does not block the open (O_NONBLOCK) and is refused by the fstat */
	if (stat(path, st) != 0)
		return ior_error_errno(errno == ENOENT ? IOR_ENOTFOUND : IOR_ERROR, errno, "cannot open %s'%s'", what, path);
	int f = S_ISREG(st->st_mode) ? open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | extra_flags) : -1;
	if (S_ISREG(st->st_mode) && f < 0)
		return ior_error_errno(errno == ENOENT ? IOR_ENOTFOUND : IOR_ERROR, errno, "cannot open %s'%s'", what, path);
	if (f >= 0 && fstat(f, st) != 0) {
		int rc = ior_error_errno(IOR_ERROR, errno, "cannot open %s'%s'", what, path);
		close(f);
		return rc;
	}
	if (!S_ISREG(st->st_mode)) {
		if (f >= 0)
			close(f);
		return ior_error_set(IOR_EINVALID, "cannot read %s'%s': %s, not a regular file", what, path,
				     ior_file_kind(st->st_mode));
	}
	int fl = fcntl(f, F_GETFL);
	if (fl >= 0)
		(void)fcntl(f, F_SETFL, fl & ~O_NONBLOCK);
	*fd = f;
	return IOR_OK;
}

int ior_fopen_regular(const char *path, const char *what, FILE **f, struct stat *st)
{
	int fd;
	int rc = ior_open_regular(path, 0, what, &fd, st);
	if (rc)
		return rc;
	if (!(*f = fdopen(fd, "r"))) {
		rc = ior_error_errno(IOR_ERROR, errno, "cannot open %s'%s'", what, path);
		close(fd);
	}
	return rc;
}

/* A new file beside path, renamed over it at the end: mkstemp's O_EXCL never follows a link planted
 * at a name we could guess. */
static int open_replacing(struct ior_outfile *o, const char *path, mode_t mode)
{
	size_t len = strlen(path);
	if (!(o->path = strdup(path)) || !(o->tmp = malloc(len + sizeof(".XXXXXX"))))
		return ior_error_set(IOR_ERROR, "out of memory");
	memcpy(o->tmp, path, len);
	memcpy(o->tmp + len, ".XXXXXX", sizeof(".XXXXXX"));
	int fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		return ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", path);
	}
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(fd, mode & ~mask) != 0 || !(o->f = fdopen(fd, "w"))) {
		int rc = ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", o->tmp);
		close(fd);
		return rc;
	}
	return IOR_OK;
}

/* Not a regular file: written where it is. What the open found is checked again, in case a
 * regular file or a disk was put there after the look. */
static int open_through(struct ior_outfile *o, const char *path, bool follow)
{
	if (!(o->path = strdup(path)))
		return ior_error_set(IOR_ERROR, "out of memory");
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
	if (fd < 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", path);
	struct stat st;
	int rc = fstat(fd, &st) != 0 ? ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", path) : IOR_OK;
	if (!rc && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode) || S_ISDIR(st.st_mode)))
		rc = ior_error_set(IOR_EREFUSED, "cannot write '%s': it became %s while being opened", path,
				   ior_file_kind(st.st_mode));
	if (!rc && !(o->f = fdopen(fd, "w")))
		rc = ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", path);
	if (rc)
		close(fd);
	return rc;
}

/* By what path is (lstat said st); a link is looked through once. */
static int open_by_kind(struct ior_outfile *o, const char *path, const struct stat *st, mode_t mode, bool follow)
{
	if (S_ISREG(st->st_mode))
		return open_replacing(o, path, mode);
	if (S_ISDIR(st->st_mode))
		return ior_error_set(IOR_EINVALID, "cannot write '%s': it is a directory", path);
	if (S_ISBLK(st->st_mode))
		return ior_error_set(IOR_EREFUSED, "cannot write '%s': it is a block device, whose data this would "
				     "overwrite", path);
	return open_through(o, path, follow);
}

int ior_outfile_open(struct ior_outfile *o, const char *path, mode_t mode)
{
	memset(o, 0, sizeof(*o));
	struct stat st;
	int rc;
	if (lstat(path, &st) != 0) {
		if (errno != ENOENT)
			return ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", path);
		rc = open_replacing(o, path, mode);
	} else if (!S_ISLNK(st.st_mode)) {
		rc = open_by_kind(o, path, &st, mode, false);
	} else if (st.st_uid != geteuid() && st.st_uid != 0) {
		/* the kernel's protected_symlinks would not follow it in a sticky directory either */
		rc = ior_error_set(IOR_EREFUSED, "cannot write '%s': a symbolic link of another user (uid %u)", path,
				   (unsigned)st.st_uid);
	} else if (stat(path, &st) != 0) {
		rc = ior_error_errno(errno == ENOENT ? IOR_EINVALID : IOR_ERROR, errno,
				     "cannot write '%s': a symbolic link to nothing", path);
	} else if (S_ISREG(st.st_mode)) {
		/* replaced where it is, so the link stays (a /proc/self/fd link to a pipe is no path,
		 * and is written through below) */
		char *real = realpath(path, NULL);
		rc = real ? open_replacing(o, real, mode)
			  : ior_error_errno(IOR_ERROR, errno, "cannot write '%s': cannot resolve the link", path);
		free(real);
	} else {
		rc = open_by_kind(o, path, &st, mode, true);
	}
	if (rc)
		ior_outfile_close(o, rc); /* sets no message of its own when given one */
	return rc;
}

int ior_outfile_close(struct ior_outfile *o, int rc)
{
	if (o->f) {
		bool bad = fflush(o->f) != 0 || ferror(o->f);
		int err = errno;
		if (fclose(o->f) != 0 && !bad)
			bad = true, err = errno;
		if (bad && !rc)
			rc = ior_error_errno(IOR_ERROR, err, "cannot write '%s'", o->path);
	}
	if (o->tmp && !rc && rename(o->tmp, o->path) != 0)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", o->path);
	if (o->tmp && rc)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	return rc;
}
