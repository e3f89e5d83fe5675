/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building and tearing down the loop engine's stack of tmpfs, files, loop devices and ext4 mounts;
 * see engines/loopstack.h. */
#include "engines/loopstack.h"
#include "common/spawn.h"
#include "device/scheduler.h"
#include "common/error.h"
#include "common/stop.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define TARGET_NAME "ioregress-data"

static int check_stop(const char *step)
{
	if (ior_stop_requested())
		return ior_error_set(IOR_EINTERRUPTED, "loop: stop requested before %s", step);
	return IOR_OK;
}

/* Journals a change before it is made; without a journal nothing is recorded. */
static int journal_note(const struct ior_loopstack *st, const char *kind, const char *target, const char *original,
			int64_t *id)
{
	*id = 0;
	if (!st->journal || !st->journal->note)
		return IOR_OK;
	return st->journal->note(st->journal->ctx, kind, target, original, id);
}

static void journal_done(const struct ior_loopstack *st, int64_t *id)
{
	if (*id && st->journal && st->journal->done)
		st->journal->done(st->journal->ctx, *id);
	*id = 0;
}

static int make_mountpoint(char *dir, size_t len)
{
	snprintf(dir, len, "/tmp/ioregress-mnt.XXXXXX");
	if (!mkdtemp(dir)) {
		int rc = ior_error_errno(IOR_ERROR, errno, "loop: cannot create a mount point in '/tmp'");
		dir[0] = '\0';
		return rc;
	}
	return IOR_OK;
}

static int mount_tmpfs(struct ior_loopstack *st, uint64_t size)
{
	int rc = make_mountpoint(st->base, sizeof(st->base));
	if (rc != IOR_OK)
		return rc;
	st->base_tmpfs = true;
	if ((rc = journal_note(st, "mount", st->base, NULL, &st->base_jid)) != IOR_OK)
		return rc;
	char data[64];
	snprintf(data, sizeof(data), "size=%llu,mode=0700", (unsigned long long)size);
	if (mount("ioregress", st->base, "tmpfs", MS_NOSUID | MS_NODEV, data) != 0)
		return ior_error_errno(IOR_ERROR, errno, "loop: cannot mount a %llu-byte tmpfs on '%s'",
				       (unsigned long long)size, st->base);
	st->base_mounted = true;
	st->base_size = size;
	return IOR_OK;
}

static int use_directory(struct ior_loopstack *st, const char *dir)
{
	struct stat sb;
	if (stat(dir, &sb) != 0)
		return ior_error_errno(IOR_EINVALID, errno, "loop: backing directory '%s'", dir);
	if (!S_ISDIR(sb.st_mode))
		return ior_error_set(IOR_EINVALID, "loop: backing '%s' is neither 'tmpfs' nor a directory", dir);
	snprintf(st->base, sizeof(st->base), "%s", dir);
	return IOR_OK;
}

/* Bytes a new file on dir can really hold, in whole MiB: sparse files would let a level claim more than exists. */
static int room_in(const char *dir, uint64_t *bytes)
{
	struct statvfs vfs;
	if (statvfs(dir, &vfs) != 0)
		return ior_error_errno(IOR_ERROR, errno, "loop: cannot statvfs '%s'", dir);
	*bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize / IOR_MIB * IOR_MIB;
	return IOR_OK;
}

static int make_ext4(const char *dev)
{
	/* No lazy init: ext4lazyinit would otherwise write in the background while we measure.
	 * No discard: it would punch the zero-filled file below sparse again. */
	const char *argv[] = { "mke2fs", "-q", "-F", "-t", "ext4", "-m", "0",
			       "-E", "lazy_itable_init=0,lazy_journal_init=0,nodiscard", dev, NULL };
	int rc = ior_spawn_tool(argv, NULL, "mke2fs");
	if (rc != IOR_OK)
		return ior_error_wrap(rc, "loop: cannot make ext4 on '%s'", dev);
	return IOR_OK;
}

static int add_fs(struct ior_loopstack *st, struct ior_loopstack_level *lv)
{
	int rc = check_stop("mke2fs");
	if (rc == IOR_OK)
		rc = make_ext4(lv->ld.path);
	if (rc == IOR_OK)
		rc = make_mountpoint(lv->mnt, sizeof(lv->mnt));
	if (rc == IOR_OK)
		rc = journal_note(st, "mount", lv->mnt, NULL, &lv->mnt_jid);
	if (rc != IOR_OK)
		return rc;
	if (mount(lv->ld.path, lv->mnt, "ext4", MS_NOSUID | MS_NODEV, "") != 0)
		return ior_error_errno(IOR_ERROR, errno, "loop: cannot mount '%s' on '%s'", lv->ld.path, lv->mnt);
	lv->mounted = true;
	return IOR_OK;
}

