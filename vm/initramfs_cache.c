/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest's initramfs kept in the kernel cache, keyed by what goes into it: a bisection runs one
 * vm run per boot, and writing it again (about 60 MB, depmod, the modules decompressed) took 1-3 s of
 * host time of each at load 11. */
#include "vm/internal.h"

#include "common/error.h"
#include "common/trust.h"
#include "kernel/info.h"
#include "vm/kernel_build_skip.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bumped when what the writer puts into an archive changes other than through its inputs below
 * (a new file, another layout): old archives are then never taken. */
#define FORMAT "ioregress initramfs 2"

/* Archives kept: the newest used; a bisection's look boots three kernels (good, candidate, bad),
 * each with and without a matrix at most. */
#define KEEP 8

#define MAX_LIBS 64

#define key ior_kbuild_text

static void put(struct key *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct key *k, const char *fmt, ...)
{
	char line[PATH_MAX + 256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line))
		k->failed = true; /* a key cut short could match another's */
	else
		ior_kbuild_text_add(k, line, (size_t)n);
}

/* A file by its identity, as make and ccache's direct mode judge one: a rebuilt binary, a library
 * an upgrade replaced, a tree whose modules were installed again all change it; absent is a value too. */
static void put_file(struct key *k, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		put(k, "%s absent\n", path);
	else
		put(k, "%s %llu %llu %lld %lld.%09ld %lld.%09ld\n", path, (unsigned long long)st.st_dev,
		    (unsigned long long)st.st_ino, (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		    (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
}

static void put_program(struct key *k, const char *program)
{
	char (*libs)[PATH_MAX] = calloc(MAX_LIBS, PATH_MAX);
	size_t n = 0;
	put_file(k, program);
	if (!libs || ior_vm_elf_libraries(program, libs, MAX_LIBS, &n) != IOR_OK) {
		ior_error_clear();   /* the writer says what is wrong with it */
		put(k, "%s libraries unknown\n", program);
	}
	for (size_t i = 0; i < n; i++)
		put_file(k, libs[i]);
	free(libs);
}

/* The matrix by its text: a matrix file written again with the same words is the same guest. */
static void put_text(struct key *k, const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f) {
		put(k, "matrix %s unreadable\n", path);
		return;
	}
	put(k, "matrix\n");
	char buf[4096];
	for (size_t got; (got = fread(buf, 1, sizeof(buf), f)) > 0;)
		ior_kbuild_text_add(k, buf, got);
	fclose(f);
	put(k, "\nend of matrix\n");
}

/* Everything ior_vm_initramfs_write reads, as text: the key is its sha256. */
static int key_of(char hex[65], const struct ior_vm_kernel *kernel, const struct ior_vm_guest *g)
{
	struct key k = { 0 };
	put(&k, "%s\n%s\nhost %s\nrelease %s\nmodules %s\nconfig %s\n", FORMAT, ior_vm_init_script, g->host_name,
	    kernel->release, kernel->modules, kernel->config);
	put_file(&k, g->busybox);
	put_program(&k, g->ioregress);
	/* the database made on the host only for this binary or its guest binary */
	put(&k, "guest is ours: %d\n", ior_vm_guest_is_ours(g->ioregress));
	if (g->matrix) {
		put_text(&k, g->matrix);
		put_program(&k, "/usr/sbin/mke2fs");
		put_program(&k, "/sbin/mke2fs");
		put_file(&k, "/etc/mke2fs.conf");
	} else {
		put(&k, "no matrix\n");
	}
	if (kernel->config[0])
		put_file(&k, kernel->config);
	static const char *const indexes[] = { "modules.dep", "modules.dep.bin", "modules.builtin",
					       "modules.builtin.modinfo", "modules.order", "modules.alias.bin" };
	for (size_t i = 0; kernel->modules[0] && i < sizeof(indexes) / sizeof(indexes[0]); i++) {
		char path[PATH_MAX * 2];
		snprintf(path, sizeof(path), "%s/%s/%s", kernel->modules, kernel->release, indexes[i]);
		put_file(&k, path);
	}
	int rc = k.failed ? ior_error_set(IOR_ERROR, "out of memory") : ior_kernel_config_sha256(hex, k.s, k.len);
	free(k.s);
	return rc;
}

/* An archive in the cache: when it was last used (its mtime, touched on each hit) and its name. */
struct archive {
	struct timespec used;
	char name[80];
};

static int newest_first(const void *a, const void *b)
{
	const struct timespec *x = &((const struct archive *)a)->used, *y = &((const struct archive *)b)->used;
	if (x->tv_sec != y->tv_sec)
		return x->tv_sec < y->tv_sec ? 1 : -1;
	return x->tv_nsec < y->tv_nsec ? 1 : x->tv_nsec > y->tv_nsec ? -1 : 0;
}

/* All but the KEEP archives used last removed (each ~60 MB). An archive another vm run still boots keeps
 * its data: qemu holds it open. */
static void prune(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct archive found[256];
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d)) && n < 256;) {
		size_t len = strlen(e->d_name);
		char path[PATH_MAX + 80];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (len < 6 || len >= sizeof(found[0].name) || strcmp(e->d_name + len - 5, ".cpio") != 0 ||
		    lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		found[n].used = st.st_mtim;
		snprintf(found[n].name, sizeof(found[n].name), "%s", e->d_name);
		n++;
	}
	closedir(d);
	qsort(found, n, sizeof(found[0]), newest_first);
	for (size_t i = KEEP; i < n; i++) {
		char path[PATH_MAX + 80];
		snprintf(path, sizeof(path), "%s/%s", dir, found[i].name);
		unlink(path);
	}
}

int ior_vm_initramfs_cached(char *path, size_t len, const struct ior_vm_kernel *k, const struct ior_vm_guest *g,
			    const char *cache_dir, const char *tmpdir, bool *hit)
{
	*hit = false;
	char hex[65], dir[PATH_MAX];
	int rc = key_of(hex, k, g);
	if (rc)
		return rc;
	snprintf(dir, sizeof(dir), "%s/initramfs", cache_dir);
	if ((rc = ior_make_private_dir(dir, "initramfs cache")) != IOR_OK)
		return rc;
	snprintf(path, len, "%s/%s.cpio", dir, hex);
	struct stat st;
	if (lstat(path, &st) == 0 && ior_check_private_entry(&st, false, path, "cached initramfs") == IOR_OK) {
		utimensat(AT_FDCWD, path, NULL, 0); /* used now: the last to be pruned */
		*hit = true;
		return IOR_OK;
	}
	ior_error_clear();
	/* written beside and renamed: a vm run beside this one never boots half an archive */
	char part[PATH_MAX + 32];
	snprintf(part, sizeof(part), "%s.part-%ld", path, (long)getpid());
	rc = ior_vm_initramfs_write(part, k, g, tmpdir);
	if (!rc && rename(part, path) != 0) {
		rc = ior_error_errno(IOR_ERROR, errno, "cannot store the initramfs '%s'", path);
		unlink(part);
	}
	if (!rc)
		prune(dir);
	return rc;
}
