/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One qemu boot: the command line, the console watched by three watchdogs, vCPU pinning, and the outcome. */
#include "vm/internal.h"
#include "vm/guest.h"

#include "common/error.h"
#include "common/stop.h"
#include "db/db.h"
#include "common/spawn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RESULTS_DISK_MB 1024   /* sparse: a guest database of any likely size fits, at no cost */

const char *ior_vm_outcome_name(enum ior_vm_outcome o)
{
	static const char *const names[] = {
		[IOR_VM_OK] = "ok",
		[IOR_VM_TEST_FAILED] = "test-failed",
		[IOR_VM_PANIC] = "panic",
		[IOR_VM_HANG] = "hang",
		[IOR_VM_BOOT_FAILED] = "boot-failed",
		[IOR_VM_INFRA_ERROR] = "infra-error",
		[IOR_VM_INTERRUPTED] = "interrupted",
	};
	return (unsigned)o < sizeof(names) / sizeof(names[0]) ? names[o] : "unknown";
}

void ior_vm_machine_default(struct ior_vm_machine *m)
{
	*m = (struct ior_vm_machine){
		.qemu = "qemu-system-x86_64",
		.accel = "auto",
		.cpus = 1,
		.memory_mb = 512,
		.scratch_mb = 512,
		.boot_timeout_s = 120,
		.idle_timeout_s = 120,
		.total_timeout_s = 1800,
	};
}

void ior_vm_boot_free(struct ior_vm_boot *b)
{
	free(b->console);
	b->console = NULL;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* cache=none (O_DIRECT on the host file) keeps the host's page cache out of the guest's
 * figures; a filesystem without O_DIRECT (tmpfs) gets writeback, and the row says so. */
static const char *cache_mode_for(const char *disk)
{
	int fd = open(disk, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		return "writeback";
	close(fd);
	return "none";
}

static void qemu_version(const char *qemu, char *out, size_t len)
{
	struct ior_spawn r = { .argv = (const char *const[]){ qemu, "--version", NULL }, .out_to = IOR_SPAWN_OUT_CAPTURE };
	snprintf(out, len, "unknown");
	if (ior_spawn_run(&r) == IOR_OK && r.out) {
		const char *v = strstr(r.out, "version ");
		if (v)
			snprintf(out, len, "%.*s", (int)strcspn(v + 8, " \n"), v + 8);
	}
	ior_spawn_free(&r);
}

struct qemu_argv {
	char *argv[48];
	int n;
	char store[8][PATH_MAX + 128];
	int nstore;
	char smp[16], mem[16];
};

static void arg(struct qemu_argv *q, const char *s)
{
	if (q->n < (int)(sizeof(q->argv) / sizeof(q->argv[0])) - 1)
		q->argv[q->n++] = (char *)s;
	q->argv[q->n] = NULL;
}

static const char *fmt(struct qemu_argv *q, const char *f, const char *a, const char *b)
{
	char *s = q->store[q->nstore < 7 ? q->nstore++ : 7];
	snprintf(s, sizeof(q->store[0]), f, a, b);
	return s;
}

static void build_argv(struct qemu_argv *q, const struct ior_vm_machine *m, const char *accel,
		       const struct ior_vm_kernel *k, const char *initramfs, bool probe, const char *scratch,
		       const char *results, const char *cache)
{
	snprintf(q->smp, sizeof(q->smp), "%u", m->cpus);
	snprintf(q->mem, sizeof(q->mem), "%u", m->memory_mb);
	arg(q, m->qemu);
	arg(q, "-nodefaults");
	arg(q, "-no-user-config");
	arg(q, "-display");
	arg(q, "none");
	arg(q, "-no-reboot");   /* panic=-1 reboots at once: qemu exits instead */
	arg(q, "-name");
	arg(q, "ioregress,debug-threads=on");   /* vCPU threads named "CPU n/TCG": found for pinning */
	arg(q, "-accel");
	arg(q, strcmp(accel, "kvm") == 0 ? "kvm" : m->cpus > 1 ? "tcg,thread=multi" : "tcg");
	arg(q, "-smp");
	arg(q, q->smp);
	arg(q, "-m");
	arg(q, q->mem);
	arg(q, "-serial");
	arg(q, "mon:stdio");   /* multiplexed: Ctrl-A b sends the guest a break, for sysrq before a hang kill */
	arg(q, "-kernel");
	arg(q, k->image);
	arg(q, "-initrd");
	arg(q, initramfs);
	arg(q, "-append");
	arg(q, probe ? "console=ttyS0 quiet panic=-1 oops=panic softlockup_panic=1 sysrq_always_enabled ior.probe=1"
		     : "console=ttyS0 quiet panic=-1 oops=panic softlockup_panic=1 sysrq_always_enabled");
	arg(q, "-drive");
	arg(q, fmt(q, "file=%s,format=raw,if=virtio,cache=%s", scratch, cache));
	arg(q, "-drive");
	arg(q, fmt(q, "file=%s,format=raw,if=virtio,cache=%s", results, "writeback"));
}

/* With more host CPUs than vCPUs, vCPU n runs on host CPU (last - cpus + 1 + n), away from
 * CPU 0 where the host's own work lands; the thread names come from debug-threads=on. */
static void pin_vcpus(pid_t pid, unsigned cpus, char *pinned, size_t len)
{
	long host = sysconf(_SC_NPROCESSORS_ONLN);
	if (host <= (long)cpus || pinned[0])
		return;
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));) {
		char path[128], comm[64] = "";
		snprintf(path, sizeof(path), "%s/%s/comm", dir, e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		unsigned n;
		if (fgets(comm, sizeof(comm), f) && sscanf(comm, "CPU %u/", &n) == 1 && n < cpus) {
			cpu_set_t set;
			CPU_ZERO(&set);
			int cpu = (int)(host - cpus + n);
			CPU_SET(cpu, &set);
			if (sched_setaffinity(atoi(e->d_name), sizeof(set), &set) == 0) {
				size_t l = strlen(pinned);
				snprintf(pinned + l, len - l, "%s%d", l ? "," : "", cpu);
			}
		}
		fclose(f);
	}
	if (d)
		closedir(d);
}

