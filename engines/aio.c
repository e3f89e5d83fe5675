/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The aio engine: fio's job semantics (engines/job.c) on Linux native AIO through libaio, one io context per job. */
#include "engines/clock.h"
#include "engines/engine.h"
#include "engines/job.h"
#include "common/error.h"

#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <time.h>

struct aio_ctx {
	io_context_t ctx;
	int fd;
	struct iocb **iocbs;
	struct io_event *events;
};

static void aio_teardown(void *p, bool lost)
{
	struct aio_ctx *a = p;
	if (!a)
		return;
	/* io_destroy waits for every request still in flight: with one lost it never returns, so
	 * the context is left to the process's exit (the kernel cancels it there) */
	if (a->ctx && !lost)
		io_destroy(a->ctx);
	free(a->iocbs);
	free(a->events);
	free(a);
}

static int aio_setup(void **out, int fd, unsigned depth, struct ior_job_io *ios)
{
	(void)ios;
	struct aio_ctx *a = calloc(1, sizeof(*a));
	if (!a)
		return ior_error_set(IOR_ERROR, "out of memory");
	a->fd = fd;
	a->iocbs = calloc(depth, sizeof(*a->iocbs));
	a->events = calloc(depth, sizeof(*a->events));
	if (!a->iocbs || !a->events) {
		aio_teardown(a, false);
		return ior_error_set(IOR_ERROR, "out of memory");
	}
	int err = io_setup((int)depth, &a->ctx);
	if (err < 0) {
		a->ctx = 0;
		aio_teardown(a, false);
		return ior_error_errno(IOR_ERROR, -err, "cannot create an aio context of depth %u "
				       "(limit in /proc/sys/fs/aio-max-nr)", depth);
	}
	*out = a;
	return IOR_OK;
}

static int aio_submit(void *p, struct ior_job_io **ios, unsigned n, uint64_t timeout_ns)
{
	struct aio_ctx *a = p;
	for (unsigned i = 0; i < n; i++) {
		struct iocb *cb = ios[i]->priv;
		if (ios[i]->write)
			io_prep_pwrite(cb, a->fd, ios[i]->buf, ios[i]->len, (long long)ios[i]->offset);
		else
			io_prep_pread(cb, a->fd, ios[i]->buf, ios[i]->len, (long long)ios[i]->offset);
		cb->data = ios[i];
		a->iocbs[i] = cb;
	}
	/* io_submit may take fewer than asked (EAGAIN-like pressure): hand over the rest, backing off
	 * while the kernel refuses, for at most timeout_ns */
	struct ior_backoff b = { 0 };   /* started at the first refusal: no clock read on the I/O path */
	for (unsigned done = 0; done < n;) {
		int got = io_submit(a->ctx, (long)(n - done), a->iocbs + done);
		if (got == -EINTR)
			continue;
		if (got == -EAGAIN || got == 0) {
			if (!b.until_ns)
				ior_backoff_start(&b, timeout_ns);
			if (ior_backoff_wait(&b))
				return ior_error_set(IOR_ETIMEDOUT, "io_submit refused %u of %u requests (EAGAIN) for %.0f s",
						     n - done, n, (double)timeout_ns / 1e9);
			continue;
		}
		if (got < 0)
			return ior_error_errno(IOR_ERROR, -got, "io_submit failed");
		done += (unsigned)got;
	}
	return IOR_OK;
}

static int aio_reap(void *p, unsigned min, unsigned max, struct ior_job_io **done, unsigned *ndone,
		    uint64_t timeout_ns)
{
	struct aio_ctx *a = p;
	uint64_t until = ior_clock_ns() + timeout_ns;
	int got;
	/* with a timeout: a completion that never comes (seen in TCG guests) ends the wait */
	for (;;) {
		uint64_t now = ior_clock_ns(), left = until > now ? until - now : 0;
		struct timespec ts = { .tv_sec = (time_t)(left / 1000000000u), .tv_nsec = (long)(left % 1000000000u) };
		got = io_getevents(a->ctx, (long)min, (long)max, a->events, &ts);
		if (got != -EINTR || left == 0)
			break;
	}
	if (got < 0)
		return ior_error_errno(IOR_ERROR, -got, "io_getevents failed");
	for (int i = 0; i < got; i++) {
		struct ior_job_io *io = a->events[i].data;
		io->result = (int64_t)(long)a->events[i].res;
		done[i] = io;
	}
	*ndone = (unsigned)got;
	return IOR_OK;
}

static const struct ior_job_backend aio_backend = {
	.name = "aio",
	.priv_size = sizeof(struct iocb),
	.setup = aio_setup,
	.submit = aio_submit,
	.reap = aio_reap,
	.teardown = aio_teardown,
};

static int aio_init(void **state, const struct ior_engine_args *args)
{
	return ior_job_create((struct ior_job **)state, &aio_backend, args);
}

const struct ior_engine_ops ior_engine_aio = {
	.name = "aio",
	.help = "fio-style job on Linux native AIO (libaio)",
	.flags = IOR_ENGINE_WRITES, /* upper bound; option_flags says which modes write */
	.options = ior_job_rows,
	.options_size = sizeof(struct ior_job_opts),
	.init = aio_init,
	.measure = ior_job_engine_measure,
	.cleanup = ior_job_engine_cleanup,
	.option_flags = ior_job_engine_option_flags,
	.duration = ior_job_duration,
};
