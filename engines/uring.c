/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The uring engine: fio's job semantics (engines/job.c) on io_uring through liburing, one ring per
 * job; probed, a skip where absent. */
#include "engines/clock.h"
#include "engines/engine.h"
#include "engines/job.h"
#include "common/error.h"

#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct uring_ctx {
	struct io_uring ring;
	int fd;
};

static void uring_teardown(void *p, bool lost)
{
	(void)lost; /* closing the ring does not wait for its requests: the kernel reaps them later */
	struct uring_ctx *u = p;
	if (!u)
		return;
	io_uring_queue_exit(&u->ring);
	free(u);
}

static int uring_setup(void **out, int fd, unsigned depth, struct ior_job_io *ios)
{
	(void)ios;
	struct uring_ctx *u = calloc(1, sizeof(*u));
	if (!u)
		return ior_error_set(IOR_ERROR, "out of memory");
	/* The ring fio 3.33 sets up (strace: COOP_TASKRUN | SINGLE_ISSUER | DEFER_TASKRUN): each job
	 * thread owns its ring, so completions wait for the thread's next enter instead of
	 * interrupting it. An older kernel refuses the flags and gets COOP_TASKRUN (5.19+) or a
	 * plain ring. */
	int err = io_uring_queue_init(depth, &u->ring, IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
								 IORING_SETUP_DEFER_TASKRUN);
	if (err == -EINVAL)
		err = io_uring_queue_init(depth, &u->ring, IORING_SETUP_COOP_TASKRUN);
	if (err == -EINVAL)
		err = io_uring_queue_init(depth, &u->ring, 0);
	if (err < 0) {
		free(u);
		return ior_error_errno(IOR_ERROR, -err, "cannot create an io_uring of depth %u", depth);
	}
	u->fd = fd;
	*out = u;
	return IOR_OK;
}

static int uring_submit(void *p, struct ior_job_io **ios, unsigned n, uint64_t timeout_ns)
{
	struct uring_ctx *u = p;
	for (unsigned i = 0; i < n; i++) {
		/* The ring has iodepth entries and at most iodepth requests are in flight. */
		struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
		if (!sqe)
			return ior_error_set(IOR_ERROR, "io_uring submission queue full");
		if (ios[i]->write)
			io_uring_prep_write(sqe, u->fd, ios[i]->buf, (unsigned)ios[i]->len, ios[i]->offset);
		else
			io_uring_prep_read(sqe, u->fd, ios[i]->buf, (unsigned)ios[i]->len, ios[i]->offset);
		io_uring_sqe_set_data(sqe, ios[i]);
	}
	struct ior_backoff b = { 0 };   /* started at the first refusal: no clock read on the I/O path */
	for (unsigned done = 0; done < n;) {
		int got = io_uring_submit(&u->ring);
		if (got == -EINTR)
			continue;
		if (got == -EAGAIN || got == -EBUSY) {
			if (!b.until_ns)
				ior_backoff_start(&b, timeout_ns);
			if (ior_backoff_wait(&b))
				return ior_error_set(IOR_ETIMEDOUT, "io_uring_submit refused %u of %u requests (%s) for %.0f s",
						     n - done, n, got == -EAGAIN ? "EAGAIN" : "EBUSY", (double)timeout_ns / 1e9);
			continue;
		}
		if (got < 0)
			return ior_error_errno(IOR_ERROR, -got, "io_uring_submit failed");
		done += (unsigned)got;
	}
	return IOR_OK;
}

static int uring_reap(void *p, unsigned min, unsigned max, struct ior_job_io **done, unsigned *ndone,
		      uint64_t timeout_ns)
{
	struct uring_ctx *u = p;
	struct io_uring_cqe *cqe;
	uint64_t until = ior_clock_ns() + timeout_ns;
	int err;
	/* min is 1 here (job.c reaps one at a time), which wait_cqe_timeout waits for */
	(void)min;
	for (;;) {
		uint64_t now = ior_clock_ns(), left = until > now ? until - now : 0;
		struct __kernel_timespec ts = { .tv_sec = (long long)(left / 1000000000u),
						.tv_nsec = (long long)(left % 1000000000u) };
		err = io_uring_wait_cqe_timeout(&u->ring, &cqe, &ts);
		if (err != -EINTR || left == 0)
			break;
	}
	*ndone = 0;
	if (err == -ETIME)
		return IOR_OK;
	if (err < 0)
		return ior_error_errno(IOR_ERROR, -err, "io_uring wait failed");
	unsigned head, n = 0;
	io_uring_for_each_cqe(&u->ring, head, cqe) {
		if (n == max)
			break;
		struct ior_job_io *io = io_uring_cqe_get_data(cqe);
		io->result = cqe->res;
		done[n++] = io;
	}
	io_uring_cq_advance(&u->ring, n);
	*ndone = n;
	return IOR_OK;
}

static const struct ior_job_backend uring_backend = {
	.name = "uring",
	.priv_size = 0,
	.setup = uring_setup,
	.submit = uring_submit,
	.reap = uring_reap,
	.teardown = uring_teardown,
};

/* /proc/sys/kernel/io_uring_disabled: 0 on, 1 only for io_uring_group members, 2 off. */
static int sysctl_disabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "re");
	if (!f)
		return 0; /* older kernels have no such switch */
	int v = 0;
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

static int probe_opcodes(struct io_uring *ring)
{
	struct io_uring_probe *probe = io_uring_get_probe_ring(ring);
	if (!probe)
		return ior_error_set(IOR_EUNSUPPORTED, "io_uring has no opcode probe on this kernel (before 5.6)");
	int rc = IOR_OK;
	if (!io_uring_opcode_supported(probe, IORING_OP_READ))
		rc = ior_error_set(IOR_EUNSUPPORTED, "io_uring lacks the READ opcode on this kernel");
	else if (!io_uring_opcode_supported(probe, IORING_OP_WRITE))
		rc = ior_error_set(IOR_EUNSUPPORTED, "io_uring lacks the WRITE opcode on this kernel");
	io_uring_free_probe(probe);
	return rc;
}

/* Probes, never assumes: a kernel without io_uring (or with it switched off) makes the cell a skip. */
static int uring_supported(const void *opts)
{
	(void)opts;
	int disabled = sysctl_disabled();
	struct io_uring ring;
	int err = io_uring_queue_init(2, &ring, 0);
	if (err < 0) {
		if (disabled)
			return ior_error_set(IOR_EUNSUPPORTED, "io_uring is disabled (kernel.io_uring_disabled = %d)",
					     disabled);
		if (err == -ENOSYS)
			return ior_error_set(IOR_EUNSUPPORTED, "this kernel has no io_uring");
		return ior_error_errno(IOR_EUNSUPPORTED, -err, "io_uring is not usable here");
	}
	int rc = probe_opcodes(&ring);
	io_uring_queue_exit(&ring);
	return rc;
}

static int uring_init(void **state, const struct ior_engine_args *args)
{
	return ior_job_create((struct ior_job **)state, &uring_backend, args);
}

const struct ior_engine_ops ior_engine_uring = {
	.name = "uring",
	.help = "fio-style job on io_uring (liburing)",
	.flags = IOR_ENGINE_WRITES, /* upper bound; option_flags says which modes write */
	.options = ior_job_rows,
	.options_size = sizeof(struct ior_job_opts),
	.supported = uring_supported,
	.init = uring_init,
	.measure = ior_job_engine_measure,
	.cleanup = ior_job_engine_cleanup,
	.option_flags = ior_job_engine_option_flags,
	.duration = ior_job_duration,
};