/* Seconds the guest gets to power off after its run said it finished: past them the run's
 * process is stuck in its exit (aio's exit waits for a request given up on) and the results
 * disk already holds everything. */
#define FINISH_GRACE_S 15.0

/* Seconds the guest gets to print its blocked tasks (sysrq w) before a hang is killed. */
#define HANG_DUMP_S 5.0

struct watch {
	struct ior_spawn child;    /* qemu: its pid and pipes copied below */
	pid_t pid;
	int fd;
	int in;                    /* qemu's stdin: the serial line into the guest (and the mux's escapes) */
	double dump_at;            /* when the hang's sysrq w was sent, -1 before */
	double t0, up_at;
	double last_beat;          /* the last heartbeat (or init's up line): the hang watchdog's clock */
	double beat_expect;        /* seconds the last heartbeat announced beyond the idle limit */
	double finished_at;        /* the run's last heartbeat, -1 before */
	char beat[200];            /* its text, for the live line and the reason */
	size_t beat_from;          /* console offset after the last heartbeat read */
	bool panic, done, eof, kvm_error;
	bool queried;              /* the guest said a device's requests never completed: qemu's virtqueue asked for */
	bool live;                 /* stderr is a terminal: the heartbeat redrawn as one line */
	bool log;                  /* stderr is a file or pipe (a CI log): a line per cell, and every LOG_EVERY_S */
	double logged_at;          /* when log last printed a heartbeat */
	char logged_cell[32];      /* the "cell N/M" it printed */
	size_t scan_from;
	enum { KILLED_NONE, KILLED_BOOT, KILLED_IDLE, KILLED_TOTAL, KILLED_STOP, KILLED_NO_EXIT } killed;
};

