/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for kernel/git_info.c and run/run_git.c on repositories built with libgit2: HEAD of a tree
 * and a -gSHA looked up record the exact sha, describe, subject, author and date; missing,
 * ambiguous and non-repositories are told apart, and which of them stops a run; probe shows the
 * same; the branch and remote a commit came from, and the URL and tree name kernel CI takes. */
#include "common/error.h"
#include "run/run_git.h"
#include "kernel/git_info.h"
#include "kernel/tree_name.h"
#include "tests/git_fixture.h"
#include "tests/suite.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct ior_test_repo repo;

static const struct ior_test_repo *the_repo(void)
{
	if (!repo.path[0])
		ior_test_repo_build(&repo, "linux");
	return &repo;
}

static void assert_commit(const struct ior_git_commit *c, const struct ior_test_repo *r, int i)
{
	CU_ASSERT_STRING_EQUAL(c->sha, r->sha[i]);
	CU_ASSERT_STRING_EQUAL(c->describe, r->describe[i]);
	CU_ASSERT_STRING_EQUAL(c->subject, ior_test_repo_subject[i]);
	CU_ASSERT_STRING_EQUAL(c->author_name, ior_test_repo_author[i]);
	CU_ASSERT_STRING_EQUAL(c->author_email, ior_test_repo_email[i]);
	CU_ASSERT_STRING_EQUAL(c->author_date, ior_test_repo_date[i]);
}

/* HEAD is the third commit: two after the tag, a subject without the body, -05:30 kept as written. */
static void test_head_of_a_tree_is_recorded_exactly(void)
{
	const struct ior_test_repo *r = the_repo();
	struct ior_git_commit c;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_git_head(&c, r->path)), IOR_OK);
	assert_commit(&c, r, 2);
	CU_ASSERT_EQUAL(strncmp(c.describe, "v1.0-2-g", 8), 0);
	CU_ASSERT_EQUAL(strlen(c.describe), strlen("v1.0-2-g") + 12);
	/* the .git directory itself names the same repository */
	char gitdir[4200];
	snprintf(gitdir, sizeof(gitdir), "%s/.git", r->path);
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_git_head(&c, gitdir)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(c.sha, r->sha[2]);
}

/* A 12-digit prefix, as CONFIG_LOCALVERSION_AUTO writes it, and the tagged commit itself. */
static void test_short_sha_is_looked_up(void)
{
	const struct ior_test_repo *r = the_repo();
	char prefix[13];
	snprintf(prefix, sizeof(prefix), "%.12s", r->sha[1]);
	struct ior_git_commit c;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_git_lookup(&c, r->path, prefix)), IOR_OK);
	assert_commit(&c, r, 1);
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_git_lookup(&c, r->path, r->sha[0])), IOR_OK);
	assert_commit(&c, r, 0);
}

static void test_missing_sha_is_not_found_and_named(void)
{
	const struct ior_test_repo *r = the_repo();
	struct ior_git_commit c;
	/* not a prefix of any of the three commits (checked, so the test cannot pass by luck) */
	const char *missing = "0123456789ab";
	for (int i = 0; i < 3; i++)
		CU_ASSERT_NOT_EQUAL_FATAL(strncmp(r->sha[i], missing, 12), 0);
	CU_ASSERT_EQUAL(ior_git_lookup(&c, r->path, missing), IOR_ENOTFOUND);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "commit '0123456789ab' not found"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), r->path));
	CU_ASSERT_STRING_EQUAL(c.sha, "");
}

static void test_ambiguous_sha_is_not_found_and_says_ambiguous(void)
{
	struct ior_test_repo r;
	ior_test_repo_build(&r, "crowded");
	char prefix[8];
	ior_test_repo_ambiguous_prefix(&r, prefix);
	struct ior_git_commit c;
	CU_ASSERT_EQUAL(ior_git_lookup(&c, r.path, prefix), IOR_ENOTFOUND);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "ambiguous"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), prefix));
}

static void test_bad_prefix_is_invalid(void)
{
	const struct ior_test_repo *r = the_repo();
	struct ior_git_commit c;
	CU_ASSERT_EQUAL(ior_git_lookup(&c, r->path, "abc"), IOR_EINVALID);      /* shorter than git allows */
	CU_ASSERT_EQUAL(ior_git_lookup(&c, r->path, "xyz12345"), IOR_EINVALID); /* not hex */
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "'xyz12345' is not a commit sha"));
}

/* A plain directory, a missing one, and a directory inside the work tree (not searched upward,
 * so a wrong path is not silently taken for the enclosing repository). */
