/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest's side of the watchdog and of the results disk: heartbeat lines and the database
 * written out after each commit (see guest.h). */
#include "vm/guest.h"

#include "common/error.h"
#include "db/db.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *ior_vm_guest_results(void)
{
	const char *disk = getenv(IOR_VM_RESULTS_ENV);
	return disk && disk[0] ? disk : NULL;
}

void ior_vm_guest_stuck(const char *device)
{
	char line[128];
	int n = snprintf(line, sizeof(line), "\n" IOR_VM_MARK_STUCK " %s\n", device);
	if (n > 0)
		(void)!write(STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

double ior_vm_guest_uptime(void)
{
	FILE *f = fopen("/proc/uptime", "re");
	double up = -1;
	if (f && fscanf(f, "%lf", &up) != 1)
		up = -1;
	if (f)
		fclose(f);
	return up;
}

void ior_vm_guest_beat(double expect_s, const char *fmt, ...)
{
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	/* one write, so a line is never split by other output on the console */
	char line[600];
	int n = snprintf(line, sizeof(line), "\n" IOR_VM_MARK_BEAT " expect=%.1f %s\n", expect_s, text);
	if (n > 0)
		(void)!write(STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

static int add_member(struct archive *a, const char *name, const void *data, size_t len)
{
	struct archive_entry *e = archive_entry_new();
	archive_entry_set_pathname(e, name);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_size(e, (la_int64_t)len);
	int rc = archive_write_header(a, e) == ARCHIVE_OK && (!len || archive_write_data(a, data, len) == (la_ssize_t)len)
			 ? IOR_OK
			 : ior_error_set(IOR_ERROR, "cannot write '%s' to the results disk: %s", name, archive_error_string(a));
	archive_entry_free(e);
	return rc;
}

static int add_file(struct archive *a, const char *name, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? IOR_OK : ior_error_errno(IOR_ERROR, errno, "cannot read '%s'", path);
	struct stat st;
	char *buf = NULL;
	int rc = fstat(fd, &st) == 0 ? IOR_OK : ior_error_errno(IOR_ERROR, errno, "cannot stat '%s'", path);
	if (!rc && !(buf = malloc(st.st_size ? (size_t)st.st_size : 1)))
		rc = ior_error_set(IOR_ERROR, "out of memory");
	if (!rc && st.st_size && read(fd, buf, (size_t)st.st_size) != st.st_size)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot read '%s'", path);
	if (!rc)
		rc = add_member(a, name, buf, (size_t)st.st_size);
	free(buf);
	close(fd);
	return rc;
}

int ior_vm_guest_commit(struct ior_db *db, const char *disk, int status)
{
	/* the WAL's frames into the database file: the file is then the whole database */
	if (ior_db_checkpoint(db))
		ior_error_clear();   /* best effort, as before: a failed checkpoint is no reason to lose the results */
	int fd = open(disk, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot open the results disk '%s'", disk);
	struct archive *a = archive_write_new();
	int rc = archive_write_set_format_pax_restricted(a) == ARCHIVE_OK && archive_write_open_fd(a, fd) == ARCHIVE_OK
			 ? IOR_OK
			 : ior_error_set(IOR_ERROR, "cannot write the results disk '%s': %s", disk, archive_error_string(a));
	char wal[4096 + 8];
	snprintf(wal, sizeof(wal), "%s-wal", ior_db_path(db));
	if (!rc)
		rc = add_file(a, "guest.db", ior_db_path(db));
	if (!rc)
		rc = add_file(a, "guest.db-wal", wal);
	if (!rc && status >= 0) {
		char text[16];
		int n = snprintf(text, sizeof(text), "%d\n", status);
		rc = add_member(a, "status", text, (size_t)n);
	}
	if (archive_write_close(a) != ARCHIVE_OK && !rc)
		rc = ior_error_set(IOR_ERROR, "cannot write the results disk '%s': %s", disk, archive_error_string(a));
	archive_write_free(a);
	if (fsync(fd) != 0 && !rc)
		rc = ior_error_errno(IOR_ERROR, errno, "cannot flush the results disk '%s'", disk);
	close(fd);
	const char *sent = getenv(IOR_VM_SENT_ENV);
	if (!rc && status >= 0 && sent && sent[0]) { /* the last: the init need not write the disk again */
		int s = open(sent, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
		if (s >= 0)
			close(s);
	}
	return rc;
}
