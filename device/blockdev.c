/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Block-device facts read from sysfs (/sys/block/NAME): size, block sizes, rotational, model, schedulers. */
#include "device/blockdev.h"
#include "common/error.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Reads one line of a sysfs attribute; false when absent. */
static bool read_attr(const char *dir, const char *attr, char *out, size_t len)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool ok = fgets(out, (int)len, f) != NULL;
	fclose(f);
	if (ok) {
		size_t n = strcspn(out, "\n");
		while (n > 0 && isspace((unsigned char)out[n - 1]))
			n--;
		out[n] = '\0';
	}
	return ok;
}

static uint64_t read_u64(const char *dir, const char *attr, uint64_t fallback)
{
	char buf[64];
	if (!read_attr(dir, attr, buf, sizeof(buf)))
		return fallback;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 10);
	return errno || end == buf ? fallback : (uint64_t)v;
}

int ior_scheduler_parse(const char *line, char names[][32], size_t max, size_t *n, int *active)
{
	*n = 0;
	*active = -1;
	const char *p = line;
	while (*p) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		size_t len = strcspn(p, " \t\n");
		bool bracketed = len >= 2 && p[0] == '[' && p[len - 1] == ']';
		const char *name = bracketed ? p + 1 : p;
		size_t nlen = bracketed ? len - 2 : len;
		if (nlen == 0 || nlen >= 32)
			return ior_error_set(IOR_EINVALID, "unexpected token in scheduler list '%s'", line);
		if (*n == max)
			return ior_error_set(IOR_EINVALID, "more than %zu schedulers in '%s'", max, line);
		memcpy(names[*n], name, nlen);
		names[*n][nlen] = '\0';
		if (bracketed)
			*active = (int)*n;
		(*n)++;
		p += len;
	}
	return IOR_OK;
}

/* /sys/class/block/NAME resolves partitions too; a partition's queue is its parent disk's. */
static int sysfs_dir_of(const char *kname, char *dir, size_t len, char *disk_dir, size_t disk_len)
{
	char link[PATH_MAX];
	snprintf(link, sizeof(link), "/sys/class/block/%s", kname);
	char resolved[PATH_MAX];
	if (!realpath(link, resolved))
		return ior_error_errno(IOR_ENOTFOUND, errno, "no block device '%s' in sysfs", kname);
	snprintf(dir, len, "%s", resolved);
	char partition[8];
	if (read_attr(resolved, "partition", partition, sizeof(partition))) {
		char *slash = strrchr(resolved, '/');
		if (slash)
			*slash = '\0';
	}
	snprintf(disk_dir, disk_len, "%s", resolved);
	return IOR_OK;
}

static const char *kernel_name(const char *name)
{
	if (strncmp(name, "/dev/", 5) == 0)
		return name + 5;
	return name;
}

int ior_blockdev_probe(const char *name, struct ior_blockdev *out)
{
	memset(out, 0, sizeof(*out));
	out->active = -1;
	out->rotational = -1;
	char resolved[PATH_MAX];
	const char *kname = kernel_name(name);
	/* A /dev path may be a symlink (/dev/disk/by-id/...): follow it to the kernel name. */
	if (name[0] == '/' && realpath(name, resolved))
		kname = kernel_name(resolved);
	if (strchr(kname, '/'))
		return ior_error_set(IOR_EINVALID, "'%s' is not a block device name", name);
	char dir[PATH_MAX], disk[PATH_MAX];
	int rc = sysfs_dir_of(kname, dir, sizeof(dir), disk, sizeof(disk));
	if (rc)
		return rc;
	snprintf(out->name, sizeof(out->name), "%s", kname);
	snprintf(out->path, sizeof(out->path), "/dev/%s", kname);
	out->size = read_u64(dir, "size", 0) * 512; /* sysfs counts 512-byte sectors whatever the block size */

	char queue[PATH_MAX + 8];
	snprintf(queue, sizeof(queue), "%s/queue", disk);
	out->logical_block = (unsigned)read_u64(queue, "logical_block_size", 512);
	out->physical_block = (unsigned)read_u64(queue, "physical_block_size", out->logical_block);
	char buf[512];
	if (read_attr(queue, "rotational", buf, sizeof(buf)))
		out->rotational = atoi(buf);
	if (!read_attr(disk, "device/model", out->model, sizeof(out->model)))
		out->model[0] = '\0';
	if (read_attr(queue, "scheduler", buf, sizeof(buf))) {
		out->has_scheduler = true;
		rc = ior_scheduler_parse(buf, out->schedulers, IOR_MAX_SCHEDULERS, &out->nschedulers, &out->active);
		if (rc)
			return ior_error_wrap(rc, "%s/scheduler", queue);
	}
	return IOR_OK;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct ior_blockdev *)a)->name, ((const struct ior_blockdev *)b)->name);
}

uint64_t ior_blockdev_diskseq(const char *name)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "/sys/block/%s/diskseq", kernel_name(name));
	FILE *f = fopen(path, "r");
	unsigned long long seq = 0;
	if (f) {
		if (fscanf(f, "%llu", &seq) != 1)
			seq = 0;
		fclose(f);
	}
	return seq;
}

int ior_blockdev_list(struct ior_blockdev **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	DIR *d = opendir("/sys/block");
	if (!d)
		return ior_error_errno(IOR_ERROR, errno, "cannot read '/sys/block'");
	struct dirent *e;
	size_t cap = 0;
	int rc = IOR_OK;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			struct ior_blockdev *grown = realloc(*out, cap * sizeof(**out));
			if (!grown) {
				rc = ior_error_set(IOR_ERROR, "out of memory");
				break;
			}
			*out = grown;
		}
		if (ior_blockdev_probe(e->d_name, &(*out)[*n]) == IOR_OK)
			(*n)++;
	}
	closedir(d);
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
		return rc;
	}
	qsort(*out, *n, sizeof(**out), by_name);
	return IOR_OK;
}