static void append_console(struct ior_vm_boot *b, const char *buf, size_t n)
{
	if (b->console_len + n > IOR_VM_CONSOLE_MAX)
		n = IOR_VM_CONSOLE_MAX - b->console_len;
	char *c = n ? realloc(b->console, b->console_len + n + 1) : NULL;
	if (!c)
		return;
	memcpy(c + b->console_len, buf, n);
	b->console_len += n;
	c[b->console_len] = '\0';
	b->console = c;
}

/* A CI log has no line to redraw, and a line per repetition would bury it: the heartbeat is printed
 * when a new cell starts, and at least every LOG_EVERY_S while one runs, so a log never goes silent
 * for a whole boot. */
#define LOG_EVERY_S 30.0
static void log_beat(struct watch *w, double t)
{
	char cell[sizeof(w->logged_cell)];
	const char *rep = strstr(w->beat, " rep "); /* "cell 6/8" of "cell 6/8 rep 5/10 ..."; other beats whole */
	snprintf(cell, sizeof(cell), "%.*s", rep ? (int)(rep - w->beat) : (int)strlen(w->beat), w->beat);
	if (!strcmp(cell, w->logged_cell) && t - w->logged_at < LOG_EVERY_S)
		return;
	snprintf(w->logged_cell, sizeof(w->logged_cell), "%s", cell);
	w->logged_at = t;
	fprintf(stderr, "  guest: %.150s\n", w->beat);
	fflush(stderr);
}

/* Whole heartbeat lines after the last one read: the watchdog's clock, and the live line. */
static void read_beats(struct watch *w, const struct ior_vm_boot *b, double t)
{
	const char *p;
	while (b->console && (p = strstr(b->console + w->beat_from, IOR_VM_MARK_BEAT " "))) {
		const char *nl = strchr(p, '\n');
		if (!nl)
			return; /* not whole yet: read again once its end has come */
		w->beat_from = (size_t)(nl - b->console);
		p += strlen(IOR_VM_MARK_BEAT " ");
		double expect = 0;
		int used = 0;
		if (sscanf(p, "expect=%lf %n", &expect, &used) >= 1 && used > 0)
			p += used;
		snprintf(w->beat, sizeof(w->beat), "%.*s", (int)strcspn(p, "\r\n"), p);
		w->last_beat = t;
		w->beat_expect = expect > 0 ? expect : 0;
		if (!strncmp(w->beat, IOR_VM_BEAT_FINISHED, strlen(IOR_VM_BEAT_FINISHED)) && w->finished_at < 0)
			w->finished_at = t;
		if (w->live) {
			fprintf(stderr, "\r\033[K  guest: %.150s", w->beat);
			fflush(stderr);
		} else if (w->log) {
			log_beat(w, t);
		}
	}
}

/* Signs of life in the new part of the console. */
static void ask_virtqueue(struct watch *w);

static void scan(struct watch *w, struct ior_vm_boot *b, const struct ior_vm_machine *m)
{
	const char *text = b->console ? b->console + w->scan_from : "";
	double t = now_s();
	if (w->up_at < 0 && strstr(text, IOR_VM_MARK_UP)) {
		w->up_at = t - w->t0;
		w->last_beat = t;
		pin_vcpus(w->pid, m->cpus, b->pinned, sizeof(b->pinned));
	}
	read_beats(w, b, t);
	w->panic |= strstr(text, "Kernel panic") != NULL;
	w->kvm_error |= strstr(text, "KVM internal error") != NULL;
	w->done |= strstr(text, IOR_VM_MARK_DONE) != NULL;
	if (!w->queried && strstr(text, IOR_VM_MARK_STUCK " ")) {
		w->queried = true;
		ask_virtqueue(w);
	}
	/* the next scan restarts a line back, so a marker split across reads is still seen */
	const char *nl = b->console ? strrchr(b->console, '\n') : NULL;
	if (nl)
		w->scan_from = (size_t)(nl - b->console);
}

static void kill_qemu(struct watch *w, int why)
{
	if (w->killed == KILLED_NONE) {
		w->killed = why;
		kill(w->pid, SIGKILL);
	}
}

