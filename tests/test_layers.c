/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for ci/layers.sh: the tree follows the layer map, and a planted upward include, upward link
 * or out-of-order module each fail with the file and the arrow named. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Runs ci/layers.sh over root; its exit status, with its stderr in *err (freed by the caller). */
static int run_layers(const char *root, char **err)
{
	char script[4096];
	snprintf(script, sizeof(script), "%s", ior_test_source_path("ci/layers.sh"));
	const char *err_path = ior_test_path("layers.err");
	char *argv[] = { "bash", script, (char *)root, NULL };
	int rc = ior_test_spawn_to(argv, NULL, NULL, err_path);
	*err = ior_test_read_file(err_path, NULL);
	return rc;
}

/* A scratch tree with the real layer map, one header per module folder including its own, and a
 * top CMakeLists.txt adding the modules in the map's order; the planted change is the test's. */
static const char *scratch_tree(void)
{
	static char root[4096];
	snprintf(root, sizeof(root), "%s/tree", ior_test_tmpdir());
	char path[4200];
	CU_ASSERT_FATAL(mkdir(root, 0755) == 0 || ior_test_count_glob(root) == 1);
	snprintf(path, sizeof(path), "%s/ci", root);
	mkdir(path, 0755);
	char *map = ior_test_read_file(ior_test_source_path("ci/layers"), NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(map);
	ior_test_write_file("tree/ci/layers", map);
	char top[4096] = "";
	for (const char *line = map; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		char folder[64];
		if (*line == '#' || sscanf(line, "%63[a-z_]:", folder) != 1)
			continue;
		snprintf(path, sizeof(path), "%s/%s", root, folder);
		mkdir(path, 0755);
		char name[128], text[256];
		snprintf(name, sizeof(name), "tree/%s/%s.h", folder, folder);
		snprintf(text, sizeof(text), "#include \"%s/%s.h\"\n", folder, folder);
		ior_test_write_file(name, text);
		snprintf(top + strlen(top), sizeof(top) - strlen(top), "add_subdirectory(%s)\n", folder);
	}
	ior_test_write_file("tree/CMakeLists.txt", top);
	free(map);
	return root;
}

static void test_the_tree_follows_the_map(void)
{
	char *err = NULL;
	int rc = run_layers(ior_test_source_dir(), &err);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc != 0)
		fprintf(stderr, "%s", err ? err : "");
	free(err);
}

static void test_a_planted_upward_include_fails_naming_file_and_line(void)
{
	const char *root = scratch_tree();
	char *err = NULL;
	CU_ASSERT_EQUAL(run_layers(root, &err), 0);  /* the scratch tree alone passes */
	free(err);
	ior_test_write_file("tree/stats/planted.c", "#include <math.h>\n#include \"stats/stats.h\"\n#include \"reports/model.h\"\n");
	CU_ASSERT_EQUAL(run_layers(root, &err), 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "stats/planted.c:3: 'stats' may not include 'reports/model.h'"));
	CU_ASSERT_PTR_NULL(strstr(err, "planted.c:2"));
	free(err);
	/* sideways is as wrong as upwards: reports and vm sit on the same level */
	ior_test_write_file("tree/stats/planted.c", "#include \"common/common.h\"\n");
	ior_test_write_file("tree/vm/planted.h", "#include \"reports/reports.h\"\n");
	CU_ASSERT_EQUAL(run_layers(root, &err), 1);
	CU_ASSERT(err && strstr(err, "vm/planted.h:1: 'vm' may not include 'reports/reports.h'") != NULL);
	CU_ASSERT(!err || strstr(err, "stats/planted.c") == NULL);
	free(err);
	/* a module's subfolder is the module's: its includes are checked too (before, only the top level) */
	ior_test_write_file("tree/vm/planted.h", "\n");
	char sub[1200];
	snprintf(sub, sizeof(sub), "%s/stats/deep", root);
	mkdir(sub, 0755);
	ior_test_write_file("tree/stats/deep/planted.c", "#include \"stats/stats.h\"\n#include \"vm/vm.h\"\n");
	CU_ASSERT_EQUAL(run_layers(root, &err), 1);
	CU_ASSERT(err && strstr(err, "stats/deep/planted.c:2: 'stats' may not include 'vm/vm.h'") != NULL);
	free(err);
	unlink(ior_test_path("tree/stats/deep/planted.c"));
	rmdir(sub);
}

static void test_an_upward_link_or_module_order_fails(void)
{
	const char *root = scratch_tree();
	char *err = NULL;
	ior_test_write_file("tree/vm/planted.h", "\n");
	ior_test_write_file("tree/db/CMakeLists.txt", "ior_module(ior_db LINK ior_engines\n  ior_reports ior_common PkgConfig::SQLITE3)\n");
	CU_ASSERT_EQUAL(run_layers(root, &err), 1);
	CU_ASSERT(err && strstr(err, "db/CMakeLists.txt: 'db' may not link 'ior_reports'") != NULL);
	CU_ASSERT(!err || strstr(err, "ior_engines") == NULL);
	free(err);
	ior_test_write_file("tree/db/CMakeLists.txt", "ior_module(ior_db LINK ior_engines)\n");
	ior_test_write_file("tree/CMakeLists.txt", "add_subdirectory(common)\nadd_subdirectory(options)\nadd_subdirectory(device)\n"
			    "add_subdirectory(db)\nadd_subdirectory(engines)\n");
	CU_ASSERT_EQUAL(run_layers(root, &err), 1);
	CU_ASSERT(err && strstr(err, "'db' is added before 'engines'") != NULL);
	free(err);
}

static void test_a_map_arrow_to_a_higher_folder_fails(void)
{
	const char *root = scratch_tree();
	char *map = ior_test_read_file(ior_test_source_path("ci/layers"), NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(map);
	char *line = strstr(map, "\nstats: kernel\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	char edited[8192];
	snprintf(edited, sizeof(edited), "%.*s\nstats: kernel reports\n%s", (int)(line - map), map, line + strlen("\nstats: kernel\n"));
	ior_test_write_file("tree/ci/layers", edited);
	char *err = NULL;
	CU_ASSERT_EQUAL(run_layers(root, &err), 1);
	CU_ASSERT(err && strstr(err, "'stats' lists 'reports', which the map does not list before it") != NULL);
	free(err);
	free(map);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_the_tree_follows_the_map),
		IOR_TEST(test_a_planted_upward_include_fails_naming_file_and_line),
		IOR_TEST(test_an_upward_link_or_module_order_fails),
		IOR_TEST(test_a_map_arrow_to_a_higher_folder_fails),
		IOR_TEST_END,
	};
	return ior_test_run("layers", tests);
}
