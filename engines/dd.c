/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The dd engine: sequential writes or reads of bs × count at the start of the target, with dd's
 * sync modes (oflag=sync|dsync|direct, conv=fsync), timed as dd times itself. */
#include "engines/clock.h"
#include "engines/engine.h"
#include "common/error.h"
#include "common/stop.h"
#include "common/thread.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum dd_rw { DD_WRITE, DD_READ, DD_RW_COUNT };
/* none: page cache only; each: O_SYNC (oflag=sync); dsync: O_DSYNC (oflag=dsync);
 * direct: O_DIRECT (oflag/iflag=direct); end: one fsync inside the timing (conv=fsync). */
enum dd_sync { DD_SYNC_NONE, DD_SYNC_EACH, DD_SYNC_DSYNC, DD_SYNC_DIRECT, DD_SYNC_END, DD_SYNC_COUNT };
/* zero: every block is first read from /dev/zero, as `dd if=/dev/zero` does, so the figure is
 * dd's (the field reports' numbers are dd's); pattern: no input read, each block starts with
 * its byte offset, so a read-back can tell which write landed where. */
enum dd_input { DD_INPUT_ZERO, DD_INPUT_PATTERN, DD_INPUT_COUNT };

struct dd_opts {
	int rw;
	uint64_t bs;
	uint64_t count;
	int sync;
	int input;
};

/* The choices of each enum key by value; at index COUNT, the NULL that ends the list. */
static const char *const rw_names[] = { [DD_WRITE] = "write", [DD_READ] = "read", [DD_RW_COUNT] = NULL };
static const char *const sync_names[] = {
	[DD_SYNC_NONE] = "none", [DD_SYNC_EACH] = "each", [DD_SYNC_DSYNC] = "dsync",
	[DD_SYNC_DIRECT] = "direct", [DD_SYNC_END] = "end", [DD_SYNC_COUNT] = NULL,
};
static const char *const input_names[] = {
	[DD_INPUT_ZERO] = "zero", [DD_INPUT_PATTERN] = "pattern", [DD_INPUT_COUNT] = NULL,
};

#define DD_OPT(field) offsetof(struct dd_opts, field)

static const struct ior_option dd_rows[] = {
	{ .name = "rw", .type = IOR_OPT_ENUM, .offset = DD_OPT(rw),
	  .def = "write", .choices = rw_names, .help = "write or read, sequentially from offset 0" },
	{ .name = "bs", .type = IOR_OPT_SIZE, .offset = DD_OPT(bs), .min = 512, .max = IOR_GIB,
	  .def = "1M", .help = "block size of each read or write" },
	{ .name = "count", .type = IOR_OPT_UINT, .offset = DD_OPT(count), .min = 1, .max = 1e9,
	  .def = "64", .help = "number of blocks" },
	{ .name = "sync", .type = IOR_OPT_ENUM, .offset = DD_OPT(sync), .def = "none", .choices = sync_names,
	  .help = "none, each (O_SYNC), dsync (O_DSYNC), direct (O_DIRECT), end (one fsync, timed)" },
	{ .name = "input", .type = IOR_OPT_ENUM, .offset = DD_OPT(input),
	  .def = "zero", .choices = input_names,
	  .help = "what a write writes: zero (read from /dev/zero, timed, as dd if=/dev/zero) or pattern (offset-stamped blocks)" },
	IOR_OPTION_END
};

/* A repetition runs in a thread of its own that the measuring thread watches (common/thread.h):
 * a write or read of a device that stops answering sleeps in the kernel for ever, where no timeout
 * reaches it, and the run must go on without it. Everything that thread touches is here, so a
 * thread left behind keeps all of it: the state is then never freed, closed or used again. */
struct dd_state {
	struct dd_opts o;
	char path[256];          /* a copy: a thread left behind may use it after the run's own is gone */
	int fd;                  /* the target, open from init or the start of a repetition to its end */
	int zero_fd;             /* /dev/zero for input = zero, else -1 */
	unsigned char *buf;
	double deadline_s;
	uint64_t block_ns;       /* one call's budget per block it moves: see name_calls */
	/* what the calls are, as the reason for a thread left behind names them */
	char block_call[48], fsync_call[64], close_call[64];
	struct ior_thread_watch watch;
	struct ior_sample result;       /* the repetition's, copied out once its thread is joined */
	struct ior_error_state failure; /* its error, likewise */
	atomic_bool left_behind;        /* a repetition's thread is still in the kernel */
};

