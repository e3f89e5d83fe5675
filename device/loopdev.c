/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scratch loop devices: a private file under a directory the caller names, filled, then attached with autoclear. */
#include "device/loopdev.h"
#include "common/error.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Another process can take the free device between GET_FREE and CONFIGURE; try again a few times. */
#define LOOP_ATTACH_TRIES 16

static int configure(int loop_fd, int file_fd, bool direct_io)
{
	struct loop_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (unsigned)file_fd;
	/* AUTOCLEAR: if ioregress dies, the kernel detaches the device once the last fd closes. */
	cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR | (direct_io ? LO_FLAGS_DIRECT_IO : 0);
	if (ioctl(loop_fd, LOOP_CONFIGURE, &cfg) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOTTY)
		return -1;
	/* Kernels before 5.8 lack LOOP_CONFIGURE. */
	if (ioctl(loop_fd, LOOP_SET_FD, file_fd) != 0)
		return -1;
	struct loop_info64 info;
	memset(&info, 0, sizeof(info));
	info.lo_flags = LO_FLAGS_AUTOCLEAR;
	if (ioctl(loop_fd, LOOP_SET_STATUS64, &info) != 0 ||
	    (direct_io && ioctl(loop_fd, LOOP_SET_DIRECT_IO, 1UL) != 0)) {
		int saved = errno;
		ioctl(loop_fd, LOOP_CLR_FD, 0);
		errno = saved;
		return -1;
	}
	return 0;
}

static int attach_fd(struct ior_loopdev *ld, int file_fd, bool direct_io)
{
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return ior_error_errno(IOR_EUNSUPPORTED, errno, "cannot open '/dev/loop-control'");
	int rc = IOR_ERROR;
	for (int attempt = 0; attempt < LOOP_ATTACH_TRIES; attempt++) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (n < 0) {
			rc = ior_error_errno(IOR_ERROR, errno, "no free loop device");
			break;
		}
		snprintf(ld->path, sizeof(ld->path), "/dev/loop%d", n);
		int fd = open(ld->path, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			rc = ior_error_errno(IOR_ERROR, errno, "cannot open '%s'", ld->path);
			break;
		}
		if (configure(fd, file_fd, direct_io) == 0) {
			ld->fd = fd;
			rc = IOR_OK;
			break;
		}
		int err = errno;
		close(fd);
		if (err != EBUSY) {
			rc = ior_error_errno(IOR_ERROR, err, "cannot attach '%s' to '%s'", ld->backing, ld->path);
			break;
		}
		rc = ior_error_set(IOR_EBUSY, "every free loop device was taken while attaching '%s'", ld->backing);
	}
	close(ctl);
	if (rc != IOR_OK)
		ld->path[0] = '\0';
	return rc;
}

static void loopdev_reset(struct ior_loopdev *ld)
{
	memset(ld, 0, sizeof(*ld));
	ld->fd = -1;
}

/* Sizes and fills the new backing file and attaches it; on failure the file is removed again. */
static int attach_new_file(struct ior_loopdev *out, int file_fd, uint64_t size, bool direct_io, enum ior_fill fill)
{
	out->own_backing = true;
	int rc = IOR_OK;
	if (ftruncate(file_fd, (off_t)size) != 0)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot size '%s' to %llu bytes", out->backing,
				     (unsigned long long)size);
	else if ((rc = ior_fill_fd(file_fd, out->backing, size, fill, &out->filled)) == IOR_OK)
		rc = attach_fd(out, file_fd, direct_io);
	close(file_fd); /* the loop device holds its own reference */
	if (rc != IOR_OK) {
		unlink(out->backing);
		loopdev_reset(out);
	}
	return rc;
}

int ior_loopdev_create(struct ior_loopdev *out, const char *dir, uint64_t size, bool direct_io, enum ior_fill fill)
{
	loopdev_reset(out);
	if (size == 0)
		return ior_error_set(IOR_EINVALID, "a loop device needs a size above zero");
	snprintf(out->backing, sizeof(out->backing), "%s/ioregress-loop.XXXXXX", dir && *dir ? dir : "/tmp");
	int file_fd = mkostemp(out->backing, O_CLOEXEC); /* mode 0600 */
	if (file_fd < 0) {
		int rc = ior_error_errno(IOR_ERROR, errno, "cannot create a backing file in '%s'", dir);
		out->backing[0] = '\0';
		return rc;
	}
	return attach_new_file(out, file_fd, size, direct_io, fill);
}

