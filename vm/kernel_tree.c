/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `vm run --tree`: each revision checked out in turn (libgit2, detached) and built, HEAD put back
 * after; the built kernels' commits tied to the runs their boots merged. */
#include "vm/kernel_build.h"

#include "common/error.h"
#include "db/db.h"

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int git_fail(const char *what, const char *subject)
{
	const git_error *e = git_error_last();
	return ior_error_set(IOR_EINVALID, "%s '%s': %s", what, subject, e && e->message ? e->message : "libgit2 error");
}

/* Detached checkout of rev (safe: local changes stop it rather than being lost). */
static int checkout(git_repository *repo, const char *rev, bool force)
{
	git_object *obj = NULL;
	git_commit *commit = NULL;
	git_checkout_options co;
	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy = force ? GIT_CHECKOUT_FORCE : GIT_CHECKOUT_SAFE;
	int rc = IOR_OK;
	if (git_revparse_single(&obj, repo, rev) != 0 || git_object_peel((git_object **)&commit, obj, GIT_OBJECT_COMMIT) != 0)
		rc = git_fail("cannot find revision", rev);
	else if (git_checkout_tree(repo, (git_object *)commit, &co) != 0)
		rc = git_fail("cannot check out", rev);
	else if (git_repository_set_head_detached(repo, git_commit_id(commit)) != 0)
		rc = git_fail("cannot detach HEAD at", rev);
	git_commit_free(commit);
	git_object_free(obj);
	return rc;
}

/* HEAD as it was: the branch it named, or its commit when detached. */
static void head_name(git_repository *repo, char *out, size_t len)
{
	git_reference *head = NULL;
	out[0] = '\0';
	if (git_repository_head(&head, repo) != 0)
		return;
	if (git_repository_head_detached(repo) == 1)
		git_oid_tostr(out, len, git_reference_target(head));
	else
		snprintf(out, len, "%s", git_reference_name(head));
	git_reference_free(head);
}

static int restore(git_repository *repo, const char *head)
{
	if (!head[0])
		return IOR_OK;
	if (strncmp(head, "refs/", 5))
		return checkout(repo, head, false);
	git_reference *ref = NULL;
	git_object *obj = NULL;
	git_checkout_options co;
	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy = GIT_CHECKOUT_SAFE;
	int rc = IOR_OK;
	if (git_reference_lookup(&ref, repo, head) != 0 || git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT) != 0 ||
	    git_checkout_tree(repo, obj, &co) != 0 || git_repository_set_head(repo, head) != 0)
		rc = git_fail("cannot check out again", head);
	git_object_free(obj);
	git_reference_free(ref);
	return rc;
}

int ior_vm_tree_build(struct ior_kbuild *builds, char (*specs)[IOR_VM_SPEC_MAX], const struct ior_kbuild_opts *o,
		      const char *const *revs, size_t n)
{
	git_repository *repo = NULL;
	char head[512] = "";
	git_libgit2_init();
	/* refused before the tree is touched: each build would refuse it again after a checkout */
	int rc = ior_kbuild_check_inputs(o);
	if (!rc)
		rc = git_repository_open(&repo, o->tree) == 0 ? IOR_OK : git_fail("not a git work tree", o->tree);
	if (!rc)
		head_name(repo, head, sizeof(head));
	for (size_t i = 0; !rc && i < n; i++) {
		rc = checkout(repo, revs[i], false);
		if (!rc)
			rc = ior_kernel_build(&builds[i], o);
		if (rc)
			ior_error_wrap(rc, "revision '%s'", revs[i]);
		else if (o->deb) /* a real machine's kernel: the package it installs */
			snprintf(specs[i], IOR_VM_SPEC_MAX, "%s", builds[i].deb);
		else
			snprintf(specs[i], IOR_VM_SPEC_MAX, "%s:%s", builds[i].image, builds[i].modules);
		/* said whatever the progress setting: what boots is not the revision alone */
		if (!rc && builds[i].dirty)
			fprintf(stderr, "vm: warning: %s was built with the tree's local changes (diff %.12s): its image is "
				"not the commit's\n", revs[i], builds[i].local_changes);
		if (!rc && o->progress)
			fprintf(stderr, "vm: %s is %.12s %s, %s in %.1f s\n", revs[i], builds[i].commit.sha, builds[i].release,
				builds[i].reused ? "reused" : "built", builds[i].seconds);
	}
	if (repo) { /* put HEAD back even after a failed build; the first error is kept */
		struct ior_error_state failed;
		ior_error_save(&failed, rc);
		rc = ior_error_restore(&failed, restore(repo, head));
	}
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}

/* A boot's kernel row gains the commit its tree was built from. */
struct ior_set_commit {
	struct ior_db *db;
	struct ior_db_commit commit;
};

static int set_commit(void *ctx, int64_t kernel_id)
{
	struct ior_set_commit *c = ctx;
	return ior_db_kernel_set_commit(c->db, kernel_id, &c->commit);
}

int ior_vm_tree_record_commits(struct ior_db *db, const struct ior_kbuild *builds, char (*specs)[IOR_VM_SPEC_MAX],
			       size_t n)
{
	int rc = IOR_OK;
	for (size_t i = 0; !rc && i < n; i++) {
		const struct ior_git_commit *c = &builds[i].commit;
		if (!c->sha[0])
			continue;
		struct ior_set_commit set = { db, { .sha = c->sha, .describe = c->describe, .subject = c->subject,
						    .author_name = c->author_name, .author_email = c->author_email,
						    .author_date = c->author_date, .repository_url = c->repository_url,
						    .branch = c->branch } };
		rc = ior_db_vm_kernel_ids(db, specs[i], set_commit, &set);
	}
	return rc;
}
