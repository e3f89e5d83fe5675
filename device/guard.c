/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Write guards for block devices (see guard.h): the device's whole family — partitions and holders — is checked. */
#include "device/guard.h"
#include "common/error.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define FAMILY_MAX 64

/* The device plus everything that shares its blocks: partitions, and holders (dm, md, loop-on-top). */
struct family {
	size_t n;
	dev_t dev[FAMILY_MAX];
	char name[FAMILY_MAX][64];
	char how[FAMILY_MAX][96]; /* "" for the device itself, "via partition 1 ('/dev/loop3p1')", ... */
};

static bool read_line(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool ok = fgets(out, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		out[strcspn(out, "\n")] = '\0';
	return ok;
}

static bool family_has(const struct family *f, dev_t d)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->dev[i] == d)
			return true;
	return false;
}

static void family_add_name(struct family *f, const char *name, const char *how);

/* Holders of one sysfs block directory, recursively: a dm or md device on top shares the blocks. */
static void add_holders(struct family *f, const char *sysdir, const char *below)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/holders", sysdir);
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		char how[96];
		snprintf(how, sizeof(how), "via holder '%.32s' of '%.32s'", e->d_name, below);
		family_add_name(f, e->d_name, how);
	}
	closedir(d);
}

static void family_add_name(struct family *f, const char *name, const char *how)
{
	char path[PATH_MAX], devno[32];
	snprintf(path, sizeof(path), "/sys/class/block/%s/dev", name);
	unsigned ma, mi;
	if (f->n == FAMILY_MAX || !read_line(path, devno, sizeof(devno)) || sscanf(devno, "%u:%u", &ma, &mi) != 2)
		return;
	dev_t d = makedev(ma, mi);
	if (family_has(f, d))
		return;
	f->dev[f->n] = d;
	snprintf(f->name[f->n], sizeof(f->name[0]), "%s", name);
	snprintf(f->how[f->n], sizeof(f->how[0]), "%s", how);
	f->n++;
	snprintf(path, sizeof(path), "/sys/class/block/%s", name);
	add_holders(f, path, name);
}

/* The family of the device st describes (fstat of the open device where there is one). */
static int family_of(const struct stat *st, const char *path, struct family *f)
{
	memset(f, 0, sizeof(*f));
	if (!S_ISBLK(st->st_mode))
		return ior_error_set(IOR_EINVALID, "'%s' is not a block device", path);
	char link[64], sysdir[PATH_MAX];
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st->st_rdev), minor(st->st_rdev));
	if (!realpath(link, sysdir))
		return ior_error_errno(IOR_ENOTFOUND, errno, "no sysfs entry for '%s'", path);
	const char *name = strrchr(sysdir, '/') + 1;
	family_add_name(f, name, "");
	/* Partitions are subdirectories that carry a "partition" attribute. */
	DIR *d = opendir(sysdir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		char part[PATH_MAX + 300], num[16];
		snprintf(part, sizeof(part), "%s/%.255s/partition", sysdir, e->d_name);
		if (e->d_name[0] == '.' || !read_line(part, num, sizeof(num)))
			continue;
		char how[96];
		snprintf(how, sizeof(how), "via partition %.8s ('/dev/%.48s')", num, e->d_name);
		family_add_name(f, e->d_name, how);
	}
	if (d)
		closedir(d);
	return IOR_OK;
}

static const char *member_how(const struct family *f, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", f->how[i][0] ? " " : "", f->how[i]);
	return buf;
}

/* mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - FSTYPE SOURCE ...". The source is checked
 * too, because btrfs and some others show an anonymous device number. */
static int check_mounted(const char *path, const struct family *f)
{
	FILE *m = fopen("/proc/self/mountinfo", "r");
	if (!m)
		return ior_error_errno(IOR_ERROR, errno, "cannot read mountinfo to check '%s'", path);
	char line[4096];
	int rc = IOR_OK;
	while (rc == IOR_OK && fgets(line, sizeof(line), m)) {
		unsigned ma, mi;
		char mountpoint[2048], source[1024] = "";
		if (sscanf(line, "%*d %*d %u:%u %*s %2047s", &ma, &mi, mountpoint) != 3)
			continue;
		const char *dash = strstr(line, " - ");
		if (dash)
			sscanf(dash + 3, "%*s %1023s", source);
		struct stat st;
		dev_t d = makedev(ma, mi);
		if (!family_has(f, d) && source[0] == '/' && stat(source, &st) == 0 && S_ISBLK(st.st_mode))
			d = st.st_rdev;
		for (size_t i = 0; i < f->n; i++) {
			if (f->dev[i] != d)
				continue;
			char how[128];
			rc = ior_error_set(IOR_EREFUSED, "refusing to write to '%s': %s at %s%s", path,
					   strcmp(mountpoint, "/") == 0 ? "it holds the root filesystem, mounted" : "mounted",
					   mountpoint, member_how(f, i, how, sizeof(how)));
			break;
		}
	}
	fclose(m);
	return rc;
}

