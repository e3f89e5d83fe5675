/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run --kernel-tree / --repo: the running kernel's commit through kernel/git_info, with the line
 * between an error and a warning. */
#include "run/run_git.h"

#include "common/error.h"
#include "kernel/version.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Where the line is drawn, and why. An error is a request that cannot be right on this kernel
 * whatever the repository holds: a path that is no repository (a typo), --repo on a release
 * with no -gSHA to look up, a tree checked out at another commit than the running kernel's.
 * Measuring anyway would store an hour of samples with no commit, or with the wrong one, which
 * is worse for a bisection than none; refusing costs a second and stores nothing. A warning is
 * a repository that is right but cannot answer yet: the sha is missing (not fetched) or
 * ambiguous. The kernel's identity still holds its short sha (kernels.git_commit), so the
 * samples stay tied to the commit, and a later run with --repo after a fetch fills the rest in. */
static int from_repo(const char *release, const char *short_sha, const char *repo, struct ior_git_commit *out,
		     bool *found, char *warning, size_t len)
{
	/* a path that is no repository is said first: it is wrong on any kernel */
	if (!short_sha[0] && ior_git_head(out, repo) == IOR_EINVALID)
		return ior_error_wrap(IOR_EINVALID, "--repo");
	if (!short_sha[0])
		return ior_error_set(IOR_EINVALID, "--repo '%s': the running kernel '%s' has no -gSHA suffix "
				     "(CONFIG_LOCALVERSION_AUTO) to look up; give --kernel-tree with the tree it was built from",
				     repo, release);
	int rc = ior_git_lookup(out, repo, short_sha);
	if (rc == IOR_ENOTFOUND) {
		snprintf(warning, len, "%s; kernel '%s' is recorded with its short sha only", ior_error_last(), release);
		ior_error_clear();
		return IOR_OK;
	}
	if (rc == IOR_OK)
		*found = true;
	return rc ? ior_error_wrap(rc, "--repo") : IOR_OK;
}

static int from_tree(const char *release, const char *short_sha, const char *tree, struct ior_git_commit *out,
		     bool *found)
{
	int rc = ior_git_head(out, tree);
	if (rc)
		return ior_error_wrap(rc, "--kernel-tree");
	if (short_sha[0] && strncasecmp(out->sha, short_sha, strlen(short_sha)) != 0)
		return ior_error_set(IOR_EINVALID, "--kernel-tree '%s' is at commit %.12s, but the running kernel '%s' was "
				     "built from %s: check that commit out, or give --repo '%s' to look it up",
				     tree, out->sha, release, short_sha, tree);
	*found = true;
	return IOR_OK;
}

int ior_run_git_resolve(const char *release, const char *kernel_tree, const char *repo, struct ior_git_commit *out,
			bool *found, char *warning, size_t len)
{
	*found = false;
	if (len)
		warning[0] = '\0';
	memset(out, 0, sizeof(*out));
	if (kernel_tree && repo)
		return ior_error_set(IOR_EINVALID, "give --kernel-tree or --repo, not both");
	if (!kernel_tree && !repo)
		return IOR_OK;
	struct ior_kver v;
	const char *short_sha = ior_kver_parse(release, &v) == IOR_OK ? v.commit : "";
	return kernel_tree ? from_tree(release, short_sha, kernel_tree, out, found)
			   : from_repo(release, short_sha, repo, out, found, warning, len);
}