static void test_not_a_repository_is_invalid_and_named(void)
{
	const struct ior_test_repo *r = the_repo();
	char plain[4200], inside[4200];
	snprintf(plain, sizeof(plain), "%s/plain", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkdir(plain, 0755), 0);
	snprintf(inside, sizeof(inside), "%s/drivers", r->path);
	CU_ASSERT_EQUAL_FATAL(mkdir(inside, 0755), 0);
	struct ior_git_commit c;
	const char *paths[] = { plain, inside };
	for (int i = 0; i < 2; i++) {
		CU_ASSERT_EQUAL(ior_git_head(&c, paths[i]), IOR_EINVALID);
		CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "not a git repository"));
		CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), paths[i]));
		CU_ASSERT_EQUAL(ior_git_lookup(&c, paths[i], "0123456789ab"), IOR_EINVALID);
	}
	CU_ASSERT_EQUAL(ior_git_head(&c, "/nonexistent/linux"), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "'/nonexistent/linux'"));
}

/* ioregress runs as root on a tree its user owns: libgit2's ownership check must not refuse it. */
static void test_tree_owned_by_another_user_is_read_as_root(void)
{
	if (geteuid() != 0) {
		ior_test_not_run("needs root to own a tree as another user");
		return;
	}
	struct ior_test_repo r;
	ior_test_repo_build(&r, "users-tree");
	char *chown_argv[] = { "chown", "-R", "65534:65534", r.path, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn(chown_argv, NULL), 0);
	struct ior_git_commit c;
	CU_ASSERT_EQUAL(ior_test_ok(ior_git_head(&c, r.path)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(c.sha, r.sha[2]);
}

/* --- run's policy (run/run_git.c) ---------------------------------------------- */

static int resolve(const char *release, const char *tree, const char *repo_path, struct ior_git_commit *c,
		   bool *found, char *warning, size_t len)
{
	return ior_run_git_resolve(release, tree, repo_path, c, found, warning, len);
}

static void test_run_repo_resolves_the_release_suffix(void)
{
	const struct ior_test_repo *r = the_repo();
	char release[128], warning[1024];
	snprintf(release, sizeof(release), "6.8.0-rc3-00042-g%.12s", r->sha[1]);
	struct ior_git_commit c;
	bool found = false;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(resolve(release, NULL, r->path, &c, &found, warning, sizeof(warning))), IOR_OK);
	CU_ASSERT_TRUE(found);
	CU_ASSERT_STRING_EQUAL(warning, "");
	assert_commit(&c, r, 1);
}

/* The repository cannot answer: a warning, and the run goes on (IOR_OK, nothing found). */
static void test_run_repo_missing_or_ambiguous_sha_is_a_warning(void)
{
	const struct ior_test_repo *r = the_repo();
	char warning[1024];
	struct ior_git_commit c;
	bool found = true;
	CU_ASSERT_EQUAL(resolve("6.8.0-rc3-00042-g0123456789ab", NULL, r->path, &c, &found, warning, sizeof(warning)),
			IOR_OK);
	CU_ASSERT_FALSE(found);
	CU_ASSERT_PTR_NOT_NULL(strstr(warning, "commit '0123456789ab' not found"));
	CU_ASSERT_PTR_NOT_NULL(strstr(warning, "6.8.0-rc3-00042-g0123456789ab"));

	struct ior_test_repo crowded;
	ior_test_repo_build(&crowded, "crowded-run");
	char prefix[8], release[64];
	ior_test_repo_ambiguous_prefix(&crowded, prefix);
	snprintf(release, sizeof(release), "6.8.0-00001-g%s", prefix);
	found = true;
	CU_ASSERT_EQUAL(resolve(release, NULL, crowded.path, &c, &found, warning, sizeof(warning)), IOR_OK);
	CU_ASSERT_FALSE(found);
	CU_ASSERT_PTR_NOT_NULL(strstr(warning, "ambiguous"));
}

/* Requests that cannot be right on this kernel stop the run before it starts. */
static void test_run_errors_name_the_path_and_the_release(void)
{
	const struct ior_test_repo *r = the_repo();
	char warning[1024], release[128];
	struct ior_git_commit c;
	bool found;
	/* --repo on a release with no -gSHA */
	CU_ASSERT_EQUAL(resolve("6.1.0-47-cloud-amd64", NULL, r->path, &c, &found, warning, sizeof(warning)), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "'6.1.0-47-cloud-amd64' has no -gSHA suffix"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), r->path));
	/* --repo and --kernel-tree on a directory that is no repository */
	snprintf(release, sizeof(release), "6.8.0-00042-g%.12s", r->sha[2]);
	CU_ASSERT_EQUAL(resolve(release, NULL, ior_test_tmpdir(), &c, &found, warning, sizeof(warning)), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "not a git repository"));
	CU_ASSERT_EQUAL(resolve("6.1.0-47-cloud-amd64", NULL, ior_test_tmpdir(), &c, &found, warning, sizeof(warning)),
			IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "not a git repository"));
	CU_ASSERT_EQUAL(resolve(release, ior_test_tmpdir(), NULL, &c, &found, warning, sizeof(warning)), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), ior_test_tmpdir()));
	/* --kernel-tree checked out at another commit than the release's -gSHA */
	snprintf(release, sizeof(release), "6.8.0-00042-g%.12s", r->sha[1]);
	CU_ASSERT_EQUAL(resolve(release, r->path, NULL, &c, &found, warning, sizeof(warning)), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "is at commit"));
	CU_ASSERT_FALSE(found);
	/* both */
	CU_ASSERT_EQUAL(resolve(release, r->path, r->path, &c, &found, warning, sizeof(warning)), IOR_EINVALID);
}

