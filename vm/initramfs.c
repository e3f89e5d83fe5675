/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest's initramfs as a newc cpio archive written with libarchive: busybox, ioregress and its
 * libraries, mke2fs, the kernel's modules, the matrix, the init. */
#include "vm/internal.h"

#include "common/error.h"
#include "common/spawn.h"
#include "db/db.h"
#include "kernel/modules.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILES 64

/* Modules the init inserts: the disks' (virtio_pci is built in on some kernels), and loop, so a
 * matrix's loop = devices and loop engines run in a guest as on the host (without it:
 * "cannot open '/dev/loop-control'"); a module the kernel builds in is not found, which is fine. */
static const char *const disk_modules[] = { "virtio_pci", "virtio_blk", "loop" };

struct cpio {
	struct archive *a;
	const char *path;
	unsigned ino;
	char dirs[256][128]; /* directories already written */
	size_t ndirs;
};

static int cpio_fail(struct cpio *c, const char *what)
{
	return ior_error_set(IOR_ERROR, "cannot write initramfs '%s' (%s): %s", c->path, what, archive_error_string(c->a));
}

static struct archive_entry *entry(struct cpio *c, const char *name, mode_t mode, int64_t size)
{
	struct archive_entry *e = archive_entry_new();
	archive_entry_set_pathname(e, name[0] == '/' ? name + 1 : name);
	archive_entry_set_mode(e, mode);
	archive_entry_set_size(e, size);
	archive_entry_set_nlink(e, 1);
	archive_entry_set_ino(e, ++c->ino);   /* newc treats equal inodes as hard links */
	archive_entry_set_mtime(e, 0, 0);
	return e;
}

static int add_header(struct cpio *c, struct archive_entry *e, const char *name)
{
	int rc = archive_write_header(c->a, e) == ARCHIVE_OK ? IOR_OK : cpio_fail(c, name);
	archive_entry_free(e);
	return rc;
}

/* Every directory above name, once. */
static int add_parents(struct cpio *c, const char *name)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", name);
	for (char *p = dir + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		bool seen = false;
		for (size_t i = 0; i < c->ndirs && !seen; i++)
			seen = strcmp(c->dirs[i], dir) == 0;
		if (!seen) {
			if (c->ndirs < sizeof(c->dirs) / sizeof(c->dirs[0]))
				snprintf(c->dirs[c->ndirs++], sizeof(c->dirs[0]), "%s", dir);
			int rc = add_header(c, entry(c, dir, S_IFDIR | 0755, 0), dir);
			if (rc)
				return rc;
		}
		*p = '/';
	}
	return IOR_OK;
}

static int add_bytes(struct cpio *c, const char *name, const void *data, size_t len, mode_t mode)
{
	int rc = add_parents(c, name);
	if (!rc)
		rc = add_header(c, entry(c, name, S_IFREG | mode, (int64_t)len), name);
	if (!rc && len && archive_write_data(c->a, data, len) != (la_ssize_t)len)
		rc = cpio_fail(c, name);
	return rc;
}

/* A file from the host (symlinks followed) stored as name. */
static int add_file(struct cpio *c, const char *name, const char *src)
{
	int fd = open(src, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return ior_error_errno(IOR_ENOTFOUND, e, "cannot read '%s' for the initramfs", src);
	}
	int rc = add_parents(c, name);
	if (!rc)
		rc = add_header(c, entry(c, name, S_IFREG | (st.st_mode & 0755), st.st_size), name);
	char buf[1 << 16];
	for (ssize_t got; !rc && (got = read(fd, buf, sizeof(buf))) != 0;) {
		if (got < 0)
			rc = ior_error_errno(IOR_ERROR, errno, "cannot read '%s'", src);
		else if (archive_write_data(c->a, buf, (size_t)got) != got)
			rc = cpio_fail(c, name);
	}
	close(fd);
	return rc;
}