static int check_swap(const char *path, const struct family *f)
{
	FILE *s = fopen("/proc/swaps", "r");
	if (!s)
		return IOR_OK; /* no swap support compiled in: nothing can be swap */
	char line[1024];
	int rc = IOR_OK;
	while (rc == IOR_OK && fgets(line, sizeof(line), s)) {
		char file[1024];
		struct stat st;
		if (sscanf(line, "%1023s", file) != 1 || file[0] != '/' || stat(file, &st) != 0 || !S_ISBLK(st.st_mode))
			continue;
		for (size_t i = 0; i < f->n; i++) {
			if (f->dev[i] == st.st_rdev) {
				char how[128];
				rc = ior_error_set(IOR_EREFUSED, "refusing to write to '%s': in use as swap%s", path,
						   member_how(f, i, how, sizeof(how)));
				break;
			}
		}
	}
	fclose(s);
	return rc;
}

/* The root filesystem's device, even when mountinfo shows it under another name. */
static int check_root(const char *path, const struct family *f)
{
	struct stat root;
	if (stat("/", &root) != 0)
		return IOR_OK;
	for (size_t i = 0; i < f->n; i++) {
		if (f->dev[i] == root.st_dev) {
			char how[128];
			return ior_error_set(IOR_EREFUSED, "refusing to write to '%s': it holds the root filesystem%s",
					     path, member_how(f, i, how, sizeof(how)));
		}
	}
	return IOR_OK;
}

/* A filesystem, RAID member or partition table found by libblkid, as "ext4 filesystem". */
/* fd < 0: probe by name (ior_guard_check_write, which nothing writes through). */
static int find_signature(int fd, const char *path, char *what, size_t len)
{
	what[0] = '\0';
	blkid_probe pr = fd < 0 ? blkid_new_probe_from_filename(path) : blkid_new_probe();
	if (!pr || (fd >= 0 && blkid_probe_set_device(pr, fd, 0, 0) != 0)) {
		blkid_free_probe(pr);
		return ior_error_errno(IOR_ERROR, errno, "cannot probe '%s' for signatures", path);
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	int rc = blkid_do_safeprobe(pr);
	const char *type = NULL, *usage = NULL;
	if (rc == 0) {
		if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0)
			snprintf(what, len, "a '%s' partition table", type);
		else if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0) {
			blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
			snprintf(what, len, "a '%s' %s signature", type,
				 usage && strcmp(usage, "raid") == 0 ? "RAID member" : "filesystem");
		}
	} else if (rc == -2) {
		snprintf(what, len, "conflicting signatures");
	}
	blkid_free_probe(pr);
	return rc < 0 && rc != -2 ? ior_error_set(IOR_ERROR, "cannot probe '%s' for signatures", path) : IOR_OK;
}

static bool confirmed(const char *path, const struct ior_guard_policy *p)
{
	for (size_t i = 0; i < p->nconfirmed; i++)
		if (p->confirmed[i] && strcmp(p->confirmed[i], path) == 0)
			return true;
	return false;
}

static int check_device(const struct stat *st, int fd, const char *path, const struct ior_guard_policy *policy)
{
	struct family f;
	int rc = family_of(st, path, &f);
	if (rc)
		return rc;
	if ((rc = check_root(path, &f)) || (rc = check_mounted(path, &f)) || (rc = check_swap(path, &f)))
		return rc;
	if (!policy->destructive)
		return ior_error_set(IOR_EREFUSED, "refusing to write to '%s': the matrix does not mark it destructive = yes",
				     path);
	char what[128];
	if ((rc = find_signature(fd, path, what, sizeof(what))) != 0)
		return rc;
	if (what[0] && !confirmed(path, policy))
		return ior_error_set(IOR_EREFUSED,
				     "refusing to write to '%s': it carries %s; confirm with --allow-destructive=%s",
				     path, what, path);
	if (!what[0] && !policy->scratch && !confirmed(path, policy))
		return ior_error_set(IOR_EREFUSED,
				     "refusing to write to '%s': not a scratch device of ioregress; confirm with --allow-destructive=%s",
				     path, path);
	return IOR_OK;
}

int ior_guard_check_write(const char *path, const struct ior_guard_policy *policy)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return ior_error_errno(IOR_ENOTFOUND, errno, "cannot use '%s'", path);
	return check_device(&st, -1, path, policy);
}

int ior_guard_check_write_fd(int fd, const char *path, const struct ior_guard_policy *policy)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot use '%s'", path);
	return check_device(&st, fd, path, policy);
}

int ior_guard_lock(const char *path, int *fd)
{
	*fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (*fd < 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot open '%s' to lock it", path);
	if (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
		int err = errno;
		close(*fd);
		*fd = -1;
		if (err == EWOULDBLOCK)
			return ior_error_set(IOR_EBUSY, "'%s' is in use by another ioregress run", path);
		return ior_error_errno(IOR_ERROR, err, "cannot lock '%s'", path);
	}
	struct stat st;
	if (fstat(*fd, &st) != 0 || !S_ISBLK(st.st_mode)) {
		close(*fd);
		*fd = -1;
		return ior_error_set(IOR_EINVALID, "'%s' is not a block device", path);
	}
	return IOR_OK;
}

void ior_guard_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}
