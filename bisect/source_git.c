/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The git candidate source: libgit2 resolves the ends, walks the commits the bad end reaches and no
 * good end does (merges included), and checks candidates out detached. */
#include "bisect/source.h"

#include "common/error.h"

#include <dirent.h>
#include <errno.h>
#include <git2.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct git_source {
	struct ior_bisect_source base;
	git_repository *repo;
	char workdir[4096];
	bool checked_out;   /* a checkout was made in this session */
};

static int git_fail(const char *what, const char *subject)
{
	const git_error *e = git_error_last();
	return ior_error_set(IOR_ERROR, "cannot %s '%s': %s", what, subject, e && e->message ? e->message : "libgit2 error");
}

static int resolve(git_repository *repo, const char *rev, git_oid *oid)
{
	git_object *obj = NULL, *commit = NULL;
	if (git_revparse_single(&obj, repo, rev) || git_object_peel(&commit, obj, GIT_OBJECT_COMMIT)) {
		git_object_free(obj);
		return ior_error_set(IOR_EINVALID, "'%s' is not a commit of the repository", rev);
	}
	git_oid_cpy(oid, git_object_id(commit));
	git_object_free(commit);
	git_object_free(obj);
	return IOR_OK;
}

struct oid_index {
	git_oid oid;
	size_t index;
};

static int by_oid(const void *a, const void *b)
{
	return git_oid_cmp(&((const struct oid_index *)a)->oid, &((const struct oid_index *)b)->oid);
}

static char *oid_str(const git_oid *oid)
{
	char *s = malloc(GIT_OID_HEXSZ + 1);
	if (s)
		git_oid_tostr(s, GIT_OID_HEXSZ + 1, oid);
	return s;
}

/* The commits bad reaches and no good does, parents first. */
static int walk(git_repository *repo, const git_oid *good, size_t ngood, const git_oid *bad, git_oid **out, size_t *n)
{
	git_revwalk *w = NULL;
	*out = NULL, *n = 0;
	if (git_revwalk_new(&w, repo) || git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE) ||
	    git_revwalk_push(w, bad)) {
		git_revwalk_free(w);
		return git_fail("walk the history of", git_repository_workdir(repo));
	}
	for (size_t i = 0; i < ngood; i++)
		if (git_revwalk_hide(w, &good[i])) {
			git_revwalk_free(w);
			return git_fail("walk the history of", git_repository_workdir(repo));
		}
	git_oid oid;
	size_t cap = 0;
	while (git_revwalk_next(&oid, w) == 0) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 256;
			git_oid *x = realloc(*out, cap * sizeof(*x));
			if (!x) {
				git_revwalk_free(w);
				return ior_error_set(IOR_ERROR, "out of memory");
			}
			*out = x;
		}
		git_oid_cpy(&(*out)[(*n)++], &oid);
	}
	git_revwalk_free(w);
	return IOR_OK;
}

static int add_commit(git_repository *repo, struct ior_bisect_graph *g, const git_oid *oid, const struct oid_index *map,
		      size_t n)
{
	git_commit *c = NULL;
	if (git_commit_lookup(&c, repo, oid))
		return git_fail("read commit", "?");
	size_t np = git_commit_parentcount(c), parents[64], k = 0;
	bool outside = false;
	for (size_t p = 0; p < np; p++) {
		struct oid_index key = { .oid = *git_commit_parent_id(c, (unsigned)p) };
		const struct oid_index *hit = bsearch(&key, map, n, sizeof(*map), by_oid);
		if (hit && k < 64)
			parents[k++] = hit->index;
		else
			outside = true;
	}
	const git_signature *a = git_commit_author(c);
	char author[320], date[32], id[GIT_OID_HEXSZ + 1];
	snprintf(author, sizeof(author), "%s <%s>", a->name, a->email);
	time_t t = (time_t)a->when.time;
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	git_oid_tostr(id, sizeof(id), oid);
	int rc = ior_bisect_graph_add(g, id, git_commit_summary(c), author, date, parents, k, outside);
	git_commit_free(c);
	return rc;
}

static int load(struct ior_bisect_source *s, const char *const *good, size_t ngood, const char *bad,
		struct ior_bisect_graph *g, char ***good_ids, char **bad_id)
{
	struct git_source *gs = (struct git_source *)s;
	git_oid *goids = calloc(ngood ? ngood : 1, sizeof(*goids)), boid, *all = NULL;
	struct oid_index *map = NULL;
	size_t n = 0;
	int rc = goids ? IOR_OK : ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; !rc && i < ngood; i++)
		rc = resolve(gs->repo, good[i], &goids[i]);
	if (!rc)
		rc = resolve(gs->repo, bad, &boid);
	if (!rc)
		rc = walk(gs->repo, goids, ngood, &boid, &all, &n);
	if (!rc && !n)
		rc = ior_error_set(IOR_EINVALID, "the bad end '%s' is reached from a good end: nothing to bisect", bad);
	if (!rc && !git_oid_equal(&all[n - 1], &boid))
		rc = ior_error_set(IOR_ERROR, "the walk from '%s' did not end at it", bad);
	if (!rc && !(map = malloc(n * sizeof(*map))))
		rc = ior_error_set(IOR_ERROR, "out of memory");
	for (size_t i = 0; !rc && i < n; i++)
		map[i] = (struct oid_index){ .oid = all[i], .index = i };
	if (!rc)
		qsort(map, n, sizeof(*map), by_oid);
	for (size_t i = 0; !rc && i < n; i++)
		rc = add_commit(gs->repo, g, &all[i], map, n);
	if (!rc)
		rc = ior_bisect_graph_finish(g);
	if (!rc) {
		*good_ids = calloc(ngood ? ngood : 1, sizeof(**good_ids));
		*bad_id = oid_str(&boid);
		for (size_t i = 0; *good_ids && i < ngood; i++)
			(*good_ids)[i] = oid_str(&goids[i]);
		if (!*good_ids || !*bad_id)
			rc = ior_error_set(IOR_ERROR, "out of memory");
	}
	free(goids), free(all), free(map);
	return rc;
}

