/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The git commit a kernel was built from, read with libgit2: full sha, git describe, subject, author and date. */
#ifndef IOR_KERNEL_GIT_INFO_H
#define IOR_KERNEL_GIT_INFO_H

/* Everything recorded about one commit. Strings are "" when unknown. */
struct ior_git_commit {
	char sha[41];           /* full lowercase hex */
	char describe[256];     /* `git describe` (annotated tags, 12-digit abbreviation); "" with no tag below it */
	char subject[1024];     /* the first paragraph of the message, on one line, as `git log --format=%s` */
	char author_name[256];
	char author_email[256];
	char author_date[32];   /* ISO 8601 in the author's own offset, as `%aI`: 2024-02-11T15:04:05+01:00 */
	char repository_url[1024]; /* the fetch URL of the branch's upstream remote, else of "origin"; "" with none */
	char branch[256];       /* the local branch checked out at the commit (HEAD) or whose tip it is; "" detached */
};

/* The commit HEAD points at in the repository at path, with HEAD's branch and its remote's URL
 * (a work tree, its .git, or a bare repository; a directory inside a work tree is not searched upward, so a path that is not
 * itself the tree is refused rather than resolved to some enclosing repository).
 * IOR_EINVALID when path is no git repository or HEAD is unborn. */
int ior_git_head(struct ior_git_commit *out, const char *path);

/* The commit whose sha starts with prefix (4 to 40 hex digits, as in a -gSHA release
 * suffix) in the repository at path, with the local branch whose tip it is (when one is) and that
 * branch's remote's URL ("origin"'s when none). IOR_EINVALID when path is no git repository or prefix
 * is not hex of that length; IOR_ENOTFOUND when no commit starts with it, or more than one
 * object does (the message says which). */
int ior_git_lookup(struct ior_git_commit *out, const char *path, const char *prefix);

#endif
