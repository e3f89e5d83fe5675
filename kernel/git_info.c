/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The commit a kernel was built from, through libgit2: HEAD of a tree or a sha prefix in a
 * repository, with describe, subject, author and date. */
#include "kernel/git_info.h"

#include "common/error.h"

#include <ctype.h>
#include <errno.h>
#include <git2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define IOR_GIT_ABBREV 12 /* what the kernel's setlocalversion puts after -g */

static const char *git_message(void)
{
	const git_error *e = git_error_last();
	return e && e->message ? e->message : "unknown libgit2 error";
}

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

/* libgit2 is initialised per call (it counts): a command opens one repository once. */
static int open_repo(git_repository **repo, const char *path)
{
	*repo = NULL;
	struct stat st;
	if (stat(path, &st) != 0)
		return ior_error_errno(IOR_EINVALID, errno, "cannot open git repository '%s'", path);
	if (!S_ISDIR(st.st_mode))
		return ior_error_set(IOR_EINVALID, "cannot open git repository '%s': not a directory", path);
	/* ioregress runs as root and reads a tree its user owns. libgit2, like git, refuses a
	 * repository another user owns; that guards against running that user's hooks and
	 * filters, and here only objects and refs are read, nothing is checked out or run. */
	git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0);
	int rc = git_repository_open_ext(repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
	if (rc == GIT_ENOTFOUND)
		return ior_error_set(IOR_EINVALID, "not a git repository: '%s' (no .git in it)", path);
	if (rc < 0)
		return ior_error_set(IOR_EINVALID, "cannot open git repository '%s': %s", path, git_message());
	return IOR_OK;
}

/* Seconds since the epoch in the author's offset, as git's strict ISO 8601 (%aI). */
static void iso_date(char *out, size_t len, const git_time *t)
{
	int off = t->offset; /* minutes east of UTC */
	time_t local = (time_t)t->time + (time_t)off * 60;
	struct tm tm;
	if (!gmtime_r(&local, &tm)) {
		copy(out, len, "");
		return;
	}
	char day[24];
	strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm);
	int a = off < 0 ? -off : off;
	snprintf(out, len, "%s%c%02d:%02d", day, off < 0 ? '-' : '+', a / 60, a % 60);
}

/* `git describe` of the commit: annotated tags only, as git's default; "" with none below it. */
static int describe(char *out, size_t len, git_commit *c, const char *path)
{
	git_describe_options o;
	git_describe_options_init(&o, GIT_DESCRIBE_OPTIONS_VERSION);
	git_describe_format_options f;
	git_describe_format_options_init(&f, GIT_DESCRIBE_FORMAT_OPTIONS_VERSION);
	f.abbreviated_size = IOR_GIT_ABBREV;
	git_describe_result *res = NULL;
	git_buf buf = { 0 };
	copy(out, len, "");
	int rc = git_describe_commit(&res, (git_object *)c, &o);
	const git_error *e = rc < 0 ? git_error_last() : NULL;
	/* no tag below it; a repository with no tag at all is a describe-class error, not ENOTFOUND */
	if (rc == GIT_ENOTFOUND || (e && e->klass == GIT_ERROR_DESCRIBE))
		return IOR_OK;
	if (rc == 0)
		rc = git_describe_format(&buf, res, &f);
	if (rc == 0)
		copy(out, len, buf.ptr);
	int status = rc < 0 ? ior_error_set(IOR_ERROR, "cannot describe commit in '%s': %s", path, git_message()) : IOR_OK;
	git_buf_dispose(&buf);
	git_describe_result_free(res);
	return status;
}

static int fill(struct ior_git_commit *out, git_commit *c, const char *path)
{
	git_oid_tostr(out->sha, sizeof(out->sha), git_commit_id(c));
	copy(out->subject, sizeof(out->subject), git_commit_summary(c));
	const git_signature *a = git_commit_author(c);
	if (a) {
		copy(out->author_name, sizeof(out->author_name), a->name);
		copy(out->author_email, sizeof(out->author_email), a->email);
		iso_date(out->author_date, sizeof(out->author_date), &a->when);
	}
	return describe(out->describe, sizeof(out->describe), c, path);
}

/* The fetch URL of the remote a local branch (refname, NULL: none) tracks, else "origin"'s; a
 * repository with neither leaves it "": where a commit came from is a fact worth keeping, never a
 * reason to refuse a run. */