/* force: overwrite tracked files that differ from HEAD (see prepare). */
static int checkout(git_repository *repo, const git_oid *oid, bool force)
{
	git_commit *c = NULL;
	git_checkout_options co;
	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy = force ? GIT_CHECKOUT_FORCE : GIT_CHECKOUT_SAFE;
	int rc = git_commit_lookup(&c, repo, oid) || git_checkout_tree(repo, (git_object *)c, &co);
	git_commit_free(c);
	return rc;
}

/* Whether any process has path open (every /proc/PID/fd link read; one we may not read counts as
 * holding it, so an unknown holder is never robbed of its lock). */
static bool held_open(const char *path)
{
	DIR *proc = opendir("/proc");
	if (!proc)
		return true;
	bool held = false;
	struct dirent *p;
	while (!held && (p = readdir(proc))) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9')
			continue;
		char dir[64];
		snprintf(dir, sizeof(dir), "/proc/%s/fd", p->d_name);
		DIR *fds = opendir(dir);
		if (!fds) {
			held = errno != ENOENT;   /* gone meanwhile: not a holder */
			continue;
		}
		struct dirent *f;
		while (!held && (f = readdir(fds))) {
			char link[320], target[PATH_MAX];
			snprintf(link, sizeof(link), "%s/%s", dir, f->d_name);
			ssize_t n = readlink(link, target, sizeof(target) - 1);
			if (n > 0) {
				target[n] = '\0';
				held = !strcmp(target, path);
			}
		}
		closedir(fds);
	}
	closedir(proc);
	return held;
}

/* A session killed while libgit2 wrote the index leaves .git/index.lock behind, and every later
 * checkout fails with "index is locked" (the resume test hit it once). At a session's first checkout
 * a lock that no process holds open is that leftover: removed, and said. */
static void remove_stale_index_lock(git_repository *repo)
{
	char lock[PATH_MAX];
	snprintf(lock, sizeof(lock), "%sindex.lock", git_repository_path(repo));
	if (access(lock, F_OK) != 0 || held_open(lock))
		return;
	if (unlink(lock) == 0)
		fprintf(stderr, "bisect: removed '%s', left by a session that was killed while it wrote the index\n", lock);
}

static int prepare(struct ior_bisect_source *s, const char *id)
{
	struct git_source *gs = (struct git_source *)s;
	git_oid oid;
	if (git_oid_fromstr(&oid, id))
		return ior_error_set(IOR_EINVALID, "'%s' is not a full commit id", id);
	/* The first checkout of a session is forced: a session killed halfway through a checkout
	 * leaves the tree between two commits, which a safe checkout takes for local changes (the
	 * resume test hit it). The tree was clean at start and is the bisection's until reset;
	 * later checkouts are safe, so changes made to tracked files meanwhile stop the run. */
	bool force = !gs->checked_out;
	if (force)
		remove_stale_index_lock(gs->repo);
	if (checkout(gs->repo, &oid, force) || git_repository_set_head_detached(gs->repo, &oid))
		return git_fail("check out", id);
	gs->checked_out = true;
	return IOR_OK;
}

static int describe(struct ior_bisect_source *s, const char *id, char *buf, size_t len)
{
	struct git_source *gs = (struct git_source *)s;
	git_oid oid;
	git_commit *c = NULL;
	buf[0] = '\0';
	if (git_oid_fromstr(&oid, id) || git_commit_lookup(&c, gs->repo, &oid))
		return IOR_OK;
	const git_signature *a = git_commit_author(c);
	snprintf(buf, len, "%s (%s <%s>)", git_commit_summary(c), a->name, a->email);
	git_commit_free(c);
	return IOR_OK;
}

/* Keeps libgit2's checkouts out of the build output: an in-memory ignore rule (never written to the
 * repository) for output, relative to the work tree workdir or absolute inside it. A checkout looks
 * into every untracked directory for files it might clobber, and gives up past 100 levels
 * ("directory nesting too deep"): a build output 600 directories deep stopped every later checkout,
 * and the one that puts the tree back. The artifact is the bisection's to manage (put back before
 * each measurement), so a checkout has no business in it. */
