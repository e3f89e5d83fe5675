/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest's two disks: a sparse scratch file for the I/O and the results disk, a raw tar the
 * guest writes and the host reads back. */
#include "vm/internal.h"

#include "common/error.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ior_vm_disk_create(const char *path, uint64_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot create disk '%s'", path);
	int rc = ftruncate(fd, (off_t)size) == 0 ? IOR_OK : ior_error_errno(IOR_ERROR, errno, "cannot size disk '%s'", path);
	close(fd);
	return rc;
}

/* The files the guest leaves in /results that the host wants; anything else is ignored. */
static bool wanted(const char *name)
{
	if (strncmp(name, "./", 2) == 0)
		name += 2;
	return !strcmp(name, "status") || !strcmp(name, "guest.db") || !strcmp(name, "guest.db-wal");
}

static int extract(struct archive *r, const char *dst)
{
	FILE *out = fopen(dst, "wb");
	if (!out)
		return ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", dst);
	int rc = IOR_OK;
	char buf[1 << 16];
	for (la_ssize_t got; !rc && (got = archive_read_data(r, buf, sizeof(buf))) != 0;)
		if (got < 0 || fwrite(buf, 1, (size_t)got, out) != (size_t)got)
			rc = ior_error_set(IOR_ERROR, "cannot extract '%s': %s", dst, archive_error_string(r));
	if (fclose(out) != 0 && !rc)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", dst);
	return rc;
}

int ior_vm_results_read(const char *disk, const char *dir, int *guest_status, char *db_path, size_t len)
{
	*guest_status = -1;
	db_path[0] = '\0';
	struct archive *r = archive_read_new();
	archive_read_support_format_tar(r);
	int rc = IOR_OK;
	if (archive_read_open_filename(r, disk, 1 << 16) != ARCHIVE_OK)
		rc = ior_error_set(IOR_ERROR, "cannot read results disk '%s': %s", disk, archive_error_string(r));
	struct archive_entry *e;
	int got = ARCHIVE_EOF;
	while (!rc && (got = archive_read_next_header(r, &e)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);
		if (!wanted(name))
			continue;
		const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
		char dst[PATH_MAX];
		snprintf(dst, sizeof(dst), "%s/%s", dir, base);
		if ((rc = extract(r, dst)))
			break;
		if (!strcmp(base, "guest.db"))
			snprintf(db_path, len, "%s", dst);
		if (!strcmp(base, "status")) {
			FILE *f = fopen(dst, "r");
			if (!f || fscanf(f, "%d", guest_status) != 1)
				*guest_status = -1;
			if (f)
				fclose(f);
		}
	}
	/* a disk the guest never wrote is all zeros: an empty archive, not an error */
	if (!rc && got != ARCHIVE_EOF && *guest_status < 0)
		rc = ior_error_set(IOR_ERROR, "results disk '%s' is not a tar archive: %s", disk, archive_error_string(r));
	archive_read_free(r);
	return rc;
}
