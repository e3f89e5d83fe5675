/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Root must not run a matrix or write a database that another user could have altered (see trust.h). */
#include "harness/trust.h"
#include "common/error.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

int ior_check_trusted_file(const char *path, const char *what)
{
	if (geteuid() != 0)
		return IOR_OK; /* an ordinary user can only hurt what they could hurt anyway */
	struct stat st;
	if (stat(path, &st) != 0)
		return errno == ENOENT ? IOR_OK : ior_error_errno(IOR_ERROR, errno, "cannot check %s '%s'", what, path);
	if (st.st_uid != 0)
		return ior_error_set(IOR_EREFUSED, "refusing %s '%s' as root: it belongs to uid %u, who could have "
				     "changed it (chown root, or run as that user)", what, path, (unsigned)st.st_uid);
	if ((st.st_mode & S_IWOTH) || ((st.st_mode & S_IWGRP) && st.st_gid != 0))
		return ior_error_set(IOR_EREFUSED, "refusing %s '%s' as root: it is writable by %s (chmod go-w)", what,
				     path, (st.st_mode & S_IWOTH) ? "every user" : "its group");
	return IOR_OK;
}