static int ignore_output(git_repository *repo, const char *workdir, const char *output)
{
	if (!output || !output[0])
		return IOR_OK;
	char real[PATH_MAX];
	const char *rel = output;
	size_t wl = strlen(workdir);
	while (wl > 1 && workdir[wl - 1] == '/')
		wl--;
	if (output[0] == '/') {
		if (realpath(output, real))
			output = real;
		if (strncmp(output, workdir, wl) || output[wl] != '/')
			return IOR_OK;   /* not in the tree: nothing a checkout would look into */
		rel = output + wl + 1;
	}
	while (rel[0] == '.' && rel[1] == '/')
		rel += 2;
	/* anchored at the top, every glob character taken literally */
	char rule[PATH_MAX * 2 + 4];
	size_t k = 0;
	rule[k++] = '/';
	for (const char *c = rel; *c && k < sizeof(rule) - 4; c++) {
		if (strchr("\\*?[]!# ", *c))
			rule[k++] = '\\';
		rule[k++] = *c;
	}
	while (k > 1 && rule[k - 1] == '/')
		k--;
	rule[k] = '\0';
	if (k <= 1)
		return IOR_OK;
	return git_ignore_add_rule(repo, rule) ? git_fail("keep checkouts out of", output) : IOR_OK;
}

int ior_bisect_source_git_output(struct ior_bisect_source *s, const char *output)
{
	if (strcmp(s->kind, "git"))
		return IOR_OK;
	struct git_source *gs = (struct git_source *)s;
	return ignore_output(gs->repo, gs->workdir, output);
}

static void source_free(struct ior_bisect_source *s)
{
	struct git_source *gs = (struct git_source *)s;
	git_repository_free(gs->repo);
	free(gs);
	git_libgit2_shutdown();
}

static int open_repo(git_repository **repo, const char *path)
{
	git_libgit2_init();
	if (git_repository_open_ext(repo, path, 0, NULL)) {
		int rc = ior_error_set(IOR_EINVALID, "'%s' is not a git repository", path);
		git_libgit2_shutdown();
		return rc;
	}
	if (git_repository_is_bare(*repo)) {
		git_repository_free(*repo);
		git_libgit2_shutdown();
		return ior_error_set(IOR_EINVALID, "'%s' is a bare repository: a bisection checks commits out", path);
	}
	return IOR_OK;
}

int ior_bisect_source_git(struct ior_bisect_source **out, const char *path)
{
	*out = NULL;
	struct git_source *gs = calloc(1, sizeof(*gs));
	if (!gs)
		return ior_error_set(IOR_ERROR, "out of memory");
	if (open_repo(&gs->repo, path)) {
		free(gs);
		return IOR_EINVALID;
	}
	snprintf(gs->workdir, sizeof(gs->workdir), "%s", git_repository_workdir(gs->repo));
	size_t l = strlen(gs->workdir);
	if (l > 1 && gs->workdir[l - 1] == '/')
		gs->workdir[l - 1] = '\0';
	gs->base = (struct ior_bisect_source){ .kind = "git", .location = gs->workdir, .load = load, .prepare = prepare,
					       .describe = describe, .free = source_free };
	*out = &gs->base;
	return IOR_OK;
}

int ior_bisect_git_clean(const char *path, char *head, size_t len)
{
	git_repository *repo;
	if (open_repo(&repo, path))
		return IOR_EINVALID;
	git_status_options so;
	git_status_options_init(&so, GIT_STATUS_OPTIONS_VERSION);
	so.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES;   /* untracked files (build output) are no obstacle */
	git_status_list *st = NULL;
	git_reference *ref = NULL;
	int rc = IOR_OK;
	if (git_status_list_new(&st, repo, &so))
		rc = git_fail("read the status of", path);
	else if (git_status_list_entrycount(st))
		rc = ior_error_set(IOR_EINVALID, "'%s' has %zu changed tracked file(s): commit or stash them before "
				   "bisecting", path, git_status_list_entrycount(st));
	else if (git_repository_head(&ref, repo))
		rc = git_fail("read HEAD of", path);
	else if (git_repository_head_detached(repo))
		git_oid_tostr(head, len, git_reference_target(ref));
	else
		snprintf(head, len, "%s", git_reference_name(ref));
	git_reference_free(ref);
	git_status_list_free(st);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}

int ior_bisect_git_restore(const char *path, const char *head, const char *output)
{
	git_repository *repo;
	if (open_repo(&repo, path))
		return IOR_EINVALID;
	git_oid oid;
	int rc = git_repository_workdir(repo) ? ignore_output(repo, git_repository_workdir(repo), output) : IOR_OK;
	if (rc) {
	} else if (!strncmp(head, "refs/", 5)) {
		if (git_reference_name_to_id(&oid, repo, head) || checkout(repo, &oid, true) ||
		    git_repository_set_head(repo, head))
			rc = git_fail("check out", head);
	} else if (git_oid_fromstr(&oid, head) || checkout(repo, &oid, true) ||
		   git_repository_set_head_detached(repo, &oid)) {
		rc = git_fail("check out", head);
	}
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}

void ior_bisect_source_free(struct ior_bisect_source *s)
{
	if (s)
		s->free(s);
}
