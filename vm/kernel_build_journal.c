/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A build's journal (DIR/journal, written under the lock and removed when the build ends): the
 * next build into DIR, and recover, know that one was cut off, and no make starts beside a make
 * a cut-off build left running in the same O= directory. */
#include "vm/kernel_build.h"

#include "common/error.h"
#include "kernel/info.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct journal {
	long pid;
	char boot[64];
	long long started;
};

static bool journal_read(struct journal *j, const char *out)
{
	char path[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/journal", out);
	memset(j, 0, sizeof(*j));
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	if (fscanf(f, "pid=%ld boot=%63s started=%lld", &j->pid, j->boot, &j->started) < 2)
		j->pid = 0;
	fclose(f);
	return true;
}

static bool journal_owner_alive(const struct journal *j)
{
	return j->pid > 0 && j->pid <= INT_MAX && ior_kernel_process_alive((int)j->pid, j->boot);
}

pid_t ior_kbuild_live_make(const char *out)
{
	char want[PATH_MAX + 16];
	snprintf(want, sizeof(want), "O=%s/build", out);
	DIR *d = opendir("/proc");
	pid_t found = 0;
	static char buf[1 << 16];
	for (struct dirent *e; d && !found && (e = readdir(d));) {
		char *end, path[300];
		long pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0 || pid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		if (fd >= 0)
			close(fd);
		for (ssize_t i = 0; n > 0 && i < n; i += (ssize_t)strlen(buf + i) + 1) {
			buf[n] = '\0';
			if (!strcmp(buf + i, want)) {
				found = (pid_t)pid;
				break;
			}
		}
	}
	if (d)
		closedir(d);
	return found;
}

int ior_kbuild_journal_begin(const char *out)
{
	pid_t orphan = ior_kbuild_live_make(out);
	if (orphan)
		return ior_error_set(IOR_EREFUSED, "a make into '%s/build' is still running (pid %ld), left by a build that "
				     "was cut off: a second make there would build beside it (wait for it, or end it with "
				     "'kill %ld' or 'ioregress recover')", out, (long)orphan, (long)orphan);
	struct journal j;
	if (journal_read(&j, out)) {
		char when[64] = "an unknown time";
		time_t t = (time_t)j.started;
		struct tm tm;
		if (j.started && gmtime_r(&t, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
		/* said even without progress lines: what is in build/ may be half written */
		fprintf(stderr, "kernel build: the last build into '%s' (pid %ld, started %s) was cut off; make runs "
			"again over what it left\n", out, j.pid, when);
	}
	char boot[64], text[256], path[PATH_MAX + 16];
	ior_kernel_boot_id(boot, sizeof(boot));
	int n = snprintf(text, sizeof(text), "pid=%ld boot=%s started=%lld\n", (long)getpid(), boot[0] ? boot : "-",
			 (long long)time(NULL));
	snprintf(path, sizeof(path), "%s/journal", out);
	return ior_kbuild_write_private(path, text, (size_t)n);
}

void ior_kbuild_journal_end(const char *out)
{
	char path[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/journal", out);
	unlink(path);
}

/* One build directory's journal: left alone while its build lives; else its make (if one still
 * runs there, ours) is ended and the journal removed. */
static int recover_one(const char *dir, FILE *out, unsigned *done)
{
	struct journal j;
	if (!journal_read(&j, dir))
		return IOR_OK;
	if (journal_owner_alive(&j)) {
		fprintf(out, "kernel build into '%s': left alone, its build (pid %ld) is still running\n", dir, j.pid);
		return IOR_OK;
	}
	pid_t make = ior_kbuild_live_make(dir);
	char proc[64];
	struct stat st;
	snprintf(proc, sizeof(proc), "/proc/%ld", (long)make);
	if (make && (stat(proc, &st) != 0 || st.st_uid != geteuid())) {
		fprintf(out, "kernel build into '%s': cut off (pid %ld); its make (pid %ld) is not ours, left alone\n", dir,
			j.pid, (long)make);
		return IOR_OK;
	}
	if (make && kill(make, SIGTERM) != 0 && errno != ESRCH)
		return ior_error_errno(IOR_ERROR, errno, "cannot end make (pid %ld) of the build into '%s'", (long)make, dir);
	ior_kbuild_journal_end(dir);
	if (make)
		fprintf(out, "kernel build into '%s': cut off (pid %ld); the make it left running (pid %ld) ended\n", dir,
			j.pid, (long)make);
	else
		fprintf(out, "kernel build into '%s': cut off (pid %ld), nothing left running; the next build there runs "
			"make again\n", dir, j.pid);
	(*done)++;
	return IOR_OK;
}

int ior_kbuild_recover(FILE *out, unsigned *done, unsigned *failed)
{
	char root[PATH_MAX];
	ior_kbuild_default_root(root, sizeof(root));
	DIR *d = *root ? opendir(root) : NULL;
	int first = IOR_OK;
	for (struct dirent *e; d && (e = readdir(d));) {
		char dir[PATH_MAX + 256];
		if (e->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", root, e->d_name);
		ior_error_clear();
		int rc = recover_one(dir, out, done);
		if (rc) {
			fprintf(out, "failed: %s\n", ior_error_last());
			(*failed)++;
			if (!first)
				first = rc;
		}
	}
	if (d)
		closedir(d);
	return first;
}