static int add_symlink(struct cpio *c, const char *name, const char *target)
{
	struct archive_entry *e = entry(c, name, S_IFLNK | 0777, 0);
	archive_entry_set_symlink(e, target);
	int rc = add_parents(c, name);
	return rc ? (archive_entry_free(e), rc) : add_header(c, e, name);
}

/* A module file, decompressed (xz, zstd, gzip) through libarchive's raw reader, into dst:
 * busybox insmod and older kernels take only plain .ko files. */
static int decompress_module(const char *src, const char *dst)
{
	struct archive *r = archive_read_new();
	archive_read_support_filter_all(r);
	archive_read_support_format_raw(r);
	struct archive_entry *e;
	int rc = IOR_OK;
	FILE *out = NULL;
	if (archive_read_open_filename(r, src, 1 << 16) != ARCHIVE_OK || archive_read_next_header(r, &e) != ARCHIVE_OK)
		rc = ior_error_set(IOR_ERROR, "cannot read module '%s': %s", src, archive_error_string(r));
	else if (!(out = fopen(dst, "wb")))
		rc = ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", dst);
	char buf[1 << 16];
	for (la_ssize_t got; !rc && (got = archive_read_data(r, buf, sizeof(buf))) != 0;) {
		if (got < 0 || fwrite(buf, 1, (size_t)got, out) != (size_t)got)
			rc = ior_error_set(IOR_ERROR, "cannot decompress module '%s': %s", src, archive_error_string(r));
	}
	if (out && fclose(out) != 0 && !rc)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", dst);
	archive_read_free(r);
	return rc;
}

static int mkdirs_for(const char *file)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", file);
	for (char *p = dir + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(dir, 0755) != 0 && errno != EEXIST)
			return ior_error_errno(IOR_ERROR, errno, "cannot create '%s'", dir);
		*p = '/';
	}
	return IOR_OK;
}

/* The path under the release directory, without a compression suffix. */
static void relative_plain(char *out, size_t len, const char *path, const char *tree)
{
	size_t tl = strlen(tree);
	snprintf(out, len, "%s", strncmp(path, tree, tl) == 0 && path[tl] == '/' ? path + tl + 1 : path);
	char *dot = strrchr(out, '.');
	if (dot && (!strcmp(dot, ".xz") || !strcmp(dot, ".zst") || !strcmp(dot, ".gz")))
		*dot = '\0';
}

static int copy_plain(const char *src, const char *dst)
{
	FILE *in = fopen(src, "rb");
	if (!in)
		return errno == ENOENT ? IOR_OK : ior_error_errno(IOR_ERROR, errno, "cannot read '%s'", src);
	FILE *out = fopen(dst, "wb");
	int rc = out ? IOR_OK : ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", dst);
	char buf[1 << 16];
	for (size_t got; !rc && (got = fread(buf, 1, sizeof(buf), in)) > 0;)
		if (fwrite(buf, 1, got, out) != got)
			rc = ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", dst);
	fclose(in);
	if (out && fclose(out) != 0 && !rc)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", dst);
	return rc;
}

struct module_stage {
	char root[PATH_MAX];        /* tmpdir/stage: depmod -b ROOT */
	char load[4096];            /* the init's insmod list, one relative path a line */
	char files[MAX_FILES][4096];
	size_t nfiles;
	size_t nload;
};

/* The virtio modules (inserted by the init) and the scheduler and null_blk modules (loaded by
 * ioregress's load_modules), decompressed into a staging tree with the tree's built-in list, indexed by depmod. */