/* Before a hang is killed: a serial break and 'w' (sysrq: show blocked tasks), then 'l' (backtrace of
 * the active CPUs), so the console says where the guest's tasks are stuck (an io_submit in D state
 * waiting for a request that never completes, say) or what runs instead, rather than only that the
 * heartbeats stopped. A frozen guest prints nothing and is killed HANG_DUMP_S later all the same.
 * Returns whether the dump is still running. */
static bool serial_send(int fd, const char *text)
{
	/* qemu may have died this instant: EPIPE, not a SIGPIPE that would end vm run */
	sigset_t pipe_set, old;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	bool ok = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	struct timespec zero = { 0, 0 };
	while (sigtimedwait(&pipe_set, NULL, &zero) == SIGPIPE)
		;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ok;
}

/* A sysrq key over the serial line: qemu's mux turns Ctrl-A b into a break, and the guest takes the
 * next key as sysrq; 200 ms for each to arrive. */
static bool sysrq(struct watch *w, const char *key)
{
	if (!serial_send(w->in, "\001b"))
		return false;
	usleep(200 * 1000);
	bool ok = serial_send(w->in, key);
	usleep(200 * 1000);
	return ok;
}

/* Ctrl-A c hands the serial line to qemu's monitor, the query, Ctrl-A c back: the answer comes on
 * the console (200 ms for each step). The guest writes nothing to the line meanwhile. */
static void ask_virtqueue(struct watch *w)
{
	if (serial_send(w->in, "\001c")) {
		usleep(200 * 1000);
		serial_send(w->in, ior_vm_virtqueue_command);
		usleep(200 * 1000);
		serial_send(w->in, "\001c");
	}
}

static bool dump_blocked(struct watch *w, double t)
{
	if (w->dump_at < 0) {
		w->dump_at = t;
		/* '9' first: under `quiet` the console shows only errors, and sysrq prints its header above
		 * that level but what the handler prints (the tasks of 'w', the CPUs of 'l') at the
		 * console's: three hangs said "no blocked task" because the lists never reached the
		 * console, not because none was blocked. Then 'l', what runs: with nothing blocked and the
		 * heartbeats stopped, a task spins or the CPU idles while a task waits without a timeout. */
		return sysrq(w, "9") && sysrq(w, "w") && sysrq(w, "l") && sysrq(w, "t");
	}
	return t - w->dump_at < HANG_DUMP_S;
}

/* Reads the console until qemu closes it, killing qemu when a watchdog fires or a stop is requested. */
static void watch_console(struct watch *w, struct ior_vm_boot *b, const struct ior_vm_machine *m)
{
	char buf[8192];
	while (!w->eof) {
		struct pollfd p = { .fd = w->fd, .events = POLLIN };
		int r = poll(&p, 1, 200);
		double t = now_s();
		if (r > 0) {
			ssize_t got = read(w->fd, buf, sizeof(buf));
			if (got > 0) {
				append_console(b, buf, (size_t)got);
				scan(w, b, m);
			} else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
				w->eof = true;
			}
		}
		if (ior_stop_requested())
			kill_qemu(w, KILLED_STOP);
		else if (w->kvm_error) /* qemu pauses the guest and waits: nothing more will come */
			kill_qemu(w, KILLED_BOOT);
		else if (w->up_at < 0 && t - w->t0 > m->boot_timeout_s)
			kill_qemu(w, KILLED_BOOT);
		else if (w->finished_at >= 0 && t - w->finished_at > FINISH_GRACE_S)
			kill_qemu(w, KILLED_NO_EXIT);
		else if (w->up_at >= 0 && t - w->last_beat > m->idle_timeout_s + w->beat_expect) {
			if (!dump_blocked(w, t))   /* before init a quiet kernel prints nothing: the boot deadline rules */
				kill_qemu(w, KILLED_IDLE);
		}
		else if (t - w->t0 > m->total_timeout_s)
			kill_qemu(w, KILLED_TOTAL);
	}
}