/* The cell's scheduler on a level's device: journaled with the one it had (a loop device keeps
 * its scheduler after it is detached and reused), so teardown or `recover` can put it back. */
static int set_scheduler(struct ior_loopstack *st, struct ior_loopstack_level *lv, const char *want)
{
	const char *dev = lv->ld.path;
	char orig[sizeof(lv->sched_orig)];
	int rc = ior_scheduler_active(dev, orig, sizeof(orig));
	if (rc == IOR_OK && strcmp(orig, want) == 0)
		return IOR_OK; /* already so: nothing to change, nothing to restore */
	if (rc == IOR_OK)
		rc = journal_note(st, "scheduler", dev, orig, &lv->sched_jid);
	if (rc == IOR_OK) {
		snprintf(lv->sched_orig, sizeof(lv->sched_orig), "%s", orig);
		rc = ior_scheduler_set(dev, want, st->deadline_s);
	}
	if (rc != IOR_OK)
		return ior_error_wrap(rc, "loop: level %u (%s): scheduler '%s'", st->depth, dev, want);
	return IOR_OK;
}

static int add_level(struct ior_loopstack *st, const struct ior_loopstack_spec *spec, bool with_fs)
{
	const char *below = st->depth ? st->lv[st->depth - 1].mnt : st->base;
	uint64_t room = 0; /* gcc -O3 cannot see that room_in sets it whenever rc is IOR_OK */
	int rc = check_stop("adding a loop device");
	if (rc == IOR_OK)
		rc = room_in(below, &room);
	if (rc != IOR_OK)
		return rc;
	uint64_t size = spec->size < room ? spec->size : room;
	if (size < IOR_MIB)
		return ior_error_set(IOR_ERROR, "loop: no room for level %u's file on '%s' (%llu bytes free)",
				     st->depth + 1, below, (unsigned long long)room);
	struct ior_loopstack_level *lv = &st->lv[st->depth];
	char file[PATH_MAX];
	ior_loopdev_scratch_name(file, sizeof(file), below);
	rc = journal_note(st, "file", file, NULL, &lv->file_jid);
	if (rc == IOR_OK)
		rc = ior_loopdev_create_at(&lv->ld, file, size, false, spec->fill);
	if (rc != IOR_OK) {
		journal_done(st, &lv->file_jid); /* create_at removes its file on failure */
		return ior_error_wrap(rc, "loop: level %u", st->depth + 1);
	}
	lv->size = size;
	st->depth++;
	/* Filled before its loop device exists: without it the first repetition on a fresh tmpfs
	 * file ran at 1/7 the speed of the others (281 against 2038-2134 MiB/s here), which
	 * measures tmpfs allocating, not the stack. */
	st->fill_seconds += lv->ld.filled.seconds;
	if (spec->scheduler && spec->scheduler[0] && (rc = set_scheduler(st, lv, spec->scheduler)) != IOR_OK)
		return rc;
	return with_fs ? add_fs(st, lv) : IOR_OK;
}

static int set_target(struct ior_loopstack *st, bool top_fs)
{
	struct ior_loopstack_level *top = &st->lv[st->depth - 1];
	if (!top_fs) {
		snprintf(st->target, sizeof(st->target), "%s", top->ld.path);
		st->target_size = top->size;
		return IOR_OK;
	}
	/* The inner engine creates the file; its size is what the top filesystem can hold. */
	snprintf(st->target, sizeof(st->target), "%s/" TARGET_NAME, top->mnt);
	st->target_is_file = true;
	return room_in(top->mnt, &st->target_size);
}

int ior_loopstack_build(struct ior_loopstack *st, const struct ior_loopstack_spec *spec)
{
	memset(st, 0, sizeof(*st));
	st->journal = spec->journal;
	st->deadline_s = spec->deadline_s;
	if (spec->scheduler)
		snprintf(st->sched, sizeof(st->sched), "%s", spec->scheduler);
	if (spec->depth < 1 || spec->depth > IOR_LOOPSTACK_MAX_DEPTH)
		return ior_error_set(IOR_EINVALID, "loop: depth %u is outside 1..%d", spec->depth, IOR_LOOPSTACK_MAX_DEPTH);
	if (spec->size < IOR_MIB)
		return ior_error_set(IOR_EINVALID, "loop: size must be at least 1M");
	int rc;
	if (!spec->backing || !spec->backing[0] || strcmp(spec->backing, "tmpfs") == 0)
		rc = mount_tmpfs(st, spec->backing_size ? spec->backing_size : spec->size);
	else
		rc = use_directory(st, spec->backing);
	/* Every level but the top carries ext4, since the next file lives on it. */
	for (unsigned i = 1; rc == IOR_OK && i <= spec->depth; i++)
		rc = add_level(st, spec, i < spec->depth || spec->top_fs);
	if (rc == IOR_OK)
		rc = set_target(st, spec->top_fs);
	return rc;
}

