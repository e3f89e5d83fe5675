/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest's side of the watchdog and of the results disk: heartbeat lines and the database
 * written out after each commit (see guest.h). */
#include "vm/guest.h"

#include "common/error.h"
#include "db/db.h"
#include "vm/tar_write.h"

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

/* The file at path as the member name; an absent file (no WAL) is no member. */
static int add_file(int fd, const char *name, const char *path)
{
	int in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return errno == ENOENT ? IOR_OK : ior_error_errno(IOR_ERROR, errno, "cannot read '%s'", path);
	struct stat st;
	int rc = fstat(in, &st) == 0 ? ior_vm_tar_member_fd(fd, name, in, (uint64_t)st.st_size)
				     : ior_error_errno(IOR_ERROR, errno, "cannot stat '%s'", path);
	close(in);
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
	char wal[4096 + 8];
	snprintf(wal, sizeof(wal), "%s-wal", ior_db_path(db));
	int rc = add_file(fd, "guest.db", ior_db_path(db));
	if (!rc)
		rc = add_file(fd, "guest.db-wal", wal);
	if (!rc && status >= 0) {
		char text[16];
		int n = snprintf(text, sizeof(text), "%d\n", status);
		rc = ior_vm_tar_member(fd, "status", text, (size_t)n);
	}
	if (!rc)
		rc = ior_vm_tar_end(fd);
	if (rc)
		ior_error_wrap(rc, "cannot write the results disk '%s'", disk);
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
