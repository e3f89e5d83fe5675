/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test repositories for the bisect suites: trees built in memory with libgit2 (blobs, a tree
 * builder, commits with any parents), then checked out. */
#include "tests/bisect_repo.h"
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned serial;

git_repository *ior_test_repo_new(const char *path)
{
	char cmd[1200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	if (system(cmd) != 0)
		return NULL;
	git_libgit2_init();
	git_repository *repo = NULL;
	if (git_repository_init(&repo, path, 0))
		return NULL;
	return repo;
}

static void add_blob(git_repository *repo, git_treebuilder *tb, const char *name, const char *text)
{
	git_oid blob;
	CU_ASSERT_EQUAL_FATAL(git_blob_create_from_buffer(&blob, repo, text, strlen(text)), 0);
	CU_ASSERT_EQUAL_FATAL(git_treebuilder_insert(NULL, tb, name, &blob, GIT_FILEMODE_BLOB), 0);
}

void ior_test_commit(git_repository *repo, const char *level, bool nobuild, const git_oid *parents, size_t nparents,
		     const char *subject, git_oid *out)
{
	git_treebuilder *tb = NULL;
	CU_ASSERT_EQUAL_FATAL(git_treebuilder_new(&tb, repo, NULL), 0);
	char n[32];
	snprintf(n, sizeof(n), "%u\n", ++serial);
	add_blob(repo, tb, "level", level);
	add_blob(repo, tb, "n", n);
	if (nobuild)
		add_blob(repo, tb, "nobuild", "1\n");
	git_oid tree_id;
	CU_ASSERT_EQUAL_FATAL(git_treebuilder_write(&tree_id, tb), 0);
	git_treebuilder_free(tb);
	git_tree *tree = NULL;
	CU_ASSERT_EQUAL_FATAL(git_tree_lookup(&tree, repo, &tree_id), 0);
	git_commit *pc[2] = { NULL, NULL };
	for (size_t i = 0; i < nparents; i++)
		CU_ASSERT_EQUAL_FATAL(git_commit_lookup(&pc[i], repo, &parents[i]), 0);
	git_signature *sig = NULL;
	CU_ASSERT_EQUAL_FATAL(git_signature_new(&sig, "Ada Tester", "ada@example.org", 1764547200 + serial * 60, 0), 0);
	CU_ASSERT_EQUAL_FATAL(git_commit_create(out, repo, NULL, sig, sig, NULL, subject, tree, nparents,
						(const git_commit **)pc), 0);
	git_signature_free(sig);
	for (size_t i = 0; i < nparents; i++)
		git_commit_free(pc[i]);
	git_tree_free(tree);
}

void ior_test_repo_finish(git_repository *repo, const git_oid *tip)
{
	git_reference *ref = NULL;
	CU_ASSERT_EQUAL_FATAL(git_reference_create(&ref, repo, "refs/heads/master", tip, 1, "test"), 0);
	git_reference_free(ref);
	CU_ASSERT_EQUAL_FATAL(git_repository_set_head(repo, "refs/heads/master"), 0);
	git_checkout_options co;
	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy = GIT_CHECKOUT_FORCE;
	CU_ASSERT_EQUAL_FATAL(git_checkout_head(repo, &co), 0);
}

void ior_test_linear_repo(const char *path, size_t n, size_t culprit, long nobuild, char (*ids)[GIT_OID_HEXSZ + 1])
{
	git_repository *repo = ior_test_repo_new(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(repo);
	git_oid prev, cur;
	for (size_t i = 0; i < n; i++) {
		char subject[64];
		snprintf(subject, sizeof(subject), "commit %zu%s", i, i == culprit ? ": the slow one" : "");
		ior_test_commit(repo, i >= culprit ? "900\n" : "1000\n", (long)i == nobuild, &prev, i ? 1 : 0, subject, &cur);
		if (ids)
			git_oid_tostr(ids[i], GIT_OID_HEXSZ + 1, &cur);
		prev = cur;
	}
	ior_test_repo_finish(repo, &cur);
	git_repository_free(repo);
	git_libgit2_shutdown();
}

/* Writes text to dir/name; path (len bytes) gets the file's path, which is returned. */
static const char *write_script(char *path, size_t len, const char *dir, const char *name, const char *text)
{
	snprintf(path, len, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	return path;
}

const char *ior_test_measure_script(const char *dir, double cov)
{
	static char path[1024];
	char text[2048];
	snprintf(text, sizeof(text),
		 "#!/bin/sh\n"
		 "# one sample: the checked-out commit's level with %g noise, a fresh draw per call\n"
		 "c=$(cat '%s/calls' 2>/dev/null || echo 0); c=$((c + 1)); echo $c > '%s/calls'\n"
		 "awk -v s=\"${IOR_TEST_SEED:-1}\" -v c=\"$c\" -v l=\"$(cat level)\" -v cov=%g 'BEGIN {\n"
		 "  srand(s * 100003 + c * 7919); u1 = rand(); u2 = rand(); if (u1 < 1e-12) u1 = 1e-12\n"
		 "  printf \"%%.4f\\n\", l * (1 + cov * sqrt(-2 * log(u1)) * cos(6.283185307 * u2)) }'\n",
		 cov, dir, dir, cov);
	return write_script(path, sizeof(path), dir, "measure.sh", text);
}

const char *ior_test_measure_script_drift(const char *dir, double cov, double walk, double step)
{
	static char path[1024];
	size_t len = sizeof(path);
	char text[4096];
	/* the machine's speed at call c, the same for every caller at that call: a mean-reverting random
	 * walk of walk per call, and a step of +-step (at least half of it) with probability 1/25 per call,
	 * both from the seed alone, so the drift is the test's own and replays exactly */
	snprintf(text, sizeof(text),
		 "#!/bin/sh\n"
		 "# one sample: the checked-out commit's level with %g noise, times a drifting machine speed\n"
		 "c=$(cat '%s/calls' 2>/dev/null || echo 0); c=$((c + 1)); echo $c > '%s/calls'\n"
		 "awk -v s=\"${IOR_TEST_SEED:-1}\" -v c=\"$c\" -v l=\"$(cat level)\" -v cov=%g -v walk=%g -v step=%g "
		 "'function g() { u1 = rand(); u2 = rand(); if (u1 < 1e-12) u1 = 1e-12\n"
		 "  return sqrt(-2 * log(u1)) * cos(6.283185307 * u2) }\n"
		 "BEGIN { srand(s * 7 + 1); w = 0; f = 0\n"
		 "  for (i = 1; i <= c; i++) { w = 0.97 * w + walk * g(); if (rand() < 0.04) {\n"
		 "    d = step * (0.5 + rand() / 2); f = (f > 0 || (f == 0 && rand() < 0.5)) ? -d : d } }\n"
		 "  srand(s * 100003 + c * 7919)\n"
		 "  printf \"%%.4f\\n\", l * exp(w + f) * (1 + cov * g()) }'\n",
		 cov, dir, dir, cov, walk, step);
	return write_script(path, len, dir, "measure_drift.sh", text);
}

size_t ior_test_builds_in(const char *text)
{
	const char *p = strstr(text, " build(s), ");
	if (!p)
		return 999;
	while (p > text && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return strtoul(p, NULL, 10);
}
