/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test repositories for the bisect suites, written with libgit2: commits whose file "level" is what
 * the test measure command reads. */
#ifndef IOR_TESTS_BISECT_REPO_H
#define IOR_TESTS_BISECT_REPO_H

#include <git2.h>
#include <stdbool.h>
#include <stddef.h>

/* A new repository at path (removed first); commits are added with ior_test_commit. */
git_repository *ior_test_repo_new(const char *path);
/* A commit with the files level (its content), n (a counter, so every tree differs) and, when
 * nobuild, a file "nobuild"; parents as given (0, 1 or 2). */
void ior_test_commit(git_repository *repo, const char *level, bool nobuild, const git_oid *parents, size_t nparents,
		     const char *subject, git_oid *out);
/* Points refs/heads/master at tip and checks it out (index and work tree), as a clone would be. */
void ior_test_repo_finish(git_repository *repo, const git_oid *tip);
/* A linear history of n commits, level 1000 before culprit and 900 from it on (culprit >= n: none);
 * commit nobuild (or -1) carries "nobuild". ids[i] gets each sha. */
void ior_test_linear_repo(const char *path, size_t n, size_t culprit, long nobuild, char (*ids)[GIT_OID_HEXSZ + 1]);

/* The measure command for the repositories: prints level * (1 + cov * N(0,1)), a fresh draw per
 * call seeded from IOR_TEST_SEED and a call counter in dir; written to dir/measure.sh. */
const char *ior_test_measure_script(const char *dir, double cov);

/* The same on a machine whose speed drifts with the call counter in dir: a random walk of walk
 * (log units) per call and steps of +-step (half to all of it) now and then, the whole path drawn
 * from IOR_TEST_SEED; written to dir/measure_drift.sh. */
const char *ior_test_measure_script_drift(const char *dir, double cov, double walk, double step);

/* The builds a bisect run's last line reports ("N build(s), ..."), 999 when it has none. */
size_t ior_test_builds_in(const char *text);

#endif
