/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The hdparm engine: sequential reads from offset 0 timed the way `hdparm -t` (and `--direct`) does it. */
#include "engines/engine.h"
#include "engines/job.h"
#include "common/error.h"
#include "common/stop.h"
#include "common/thread.h"
#include "device/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


struct hdparm_opts {
	bool direct;
	double duration;
	uint64_t bs;
	double settle;
};

#define HDPARM_OPT(field) offsetof(struct hdparm_opts, field)

static const struct ior_option hdparm_rows[] = {
	{ .name = "direct", .type = IOR_OPT_BOOL, .offset = HDPARM_OPT(direct),
	  .def = "no", .help = "open with O_DIRECT and an aligned buffer, like hdparm --direct" },
	{ .name = "duration", .type = IOR_OPT_DURATION, .offset = HDPARM_OPT(duration), .min = 0.01, .max = 86400,
	  .def = "3s",
	  .help = "read for at least this long (hdparm -t: 3 s), less when the device ends first" },
	{ .name = "bs", .type = IOR_OPT_SIZE, .offset = HDPARM_OPT(bs), .min = 512, .max = IOR_GIB,
	  .def = "2M", .help = "size of each read (hdparm: 2 MiB)" },
	{ .name = "settle", .type = IOR_OPT_DURATION, .offset = HDPARM_OPT(settle), .min = 0, .max = 60,
	  .def = "3s",
	  .help = "pause after the flush before timing (hdparm -t: sync, then 3 s for the drive to settle)" },
	IOR_OPTION_END,
};

/* A repetition runs in a thread of its own that the measuring thread watches (common/thread.h):
 * a read of a device that stops answering sleeps in the kernel for ever, where no timeout reaches
 * it, and the run must go on without it. Everything that thread touches is here, so a thread left
 * behind keeps all of it: the state is then never freed, closed, unmapped or used again. */
struct hdparm_state {
	struct hdparm_opts opts;
	char path[256];     /* a copy: a thread left behind may use it after the run's own is gone */
	int fd;
	char *buf;
	uint64_t max_reads; /* reads that fit in the device: hdparm stops there, it never wraps */
	uint64_t budget_ns; /* how long one call may take: see hdparm_init */
	double deadline_s;
	char read_call[48]; /* "read of 2 MiB", as the reason for a thread left behind names it */
	struct ior_thread_watch watch;
	struct ior_sample result;       /* the repetition's, copied out once its thread is joined */
	struct ior_error_state failure; /* its error, likewise */
	atomic_bool left_behind;        /* a repetition's thread is still in the kernel */
};

static int device_size(int fd, const char *path, uint64_t *size)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot stat '%s'", path);
	if (S_ISREG(st.st_mode)) {
		*size = (uint64_t)st.st_size;
		return IOR_OK;
	}
	if (ioctl(fd, BLKGETSIZE64, size) < 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot get the size of '%s'", path);
	return IOR_OK;
}

/* hdparm's timing buffer: anonymous pages (page aligned, so fine for O_DIRECT),
 * touched and locked so no page fault lands inside the timed reads. */
