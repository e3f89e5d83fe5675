/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The store of artifact copies a bisection keeps while it runs: a private directory under $TMPDIR
 * whose lock file its owner holds, so a store a killed run left is known by its free lock and
 * removed by the next run or by `recover`. */
#include "bisect/artifact.h"

#include "common/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define STORE_PREFIX "ioregress-artifacts."
#define STORE_LOCK "owner.lock"

/* $TMPDIR when it names a directory by an absolute path, else /tmp. */
static const char *tmp_root(void)
{
	const char *t = getenv("TMPDIR");
	return t && t[0] == '/' ? t : "/tmp";
}

int ior_bisect_artifact_store_new(char *dir, size_t len, int *lock_fd)
{
	*lock_fd = -1;
	if ((size_t)snprintf(dir, len, "%s/" STORE_PREFIX "XXXXXX", tmp_root()) >= len)
		return ior_error_set(IOR_EINVALID, "TMPDIR '%s' is too long for the artifact store", tmp_root());
	if (!mkdtemp(dir)) {
		int rc = ior_error_errno(IOR_ERROR, errno, "cannot create the artifact store '%s'", dir);
		dir[0] = '\0';
		return rc;
	}
	char lock[PATH_MAX];
	snprintf(lock, sizeof(lock), "%s/" STORE_LOCK, dir);
	/* not inherited by the build and measure commands: a daemon one of them leaves would hold it */
	int fd = open(lock, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB)) {
		int rc = ior_error_errno(IOR_ERROR, errno, "cannot lock the artifact store '%s'", dir);
		if (fd >= 0)
			close(fd);
		ior_bisect_artifact_store_remove(dir, -1);
		dir[0] = '\0';
		return rc;
	}
	*lock_fd = fd;
	return IOR_OK;
}

/* Removes the files in the directory open as fd (a store holds only files) and closes fd. */
static void empty_dir(int fd)
{
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
}

void ior_bisect_artifact_store_remove(const char *dir, int lock_fd)
{
	if (!dir || !dir[0])
		return;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		empty_dir(fd);
	rmdir(dir);
	if (lock_fd >= 0)
		close(lock_fd);   /* after the removal: nobody takes the store for a dead one meanwhile */
}

/* Whether the store root/name (a directory of ours, open as fd) has an owner still running: its lock
 * file is locked. A store without a lock file is being made (mkdtemp, then the lock) unless it is
 * older than a minute. */
static bool store_in_use(int fd, const struct stat *st)
{
	int lock = openat(fd, STORE_LOCK, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (lock < 0)
		return errno != ENOENT || time(NULL) - st->st_mtime < 60;
	struct stat ls;
	bool in_use = fstat(lock, &ls) || !S_ISREG(ls.st_mode) || flock(lock, LOCK_EX | LOCK_NB) != 0;
	close(lock);
	return in_use;
}

int ior_bisect_artifact_stores_clean(size_t *removed)
{
	if (removed)
		*removed = 0;
	const char *root = tmp_root();
	int rfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = rfd < 0 ? NULL : fdopendir(rfd);
	if (!d) {
		if (rfd >= 0)
			close(rfd);
		return ior_error_errno(IOR_ERROR, errno, "cannot read '%s' for artifact stores left behind", root);
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, STORE_PREFIX, strlen(STORE_PREFIX)))
			continue;
		/* only a real directory of this user's, opened without following a link planted there */
		int fd = openat(rfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (fd < 0)
			continue;
		if (fstat(fd, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || store_in_use(fd, &st)) {
			close(fd);
			continue;
		}
		empty_dir(fd);
		if (!unlinkat(rfd, e->d_name, AT_REMOVEDIR) && removed)
			(*removed)++;
	}
	closedir(d);
	return IOR_OK;
}
