/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the git test programs share: a repository built with libgit2 with a known history (three
 * commits, an annotated tag), so describe, subject, author and date have known answers. */
#ifndef IOR_TESTS_GIT_FIXTURE_H
#define IOR_TESTS_GIT_FIXTURE_H

/* The repository's history, as written: first <- second <- third (HEAD, on main), with the
 * annotated tag v1.0 on first, so `git describe` of third is v1.0-2-g<12 hex>. */
struct ior_test_repo {
	char path[4096];
	char sha[3][41];              /* first, second, third */
	char describe[3][64];         /* "v1.0", "v1.0-1-g...", "v1.0-2-g..." as git writes them */
};

/* The authors and dates of the three commits, and their subjects (the third's message has a
 * body after a blank line, which the subject leaves out). */
extern const char *const ior_test_repo_subject[3];
extern const char *const ior_test_repo_author[3];
extern const char *const ior_test_repo_email[3];
extern const char *const ior_test_repo_date[3];  /* ISO 8601 in each author's own offset */

/* Builds the repository at DIR/name (a work tree with .git); fails the program when it cannot. */
void ior_test_repo_build(struct ior_test_repo *out, const char *name);

/* One more commit on HEAD (same tree, another author), its sha in sha. */
void ior_test_repo_commit(struct ior_test_repo *r, const char *message, char sha[41]);

/* Writes two blobs whose shas share their first 7 hex digits into the repository and returns
 * that prefix (7 digits and a NUL). */
void ior_test_repo_ambiguous_prefix(const struct ior_test_repo *r, char prefix[8]);

#endif