static void remote_url(struct ior_git_commit *out, git_repository *repo, const char *refname)
{
	git_buf name = { 0 }, url = { 0 };
	git_config *cfg = NULL;
	bool tracked = refname && git_branch_upstream_remote(&name, repo, refname) == 0;
	char key[512];
	snprintf(key, sizeof(key), "remote.%s.url", tracked ? name.ptr : "origin");
	/* the configured URL read as it is: git_remote_lookup's insteadOf rewriting leaked libpcre2's
	 * match data under LeakSanitizer (libgit2 1.5) */
	if (git_repository_config_snapshot(&cfg, repo) == 0 && git_config_get_string_buf(&url, cfg, key) == 0)
		copy(out->repository_url, sizeof(out->repository_url), url.ptr);
	git_config_free(cfg);
	git_buf_dispose(&url);
	git_buf_dispose(&name);
	git_error_clear();
}

/* The branch the commit was checked out from: HEAD's when HEAD is a branch at the commit, else the
 * first local branch whose tip is the commit (a lookup by sha); none, "" (a detached HEAD). */
static void branch_of(struct ior_git_commit *out, git_repository *repo, const git_oid *commit)
{
	git_reference *head = NULL, *ref = NULL;
	git_branch_iterator *it = NULL;
	git_branch_t type;
	if (git_repository_head(&head, repo) == 0 && git_reference_is_branch(head) && git_reference_target(head) &&
	    git_oid_equal(git_reference_target(head), commit)) {
		ref = head;
		head = NULL;
	} else if (git_branch_iterator_new(&it, repo, GIT_BRANCH_LOCAL) == 0) {
		while (git_branch_next(&ref, &type, it) == 0) {
			if (git_reference_target(ref) && git_oid_equal(git_reference_target(ref), commit))
				break;
			git_reference_free(ref);
			ref = NULL;
		}
	}
	if (ref)
		copy(out->branch, sizeof(out->branch), git_reference_shorthand(ref));
	remote_url(out, repo, ref ? git_reference_name(ref) : NULL);
	git_reference_free(ref);
	git_reference_free(head);
	git_branch_iterator_free(it);
	git_error_clear();
}

int ior_git_head(struct ior_git_commit *out, const char *path)
{
	memset(out, 0, sizeof(*out));
	git_libgit2_init();
	git_repository *repo = NULL;
	git_object *obj = NULL;
	int rc = open_repo(&repo, path);
	if (rc == IOR_OK && git_revparse_single(&obj, repo, "HEAD^{commit}") < 0)
		rc = ior_error_set(IOR_EINVALID, "cannot read HEAD of git repository '%s': %s", path, git_message());
	if (rc == IOR_OK)
		rc = fill(out, (git_commit *)obj, path);
	if (rc == IOR_OK)
		branch_of(out, repo, git_object_id(obj));
	git_object_free(obj);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}

static int check_prefix(const char *prefix)
{
	size_t n = strlen(prefix);
	bool hex = n >= GIT_OID_MINPREFIXLEN && n <= GIT_OID_HEXSZ;
	for (size_t i = 0; hex && i < n; i++)
		hex = isxdigit((unsigned char)prefix[i]);
	if (!hex)
		return ior_error_set(IOR_EINVALID, "'%s' is not a commit sha: need %d to %d hex digits", prefix,
				     GIT_OID_MINPREFIXLEN, GIT_OID_HEXSZ);
	return IOR_OK;
}

int ior_git_lookup(struct ior_git_commit *out, const char *path, const char *prefix)
{
	memset(out, 0, sizeof(*out));
	int rc = check_prefix(prefix);
	if (rc)
		return rc;
	git_libgit2_init();
	git_repository *repo = NULL;
	git_object *obj = NULL;
	rc = open_repo(&repo, path);
	git_oid oid;
	size_t n = strlen(prefix);
	if (rc == IOR_OK && git_oid_fromstrn(&oid, prefix, n) < 0)
		rc = ior_error_set(IOR_EINVALID, "'%s' is not a commit sha: %s", prefix, git_message());
	if (rc == IOR_OK) {
		int g = git_object_lookup_prefix(&obj, repo, &oid, n, GIT_OBJECT_COMMIT);
		if (g == GIT_EAMBIGUOUS)
			rc = ior_error_set(IOR_ENOTFOUND, "commit '%s' is ambiguous in git repository '%s': more than one "
					   "object starts with it", prefix, path);
		else if (g == GIT_ENOTFOUND)
			rc = ior_error_set(IOR_ENOTFOUND, "commit '%s' not found in git repository '%s'", prefix, path);
		else if (g < 0)
			rc = ior_error_set(IOR_ERROR, "cannot look up commit '%s' in git repository '%s': %s", prefix, path,
					   git_message());
	}
	if (rc == IOR_OK)
		rc = fill(out, (git_commit *)obj, path);
	if (rc == IOR_OK)
		branch_of(out, repo, git_object_id(obj));
	git_object_free(obj);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}