static void dd_cleanup(void *state)
{
	struct dd_state *s = state;
	if (!s)
		return;
	if (atomic_load(&s->left_behind)) {
		ior_thread_keep(s); /* its buffer and descriptors stay for the thread */
		return;
	}
	if (s->fd >= 0)
		close(s->fd);
	if (s->zero_fd >= 0)
		close(s->zero_fd);
	free(s->buf);
	free(s);
}

static int open_flags(const struct dd_opts *o)
{
	int flags = o->rw == DD_WRITE ? O_WRONLY | O_CREAT : O_RDONLY;
	switch (o->sync) {
	case DD_SYNC_EACH: return flags | O_SYNC;
	case DD_SYNC_DSYNC: return flags | O_DSYNC;
	case DD_SYNC_DIRECT: return flags | O_DIRECT;
	default: return flags;
	}
}

static int check_opts(const struct dd_opts *o, const struct ior_target *t)
{
	unsigned lb = t->logical_block ? t->logical_block : 512;
	if (o->rw == DD_WRITE && !t->destructive)
		return ior_error_set(IOR_EREFUSED, "dd: refusing to write to '%s' (%s): its device is not destructive = yes",
				     t->name ? t->name : t->path, t->path);
	if (o->rw == DD_READ && o->sync != DD_SYNC_NONE && o->sync != DD_SYNC_DIRECT)
		return ior_error_set(IOR_EINVALID, "dd: sync = %s applies to rw = write only", sync_names[o->sync]);
	if (o->rw == DD_READ && o->input != DD_INPUT_ZERO)
		return ior_error_set(IOR_EINVALID, "dd: input = %s applies to rw = write only", input_names[o->input]);
	if (o->sync == DD_SYNC_DIRECT && o->bs % lb)
		return ior_error_set(IOR_EINVALID, "dd: bs %llu is not a multiple of the logical block size %u of '%s', needed for sync = direct",
				     (unsigned long long)o->bs, lb, t->path);
	if (o->bs > UINT64_MAX / o->count)
		return ior_error_set(IOR_EINVALID, "dd: bs × count overflows");
	if (t->size && o->bs * o->count > t->size)
		return ior_error_set(IOR_EINVALID, "dd: bs × count = %llu bytes exceeds the %llu bytes of '%s'",
				     (unsigned long long)(o->bs * o->count), (unsigned long long)t->size, t->path);
	return IOR_OK;
}

static int open_target(struct dd_state *s)
{
	s->fd = open(s->path, open_flags(&s->o) | O_CLOEXEC, 0600);
	if (s->fd < 0)
		return ior_error_errno(IOR_ERROR, errno, "dd: cannot open '%s'", s->path);
	return IOR_OK;
}

/* Writes with no sync mode leave every block to the last close to write back. */
static bool close_writes_back(const struct dd_state *s)
{
	return s->o.rw == DD_WRITE && s->o.sync == DD_SYNC_NONE;
}

/* Each call that waits for the device gets one deadline for every block it moves: a read or write
 * of bs one (at the default 30 s, 34 MiB/s for the largest bs of 1 GiB, far below any device that
 * answers), an fsync or a last close every block still to be written back (all of them without
 * a sync mode, none left after the fsync of sync = end or the synchronous writes of the others). */
static void name_calls(struct dd_state *s, double deadline_s)
{
	s->deadline_s = deadline_s;
	s->block_ns = (uint64_t)(s->deadline_s * 1e9);
	char size[32];
	ior_format_bytes(size, sizeof(size), s->o.bs);
	snprintf(s->block_call, sizeof(s->block_call), "%s of %s", s->o.rw == DD_WRITE ? "write" : "read", size);
	snprintf(s->fsync_call, sizeof(s->fsync_call), "fsync of %llu blocks of %s", (unsigned long long)s->o.count, size);
	if (close_writes_back(s))
		snprintf(s->close_call, sizeof(s->close_call), "close (writing back %llu blocks of %s)",
			 (unsigned long long)s->o.count, size);
	else
		snprintf(s->close_call, sizeof(s->close_call), "close");
}

/* The budget of a call that waits for blocks blocks: capped far past any deadline, so it cannot wrap. */
static uint64_t budget(const struct dd_state *s, uint64_t blocks)
{
	uint64_t cap = UINT64_C(1) << 62;
	return blocks && s->block_ns > cap / blocks ? cap : s->block_ns * (blocks ? blocks : 1);
}