/* EBUSY right after a writer closed is common (udev, blkid probes): retry briefly, then detach lazily. */
static int unmount(const char *dir)
{
	for (int i = 0; i < 50; i++) {
		if (umount2(dir, 0) == 0)
			return IOR_OK;
		if (errno != EBUSY)
			return ior_error_errno(IOR_ERROR, errno, "loop: cannot unmount '%s'", dir);
		nanosleep(&(struct timespec){ .tv_nsec = 100 * 1000 * 1000 }, NULL);
	}
	if (umount2(dir, MNT_DETACH) == 0)
		return IOR_OK;
	return ior_error_errno(IOR_ERROR, errno, "loop: cannot unmount '%s'", dir);
}

static void first_error(struct ior_error_state *first, int r)
{
	if (r != IOR_OK && first->code == IOR_OK)
		ior_error_save(first, r);
}

static void teardown_level(struct ior_loopstack *st, struct ior_loopstack_level *lv, struct ior_error_state *first)
{
	if (lv->sched_orig[0]) {
		int r = ior_scheduler_set(lv->ld.path, lv->sched_orig, st->deadline_s);
		first_error(first, r);
		if (r == IOR_OK)
			journal_done(st, &lv->sched_jid);
		lv->sched_orig[0] = '\0';
	}
	if (lv->mounted) {
		int r = unmount(lv->mnt);
		first_error(first, r);
		lv->mounted = r != IOR_OK;
	}
	if (lv->mnt[0] && !lv->mounted) {
		if (rmdir(lv->mnt) != 0 && errno != ENOENT)
			first_error(first, ior_error_errno(IOR_ERROR, errno, "loop: cannot remove '%s'", lv->mnt));
		else
			journal_done(st, &lv->mnt_jid);
		lv->mnt[0] = '\0';
	}
	/* A device still mounted must not lose its backing file under the filesystem. */
	if (!lv->mounted) {
		int r = ior_loopdev_destroy(&lv->ld);
		first_error(first, r);
		if (r == IOR_OK)
			journal_done(st, &lv->file_jid);
	}
}

int ior_loopstack_teardown(struct ior_loopstack *st)
{
	struct ior_error_state first = { IOR_OK, "" };
	if (st->target_is_file && st->target[0] && unlink(st->target) != 0 && errno != ENOENT)
		first_error(&first, ior_error_errno(IOR_ERROR, errno, "loop: cannot remove '%s'", st->target));
	st->target[0] = '\0';
	st->target_is_file = false;
	while (st->depth > 0)
		teardown_level(st, &st->lv[--st->depth], &first);
	if (st->base_mounted) {
		int r = unmount(st->base);
		first_error(&first, r);
		st->base_mounted = r != IOR_OK;
	}
	if (st->base_tmpfs && !st->base_mounted) {
		if (rmdir(st->base) != 0 && errno != ENOENT)
			first_error(&first, ior_error_errno(IOR_ERROR, errno, "loop: cannot remove '%s'", st->base));
		else
			journal_done(st, &st->base_jid);
		st->base_tmpfs = false;
	}
	return ior_error_restore(&first, IOR_OK);
}

static void size_text(char *buf, size_t len, uint64_t bytes)
{
	if (bytes % IOR_GIB == 0)
		snprintf(buf, len, "%lluG", (unsigned long long)(bytes / IOR_GIB));
	else
		snprintf(buf, len, "%lluM", (unsigned long long)(bytes / IOR_MIB));
}

void ior_loopstack_describe(const struct ior_loopstack *st, char *buf, size_t len)
{
	char sz[32];
	size_t n = 0;
	buf[0] = '\0';
	if (st->base_tmpfs) {
		size_text(sz, sizeof(sz), st->base_size);
		n += (size_t)snprintf(buf, len, "tmpfs %s", sz);
	} else {
		n += (size_t)snprintf(buf, len, "%s", st->base);
	}
	for (unsigned i = 0; i < st->depth && n < len; i++) {
		size_text(sz, sizeof(sz), st->lv[i].size);
		const char *fill = ior_fill_names[st->lv[i].ld.filled.fill];
		char sched[40] = "";
		if (st->sched[0])
			snprintf(sched, sizeof(sched), " [%s]", st->sched);
		n += (size_t)snprintf(buf + n, len - n, " > %s %s %s%s%s", st->lv[i].ld.path, sz, fill, sched,
				      st->lv[i].mounted ? " ext4" : "");
	}
	if (st->target_is_file && n < len)
		snprintf(buf + n, len - n, " > file");
}
