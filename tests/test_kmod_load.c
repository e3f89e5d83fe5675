/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for kernel/modules loading: insert a scheduler module into the running kernel, record it,
 * unload exactly it. Needs root and a module tree. */
#include "common/error.h"
#include "kernel/modules.h"
#include "tests/suite.h"

#include <glob.h>
#include <stdio.h>
#include <string.h>

static struct ior_kmod *k;
static const char *module;  /* a scheduler module that is loadable and not loaded */
static const char *sched;   /* the name sysfs lists for it */

static bool sysfs_lists(const char *name)
{
	glob_t g;
	bool found = false;
	if (glob("/sys/block/*/queue/scheduler", 0, NULL, &g) != 0)
		return false;
	for (size_t i = 0; i < g.gl_pathc && !found; i++) {
		char line[512] = "";
		FILE *f = fopen(g.gl_pathv[i], "r");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f))
			for (char *tok = strtok(line, " []\n"); tok && !found; tok = strtok(NULL, " []\n"))
				found = strcmp(tok, name) == 0;
		fclose(f);
	}
	globfree(&g);
	return found;
}

static void choose_module(void)
{
	static const char *const candidates[][2] = {
		{ "kyber-iosched", "kyber" }, { "bfq", "bfq" }, { "mq-deadline", "mq-deadline" },
	};
	for (size_t i = 0; i < 3; i++) {
		enum ior_mod_state st;
		if (ior_kmod_state(k, candidates[i][0], &st) == IOR_OK && st == IOR_MOD_LOADABLE) {
			module = candidates[i][0];
			sched = candidates[i][1];
			return;
		}
	}
	ior_test_skip("no scheduler module of kernel %s is loadable and not loaded", ior_kmod_release(k));
}

static void test_load_records_and_unload_removes_exactly_it(void)
{
	CU_ASSERT_EQUAL_FATAL(ior_kmod_load(k, module), IOR_OK);
	CU_ASSERT_FATAL(ior_kmod_loaded_count(k) >= 1);
	char norm[64];
	snprintf(norm, sizeof(norm), "%s", module);
	for (char *p = norm; *p; p++)
		if (*p == '-')
			*p = '_';
	CU_ASSERT_STRING_EQUAL(ior_kmod_loaded_name(k, ior_kmod_loaded_count(k) - 1), norm);
	enum ior_mod_state st;
	CU_ASSERT_EQUAL(ior_kmod_state(k, module, &st), IOR_OK);
	CU_ASSERT_EQUAL(st, IOR_MOD_LOADED);
	CU_ASSERT_TRUE(sysfs_lists(sched));

	/* loading what is loaded records nothing more */
	size_t n = ior_kmod_loaded_count(k);
	CU_ASSERT_EQUAL(ior_kmod_load(k, module), IOR_OK);
	CU_ASSERT_EQUAL(ior_kmod_loaded_count(k), n);

	CU_ASSERT_EQUAL(ior_kmod_unload_recorded(k), IOR_OK);
	CU_ASSERT_EQUAL(ior_kmod_loaded_count(k), 0);
	CU_ASSERT_EQUAL(ior_kmod_state(k, module, &st), IOR_OK);
	CU_ASSERT_EQUAL(st, IOR_MOD_LOADABLE);
	CU_ASSERT_FALSE(sysfs_lists(sched));
}

static void test_unknown_module_is_not_found_and_not_recorded(void)
{
	CU_ASSERT_EQUAL(ior_kmod_load(k, "no-such-iosched"), IOR_ENOTFOUND);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "'no-such-iosched'"));
	CU_ASSERT_EQUAL(ior_kmod_loaded_count(k), 0);
}

int main(void)
{
	ior_test_require_root("loads kernel modules");
	if (ior_kmod_open(&k, NULL, NULL) != IOR_OK)
		ior_test_skip("cannot open the running kernel's module tree: %s", ior_error_last());
	if (!ior_kmod_has_tree(k))
		ior_test_skip("kernel %s has no module tree (%s)", ior_kmod_release(k), ior_kmod_tree(k));
	choose_module();
	static const struct ior_test tests[] = {
		IOR_TEST(test_load_records_and_unload_removes_exactly_it),
		IOR_TEST(test_unknown_module_is_not_found_and_not_recorded),
		IOR_TEST_END,
	};
	int rc = ior_test_run("kmod_load", tests);
	/* a failed assertion must not leave a module behind */
	ior_kmod_unload_recorded(k);
	ior_kmod_free(k);
	return rc;
}