static int dd_init(void **state, const struct ior_engine_args *args)
{
	*state = NULL;
	const struct dd_opts *o = args->opts;
	const struct ior_target *t = args->target;
	int rc = check_opts(o, t);
	if (rc != IOR_OK)
		return rc;
	struct dd_state *s = calloc(1, sizeof(*s));
	if (!s)
		return ior_error_set(IOR_ERROR, "dd: out of memory");
	s->o = *o;
	snprintf(s->path, sizeof(s->path), "%s", t->path);
	s->fd = -1;
	s->zero_fd = -1;
	name_calls(s, args->deadline_s);
	/* Page-aligned so the same buffer serves O_DIRECT; the pattern's filler is 0xa5, not zeros,
	 * so a test can find what was written. */
	if (posix_memalign((void **)&s->buf, 4096, o->bs) != 0) {
		dd_cleanup(s);
		return ior_error_set(IOR_ERROR, "dd: cannot allocate a %llu-byte buffer", (unsigned long long)o->bs);
	}
	memset(s->buf, 0xa5, o->bs);
	if (o->rw == DD_WRITE && o->input == DD_INPUT_ZERO &&
	    (s->zero_fd = open("/dev/zero", O_RDONLY | O_CLOEXEC)) < 0) {
		rc = ior_error_errno(IOR_ERROR, errno, "dd: cannot open '/dev/zero'");
		dd_cleanup(s);
		return rc;
	}
	/* The first repetition's open happens here, so a device that cannot be opened fails the
	 * cell before any repetition; later repetitions open again, as each dd process does. */
	if ((rc = open_target(s)) != IOR_OK) {
		dd_cleanup(s);
		return rc;
	}
	*state = s;
	return IOR_OK;
}

/* Block i starts with its byte offset, so a read-back can tell which write landed where. */
static void stamp(unsigned char *buf, uint64_t offset)
{
	memcpy(buf, &offset, sizeof(offset));
}

/* True when the loop must end: a stop was asked for, or its thread was left behind (it woke
 * from the kernel after the measuring thread gave up on it; nobody wants its figures). */
static bool stopping(struct dd_state *s)
{
	return ior_stop_requested() || atomic_load_explicit(&s->left_behind, memory_order_relaxed);
}

/* One block from /dev/zero; a signal can cut a large read short, which is retried unless a stop was asked for. */
static int read_zero(struct dd_state *s)
{
	for (;;) {
		ssize_t n = read(s->zero_fd, s->buf, s->o.bs);
		if (n == (ssize_t)s->o.bs)
			return IOR_OK;
		if (ior_stop_requested())
			return ior_error_set(IOR_EINTERRUPTED, "dd: stop requested");
		if (n < 0 && errno != EINTR)
			return ior_error_errno(IOR_ERROR, errno, "dd: cannot read '/dev/zero'");
	}
}

static int transfer(struct dd_state *s, uint64_t *moved)
{
	uint64_t bs = s->o.bs;
	int rc;
	for (uint64_t i = 0; i < s->o.count; i++) {
		if (stopping(s))
			return ior_error_set(IOR_EINTERRUPTED, "dd: stop requested after %llu blocks", (unsigned long long)i);
		ssize_t n;
		if (s->o.rw == DD_WRITE) {
			if (s->zero_fd < 0)
				stamp(s->buf, i * bs);
			else if ((rc = read_zero(s)) != IOR_OK)
				return rc;
			ior_thread_enter(&s->watch, s->block_call, s->block_ns);
			n = write(s->fd, s->buf, bs);
		} else {
			ior_thread_enter(&s->watch, s->block_call, s->block_ns);
			n = read(s->fd, s->buf, bs);
		}
		ior_thread_leave(&s->watch);
		if (n < 0 && errno == EINTR && !ior_stop_requested()) {
			i--;
			continue;
		}
		if (n < 0)
			return ior_error_errno(IOR_ERROR, errno, "dd: %s of block %llu of '%s' failed",
					       s->o.rw == DD_WRITE ? "write" : "read", (unsigned long long)i, s->path);
		*moved += (uint64_t)n;
		if ((uint64_t)n != bs)
			return ior_error_set(IOR_ERROR, "dd: short %s of block %llu of '%s' (%zd of %llu bytes): end of device?",
					     s->o.rw == DD_WRITE ? "write" : "read", (unsigned long long)i, s->path,
					     n, (unsigned long long)bs);
	}
	if (s->o.sync == DD_SYNC_END) {
		ior_thread_enter(&s->watch, s->fsync_call, budget(s, s->o.count));
		rc = fsync(s->fd) != 0 ? errno : 0;
		ior_thread_leave(&s->watch);
		if (rc)
			return ior_error_errno(IOR_ERROR, rc, "dd: fsync of '%s' failed", s->path);
	}
	/* dd's clock stops after it closes its output. The last close of a block device writes
	 * back and drops its page cache (5-7% of a 256 MiB sync write on a tmpfs loop device
	 * here); with other openers, such as the harness's lock on the device, it costs nothing. */
	int fd = s->fd;
	s->fd = -1;
	ior_thread_enter(&s->watch, s->close_call, budget(s, close_writes_back(s) ? s->o.count : 1));
	rc = close(fd) != 0 ? errno : 0;
	ior_thread_leave(&s->watch);
	if (rc)
		return ior_error_errno(IOR_ERROR, rc, "dd: closing '%s' failed", s->path);
	return IOR_OK;
}

