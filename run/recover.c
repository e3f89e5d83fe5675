/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Crash recovery from the undo journal (see recover.h). Each kind of change has one undo step. */
#include "run/recover.h"
#include "common/error.h"
#include "device/blockdev.h"
#include "device/loopdev.h"
#include "db/db.h"
#include "db/target_plan.h"
#include "device/scheduler.h"
#include "engines/engine.h"
#include "kernel/info.h"
#include "kernel/modules.h"
#include "vm/ssh.h"
#include "vm/kernel_build.h"
#include "vm/target.h"
#include "vm/workdir.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

bool ior_run_owner_alive(int pid, const char *boot_id)
{
	return ior_kernel_process_alive(pid, boot_id);
}

/* A loop device with nothing attached: a killed run's scratch device detaches itself (autoclear) and
 * gets a new diskseq when it is next attached, yet keeps the scheduler the run gave it; nobody uses
 * it, so that scheduler is still the run's to restore. An attached one with another diskseq is not. */
static bool unbound_loop(const char *target)
{
	const char *base = strrchr(target, '/');
	char backing[4096];
	return !strncmp(base ? base + 1 : target, "loop", 4) && strncmp(base ? base + 1 : target, "loop-", 5) &&
	       ior_loopdev_backing_file(target, backing, sizeof(backing)) == IOR_ENOTFOUND;
}

static int undo_scheduler(const struct ior_db_undo *u, bool same_boot, FILE *out)
{
	if (!same_boot) {
		fprintf(out, "scheduler of '%s': nothing to do, the machine has rebooted since\n", u->target);
		return IOR_OK;
	}
	if (access(u->target, F_OK) != 0) {
		fprintf(out, "scheduler of '%s': device is gone, nothing to restore\n", u->target);
		return IOR_OK;
	}
	/* "NAME diskseq=N" since the journal has held the attach (older entries: NAME alone) */
	char name[32] = "";
	unsigned long long seq = 0;
	int fields = sscanf(u->original ? u->original : "", "%31s diskseq=%llu", name, &seq);
	uint64_t now = ior_blockdev_diskseq(u->target);
	if (fields == 2 && seq && now != seq && !unbound_loop(u->target)) {
		fprintf(out, "scheduler of '%s': left alone, it is another device now (diskseq %llu, the run's was %llu)\n",
			u->target, (unsigned long long)now, seq);
		return IOR_OK;
	}
	int rc = ior_scheduler_set(u->target, name, IOR_ENGINE_DEADLINE_SECONDS); /* no matrix here */
	if (rc == IOR_OK)
		fprintf(out, "scheduler of '%s': restored to '%s'\n", u->target, name);
	return rc;
}

/* A loop device is detached only while it still sits on the journaled backing file:
 * the number may have been reused by someone else since. */
static int undo_loop(const struct ior_db_undo *u, bool same_boot, FILE *out)
{
	const char *name = strrchr(u->target, '/');
	char path[128], backing[4096] = "";
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", name ? name + 1 : u->target);
	FILE *f = same_boot ? fopen(path, "r") : NULL;
	if (f) {
		if (fgets(backing, sizeof(backing), f))
			backing[strcspn(backing, "\n")] = '\0';
		fclose(f);
	}
	if (!u->original || strcmp(backing, u->original) != 0) {
		fprintf(out, "loop device '%s': already detached\n", u->target);
		return IOR_OK;
	}
	int fd = open(u->target, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, LOOP_CLR_FD, 0) != 0) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		return ior_error_errno(IOR_ERROR, err, "cannot detach '%s'", u->target);
	}
	close(fd);
	fprintf(out, "loop device '%s': detached from '%s'\n", u->target, u->original);
	return IOR_OK;
}

static bool is_mount_point(const char *dir)
{
	FILE *m = fopen("/proc/self/mountinfo", "r");
	if (!m)
		return false;
	char line[4096], mp[4096];
	bool found = false;
	while (!found && fgets(line, sizeof(line), m))
		found = sscanf(line, "%*d %*d %*s %*s %4095s", mp) == 1 && strcmp(mp, dir) == 0;
	fclose(m);
	return found;
}

/* recover unmounts and unlinks only names of the forms ioregress creates (device/loopdev.c's
 * ioregress-loop.*, engines/loopstack.c's ioregress-mnt.*), absolute and without "..": the journal
 * is a table anyone who can write the database can edit, so its names are checked, not trusted. */
static bool named_as_ours(const char *path, const char *prefix)
{
	const char *base = strrchr(path, '/');
	return path[0] == '/' && !strstr(path, "/../") && base && strncmp(base + 1, prefix, strlen(prefix)) == 0 &&
	       base[1 + strlen(prefix)] != '\0';
}