static int map_buffer(struct hdparm_state *s)
{
	void *p = mmap(NULL, s->opts.bs, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return ior_error_errno(IOR_ERROR, errno, "cannot allocate a %llu-byte read buffer",
				       (unsigned long long)s->opts.bs);
	memset(p, 0, s->opts.bs);
	(void)mlock(p, s->opts.bs); /* best effort: RLIMIT_MEMLOCK may forbid it, the touch above suffices */
	s->buf = p;
	return IOR_OK;
}

static int check_alignment(const struct hdparm_state *s, const struct ior_target *t)
{
	unsigned lbs = t->logical_block ? t->logical_block : 512;
	if (s->opts.direct && s->opts.bs % lbs)
		return ior_error_set(IOR_EINVALID, "bs: %llu is not a multiple of the logical block size %u of '%s', "
				     "which direct = yes needs", (unsigned long long)s->opts.bs, lbs, t->path);
	return IOR_OK;
}

static void hdparm_cleanup(void *state);

static int hdparm_init(void **state, const struct ior_engine_args *args)
{
	struct hdparm_state *s = calloc(1, sizeof(*s));
	if (!s)
		return ior_error_set(IOR_ERROR, "out of memory");
	s->opts = *(const struct hdparm_opts *)args->opts;
	snprintf(s->path, sizeof(s->path), "%s", args->target->path);
	s->fd = -1;
	s->deadline_s = args->deadline_s;
	/* One call gets one deadline, whether it reads bs (the unit hdparm times) or flushes: at the
	 * default 30 s that allows 70 KiB/s for the default 2 MiB and 34 MiB/s for the largest bs
	 * (1 GiB), far below any device that answers, and a device that stops is given up on after
	 * one deadline, not many reads' worth. The flushes write back nothing of ours (hdparm only
	 * reads). A slower device needs a longer deadline, as its requests would anyway. */
	s->budget_ns = (uint64_t)(s->deadline_s * 1e9);
	char bs[32];
	ior_format_bytes(bs, sizeof(bs), s->opts.bs);
	snprintf(s->read_call, sizeof(s->read_call), "read of %s", bs);
	*state = s;

	int rc = check_alignment(s, args->target);
	if (rc)
		goto fail;
	/* hdparm opens O_RDONLY|O_NONBLOCK; --direct adds O_DIRECT. */
	s->fd = open(s->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (s->opts.direct ? O_DIRECT : 0));
	if (s->fd < 0) {
		rc = ior_error_errno(errno == ENOENT ? IOR_ENOTFOUND : IOR_ERROR, errno, "cannot open '%s'", s->path);
		goto fail;
	}
	uint64_t size;
	if ((rc = device_size(s->fd, s->path, &size)))
		goto fail;
	s->max_reads = size / s->opts.bs;
	if (s->max_reads == 0) {
		rc = ior_error_set(IOR_EINVALID, "device '%s' (%llu bytes) is smaller than one read of bs = %llu",
				   s->path, (unsigned long long)size, (unsigned long long)s->opts.bs);
		goto fail;
	}
	if ((rc = map_buffer(s)))
		goto fail;
	return IOR_OK;
fail:
	hdparm_cleanup(s);
	*state = NULL;
	return rc;
}

/* hdparm's flush_buffer_cache, for this device only: its write-back, then BLKFLSBUF drops its page
 * cache so the buffered reads come from the device. hdparm's sync() calls are left out: they wait
 * for every device of the machine, and for ever for one that stopped answering. */
static void flush_buffer_cache(struct hdparm_state *s)
{
	ior_device_flush(s->fd, &s->watch, s->budget_ns);
}

/* hdparm's sleep(3) after the flush, in slices so a stop request is seen; true when stopped. */
static bool settle(double seconds)
{
	double end = ior_clock_s() + seconds;
	while (!ior_stop_requested()) {
		double left = end - ior_clock_s();
		if (left <= 0)
			return false;
		struct timespec ts = { 0, (long)((left < 0.1 ? left : 0.1) * 1e9) };
		nanosleep(&ts, NULL);
	}
	return true;
}

static int read_block(struct hdparm_state *s)
{
	ior_thread_enter(&s->watch, s->read_call, s->budget_ns);
	ssize_t n = read(s->fd, s->buf, s->opts.bs);
	ior_thread_leave(&s->watch);
	if (n < 0)
		return ior_error_errno(IOR_ERROR, errno, "read from '%s' failed", s->path);
	if ((uint64_t)n != s->opts.bs)
		return ior_error_set(IOR_ERROR, "short read from '%s': %zd of %llu bytes", s->path, n,
				     (unsigned long long)s->opts.bs);
	/* Touch every sector, as hdparm does, so the data really arrived in memory. */
	for (uint64_t i = 0; i < s->opts.bs; i += 512)
		s->buf[i] &= 1;
	return IOR_OK;
}

/* True when the loop must end: a stop was asked for, or its thread was left behind (it woke
 * from the kernel after the measuring thread gave up on it; nobody wants its figures). */
static bool stopping(struct hdparm_state *s)
{
	return ior_stop_requested() || atomic_load_explicit(&s->left_behind, memory_order_relaxed);
}

/* One repetition, in the watched thread: the same calls, timed at the same points, as hdparm. */
static int timed_reads(struct hdparm_state *s, struct ior_sample *out)
{
	/* hdparm flushes after its timing, so the next run starts cold; flushing
	 * first gives each repetition that cold start whatever ran before. */
	flush_buffer_cache(s);
	if (settle(s->opts.settle))
		return ior_error_set(IOR_EINTERRUPTED, "hdparm read of '%s' interrupted", s->path);
	if (lseek(s->fd, 0, SEEK_SET) != 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot seek to 0 on '%s'", s->path);

	struct ior_cpu cpu0, cpu1;
	ior_cpu_now(&cpu0, false);
	uint64_t reads = 0;
	double start = ior_clock_s(), elapsed;
	do {
		if (stopping(s))
			return ior_error_set(IOR_EINTERRUPTED, "hdparm read of '%s' interrupted", s->path);
		int rc = read_block(s);
		if (rc)
			return rc;
		reads++;
		elapsed = ior_clock_s() - start;
	} while (elapsed < s->opts.duration && reads < s->max_reads);
	ior_cpu_now(&cpu1, false);

	memset(out, 0, sizeof(*out));
	out->bytes = reads * s->opts.bs;
	out->ios = reads;
	out->wall_s = elapsed;
	out->usr_s = cpu1.usr_s - cpu0.usr_s;
	out->sys_s = cpu1.sys_s - cpu0.sys_s;
	out->value = (double)out->bytes / IOR_MIB / elapsed;
	out->unit = IOR_UNIT_MIB_S; /* hdparm's own "MB/sec" is this unit */
	out->higher_is_better = true;
	snprintf(out->detail, sizeof(out->detail), "%s reads of %llu bytes%s", s->opts.direct ? "O_DIRECT" : "buffered",
		 (unsigned long long)s->opts.bs, reads == s->max_reads ? ", stopped at the end of the device" : "");
	return IOR_OK;
}

static void *repetition(void *arg)
{
	struct hdparm_state *s = arg;
	ior_error_save(&s->failure, timed_reads(s, &s->result));
	return NULL;
}

/* Runs the repetition in a watched thread and leaves it behind when one call outlasts its
 * budget: the cell fails with where it was stuck, and the run goes on. */
static int hdparm_measure(void *state, struct ior_sample *out)
{
	struct hdparm_state *s = state;
	if (atomic_load(&s->left_behind))
		return ior_error_set(IOR_ETIMEDOUT, "not run: a read of this hdparm cell on '%s' is still stuck in the kernel",
				     s->path);
	struct ior_thread_stuck stuck;
	s->failure.code = IOR_OK;
	int rc = ior_thread_run_watched(repetition, s, &s->watch, 0, &s->left_behind, &stuck);
	if (rc == IOR_ETIMEDOUT)
		return ior_error_set(IOR_ETIMEDOUT, "hdparm %s on '%s' still in the kernel %.1f s after it began "
				     "(deadline %g s): the device never answered; left behind",
				     stuck.call, s->path, stuck.in_call_s, s->deadline_s);
	if (rc)
		return rc;
	if (s->failure.code)
		return ior_error_restore(&s->failure, IOR_OK);
	*out = s->result;
	return IOR_OK;
}

static void hdparm_cleanup(void *state)
{
	struct hdparm_state *s = state;
	if (!s)
		return;
	if (atomic_load(&s->left_behind)) {
		ior_thread_keep(s); /* its buffer stays mapped and its descriptor open for the thread */
		return;
	}
	if (s->buf)
		munmap(s->buf, s->opts.bs);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}

/* hdparm -t reads for duration after settling. */
static double hdparm_duration(const void *opts)
{
	const struct hdparm_opts *o = opts;
	return o->settle + o->duration;
}

const struct ior_engine_ops ior_engine_hdparm = {
	.name = "hdparm",
	.help = "buffered (or direct) sequential read timed like hdparm -t",
	.flags = 0,
	.options = hdparm_rows,
	.options_size = sizeof(struct hdparm_opts),
	.init = hdparm_init,
	.measure = hdparm_measure,
	.cleanup = hdparm_cleanup,
	.duration = hdparm_duration,
};