static int stage_modules(struct module_stage *s, const struct ior_vm_kernel *k, const char *tmpdir)
{
	struct ior_kmod *km = NULL;
	int rc = ior_kmod_open(&km, k->modules, k->release);
	if (rc)
		return rc;
	for (size_t i = 0; !rc && i < sizeof(disk_modules) / sizeof(disk_modules[0]); i++) {
		rc = ior_kmod_load_order(km, disk_modules[i], s->files, MAX_FILES, &s->nfiles);
		if (rc == IOR_ENOTFOUND && i >= 2) /* loop built in (or absent): the disks are what must be there */
			rc = IOR_OK;
	}
	s->nload = s->nfiles;
	size_t nsched;
	const char *const *sched = ior_kmod_scheduler_modules(&nsched);
	for (size_t i = 0; !rc && i < nsched; i++) {
		rc = ior_kmod_load_order(km, sched[i], s->files, MAX_FILES, &s->nfiles);
		if (rc == IOR_ENOTFOUND) /* a scheduler this kernel lacks is recorded as absent inside */
			rc = IOR_OK;
	}
	/* null_blk, loaded by the guest's run when a device is /dev/nullbN (load_modules) */
	if (!rc && (rc = ior_kmod_load_order(km, "null_blk", s->files, MAX_FILES, &s->nfiles)) == IOR_ENOTFOUND)
		rc = IOR_OK;
	snprintf(s->root, sizeof(s->root), "%s/stage", tmpdir);
	char tree[PATH_MAX], rel[PATH_MAX], dst[PATH_MAX * 2];
	snprintf(tree, sizeof(tree), "%s/%s", k->modules, k->release);
	for (size_t i = 0; !rc && i < s->nfiles; i++) {
		relative_plain(rel, sizeof(rel), s->files[i], tree);
		snprintf(dst, sizeof(dst), "%s/lib/modules/%s/%s", s->root, k->release, rel);
		if (!(rc = mkdirs_for(dst)))
			rc = decompress_module(s->files[i], dst);
		if (!rc && i < s->nload) {
			size_t n = strlen(s->load);
			snprintf(s->load + n, sizeof(s->load) - n, "%s\n", rel);
		}
	}
	static const char *const indexes[] = { "modules.builtin", "modules.builtin.modinfo", "modules.order" };
	for (size_t i = 0; !rc && i < sizeof(indexes) / sizeof(indexes[0]); i++) {
		char src[PATH_MAX * 2];
		snprintf(src, sizeof(src), "%s/%s", tree, indexes[i]);
		snprintf(dst, sizeof(dst), "%s/lib/modules/%s/%s", s->root, k->release, indexes[i]);
		if (!(rc = mkdirs_for(dst)))
			rc = copy_plain(src, dst);
	}
	if (!rc) {
		rc = ior_spawn_tool((const char *const[]){ "depmod", "-b", s->root, k->release, NULL }, NULL,
				    "depmod on the initramfs's modules");
	}
	ior_kmod_free(km);
	return rc;
}

/* nftw has no context argument: the archive and the staging root's length while it walks. */
static struct {
	struct cpio *c;
	size_t root_len;
} walk;

static int add_staged(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	return add_file(walk.c, path + walk.root_len, path) ? 1 : 0;
}

static int add_modules(struct cpio *c, const struct ior_vm_kernel *k, const char *tmpdir)
{
	if (!k->modules[0])
		return add_bytes(c, "/etc/ior/load", "", 0, 0644);
	struct module_stage *s = calloc(1, sizeof(*s));
	if (!s)
		return ior_error_set(IOR_ERROR, "out of memory");
	int rc = stage_modules(s, k, tmpdir);
	if (!rc)
		rc = add_bytes(c, "/etc/ior/load", s->load, strlen(s->load), 0644);
	if (!rc) {
		walk.c = c;
		walk.root_len = strlen(s->root);
		char top[PATH_MAX + 16];
		snprintf(top, sizeof(top), "%s/lib", s->root);
		if (nftw(top, add_staged, 16, FTW_PHYS) != 0)
			rc = ior_error_wrap(IOR_ERROR, "cannot add the staged modules");
	}
	free(s);
	return rc;
}

/* A host program and the libraries it loads, stored as name. */
static int add_program(struct cpio *c, const char *name, const char *program)
{
	char (*libs)[PATH_MAX] = calloc(MAX_FILES, PATH_MAX);
	size_t n = 0;
	int rc = libs ? ior_vm_elf_libraries(program, libs, MAX_FILES, &n) : ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; !rc && i < n; i++)
		rc = add_file(c, libs[i], libs[i]);
	if (!rc)
		rc = add_file(c, name, program);
	free(libs);
	return rc;
}

