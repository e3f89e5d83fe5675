/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The measuring step of the user's commands: sh -c in the work tree with IOREGRESS_COMMIT and
 * IOREGRESS_REPO, samples read from the measure command's stdout. */
#include "bisect/measure.h"

#include "bisect/artifact.h"
#include "common/error.h"
#include "common/spawn.h"
#include "common/stop.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A commit's artifact as its build left it: the hash, and (for a file) a copy in the store. */
struct built_artifact {
	char id[96];
	char hash[IOR_BISECT_ARTIFACT_HASH_LEN];
};

struct cmd_measure {
	struct ior_bisect_measure base;
	struct ior_bisect_commands c;
	/* Checking out another commit leaves the build output in the tree as the last build made it,
	 * so before each measurement the artifact is put back as this commit's build left it: copied
	 * from the store (a file) or built again (a directory, or a commit built in an earlier session). */
	struct built_artifact *built;
	size_t n_built;
	char store[PATH_MAX];   /* a directory of file artifacts by hash; "" until the first is kept */
	int store_lock;         /* held while the store is ours (a killed run's store is known by its free lock) */
	char last_built[96];    /* the commit the last build was of: its output is what the tree holds */
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

/* Runs cmd under sh in the tree with IOREGRESS_COMMIT and IOREGRESS_REPO, in a process group of its
 * own that ends with us; its stdout into *text (*text_len bytes) when text is not NULL, else to our
 * stderr (build output goes where diagnostics go); its stderr passed through. A stop request, the
 * timeout or too much output ends the whole group: a stop is IOR_EINTERRUPTED, a timeout is *status
 * 124 (timeout(1)'s) and too much output *status 1, each with a message. */
static int run(const struct cmd_measure *m, const char *cmd, const char *id, char **text, size_t *text_len, int *status)
{
	char commit[128], repo[8300];
	snprintf(commit, sizeof(commit), "IOREGRESS_COMMIT=%s", id);
	snprintf(repo, sizeof(repo), "IOREGRESS_REPO=%s", m->c.repo);
	struct ior_spawn c = { .shell = cmd, .env = (const char *const[]){ commit, repo, NULL }, .dir = m->c.repo,
			       .out_to = text ? IOR_SPAWN_OUT_CAPTURE : IOR_SPAWN_OUT_STDERR,
			       .err_to = IOR_SPAWN_ERR_INHERIT, .flags = IOR_SPAWN_GROUP, .limit_s = m->c.timeout_s,
			       .max_out = IOR_BISECT_MEASURE_MAX_OUTPUT };
	int rc = ior_spawn_run(&c);
	if (rc == IOR_EINTERRUPTED)
		rc = ior_error_set(IOR_EINTERRUPTED, "bisection interrupted by signal %d while '%s' ran (its process group "
				   "was ended); 'ioregress bisect run' resumes it", ior_stop_signal(), cmd);
	if (!rc && text) {
		*text = c.out ? c.out : strdup("");
		*text_len = c.out_len;
		c.out = NULL;
		if (!*text)
			rc = ior_error_set(IOR_ERROR, "out of memory");
	}
	ior_spawn_free(&c);
	if (rc)
		return rc;
	*status = WIFEXITED(c.status) ? WEXITSTATUS(c.status) : 128 + WTERMSIG(c.status);
	if (c.too_long) {
		*status = 1;
		fprintf(stderr, "bisect: '%s' at %s wrote more than %u bytes (1 MiB) to its output: its process group was "
			"ended, the step counts as failed\n", cmd, id, IOR_BISECT_MEASURE_MAX_OUTPUT);
	}
	if (c.timed_out) {
		*status = 124;
		fprintf(stderr, "bisect: '%s' at %s ran past --timeout %u s: its process group was ended, the step "
			"counts as failed\n", cmd, id, m->c.timeout_s);
	}
	return IOR_OK;
}

/* The artifact's path: relative to the tree, or absolute as given (it was joined to the tree and then
 * "did not build"). */
static void artifact_path(const struct cmd_measure *m, char *path, size_t len)
{
	snprintf(path, len, "%s%s%s", m->c.image[0] == '/' ? "" : m->c.repo, m->c.image[0] == '/' ? "" : "/", m->c.image);
}

static const struct built_artifact *known(const struct cmd_measure *m, const char *id)
{
	for (size_t i = m->n_built; i-- > 0;)
		if (!strcmp(m->built[i].id, id))
			return &m->built[i];
	return NULL;
}

/* Copies file from to a new file to (its permission bits kept) through a temporary name beside it;
 * false on any failure, with nothing left at to's temporary name. */
static bool copy_file(const char *from, const char *to)
{
	char tmp[8300];
	struct stat sb;
	/* not blocking in open: a FIFO put at from since it was hashed is refused below, not waited on */
	int in = open(from, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (in < 0 || fstat(in, &sb) || !S_ISREG(sb.st_mode)) {
		if (in >= 0)
			close(in);
		return false;
	}
	snprintf(tmp, sizeof(tmp), "%s.ioregress-%ld", to, (long)getpid());
	/* a new file of our own: a leftover of this name goes first, and a symlink planted in the
	 * tree under it cannot send the copy elsewhere (O_EXCL refuses to follow it) */
	unlink(tmp);
	int o = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, sb.st_mode & 07777);
	bool ok = o >= 0;
	char buf[65536];
	ssize_t r;
	while (ok && (r = read(in, buf, sizeof(buf))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		ok = r > 0 && write(o, buf, (size_t)r) == r;
	}
	close(in);
	if (o >= 0 && fchmod(o, sb.st_mode & 07777))   /* the mode open gave was masked by the umask */
		ok = false;
	if (o >= 0 && close(o))
		ok = false;
	if (ok && rename(tmp, to))
		ok = false;
	if (!ok)
		unlink(tmp);
	return ok;
}

/* Remembers the hash of id's artifact and keeps a copy of a file artifact in the store. A copy
 * that cannot be made only means a rebuild before that commit's measurements. */
static int keep(struct cmd_measure *m, const char *id, const char *path, const char *hash)
{
	struct built_artifact *b = realloc(m->built, (m->n_built + 1) * sizeof(*b));
	if (!b)
		return ior_error_set(IOR_ERROR, "out of memory");
	m->built = b;
	snprintf(b[m->n_built].id, sizeof(b->id), "%s", id);
	snprintf(b[m->n_built].hash, sizeof(b->hash), "%s", hash);
	m->n_built++;
	struct stat sb;
	if (stat(path, &sb) || !S_ISREG(sb.st_mode))
		return IOR_OK;
	if (!m->store[0] && ior_bisect_artifact_store_new(m->store, sizeof(m->store), &m->store_lock)) {
		fprintf(stderr, "bisect: %s; each commit's artifact is built again before its measurements\n",
			ior_error_last());
		ior_error_clear();
		return IOR_OK;
	}
	char f[PATH_MAX + 64];
	snprintf(f, sizeof(f), "%s/%s", m->store, hash);
	if (access(f, F_OK))
		copy_file(path, f);
	return IOR_OK;
}

/* Puts the stored copy of the artifact with this hash at path; false when there is none. */
static bool restore(const struct cmd_measure *m, const char *hash, const char *path)
{
	char f[PATH_MAX + 64];
	if (!m->store[0])
		return false;
	snprintf(f, sizeof(f), "%s/%s", m->store, hash);
	return !access(f, F_OK) && copy_file(f, path);
}

static int build(struct ior_bisect_measure *bm, const char *id, enum ior_step_outcome *out, char *image, size_t len)
{
	struct cmd_measure *m = (struct cmd_measure *)bm;
	*out = IOR_STEP_OK;
	image[0] = '\0';
	int status = 0;
	int rc = m->c.build ? run(m, m->c.build, id, NULL, NULL, &status) : IOR_OK;
	if (rc)
		return rc;
	if (m->c.build)
		snprintf(m->last_built, sizeof(m->last_built), "%s", id);
	if (status) {
		*out = IOR_STEP_BUILD_FAILED;
		return IOR_OK;
	}
	if (m->c.image) {
		char path[8192];
		artifact_path(m, path, sizeof(path));
		/* a symlink the build left may point out of the tree: a copy put back would land there */
		if ((rc = ior_bisect_artifact_inside(path, m->c.repo)))
			return rc;
		rc = ior_bisect_artifact_hash(path, image, len);
		/* a stop request while hashing is no verdict on the commit (it was once recorded as "the
		 * good end does not build") */
		if (rc == IOR_EINTERRUPTED || ior_stop_requested())
			return ior_error_set(IOR_EINTERRUPTED, "bisection interrupted by signal %d while the artifact '%s' of %s "
					     "was hashed; 'ioregress bisect run' resumes it", ior_stop_signal(), m->c.image, id);
		if (rc) {   /* the build said ok and left no artifact that can be hashed */
			*out = IOR_STEP_BUILD_FAILED;
			snprintf(bm->failure, sizeof(bm->failure), "the build left no artifact that can be hashed: %s",
				 ior_error_last());
			ior_error_clear();
			return IOR_OK;
		}
		if ((rc = keep(m, id, path, image)))
			return rc;
	}
	return IOR_OK;
}

/* Makes the artifact in the tree the one id's build left (*ok false when that cannot be done: the
 * measurement would measure another commit's build). */
static int artifact_in_place(struct cmd_measure *m, const char *id, bool *ok)
{
	char path[8192], now[IOR_BISECT_ARTIFACT_HASH_LEN];
	*ok = true;
	if (!m->c.image || !m->c.build)
		return IOR_OK;   /* without a build nothing but the checkout changes: the artifact is the tree's */
	bool same = false;
	if (m->base.artifact_blind) {
		/* the artifact tells no build from another: only the last build is known to be in the tree */
		same = !strcmp(m->last_built, id);
	} else {
		artifact_path(m, path, sizeof(path));
		const struct built_artifact *b = known(m, id);
		same = b && !ior_bisect_artifact_hash(path, now, sizeof(now)) && !strcmp(now, b->hash);
		if (b && !same && restore(m, b->hash, path))
			same = !ior_bisect_artifact_hash(path, now, sizeof(now)) && !strcmp(now, b->hash);
		ior_error_clear();
	}
	if (same)
		return IOR_OK;
	if (ior_stop_requested())
		return ior_error_set(IOR_EINTERRUPTED, "bisection interrupted by signal %d; 'ioregress bisect run' resumes it",
				     ior_stop_signal());
	/* no copy (a directory, or built before this session): build it again, and say so, as a resumed
	 * run's ends were once rebuilt with no line and the build count unchanged */
	fprintf(stderr, "bisect: building %.12s again to put its artifact '%s' back before it is measured (%s)\n", id,
		m->c.image, known(m, id) ? "the tree holds another build's and no copy of this one is kept"
					 : "it was built by an earlier run, whose copies are not kept");
	enum ior_step_outcome o;
	char hash[IOR_BISECT_ARTIFACT_HASH_LEN];
	int rc = build(&m->base, id, &o, hash, sizeof(hash));
	*ok = !rc && o == IOR_STEP_OK;
	if (!rc && !*ok)
		fprintf(stderr, "bisect: '%s' at %s: its build, run again to put its artifact '%s' back in place, failed\n",
			m->c.build, id, m->c.image);
	return rc;
}

static int measure(struct ior_bisect_measure *bm, const char *id, double **x, size_t *n, enum ior_step_outcome *out)
{
	struct cmd_measure *m = (struct cmd_measure *)bm;
	*out = IOR_STEP_OK;
	int status = 0;
	bool in_place;
	int rc = artifact_in_place(m, id, &in_place);
	if (rc)
		return rc;
	if (!in_place) {
		*out = IOR_STEP_MEASURE_FAILED;
		return IOR_OK;
	}
	rc = m->c.boot ? run(m, m->c.boot, id, NULL, NULL, &status) : IOR_OK;
	if (rc)
		return rc;
	if (status) {
		*out = IOR_STEP_BOOT_FAILED;
		snprintf(bm->failure, sizeof(bm->failure), "boot failed: '%s' ended with status %d", m->c.boot, status);
		return IOR_OK;
	}
	char *text = NULL;
	size_t before = *n, len = 0;
	if ((rc = run(m, m->c.measure, id, &text, &len, &status))) {
		free(text);
		return rc;
	}
	if (status) {
		*n = before;
		*out = IOR_STEP_MEASURE_FAILED;
	} else if (ior_bisect_parse_samples(text, len, x, n) != IOR_OK) {
		*out = IOR_STEP_MEASURE_FAILED;
		fprintf(stderr, "bisect: '%s' at %s: %s; the step counts as failed\n", m->c.measure, id, ior_error_last());
	}
	free(text);
	return IOR_OK;
}

static void measure_free(struct ior_bisect_measure *bm)
{
	struct cmd_measure *m = (struct cmd_measure *)bm;
	ior_bisect_artifact_store_remove(m->store, m->store_lock);
	free(m->built);
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
	m->store_lock = -1;
	/* refused before anything is built: each commit's artifact is copied back to this path */
	if (c->image) {
		char path[8192];
		artifact_path(m, path, sizeof(path));
		int rc = ior_bisect_artifact_inside(path, c->repo);
		if (rc) {
			free(m);
			return ior_error_wrap(rc, "--artifact");
		}
	}
	m->base = (struct ior_bisect_measure){ .build = build, .measure = measure, .free = measure_free };
	*out = &m->base;
	return IOR_OK;
}

void ior_bisect_measure_free(struct ior_bisect_measure *m)
{
	if (m)
		m->free(m);
}
