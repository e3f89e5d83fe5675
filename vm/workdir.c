/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vm run's journaled work directory (see workdir.h). */
#include "vm/workdir.h"

#include "common/error.h"
#include "db/db.h"
#include "kernel/info.h"

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	remove(path);
	return 0;
}

void ior_vm_remove_tree(const char *dir)
{
	if (dir[0])
		nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int ior_vm_owner(struct ior_db *db, int64_t *host_id, char *boot_id, size_t len)
{
	struct utsname u;
	uname(&u);
	ior_kernel_boot_id(boot_id, len);
	return ior_db_host_get(db, u.nodename, u.machine, host_id);
}

int ior_vm_workdir_create(struct ior_vm_workdir *w, struct ior_db *db)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->path, sizeof(w->path), "/tmp/" IOR_VM_WORKDIR_PREFIX "XXXXXX");
	if (!mkdtemp(w->path)) {
		w->path[0] = '\0';
		return ior_error_errno(IOR_ERROR, errno, "cannot create a directory under /tmp");
	}
	char boot[64];
	int64_t host_id = 0;
	int rc = ior_vm_owner(db, &host_id, boot, sizeof(boot));
	if (rc == IOR_OK)
		rc = ior_db_undo_add_owned(db, host_id, (int)getpid(), boot, IOR_VM_WORKDIR_KIND, w->path, NULL, &w->undo_id);
	if (rc) {
		rmdir(w->path);
		w->path[0] = '\0';
	}
	return rc;
}

void ior_vm_workdir_remove(struct ior_vm_workdir *w, struct ior_db *db)
{
	ior_vm_remove_tree(w->path);
	if (w->undo_id)
		ior_db_undo_done(db, w->undo_id);
	w->path[0] = '\0';
	w->undo_id = 0;
}

int ior_vm_workdir_recover(const char *path, FILE *out)
{
	struct stat st;
	if (lstat(path, &st) != 0) {
		if (errno != ENOENT)
			return ior_error_errno(IOR_ERROR, errno, "cannot look at vm work directory '%s'", path);
		fprintf(out, "vm work directory '%s': already gone\n", path);
		return IOR_OK;
	}
	static const char where[] = "/tmp/" IOR_VM_WORKDIR_PREFIX;
	/* the journal is a file anyone with the database can write: remove only what vm run makes */
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || strncmp(path, where, strlen(where)) != 0 ||
	    strchr(path + strlen(where), '/')) {
		fprintf(out, "vm work directory '%s': left alone, it is not a directory of ours named %s*\n", path,
			where);
		return IOR_OK;
	}
	ior_vm_remove_tree(path);
	if (access(path, F_OK) == 0)
		return ior_error_set(IOR_ERROR, "cannot remove vm work directory '%s'", path);
	fprintf(out, "vm work directory '%s': removed\n", path);
	return IOR_OK;
}
