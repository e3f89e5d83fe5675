/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The measuring step of the user's commands: sh -c in the work tree with IOREGRESS_COMMIT and IOREGRESS_REPO, samples read from the measure command's stdout. */
#include "bisect/measure.h"

#include "common/error.h"

#include <errno.h>
#include <stdbool.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct cmd_measure {
	struct ior_bisect_measure base;
	struct ior_bisect_commands c;
};

const char *ior_step_outcome_name(enum ior_step_outcome o)
{
	switch (o) {
	case IOR_STEP_OK: return "ok";
	case IOR_STEP_BUILD_FAILED: return "build failed";
	case IOR_STEP_BOOT_FAILED: return "boot failed";
	case IOR_STEP_MEASURE_FAILED: return "measure failed";
	}
	return "?";
}

/* Runs cmd under sh in the tree; its stdout into *text when text is not NULL (else inherited). */
static int run(const struct cmd_measure *m, const char *cmd, const char *id, char **text, int *status)
{
	int fd[2] = { -1, -1 };
	if (text && pipe(fd))
		return ior_error_set(IOR_ERROR, "cannot create a pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return ior_error_set(IOR_ERROR, "cannot fork: %s", strerror(errno));
	if (pid == 0) {
		if (text) {
			dup2(fd[1], STDOUT_FILENO);
			close(fd[0]), close(fd[1]);
		} else {
			dup2(STDERR_FILENO, STDOUT_FILENO);   /* build output goes where diagnostics go */
		}
		if (chdir(m->c.repo) || setenv("IOREGRESS_COMMIT", id, 1) || setenv("IOREGRESS_REPO", m->c.repo, 1))
			_exit(127);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	int rc = IOR_OK;
	if (text) {
		close(fd[1]);
		size_t len = 0, cap = 4096;
		char *buf = malloc(cap);
		for (;;) {
			if (!buf)
				break;
			ssize_t r = read(fd[0], buf + len, cap - len - 1);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			len += (size_t)r;
			if (cap - len < 2) {
				char *b = realloc(buf, cap * 2);
				if (!b) {
					free(buf);
					buf = NULL;
					break;
				}
				buf = b, cap *= 2;
			}
		}
		close(fd[0]);
		if (buf)
			buf[len] = '\0';
		else
			rc = ior_error_set(IOR_ERROR, "out of memory");
		*text = buf;
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return ior_error_set(IOR_ERROR, "cannot wait for '%s': %s", cmd, strerror(errno));
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return rc;
}

static int build(struct ior_bisect_measure *bm, const char *id, enum ior_step_outcome *out, char *image, size_t len)
{
	struct cmd_measure *m = (struct cmd_measure *)bm;
	*out = IOR_STEP_OK;
	image[0] = '\0';
	int status = 0;
	if (m->c.build && run(m, m->c.build, id, NULL, &status))
		return IOR_ERROR;
	if (status) {
		*out = IOR_STEP_BUILD_FAILED;
		return IOR_OK;
	}
	if (m->c.image) {
		char path[8192];
		git_oid oid;
		snprintf(path, sizeof(path), "%s/%s", m->c.repo, m->c.image);
		git_libgit2_init();
		if (git_odb_hashfile(&oid, path, GIT_OBJECT_BLOB) == 0)
			git_oid_tostr(image, len, &oid);
		else
			*out = IOR_STEP_BUILD_FAILED;   /* the build said ok and left no image */
		git_libgit2_shutdown();
	}
	return IOR_OK;
}

/* Every non-empty line of text is a sample; false when a line is not a number. */
static bool parse_samples(const char *text, double **x, size_t *n)
{
	const char *p = text;
	while (*p) {
		size_t l = strcspn(p, "\n");
		char line[128];
		snprintf(line, sizeof(line), "%.*s", (int)(l < sizeof(line) ? l : sizeof(line) - 1), p);
		p += l + (p[l] == '\n');
		char *s = line + strspn(line, " \t\r");
		if (!*s)
			continue;
		char *end;
		double v = strtod(s, &end);
		if (end == s || end[strspn(end, " \t\r")])
			return false;
		double *g = realloc(*x, (*n + 1) * sizeof(*g));
		if (!g)
			return false;
		*x = g;
		(*x)[(*n)++] = v;
	}
	return true;
}

static int measure(struct ior_bisect_measure *bm, const char *id, double **x, size_t *n, enum ior_step_outcome *out)
{
	struct cmd_measure *m = (struct cmd_measure *)bm;
	*out = IOR_STEP_OK;
	int status = 0;
	if (m->c.boot && run(m, m->c.boot, id, NULL, &status))
		return IOR_ERROR;
	if (status) {
		*out = IOR_STEP_BOOT_FAILED;
		return IOR_OK;
	}
	char *text = NULL;
	size_t before = *n;
	if (run(m, m->c.measure, id, &text, &status)) {
		free(text);
		return IOR_ERROR;
	}
	if (status || !parse_samples(text, x, n) || *n == before) {
		*n = before;
		*out = IOR_STEP_MEASURE_FAILED;
	}
	free(text);
	return IOR_OK;
}

static void measure_free(struct ior_bisect_measure *m)
{
	free(m);
}

int ior_bisect_measure_commands(struct ior_bisect_measure **out, const struct ior_bisect_commands *c)
{
	*out = NULL;
	if (!c->measure || !c->repo)
		return ior_error_set(IOR_EINVALID, "a measuring step needs a measure command and a work tree");
	struct cmd_measure *m = calloc(1, sizeof(*m));
	if (!m)
		return ior_error_set(IOR_ERROR, "out of memory");
	m->c = *c;
	m->base = (struct ior_bisect_measure){ .build = build, .measure = measure, .free = measure_free };
	*out = &m->base;
	return IOR_OK;
}

void ior_bisect_measure_free(struct ior_bisect_measure *m)
{
	if (m)
		m->free(m);
}