void ior_loopdev_scratch_name(char *out, size_t len, const char *dir)
{
	unsigned long long rnd = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, &rnd, sizeof(rnd)) != (ssize_t)sizeof(rnd))
		rnd = (unsigned long long)getpid() << 20 ^ (unsigned long long)time(NULL);
	if (fd >= 0)
		close(fd);
	snprintf(out, len, "%s/ioregress-loop.%016llx", dir && *dir ? dir : "/tmp", rnd);
}

int ior_loopdev_create_at(struct ior_loopdev *out, const char *file, uint64_t size, bool direct_io,
			  enum ior_fill fill)
{
	loopdev_reset(out);
	if (size == 0)
		return ior_error_set(IOR_EINVALID, "a loop device needs a size above zero");
	snprintf(out->backing, sizeof(out->backing), "%s", file);
	int file_fd = open(file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (file_fd < 0) {
		int rc = ior_error_errno(IOR_ERROR, errno, "cannot create backing file '%s'", file);
		loopdev_reset(out);
		return rc;
	}
	return attach_new_file(out, file_fd, size, direct_io, fill);
}

int ior_loopdev_backing_file(const char *path, char *out, size_t len)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (strncmp(base, "loop", 4) != 0)
		return ior_error_set(IOR_ENOTFOUND, "'%s' is not a loop device", path);
	char sys[PATH_MAX];
	snprintf(sys, sizeof(sys), "/sys/block/%s/loop/backing_file", base);
	FILE *f = fopen(sys, "re");
	if (!f)
		return ior_error_set(IOR_ENOTFOUND, "'%s' has no backing file", path);
	bool ok = fgets(out, (int)len, f) != NULL;
	fclose(f);
	if (!ok || !out[0])
		return ior_error_set(IOR_ENOTFOUND, "'%s' has no backing file", path);
	out[strcspn(out, "\n")] = '\0';
	/* the kernel appends " (deleted)" to a file removed while attached */
	size_t n = strlen(out);
	if (n > 10 && strcmp(out + n - 10, " (deleted)") == 0)
		out[n - 10] = '\0';
	return IOR_OK;
}

int ior_loopdev_attach(struct ior_loopdev *out, const char *file, bool direct_io)
{
	loopdev_reset(out);
	snprintf(out->backing, sizeof(out->backing), "%s", file);
	int file_fd = open(file, O_RDWR | O_CLOEXEC);
	if (file_fd < 0) {
		int rc = ior_error_errno(IOR_ERROR, errno, "cannot open '%s'", file);
		loopdev_reset(out);
		return rc;
	}
	int rc = attach_fd(out, file_fd, direct_io);
	close(file_fd);
	if (rc != IOR_OK)
		loopdev_reset(out);
	return rc;
}

int ior_loopdev_destroy(struct ior_loopdev *ld)
{
	int rc = IOR_OK;
	/* path[0] guards a zeroed struct whose fd 0 is someone else's. */
	if (ld->path[0] && ld->fd >= 0) {
		/* Explicit detach so the device is free now, not when autoclear notices; EBUSY-free
		 * because autoclear defers while a mount or another opener still holds it. */
		if (ioctl(ld->fd, LOOP_CLR_FD, 0) != 0 && errno != ENXIO)
			rc = ior_error_errno(IOR_ERROR, errno, "cannot detach '%s'", ld->path);
		close(ld->fd);
		ld->fd = -1;
	}
	if (ld->own_backing && ld->backing[0] && unlink(ld->backing) != 0 && errno != ENOENT && rc == IOR_OK)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot remove '%s'", ld->backing);
	ld->own_backing = false;
	ld->backing[0] = '\0';
	ld->path[0] = '\0';
	return rc;
}