static void test_run_kernel_tree_takes_head(void)
{
	const struct ior_test_repo *r = the_repo();
	char warning[1024], release[128];
	struct ior_git_commit c;
	bool found = false;
	/* a release without -gSHA: HEAD as it is */
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(resolve("6.18.0", r->path, NULL, &c, &found, warning, sizeof(warning))), IOR_OK);
	CU_ASSERT_TRUE(found);
	assert_commit(&c, r, 2);
	/* one whose -gSHA is HEAD's */
	snprintf(release, sizeof(release), "6.8.0-rc3-00042-g%.12s-dirty", r->sha[2]);
	found = false;
	CU_ASSERT_EQUAL(ior_test_ok(resolve(release, r->path, NULL, &c, &found, warning, sizeof(warning))), IOR_OK);
	CU_ASSERT_TRUE(found);
	/* neither option: nothing to do */
	found = true;
	CU_ASSERT_EQUAL(resolve(release, NULL, NULL, &c, &found, warning, sizeof(warning)), IOR_OK);
	CU_ASSERT_FALSE(found);
}

/* probe shows what run would store, through the binary, and refuses what run refuses. */
static void test_probe_shows_the_commit(void)
{
	const struct ior_test_repo *r = the_repo();
	static char out[1 << 16], err[4096];
	char path[4200];
	snprintf(path, sizeof(path), "%s", r->path);
	char *args[] = { "probe", "--json", "--kernel-tree", path, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(args, out, sizeof(out), err, sizeof(err)), 0);
	char want[512];
	snprintf(want, sizeof(want), "\"git\":{\n      \"sha\":\"%s\",\n      \"describe\":\"%s\"", r->sha[2], r->describe[2]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"author_date\":\"2023-11-15T05:43:20+05:30\""));
	char *text_args[] = { "probe", "--kernel-tree", path, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(text_args, out, sizeof(out), err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "\ngit      %s (%s)\nsubject  %s\n", r->sha[2], r->describe[2], ior_test_repo_subject[2]);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	char plain[4200];
	snprintf(plain, sizeof(plain), "%s", ior_test_tmpdir());
	char *bad_args[] = { "probe", "--repo", plain, NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(bad_args, out, sizeof(out), err, sizeof(err)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a git repository"));
}

/* git -C path ARGS... (NULL-terminated); its exit status. */
#define git(path, ...) ior_test_spawn((char *[]){ "git", "-C", (char *)(path), __VA_ARGS__, NULL }, NULL)

/* Where a commit came from: HEAD's branch and the URL of the remote it tracks, else origin's; a
 * lookup by sha names the local branch whose tip it is, and none when no branch ends there; a
 * repository without remotes has no URL. */
static void test_branch_and_remote_are_recorded(void)
{
	struct ior_test_repo r;
	ior_test_repo_build(&r, "remotes");
	struct ior_git_commit c;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_git_head(&c, r.path)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(c.repository_url, "");
	CU_ASSERT_STRING_NOT_EQUAL(c.branch, "");
	char branch[256];
	snprintf(branch, sizeof(branch), "%s", c.branch);
	CU_ASSERT_EQUAL_FATAL(git(r.path, "remote", "add", "origin", "git@github.com:torvalds/linux.git"), 0);
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_git_head(&c, r.path)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(c.repository_url, "git@github.com:torvalds/linux.git");
	CU_ASSERT_STRING_EQUAL(c.branch, branch);
	assert_commit(&c, &r, 2);
	/* the branch tracks another remote: that one's URL */
	char key[300];
	snprintf(key, sizeof(key), "branch.%s.remote", branch);
	CU_ASSERT_EQUAL_FATAL(git(r.path, "remote", "add", "net", "https://git.kernel.org/pub/scm/linux/kernel/git/netdev/net-next.git"), 0);
	CU_ASSERT_EQUAL_FATAL(git(r.path, "config", key, "net"), 0);
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_git_head(&c, r.path)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(c.repository_url, "https://git.kernel.org/pub/scm/linux/kernel/git/netdev/net-next.git");
	/* a lookup of a commit no branch ends at: no branch, origin's URL; then a branch that ends there */
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_git_lookup(&c, r.path, r.sha[1])), IOR_OK);
	CU_ASSERT_STRING_EQUAL(c.branch, "");
	CU_ASSERT_STRING_EQUAL(c.repository_url, "git@github.com:torvalds/linux.git");
	CU_ASSERT_EQUAL_FATAL(git(r.path, "branch", "for-6.8", r.sha[1]), 0);
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_git_lookup(&c, r.path, r.sha[1])), IOR_OK);
	CU_ASSERT_STRING_EQUAL(c.branch, "for-6.8");
	/* HEAD detached at a commit no branch ends at */
	CU_ASSERT_EQUAL_FATAL(git(r.path, "branch", "-D", "for-6.8"), 0);
	CU_ASSERT_EQUAL_FATAL(git(r.path, "update-ref", "--no-deref", "HEAD", r.sha[1]), 0);
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_git_head(&c, r.path)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(c.sha, r.sha[1]);
	CU_ASSERT_STRING_EQUAL(c.branch, "");
}