/* e2fsprogs' mke2fs, when the host has it: the loop engine's nested levels and fs = ext4 make
 * ext4 (busybox's mke2fs makes ext2 only). Stored as /bin/mke2fs, where busybox --install leaves
 * an existing file alone. Without it those cells are skipped in the guest with the reason. */
static int add_mke2fs(struct cpio *c)
{
	static const char *const where[] = { "/usr/sbin/mke2fs", "/sbin/mke2fs" };
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		if (access(where[i], X_OK) != 0)
			continue;
		int rc = add_program(c, "/bin/mke2fs", where[i]);
		if (!rc && access("/etc/mke2fs.conf", R_OK) == 0)
			rc = add_file(c, "/etc/mke2fs.conf", "/etc/mke2fs.conf");
		return rc;
	}
	return IOR_OK;
}

/* The guest's database, made here empty at the current schema: created in the guest, its schema
 * steps took 1.9-3.2 s of TCG before the run's first heartbeat (SQLite parsing each step's SQL, at
 * load 12-15), opened there as a current file none of that runs. Only when the guest runs this very
 * binary or the guest binary built with it (--ioregress may give another build, with another
 * schema): else the guest makes its own. */
static int add_guest_db(struct cpio *c, const struct ior_vm_guest *g, const char *tmpdir)
{
	if (!ior_vm_guest_is_ours(g->ioregress))
		return IOR_OK;
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/guest-template.db", tmpdir);
	unlink(path);
	struct ior_db *db = NULL;
	int rc = ior_db_open(&db, path);
	ior_db_free(db); /* the last connection: its WAL is checkpointed into the file and removed */
	if (!rc)
		rc = add_file(c, "/results/guest.db", path);
	unlink(path);
	return rc ? ior_error_wrap(rc, "cannot make the guest's database") : IOR_OK;
}

int ior_vm_initramfs_write(const char *path, const struct ior_vm_kernel *k, const struct ior_vm_guest *g,
			   const char *tmpdir)
{
	struct cpio *c = calloc(1, sizeof(*c));
	if (!c)
		return ior_error_set(IOR_ERROR, "out of memory");
	c->path = path;
	c->a = archive_write_new();
	int rc = IOR_OK;
	if (archive_write_set_format_cpio_newc(c->a) != ARCHIVE_OK || archive_write_open_filename(c->a, path) != ARCHIVE_OK)
		rc = cpio_fail(c, "open");
	if (!rc)
		rc = add_file(c, "/bin/busybox", g->busybox);
	if (!rc)
		rc = add_symlink(c, "/bin/sh", "busybox");
	if (!rc)
		rc = add_bytes(c, "/init", ior_vm_init_script, strlen(ior_vm_init_script), 0755);
	if (!rc)
		rc = add_bytes(c, "/etc/ior/host", g->host_name, strlen(g->host_name), 0644);
	if (!rc && g->matrix)
		rc = add_file(c, "/etc/ior/matrix.ini", g->matrix);
	if (!rc) /* also for a boot-only guest: its bare boot unpacks the same archive */
		rc = add_program(c, "/bin/ioregress", g->ioregress);
	if (!rc && g->matrix)
		rc = add_mke2fs(c);
	if (!rc && g->matrix)
		rc = add_guest_db(c, g, tmpdir);
	if (!rc)
		rc = add_modules(c, k, tmpdir);
	if (!rc && k->config[0]) { /* where the guest's run finds its config: kernels.config_hash */
		char name[sizeof(k->release) + 16];
		snprintf(name, sizeof(name), "/boot/config-%s", k->release);
		rc = add_file(c, name, k->config);
	}
	if (archive_write_close(c->a) != ARCHIVE_OK && !rc)
		rc = cpio_fail(c, "close");
	archive_write_free(c->a);
	free(c);
	if (rc)
		unlink(path);
	return rc;
}
