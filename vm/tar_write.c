/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A ustar writer of regular files onto a file descriptor, for the guest's results disk (tar_write.h). */
#include "vm/tar_write.h"

#include "common/error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BLOCK 512

/* ustar's largest size in its 11 octal digits: 8 GiB less a byte */
#define SIZE_MAX_USTAR ((UINT64_C(1) << 33) - 1)

static int write_all(int fd, const void *data, size_t len, const char *name)
{
	for (const char *p = data; len;) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return ior_error_errno(IOR_ERROR, n < 0 ? errno : EIO, "cannot write tar member '%s'", name);
		p += n;
		len -= (size_t)n;
	}
	return IOR_OK;
}

/* An octal field of width bytes: width - 1 digits, then a NUL. */
static void octal(char *field, size_t width, uint64_t value)
{
	char text[32];
	snprintf(text, sizeof(text), "%0*llo", (int)(width - 1), (unsigned long long)value);
	memcpy(field, text, width - 1);
	field[width - 1] = '\0';
}

static int header(int fd, const char *name, uint64_t size)
{
	if (strlen(name) > IOR_VM_TAR_NAME_MAX)
		return ior_error_set(IOR_EINVALID, "tar member name '%s' is longer than %d bytes", name,
				     IOR_VM_TAR_NAME_MAX);
	if (size > SIZE_MAX_USTAR)
		return ior_error_set(IOR_EINVALID, "tar member '%s' has %llu bytes, more than ustar's 8 GiB", name,
				     (unsigned long long)size);
	unsigned char h[BLOCK] = { 0 };
	memcpy(h, name, strlen(name));                 /* name[100] */
	octal((char *)h + 100, 8, 0644);               /* mode */
	octal((char *)h + 108, 8, 0);                  /* uid */
	octal((char *)h + 116, 8, 0);                  /* gid */
	octal((char *)h + 124, 12, size);              /* size */
	octal((char *)h + 136, 12, (uint64_t)time(NULL)); /* mtime */
	h[156] = '0';                                  /* typeflag: a regular file */
	memcpy(h + 257, "ustar", 6);                   /* magic, with its NUL */
	memcpy(h + 263, "00", 2);                      /* version */
	memcpy(h + 265, "root", 4);                    /* uname */
	memcpy(h + 297, "root", 4);                    /* gname */
	/* the checksum: every byte summed with the checksum field counted as spaces */
	memset(h + 148, ' ', 8);
	unsigned sum = 0;
	for (size_t i = 0; i < BLOCK; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);     /* six digits, a NUL, and the space left from above */
	return write_all(fd, h, BLOCK, name);
}

static int pad(int fd, uint64_t size, const char *name)
{
	static const char zeros[BLOCK];
	size_t rest = (size_t)(size % BLOCK);
	return rest ? write_all(fd, zeros, BLOCK - rest, name) : IOR_OK;
}

int ior_vm_tar_member(int fd, const char *name, const void *data, size_t len)
{
	int rc = header(fd, name, len);
	if (!rc)
		rc = write_all(fd, data, len, name);
	return rc ? rc : pad(fd, len, name);
}

int ior_vm_tar_member_fd(int fd, const char *name, int in, uint64_t size)
{
	int rc = header(fd, name, size);
	char buf[1 << 16];
	for (uint64_t left = size; !rc && left;) {
		ssize_t got = read(in, buf, left < sizeof(buf) ? (size_t)left : sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return got < 0 ? ior_error_errno(IOR_ERROR, errno, "cannot read tar member '%s'", name)
				       : ior_error_set(IOR_ERROR, "cannot read tar member '%s': it ended %llu bytes short",
						       name, (unsigned long long)left);
		rc = write_all(fd, buf, (size_t)got, name);
		left -= (uint64_t)got;
	}
	return rc ? rc : pad(fd, size, name);
}

int ior_vm_tar_end(int fd)
{
	static const char zeros[2 * BLOCK];
	return write_all(fd, zeros, sizeof(zeros), "the end");
}
