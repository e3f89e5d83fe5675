/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Progress for long runs (see progress.h): told to the run's observer; the terminal's draws it. */
#include "run/progress.h"

#include <stdio.h>
#include <time.h>

double ior_monotonic_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void ior_progress_start(struct ior_progress *p, const struct ior_run_observer *obs, size_t cells, size_t reps_total)
{
	p->obs = obs;
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
	if (!p->obs || (!p->obs->beat && !p->obs->ticking))
		return;
	double elapsed = ior_monotonic_seconds() - p->started;
	char el[16], eta[16] = "--:--";
	format_duration(el, sizeof(el), elapsed);
	/* ETA from the mean time per repetition so far: engines run for similar durations. */
	if (p->reps_done > 0 && p->reps_total > p->reps_done)
		format_duration(eta, sizeof(eta), elapsed / (double)p->reps_done * (double)(p->reps_total - p->reps_done));
	char text[400];
	snprintf(text, sizeof(text), "cell %zu/%zu rep %d/%d  %s  elapsed %s  ETA %s", cell, p->cells, rep, reps, what, el,
		 eta);
	if (p->obs->beat)
		p->obs->beat(p->obs->ctx, p->expect_s, text);
	/* a repetition of unknown length (size-based, exec) is told as running until the next */
	if (p->obs->ticking)
		p->obs->ticking(p->obs->ctx, p->expect_s <= 0, text);
}

void ior_progress_rep_done(struct ior_progress *p)
{
	p->reps_done++;
}

void ior_progress_finish(struct ior_progress *p)
{
	if (p->obs && p->obs->ticking)
		p->obs->ticking(p->obs->ctx, false, NULL);
	if (p->obs && p->obs->finish)
		p->obs->finish(p->obs->ctx);
}

static void terminal_beat(void *ctx, double expect_s, const char *text)
{
	(void)ctx;
	(void)expect_s;
	fprintf(stderr, "\r\033[K%s", text);
	fflush(stderr);
}

static void terminal_finish(void *ctx)
{
	(void)ctx;
	fputs("\r\033[K", stderr);
	fflush(stderr);
}

const struct ior_run_observer ior_run_terminal_observer = {
	.beat = terminal_beat,
	.finish = terminal_finish,
};