static int undo_mount(const struct ior_db_undo *u, bool same_boot, FILE *out)
{
	if (!named_as_ours(u->target, "ioregress-mnt.")) {
		fprintf(out, "mount '%s': left alone: not a mount point ioregress creates\n", u->target);
		return IOR_OK;
	}
	if (same_boot && is_mount_point(u->target)) {
		if (umount2(u->target, 0) != 0)
			return ior_error_errno(IOR_ERROR, errno, "cannot unmount '%s'", u->target);
		fprintf(out, "mount '%s': unmounted\n", u->target);
	} else {
		fprintf(out, "mount '%s': not mounted\n", u->target);
	}
	if (rmdir(u->target) == 0)
		fprintf(out, "mount point '%s': removed\n", u->target);
	return IOR_OK;
}

static int undo_file(const struct ior_db_undo *u, FILE *out)
{
	struct stat st;
	if (!named_as_ours(u->target, "ioregress-loop.") || (lstat(u->target, &st) == 0 && !S_ISREG(st.st_mode))) {
		fprintf(out, "scratch file '%s': left alone: not a scratch file ioregress creates\n", u->target);
		return IOR_OK;
	}
	if (unlink(u->target) == 0) {
		fprintf(out, "scratch file '%s': removed\n", u->target);
		return IOR_OK;
	}
	if (errno == ENOENT) {
		fprintf(out, "scratch file '%s': already gone\n", u->target);
		return IOR_OK;
	}
	return ior_error_errno(IOR_ERROR, errno, "cannot remove '%s'", u->target);
}

/* What the kernel's module names are made of (and shorter than its MODULE_NAME_LEN, 56). */
static bool module_name(const char *s)
{
	size_t n = strlen(s);
	return n > 0 && n < 56 &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

/* Module names treat '-' and '_' as one character, as the kernel does. */
static bool same_module(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '-' || *a == '_') && (*b == '-' || *b == '_')))
			return false;
	return *a == *b;
}

static bool scheduler_module(const char *name)
{
	size_t n;
	const char *const *mods = ior_kmod_scheduler_modules(&n);
	for (size_t i = 0; i < n; i++)
		if (same_module(name, mods[i]))
			return true;
	return false;
}

/* Whether entry u can be a module its run loaded: a run journals the scheduler modules it loaded
 * and what they needed loaded first, so u is a scheduler module or came with one of its run's
 * (all: every pending entry, done or not in this pass). An entry of no run, a name that is no
 * module's, or another module (ext4, a disk's driver) is never unloaded on a journal's word. */
static const char *not_loaded_by_a_run(const struct ior_db_undo *u, const struct ior_db_undo *all, size_t n)
{
	if (!module_name(u->target))
		return "not a module name";
	if (!u->run_id)
		return "no run journaled it (only a run loads modules)";
	if (scheduler_module(u->target))
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (all[i].run_id == u->run_id && strcmp(all[i].kind, "module") == 0 && all[i].id > u->id &&
		    module_name(all[i].target) && scheduler_module(all[i].target))
			return NULL; /* loaded before it, as its dependency */
	return "not a scheduler module, nor one loaded before a scheduler module of its run";
}

static int undo_module(const struct ior_db_undo *u, const struct ior_db_undo *all, size_t n, bool same_boot, FILE *out)
{
	const char *why = not_loaded_by_a_run(u, all, n);
	if (why) {
		fprintf(out, "module '%s': left alone: %s\n", u->target, why);
		return IOR_OK;
	}
	if (!same_boot) {
		fprintf(out, "module '%s': nothing to do, the machine has rebooted since\n", u->target);
		return IOR_OK;
	}
	/* delete_module(2) through the syscall: libkmod's handle needs a tree this path does not */
	if (syscall(__NR_delete_module, u->target, O_NONBLOCK) != 0 && errno != ENOENT)
		return ior_error_errno(IOR_ERROR, errno, "cannot unload module '%s'", u->target);
	fprintf(out, "module '%s': unloaded\n", u->target);
	return IOR_OK;
}

static int undo_one(const struct ior_db_undo *u, const struct ior_db_undo *all, size_t n, bool same_boot, FILE *out)
{
	if (strcmp(u->kind, "scheduler") == 0)
		return undo_scheduler(u, same_boot, out);
	if (strcmp(u->kind, "loop") == 0)
		return undo_loop(u, same_boot, out);
	if (strcmp(u->kind, "mount") == 0)
		return undo_mount(u, same_boot, out);
	if (strcmp(u->kind, "file") == 0)
		return undo_file(u, out);
	if (strcmp(u->kind, "module") == 0)
		return undo_module(u, all, n, same_boot, out);
	if (strcmp(u->kind, IOR_VM_WORKDIR_KIND) == 0)
		return ior_vm_workdir_recover(u->target, out);
	return ior_error_set(IOR_EINVALID, "journal entry %lld has unknown kind '%s'", (long long)u->id, u->kind);
}

