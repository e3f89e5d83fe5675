/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The git test fixture: a repository with a known history written through libgit2 (see git_fixture.h). */
#include "tests/git_fixture.h"

#include "tests/suite.h"

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const ior_test_repo_subject[3] = { "first commit", "block: add a queue", "block: fix the queue" };
const char *const ior_test_repo_author[3] = { "Ada Lovelace", "Grace Hopper", "Linus Torvalds" };
const char *const ior_test_repo_email[3] = { "ada@example.org", "grace@example.org", "torvalds@example.org" };
const char *const ior_test_repo_date[3] = { "2023-11-14T23:13:20+01:00", "2023-11-14T18:13:20-05:00",
					     "2023-11-15T05:43:20+05:30" };
static const git_time_t times[3] = { 1700000000, 1700003600, 1700007200 };
static const int offsets[3] = { 60, -300, 330 };  /* minutes east of UTC */
static const char *const messages[3] = { "first commit\n", "block: add a queue\n",
					 "block: fix the queue\n\nThe body, which is not the subject.\n" };

static void check(int rc, const char *what)
{
	if (rc < 0) {
		const git_error *e = git_error_last();
		fprintf(stderr, "git fixture: %s: %s\n", what, e && e->message ? e->message : "?");
		exit(1);
	}
}

/* A tree holding one file whose content differs per commit. */
static void tree_for(git_repository *repo, int i, git_tree **tree)
{
	char text[64];
	snprintf(text, sizeof(text), "version %d\n", i + 1);
	git_oid blob, oid;
	check(git_blob_create_from_buffer(&blob, repo, text, strlen(text)), "blob");
	git_treebuilder *tb;
	check(git_treebuilder_new(&tb, repo, NULL), "treebuilder");
	check(git_treebuilder_insert(NULL, tb, "Makefile", &blob, GIT_FILEMODE_BLOB), "tree insert");
	check(git_treebuilder_write(&oid, tb), "tree write");
	git_treebuilder_free(tb);
	check(git_tree_lookup(tree, repo, &oid), "tree lookup");
}

void ior_test_repo_build(struct ior_test_repo *out, const char *name)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->path, sizeof(out->path), "%s/%s", ior_test_tmpdir(), name);
	git_libgit2_init();
	git_repository *repo;
	check(git_repository_init(&repo, out->path, 0), "init");
	git_commit *parent = NULL;
	for (int i = 0; i < 3; i++) {
		git_signature *sig;
		check(git_signature_new(&sig, ior_test_repo_author[i], ior_test_repo_email[i], times[i], offsets[i]), "signature");
		git_tree *tree;
		tree_for(repo, i, &tree);
		git_oid oid;
		const git_commit *parents[1] = { parent };
		check(git_commit_create(&oid, repo, "HEAD", sig, sig, NULL, messages[i], tree, parent ? 1 : 0, parents),
		      "commit");
		git_tree_free(tree);
		git_commit_free(parent);
		check(git_commit_lookup(&parent, repo, &oid), "commit lookup");
		git_oid_tostr(out->sha[i], sizeof(out->sha[i]), &oid);
		if (i == 0) {
			git_oid tag;
			check(git_tag_create(&tag, repo, "v1.0", (const git_object *)parent, sig, "release 1.0\n", 0), "tag");
			snprintf(out->describe[i], sizeof(out->describe[i]), "v1.0");
		} else {
			snprintf(out->describe[i], sizeof(out->describe[i]), "v1.0-%d-g%.12s", i, out->sha[i]);
		}
		git_signature_free(sig);
	}
	git_commit_free(parent);
	git_repository_free(repo);
	git_libgit2_shutdown();
}

void ior_test_repo_commit(struct ior_test_repo *r, const char *message, char sha[41])
{
	git_libgit2_init();
	git_repository *repo;
	check(git_repository_open(&repo, r->path), "open");
	git_object *head;
	check(git_revparse_single(&head, repo, "HEAD^{commit}"), "HEAD");
	git_signature *sig;
	check(git_signature_new(&sig, "Someone Else", "else@example.org", 1700010800, 0), "signature");
	git_tree *tree;
	check(git_commit_tree(&tree, (git_commit *)head), "tree");
	const git_commit *parents[1] = { (git_commit *)head };
	git_oid oid;
	check(git_commit_create(&oid, repo, "HEAD", sig, sig, NULL, message, tree, 1, parents), "commit");
	git_oid_tostr(sha, 41, &oid);
	git_tree_free(tree);
	git_signature_free(sig);
	git_object_free(head);
	git_repository_free(repo);
	git_libgit2_shutdown();
}

/* Two blob contents whose shas share their first 7 hex digits (found once by search, offline):
 * the shortest abbreviation git writes, so a release's -gSHA can be ambiguous with them. */
static const char *const colliding[2] = { "collide 826\n", "collide 4561\n" };
static const char collision[] = "b2664c8";

void ior_test_repo_ambiguous_prefix(const struct ior_test_repo *r, char prefix[8])
{
	git_libgit2_init();
	git_repository *repo;
	check(git_repository_open(&repo, r->path), "open");
	for (int i = 0; i < 2; i++) {
		git_oid oid;
		check(git_blob_create_from_buffer(&oid, repo, colliding[i], strlen(colliding[i])), "blob");
		char hex[41];
		git_oid_tostr(hex, sizeof(hex), &oid);
		if (strncmp(hex, collision, 7) != 0) {
			fprintf(stderr, "git fixture: blob %s does not start with %s\n", hex, collision);
			exit(1);
		}
	}
	memcpy(prefix, collision, 8);
	git_repository_free(repo);
	git_libgit2_shutdown();
}