/* qemu dies with us, so even a SIGKILLed vm run leaves no guest running on. */
static int spawn_qemu(struct qemu_argv *q, struct watch *w)
{
	w->child = (struct ior_spawn){ .argv = (const char *const *)q->argv, .out_to = IOR_SPAWN_OUT_PIPE,
				       .flags = IOR_SPAWN_DIE_WITH_US };
	int rc = ior_spawn_start(&w->child);
	w->pid = w->child.pid;
	w->fd = w->child.out_fd;
	w->in = w->child.in_fd;
	return rc;
}

static void set_reason(struct ior_vm_boot *b, const char *fmt_, double a)
{
	snprintf(b->reason, sizeof(b->reason), fmt_, a);
}

static void append_reason(struct ior_vm_boot *b, const char *text)
{
	size_t used = strlen(b->reason);
	snprintf(b->reason + used, sizeof(b->reason) - used, "%s", text);
}

/* The last line qemu or the kernel printed, for a reason that says something. */
static void last_line(const struct ior_vm_boot *b, char *out, size_t len)
{
	out[0] = '\0';
	if (!b->console)
		return;
	const char *end = b->console + b->console_len;
	while (end > b->console && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	const char *start = end;
	while (start > b->console && start[-1] != '\n')
		start--;
	snprintf(out, len, "%.*s", (int)(end - start), start);
}

/* Samples in a guest database, -1 when it cannot be read. */
static long long count_samples(const char *path)
{
	struct ior_db *db = NULL;
	long long n = -1;
	int64_t count;
	if (ior_db_open(&db, path) == IOR_OK && ior_db_sample_total(db, &count) == IOR_OK)
		n = count;
	ior_db_free(db);
	return n;
}

/* After a panic or a hang: what the guest committed to the results disk before it (it writes
 * the disk after every sample), and the count in the reason. */
static void keep_partial(struct ior_vm_boot *b, const char *workdir, const char *results)
{
	int status = -1;
	if (ior_vm_results_read(results, workdir, &status, b->guest_db, sizeof(b->guest_db)) != IOR_OK ||
	    !b->guest_db[0]) {
		b->guest_db[0] = '\0';
		append_reason(b, "; nothing was committed before it");
		return;
	}
	long long n = count_samples(b->guest_db);
	char text[96];
	snprintf(text, sizeof(text), "; %lld sample%s measured before it kept", n < 0 ? 0 : n, n == 1 ? "" : "s");
	append_reason(b, text);
}

static void judge(struct ior_vm_boot *b, const struct watch *w, int status, const struct ior_vm_machine *m,
		  bool probe, const char *workdir, const char *results)
{
	char tail[200];
	last_line(b, tail, sizeof(tail));
	if (w->panic) {
		b->outcome = IOR_VM_PANIC;
		char head[400];
		ior_vm_oops_head(b->console, head, sizeof(head));
		snprintf(b->reason, sizeof(b->reason), "kernel panic: %s", head[0] ? head : tail);
		if (!probe)
			keep_partial(b, workdir, results);
	} else if (w->killed == KILLED_BOOT) {
		b->outcome = IOR_VM_BOOT_FAILED;
		set_reason(b, "no sign of init within %.0f s", m->boot_timeout_s);
	} else if (w->killed == KILLED_IDLE) {
		b->outcome = IOR_VM_HANG;
		snprintf(b->reason, sizeof(b->reason), "no heartbeat from the guest for %.0f s (last: %s)",
			 m->idle_timeout_s + w->beat_expect, w->beat[0] ? w->beat : "init up");
		char blocked[800];
		if (ior_vm_blocked_head(b->console, blocked, sizeof(blocked)))
			append_reason(b, "; "), append_reason(b, blocked);
		if (!probe)
			keep_partial(b, workdir, results);
	} else if (w->killed == KILLED_NO_EXIT) {
		/* the run finished and wrote its status: judged by it, the stuck exit said beside */
		if (ior_vm_results_read(results, workdir, &b->guest_status, b->guest_db, sizeof(b->guest_db)) ||
		    b->guest_status < 0) {
			b->outcome = IOR_VM_HANG;
			snprintf(b->reason, sizeof(b->reason), "the guest's run finished but left no exit status");
		} else {
			b->outcome = b->guest_status == 0 ? IOR_VM_OK : IOR_VM_TEST_FAILED;
			snprintf(b->reason, sizeof(b->reason),
				 "ioregress run exited %d inside; the guest did not power off within %.0f s after it "
				 "(a request given up on keeps the process from exiting)",
				 b->guest_status, FINISH_GRACE_S);
		}
	} else if (w->killed == KILLED_TOTAL) {
		b->outcome = IOR_VM_HANG;
		set_reason(b, "still running after the total limit of %.0f s", m->total_timeout_s);
		if (!probe)
			keep_partial(b, workdir, results);
	} else if (w->up_at < 0) {
		b->outcome = IOR_VM_BOOT_FAILED;
		snprintf(b->reason, sizeof(b->reason), "qemu ended (%s %d) before init: %s",
			 WIFEXITED(status) ? "exit" : "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			 tail);
	} else if (probe) { /* a boot to init and straight off: nothing on the results disk */
		b->outcome = w->done ? IOR_VM_OK : IOR_VM_INFRA_ERROR;
		snprintf(b->reason, sizeof(b->reason), w->done ? "reached init and powered off" : "init did not finish: %s",
			 tail);
	} else if (ior_vm_results_read(results, workdir, &b->guest_status, b->guest_db, sizeof(b->guest_db)) ||
		   b->guest_status < 0) {
		b->outcome = IOR_VM_INFRA_ERROR;
		snprintf(b->reason, sizeof(b->reason), "the results disk carries no exit status%s%s",
			 *ior_error_last() ? ": " : "", ior_error_last());
	} else {
		b->outcome = b->guest_status == 0 ? IOR_VM_OK : IOR_VM_TEST_FAILED;
		snprintf(b->reason, sizeof(b->reason), "ioregress run exited %d inside", b->guest_status);
	}
	char queue[300];
	if (w->queried && ior_vm_virtqueue_head(b->console, queue, sizeof(queue)))
		append_reason(b, "; "), append_reason(b, queue);
}

int ior_vm_boot_once(const struct ior_vm_machine *m, const char *accel, const struct ior_vm_kernel *k,
		     const char *initramfs, bool probe, const char *workdir, struct ior_vm_boot *b)
{
	memset(b, 0, sizeof(*b));
	b->guest_status = -1;
	b->boot_s = -1;
	snprintf(b->accel, sizeof(b->accel), "%s", accel);
	qemu_version(m->qemu, b->qemu_version, sizeof(b->qemu_version));
	char scratch[PATH_MAX], results[PATH_MAX];
	snprintf(scratch, sizeof(scratch), "%s/scratch.img", workdir);
	snprintf(results, sizeof(results), "%s/results.img", workdir);
	if (m->scratch_image)
		snprintf(scratch, sizeof(scratch), "%s", m->scratch_image);
	else
		unlink(scratch);
	unlink(results);
	int rc = m->scratch_image ? IOR_OK : ior_vm_disk_create(scratch, (uint64_t)m->scratch_mb << 20);
	if (!rc)
		rc = ior_vm_disk_create(results, (uint64_t)RESULTS_DISK_MB << 20);
	if (rc) {
		b->outcome = IOR_VM_INFRA_ERROR;
		snprintf(b->reason, sizeof(b->reason), "%s", ior_error_last());
		return IOR_OK;
	}
	snprintf(b->cache_mode, sizeof(b->cache_mode), "%s", cache_mode_for(scratch));
	struct qemu_argv q = { 0 };
	build_argv(&q, m, accel, k, initramfs, probe, scratch, results, b->cache_mode);
	/* the log starts with the command line, so a boot can be reproduced by hand */
	append_console(b, "$", 1);
	for (int i = 0; i < q.n; i++) {
		append_console(b, " ", 1);
		append_console(b, q.argv[i], strlen(q.argv[i]));
	}
	append_console(b, "\n", 1);
	bool tty = isatty(STDERR_FILENO);
	struct watch w = { .up_at = -1, .finished_at = -1, .in = -1, .dump_at = -1,
			   .live = m->live && tty, .log = m->live && !tty };
	w.t0 = w.last_beat = now_s();
	w.scan_from = w.beat_from = b->console_len;
	if ((rc = spawn_qemu(&q, &w))) {
		b->outcome = IOR_VM_INFRA_ERROR;
		snprintf(b->reason, sizeof(b->reason), "%s", ior_error_last());
		if (!m->scratch_image)
			unlink(scratch);
		unlink(results);
		return IOR_OK;
	}
	watch_console(&w, b, m);
	if (w.live && w.beat[0]) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	ior_spawn_wait(&w.child);   /* closes the console's pipes */
	int status = w.child.status;
	b->total_s = now_s() - w.t0;
	b->boot_s = w.up_at;
	judge(b, &w, status, m, probe, workdir, results);
	if (!m->scratch_image)
		unlink(scratch);
	unlink(results);
	return w.killed == KILLED_STOP ? ior_error_set(IOR_EINTERRUPTED, "vm run interrupted") : IOR_OK;
}

static void probe_accel(const struct ior_vm_machine *m, const struct ior_vm_kernel *k, const char *initramfs,
			const char *workdir, char *accel, size_t len, char *reason, size_t rlen)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(reason, rlen, "TCG: /dev/kvm cannot be opened (%s)", strerror(errno));
		return;
	}
	close(fd);
	/* /dev/kvm opening is not enough (a guest can die at its first instruction): boot to init */
	struct ior_vm_machine probe = *m;
	/* TCG reaches init in 2.4-8 s here; KVM, when it works, in well under that */
	probe.boot_timeout_s = probe.idle_timeout_s = probe.total_timeout_s = 10;
	struct ior_vm_boot b;
	if (ior_vm_boot_once(&probe, "kvm", k, initramfs, true, workdir, &b) == IOR_OK && b.boot_s >= 0) {
		snprintf(accel, len, "kvm");
		snprintf(reason, rlen, "KVM: a probe boot reached init in %.1f s", b.boot_s);
	} else {
		char tail[160] = "";
		last_line(&b, tail, sizeof(tail));
		snprintf(reason, rlen, "TCG: a probe boot under KVM did not reach init (%s%s%s)", b.reason,
			 tail[0] ? "; " : "", tail);
	}
	ior_vm_boot_free(&b);
}