static int mark_dead_runs(struct ior_db *db, const char *host, struct ior_recover_summary *s)
{
	int64_t *ids;
	int *pids;
	char **boots;
	size_t n;
	int rc = ior_db_runs_running(db, host, &ids, &pids, &boots, &n);
	for (size_t i = 0; rc == IOR_OK && i < n; i++) {
		if (ior_run_owner_alive(pids[i], boots[i]))
			continue;
		rc = ior_db_run_finish(db, ids[i], IOR_RUN_INTERRUPTED);
		s->runs_marked += rc == IOR_OK;
	}
	for (size_t i = 0; i < n; i++)
		free(boots[i]);
	free(ids);
	free(pids);
	free(boots);
	return rc;
}

/* A target recover_targets looks at: live when a controller still running holds any of its installs or
 * plans. */
struct left_target {
	const char *name;
	bool live;
};

static void add_target(struct left_target *v, size_t *n, const char *name, bool live)
{
	size_t i = 0;
	while (i < *n && strcmp(v[i].name, name) != 0)
		i++;
	if (i == *n)
		v[(*n)++] = (struct left_target){ .name = name };
	v[i].live |= live;
}

/* What vm runs on other machines (or this one, --target local) left when they were killed: kernel
 * packages installed and not removed, work directories, a test kernel running, plans still running.
 * Undone per target, once no live controller holds any of that target's installs or plans. */
static int recover_targets(struct ior_db *db, FILE *out, struct ior_recover_summary *s)
{
	struct ior_db_target_install *v = NULL;
	struct ior_db_target_plan *p = NULL;
	size_t n = 0, np = 0, nt = 0;
	int rc = ior_db_target_installs_pending(db, NULL, &v, &n), first = IOR_OK;
	if (!rc)
		rc = ior_db_target_plans_running(db, &p, &np);
	struct left_target *t = rc ? NULL : calloc(n + np + 1, sizeof(*t));
	if (!rc && !t)
		rc = ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; !rc && i < n; i++)
		add_target(t, &nt, v[i].target, ior_run_owner_alive(v[i].pid, v[i].boot_id));
	for (size_t i = 0; !rc && i < np; i++)
		add_target(t, &nt, p[i].target, ior_run_owner_alive(p[i].pid, p[i].boot_id));
	for (size_t i = 0; !rc && i < nt; i++) {
		if (t[i].live) {
			s->skipped_live++;
			continue;
		}
		ior_error_clear();
		int trc = ior_vm_target_recover(db, t[i].name, out);
		if (trc) {
			fprintf(out, "failed: %s\n", ior_error_last());
			s->failed++;
			first = first ? first : trc;
		} else {
			s->undone++;
		}
	}
	free(t);
	ior_db_target_installs_free(v, n);
	ior_db_target_plans_free(p, np);
	return rc ? rc : first;
}

int ior_recover(struct ior_db *db, FILE *out, struct ior_recover_summary *s)
{
	memset(s, 0, sizeof(*s));
	struct ior_kernel_info k;
	int rc = ior_kernel_info_read(&k);
	if (rc)
		return rc;
	char boot[64];
	ior_kernel_boot_id(boot, sizeof(boot));
	struct ior_db_undo *u;
	size_t n;
	if ((rc = ior_db_undo_pending(db, k.hostname, &u, &n)) != 0)
		return rc;
	int first = IOR_OK;
	for (size_t i = 0; i < n; i++) {
		if (ior_run_owner_alive(u[i].pid, u[i].boot_id)) {
			s->skipped_live++;
			continue;
		}
		bool same_boot = u[i].boot_id && strcmp(u[i].boot_id, boot) == 0;
		ior_error_clear();
		rc = undo_one(&u[i], u, n, same_boot, out);
		if (rc == IOR_OK)
			rc = ior_db_undo_done(db, u[i].id);
		if (rc) {
			fprintf(out, "failed: %s\n", ior_error_last());
			s->failed++;
			if (first == IOR_OK)
				first = rc;
		} else {
			s->undone++;
		}
	}
	ior_db_undo_free(u, n);
	/* kernel builds journal in their build directory, not in a database: the default ones are
	 * looked at here, any other by the next build into it */
	rc = ior_kbuild_recover(out, &s->undone, &s->failed);
	if (rc && first == IOR_OK)
		first = rc;
	/* the ssh connections' socket directories this user's killed controllers left (never one in use) */
	ior_vm_ssh_sweep(NULL, out, &s->undone, &s->failed);
	if (strcmp(ior_vm_ssh_base(), "/tmp") != 0)
		ior_vm_ssh_sweep("/tmp", out, &s->undone, &s->failed);
	int trc = recover_targets(db, out, s);
	first = first ? first : trc;
	rc = mark_dead_runs(db, k.hostname, s);
	return first ? first : rc;
}