/* One repetition, in the watched thread: the same calls, timed at the same points, as dd. */
static int timed_transfer(struct dd_state *s, struct ior_sample *out)
{
	int rc;
	/* Opened outside the timing, as dd opens before it starts its clock. */
	if (s->fd < 0) {
		ior_thread_enter(&s->watch, "open", s->block_ns);
		rc = open_target(s);
		ior_thread_leave(&s->watch);
		if (rc != IOR_OK)
			return rc;
	}
	struct ior_cpu c0, c1;
	uint64_t moved = 0;
	/* This thread's CPU: it does all the work; other harness threads are not ours to count. */
	ior_cpu_now(&c0, true);
	double t0 = ior_clock_s();
	rc = transfer(s, &moved);
	double wall = ior_clock_s() - t0;
	ior_cpu_now(&c1, true);
	if (rc != IOR_OK) {
		if (s->fd >= 0) {
			ior_thread_enter(&s->watch, s->close_call, budget(s, close_writes_back(s) ? s->o.count : 1));
			close(s->fd);
			ior_thread_leave(&s->watch);
		}
		s->fd = -1;
		return rc;
	}
	memset(out, 0, sizeof(*out));
	/* coreutils dd prints SI MB/s (10^6 bytes), 4.9% larger for the same speed. */
	out->value = wall > 0 ? (double)moved / IOR_MIB / wall : 0;
	out->unit = IOR_UNIT_MIB_S;
	out->higher_is_better = true;
	out->bytes = moved;
	out->ios = s->o.count;
	out->wall_s = wall;
	out->usr_s = c1.usr_s - c0.usr_s;
	out->sys_s = c1.sys_s - c0.sys_s;
	snprintf(out->detail, sizeof(out->detail), "dd %s bs=%llu count=%llu sync=%s%s%s on %s",
		 rw_names[s->o.rw], (unsigned long long)s->o.bs, (unsigned long long)s->o.count,
		 sync_names[s->o.sync], s->o.rw == DD_WRITE ? " input=" : "",
		 s->o.rw == DD_WRITE ? input_names[s->o.input] : "", s->path);
	return IOR_OK;
}

static void *repetition(void *arg)
{
	struct dd_state *s = arg;
	ior_error_save(&s->failure, timed_transfer(s, &s->result));
	return NULL;
}

/* Runs the repetition in a watched thread and leaves it behind when one call outlasts its
 * budget: the cell fails with where it was stuck, and the run goes on. */
static int dd_measure(void *state, struct ior_sample *out)
{
	struct dd_state *s = state;
	if (atomic_load(&s->left_behind))
		return ior_error_set(IOR_ETIMEDOUT, "not run: a call of this dd cell on '%s' is still stuck in the kernel", s->path);
	struct ior_thread_stuck stuck;
	s->failure.code = IOR_OK;
	int rc = ior_thread_run_watched(repetition, s, &s->watch, 0, &s->left_behind, &stuck);
	if (rc == IOR_ETIMEDOUT)
		return ior_error_set(IOR_ETIMEDOUT, "dd %s on '%s' still in the kernel %.1f s after it began "
				     "(deadline %g s%s): the device never answered; left behind", stuck.call, s->path,
				     stuck.in_call_s, s->deadline_s, stuck.budget_s > s->deadline_s * 1.5 ? " a block" : "");
	if (rc)
		return rc;
	if (s->failure.code)
		return ior_error_restore(&s->failure, IOR_OK);
	*out = s->result;
	return IOR_OK;
}

const struct ior_engine_ops ior_engine_dd = {
	.name = "dd",
	.help = "sequential writes or reads of bs × count with dd's sync modes",
	.flags = IOR_ENGINE_WRITES,
	.options = dd_rows,
	.options_size = sizeof(struct dd_opts),
	.init = dd_init,
	.measure = dd_measure,
	.cleanup = dd_cleanup,
};