/* The probe's answer for the rest of the process. A bisection boots once per measurement, each a
 * vm run of its own; where /dev/kvm opens but KVM cannot run a guest (this project's machines), every
 * one of them spent its 10 s probe timeout before a 5.5 s boot (the kernel bisection at pos:14, stop
 * 32). Whether KVM works is the host's, not the kernel's, so one probe answers for all of them. */
static struct {
	bool done;
	char accel[8];
	char reason[512];
} probed;

void ior_vm_choose_accel(const struct ior_vm_machine *m, const struct ior_vm_kernel *k, const char *initramfs,
			 const char *workdir, char *accel, size_t len, char *reason, size_t rlen)
{
	snprintf(accel, len, "tcg");
	if (strcmp(m->accel, "auto") != 0) {
		snprintf(accel, len, "%s", m->accel);
		snprintf(reason, rlen, "--accel %s", m->accel);
		return;
	}
	if (probed.done) {
		snprintf(accel, len, "%s", probed.accel);
		/* the probe's own reason is cut, not the note: a KVM failure's console tail (Code=...)
		 * filled the 256 bytes of a boot's reason, and the note never showed (CI, stop 32) */
		static const char note[] = " (probed once for this process)";
		int room = rlen > sizeof(note) ? (int)(rlen - sizeof(note)) : 0;
		snprintf(reason, rlen, "%.*s%s", room, probed.reason, note);
		return;
	}
	probe_accel(m, k, initramfs, workdir, accel, len, reason, rlen);
	/* a probe cut short by a stop request answers nothing */
	if (!ior_stop_requested()) {
		probed.done = true;
		snprintf(probed.accel, sizeof(probed.accel), "%s", accel);
		snprintf(probed.reason, sizeof(probed.reason), "%s", reason);
	}
}
