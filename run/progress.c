/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Progress line for long runs (see progress.h): on a terminal, or inside a vm run guest as heartbeats. */
#include "run/progress.h"
#include "vm/guest.h"

#include <stdio.h>
#include <time.h>

double ior_monotonic_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void ior_progress_start(struct ior_progress *p, bool enabled, size_t cells, size_t reps_total)
{
	p->enabled = enabled;
	p->cells = cells;
	p->reps_total = reps_total;
	p->reps_done = 0;
	p->started = ior_monotonic_seconds();
}

static void format_duration(char *buf, size_t len, double seconds)
{
	long s = seconds < 0 ? 0 : (long)(seconds + 0.5);
	if (s >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%02ld:%02ld", s / 60, s % 60);
}

void ior_progress_update(struct ior_progress *p, size_t cell, int rep, int reps, const char *what)
{
	if (!p->enabled && !p->beat)
		return;
	double elapsed = ior_monotonic_seconds() - p->started;
	char el[16], eta[16] = "--:--";
	format_duration(el, sizeof(el), elapsed);
	/* ETA from the mean time per repetition so far: engines run for similar durations. */
	if (p->reps_done > 0 && p->reps_total > p->reps_done)
		format_duration(eta, sizeof(eta), elapsed / (double)p->reps_done * (double)(p->reps_total - p->reps_done));
	if (p->beat) { /* the host's watchdog is fed by it and shows it: one whole line each */
		char text[400];
		snprintf(text, sizeof(text), "cell %zu/%zu rep %d/%d  %s  elapsed %s  ETA %s", cell, p->cells, rep, reps, what,
			 el, eta);
		ior_vm_guest_beat(p->expect_s, "%s", text);
		/* a repetition of unknown length (size-based, exec) repeats it while the guest answers */
		ior_vm_guest_ticking(p->expect_s <= 0, text);
		return;
	}
	fprintf(stderr, "\r\033[Kcell %zu/%zu rep %d/%d  %s  elapsed %s  ETA %s", cell, p->cells, rep, reps, what, el, eta);
	fflush(stderr);
}

void ior_progress_rep_done(struct ior_progress *p)
{
	p->reps_done++;
}

void ior_progress_finish(struct ior_progress *p)
{
	if (p->beat)
		ior_vm_guest_ticking(false, NULL);
	if (p->enabled) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}
