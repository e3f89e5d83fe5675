/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The filled scratch disk kept in the kernel cache between vm runs (see internal.h): a bisection
 * runs one vm run per boot, and filling 512 MiB took 4.2 s of each at load 12. */
#include "vm/internal.h"

#include "common/error.h"
#include "device/fill.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void kept_path(char *out, size_t len, const char *cache_dir, unsigned mb, int fill)
{
	snprintf(out, len, "%s/scratch-%uM-%s.img", cache_dir, mb, ior_fill_names[fill]);
}

bool ior_vm_scratch_take(const char *cache_dir, unsigned mb, int fill, const char *path)
{
	if (!cache_dir || !cache_dir[0] || fill < 0 || fill >= IOR_FILL_COUNT || fill == IOR_FILL_SPARSE)
		return false;
	char kept[PATH_MAX];
	kept_path(kept, sizeof(kept), cache_dir, mb, fill);
	/* taken by a rename: a vm run beside this one finds none and fills its own */
	if (rename(kept, path) != 0)
		return false;
	/* only our own plain file, whole: qemu writes through whatever the path names */
	struct stat st;
	uint64_t holes = 1;
	bool ok = lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_nlink == 1 &&
		  !(st.st_mode & 022) && (uint64_t)st.st_size == (uint64_t)mb << 20 &&
		  ior_fill_hole_bytes(path, &holes) == IOR_OK && holes == 0;
	ior_error_clear();
	if (!ok)
		unlink(path);
	return ok;
}

void ior_vm_scratch_keep(const char *cache_dir, unsigned mb, int fill, const char *path)
{
	if (!cache_dir || !cache_dir[0] || fill < 0 || fill >= IOR_FILL_COUNT || fill == IOR_FILL_SPARSE)
		return;
	char kept[PATH_MAX];
	kept_path(kept, sizeof(kept), cache_dir, mb, fill);
	struct stat st;
	if (lstat(cache_dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return;
	/* a vm run beside this one that kept its own first is replaced: either is as good */
	if (rename(path, kept) != 0)
		ior_error_clear();
}
