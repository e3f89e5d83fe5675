/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A kernel build's progress on stderr while make runs (see kernel_build_progress.h): a cold
 * tinyconfig build ran 54 minutes with one line at its start and one at its end. */
#include "vm/kernel_build_progress.h"

#include "common/error.h"
#include "vm/kernel_build.h"

#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Seconds between two lines: a line a minute would leave a tester guessing, one a second floods a log. */
#define EVERY_S 15

struct ior_kbuild_progress {
	pthread_t tid;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop;
	char what[32], log[PATH_MAX + 16], count[PATH_MAX + 16], build[PATH_MAX + 8];
	long from;        /* the log's size when make started: its lines before are another make's */
	long total;       /* objects of a full build, from objects.count; 0 unknown */
	bool cold;        /* no vmlinux when make started */
	long n;           /* compile lines seen so far */
	char now[160];    /* the last step make printed */
	double t0;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void clock_text(char *out, size_t len, double s)
{
	long t = s > 0 ? (long)(s + 0.5) : 0;
	if (t >= 3600)
		snprintf(out, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(out, len, "%02ld:%02ld", t / 60, t % 60);
}

void ior_kbuild_progress_line(char *out, unsigned long len, const char *what, long n, long total, bool cold,
			      double elapsed, const char *now)
{
	char el[32], left[64] = "", of[48] = "";
	clock_text(el, sizeof(el), elapsed);
	if (total > 0 && cold)
		snprintf(of, sizeof(of), " of ~%ld", total);
	/* only a cold build's pace says anything about what is left: a rebuild compiles what changed */
	if (total > 0 && cold && n > 0 && n < total) {
		char t[32];
		clock_text(t, sizeof(t), elapsed * (double)(total - n) / (double)n);
		snprintf(left, sizeof(left), ", about %s left", t);
	}
	snprintf(out, len, "kernel %s: %ld%s objects compiled, %s elapsed%s%s%s%s", what, n, of, el, left,
		 now && now[0] ? " (now: " : "", now && now[0] ? now : "", now && now[0] ? ")" : "");
}

void ior_kbuild_progress_scan(const char *log, long *from, long *n, char *now, size_t now_len)
{
	FILE *f = fopen(log, "r");
	if (!f || fseek(f, *from, SEEK_SET) != 0) {
		if (f)
			fclose(f);
		return;
	}
	/* getline, not a fixed buffer: openssl's GENKEY prints thousands of progress dots on one line,
	 * and a line longer than the buffer was taken for one make was still writing, so the count
	 * stopped there for the rest of the build (stuck at 415 of 2,468 objects for 27 minutes) */
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	while ((got = getline(&line, &cap, f)) > 0) {
		size_t len = (size_t)got;
		if (line[len - 1] != '\n')
			break; /* a line make is still writing: read it whole next time */
		*from += (long)len;
		if (strncmp(line, "  ", 2) != 0 || line[2] == ' ')
			continue;
		line[len - 1] = '\0';
		if (!strncmp(line, "  CC ", 5) || !strncmp(line, "  AS ", 5) || !strncmp(line, "  HOSTCC ", 9))
			(*n)++;
		/* "  LD      vmlinux" -> "LD vmlinux" */
		char *word = line + 2, *rest = word + strcspn(word, " ");
		rest += strspn(rest, " ");
		snprintf(now, now_len, "%.*s %s", (int)strcspn(word, " "), word, rest);
	}
	free(line);
	fclose(f);
}

static void *run(void *arg)
{
	struct ior_kbuild_progress *p = arg;
	pthread_mutex_lock(&p->mu);
	while (!p->stop) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += EVERY_S;
		while (!p->stop && pthread_cond_timedwait(&p->cv, &p->mu, &until) != ETIMEDOUT)
			;
		if (p->stop)
			break;
		ior_kbuild_progress_scan(p->log, &p->from, &p->n, p->now, sizeof(p->now));
		char text[400];
		ior_kbuild_progress_line(text, sizeof(text), p->what, p->n, p->total, p->cold, now_s() - p->t0, p->now);
		fprintf(stderr, "%s\n", text);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

static long file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long)st.st_size : 0;
}

int ior_kbuild_progress_start(struct ior_kbuild_progress **out, const char *what, const char *log, const char *dir,
			      const char *build)
{
	*out = NULL;
	struct ior_kbuild_progress *p = calloc(1, sizeof(*p));
	if (!p)
		return ior_error_set(IOR_ERROR, "out of memory");
	snprintf(p->what, sizeof(p->what), "%s", what);
	snprintf(p->log, sizeof(p->log), "%s", log);
	snprintf(p->count, sizeof(p->count), "%s/objects.count", dir);
	snprintf(p->build, sizeof(p->build), "%s", build);
	p->from = file_size(log);
	char vmlinux[PATH_MAX + 16];
	snprintf(vmlinux, sizeof(vmlinux), "%s/vmlinux", build);
	struct stat st;
	p->cold = stat(vmlinux, &st) != 0;
	FILE *f = fopen(p->count, "r");
	if (!f || fscanf(f, "%ld", &p->total) != 1)
		p->total = 0;
	if (f)
		fclose(f);
	p->t0 = now_s();
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	if (pthread_create(&p->tid, NULL, run, p) != 0) {
		pthread_mutex_destroy(&p->mu);
		pthread_cond_destroy(&p->cv);
		free(p);
		return ior_error_set(IOR_ERROR, "cannot start the progress thread");
	}
	*out = p;
	return IOR_OK;
}

/* nftw has no context argument: the count while it walks. */
static long objects;

static int count_object(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	size_t len = strlen(path);
	if (type == FTW_F && S_ISREG(st->st_mode) && len > 2 && !strcmp(path + len - 2, ".o"))
		objects++;
	return 0;
}

void ior_kbuild_progress_stop(struct ior_kbuild_progress *p, bool succeeded)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = true;
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->tid, NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	objects = 0;
	if (succeeded && nftw(p->build, count_object, 16, FTW_PHYS) == 0 && objects > 0) {
		char text[32];
		int n = snprintf(text, sizeof(text), "%ld\n", objects);
		if (ior_kbuild_write_private(p->count, text, (size_t)n) != IOR_OK)
			ior_error_clear(); /* only the next build's total is lost */
	}
	free(p);
}
