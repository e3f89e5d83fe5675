/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The dd engine: sequential writes or reads of bs × count at the start of the target, with dd's
 * sync modes (oflag=sync|dsync|direct, conv=fsync), timed as dd times itself. */
#include "engines/clock.h"
#include "engines/engine.h"
#include "common/error.h"
#include "common/stop.h"

#include <errno.h>
#include <fcntl.h>
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

struct dd_state {
	struct dd_opts o;
	const char *path;
	int fd;                  /* the target, open from init or the start of a repetition to its end */
	int zero_fd;             /* /dev/zero for input = zero, else -1 */
	unsigned char *buf;
};

static void dd_cleanup(void *state)
{
	struct dd_state *s = state;
	if (!s)
		return;
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
	s->path = t->path;
	s->fd = -1;
	s->zero_fd = -1;
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
		if (ior_stop_requested())
			return ior_error_set(IOR_EINTERRUPTED, "dd: stop requested after %llu blocks", (unsigned long long)i);
		ssize_t n;
		if (s->o.rw == DD_WRITE) {
			if (s->zero_fd < 0)
				stamp(s->buf, i * bs);
			else if ((rc = read_zero(s)) != IOR_OK)
				return rc;
			n = write(s->fd, s->buf, bs);
		} else {
			n = read(s->fd, s->buf, bs);
		}
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
	if (s->o.sync == DD_SYNC_END && fsync(s->fd) != 0)
		return ior_error_errno(IOR_ERROR, errno, "dd: fsync of '%s' failed", s->path);
	/* dd's clock stops after it closes its output. The last close of a block device writes
	 * back and drops its page cache (5-7% of a 256 MiB sync write on a tmpfs loop device
	 * here); with other openers, such as the harness's lock on the device, it costs nothing. */
	int fd = s->fd;
	s->fd = -1;
	if (close(fd) != 0)
		return ior_error_errno(IOR_ERROR, errno, "dd: closing '%s' failed", s->path);
	return IOR_OK;
}

static int dd_measure(void *state, struct ior_sample *out)
{
	struct dd_state *s = state;
	int rc;
	/* Opened outside the timing, as dd opens before it starts its clock. */
	if (s->fd < 0 && (rc = open_target(s)) != IOR_OK)
		return rc;
	struct ior_cpu c0, c1;
	uint64_t moved = 0;
	/* This thread's CPU: it does all the work; other harness threads are not ours to count. */
	ior_cpu_now(&c0, true);
	double t0 = ior_clock_s();
	rc = transfer(s, &moved);
	double wall = ior_clock_s() - t0;
	ior_cpu_now(&c1, true);
	if (rc != IOR_OK) {
		if (s->fd >= 0)
			close(s->fd);
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