/* A repository URL as KCIDB takes it (https only) and the name dashboards know its tree by. */
static void test_https_url_and_tree_name(void)
{
	static const struct {
		const char *url, *https, *tree;
	} cases[] = {
		{ "https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git",
		  "https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git", "mainline" },
		{ "git://git.kernel.org/pub/scm/linux/kernel/git/next/linux-next.git",
		  "https://git.kernel.org/pub/scm/linux/kernel/git/next/linux-next.git", "next" },
		{ "ssh://git@git.kernel.org:22/pub/scm/linux/kernel/git/stable/linux-stable-rc.git/",
		  "https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux-stable-rc.git/", "stable-rc" },
		{ "https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git",
		  "https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git", "stable" },
		{ "git@github.com:torvalds/linux.git", "https://github.com/torvalds/linux.git", "mainline" },
		{ "http://example.org/axboe/linux-block", "https://example.org/axboe/linux-block", "linux-block" },
		{ "/home/me/src/linux", "", "" },
		{ "file:///home/me/src/linux", "", "" },
		{ "../linux", "", "" },
		{ "", "", "" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char https[512], tree[64];
		bool ok = ior_git_https_url(https, sizeof(https), cases[i].url);
		ior_git_tree_name(tree, sizeof(tree), https);
		if (strcmp(https, cases[i].https) || strcmp(tree, cases[i].tree))
			fprintf(stderr, "\n  '%s': '%s' '%s'", cases[i].url, https, tree);
		CU_ASSERT_EQUAL(ok, cases[i].https[0] != 0);
		CU_ASSERT_STRING_EQUAL(https, cases[i].https);
		CU_ASSERT_STRING_EQUAL(tree, cases[i].tree);
	}
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_head_of_a_tree_is_recorded_exactly),
		IOR_TEST(test_short_sha_is_looked_up),
		IOR_TEST(test_missing_sha_is_not_found_and_named),
		IOR_TEST(test_ambiguous_sha_is_not_found_and_says_ambiguous),
		IOR_TEST(test_bad_prefix_is_invalid),
		IOR_TEST(test_not_a_repository_is_invalid_and_named),
		IOR_TEST(test_tree_owned_by_another_user_is_read_as_root),
		IOR_TEST(test_run_repo_resolves_the_release_suffix),
		IOR_TEST(test_run_repo_missing_or_ambiguous_sha_is_a_warning),
		IOR_TEST(test_run_errors_name_the_path_and_the_release),
		IOR_TEST(test_run_kernel_tree_takes_head),
		IOR_TEST(test_probe_shows_the_commit),
		IOR_TEST(test_branch_and_remote_are_recorded),
		IOR_TEST(test_https_url_and_tree_name),
		IOR_TEST_END,
	};
	return ior_test_run("git_info", tests);
}
