/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Filling scratch backing files before the first measurement, and finding holes in them (see fill.h). */
#include "device/fill.h"
#include "common/error.h"
#include "common/rng.h"
#include "common/stop.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *const ior_fill_names[IOR_FILL_COUNT + 1] = {
	[IOR_FILL_RANDOM] = "random",
	[IOR_FILL_ZEROS] = "zeros",
	[IOR_FILL_SPARSE] = "sparse",
	[IOR_FILL_COUNT] = NULL,
};

enum { CHUNK = 1 << 20 };

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int write_all(int fd, const char *what, uint64_t size, enum ior_fill fill, unsigned char *buf)
{
	/* seeded from the clock: a new fill never repeats an earlier one, so no two scratch
	 * files (nor two blocks of one) share data a deduplicating layer could fold */
	struct ior_rng rng;
	ior_rng_seed(&rng, (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)buf);
	for (uint64_t off = 0; off < size; off += CHUNK) {
		if (ior_stop_requested())
			return ior_error_set(IOR_EINTERRUPTED, "stop requested while filling '%s'", what);
		size_t n = size - off < CHUNK ? (size_t)(size - off) : CHUNK;
		if (fill == IOR_FILL_RANDOM)
			for (size_t i = 0; i < n; i += 8) {
				uint64_t v = ior_rng_next(&rng);
				memcpy(buf + i, &v, n - i < 8 ? n - i : 8);
			}
		for (size_t done = 0; done < n;) {
			ssize_t w = pwrite(fd, buf + done, n - done, (off_t)(off + done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return ior_error_errno(IOR_ERROR, w < 0 ? errno : ENOSPC, "cannot fill '%s' at %llu", what,
						       (unsigned long long)(off + done));
			done += (size_t)w;
		}
	}
	if (fdatasync(fd) != 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot sync '%s' after filling it", what);
	/* Out of the page cache: a buffered loop device would otherwise read the fill back from memory. */
	posix_fadvise(fd, 0, (off_t)size, POSIX_FADV_DONTNEED);
	return IOR_OK;
}

int ior_fill_fd(int fd, const char *what, uint64_t size, enum ior_fill fill, struct ior_fill_result *out)
{
	*out = (struct ior_fill_result){ .fill = fill };
	if (fill == IOR_FILL_SPARSE)
		return IOR_OK;
	if (fill < 0 || fill >= IOR_FILL_COUNT)
		return ior_error_set(IOR_EINVALID, "cannot fill '%s': unknown fill %d", what, (int)fill);
	unsigned char *buf = calloc(1, CHUNK);
	if (!buf)
		return ior_error_set(IOR_ERROR, "out of memory filling '%s'", what);
	double t0 = now_s();
	int rc = write_all(fd, what, size, fill, buf);
	free(buf);
	if (rc == IOR_OK) {
		out->bytes = size;
		out->seconds = now_s() - t0;
	}
	return rc;
}

int ior_fill_hole_bytes(const char *path, uint64_t *holes)
{
	*holes = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot open '%s' to look for holes", path);
	struct stat st;
	int rc = IOR_OK;
	if (fstat(fd, &st) != 0)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot stat '%s'", path);
	for (off_t pos = 0; rc == IOR_OK && pos < st.st_size;) {
		off_t hole = lseek(fd, pos, SEEK_HOLE);
		if (hole < 0) {
			/* a filesystem without SEEK_HOLE reports none: the whole file counts as data */
			if (errno != EINVAL && errno != ENXIO)
				rc = ior_error_errno(IOR_ERROR, errno, "cannot look for holes in '%s'", path);
			break;
		}
		if (hole >= st.st_size)
			break; /* the implicit hole at the end */
		off_t data = lseek(fd, hole, SEEK_DATA);
		if (data < 0)
			data = st.st_size; /* ENXIO: a hole up to the end */
		*holes += (uint64_t)(data - hole);
		pos = data;
	}
	close(fd);
	return rc;
}
