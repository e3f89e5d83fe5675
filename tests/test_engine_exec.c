/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the exec engine and its argument splitting: commands run without a shell, timed with
 * the child's own CPU figures. */
#include "common/error.h"
#include "engines/engine.h"
#include "common/spawn.h"
#include "tests/engine_fixture.h"
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const struct ior_engine_ops ior_engine_exec;

static const struct ior_target no_target = { .name = "none", .path = "/nonexistent" };

/* kv pairs → options → init + measure + cleanup. */
static int run_exec(const char *const *kv, struct ior_sample *out)
{
	void *opts = ior_test_engine_opts(&ior_engine_exec, kv);
	struct ior_engine_args args = { .opts = opts, .target = &no_target,
					.deadline_s = IOR_ENGINE_DEADLINE_SECONDS };
	void *state = NULL;
	int rc = ior_engine_exec.init(&state, &args);
	if (rc == IOR_OK)
		rc = ior_engine_exec.measure(state, out);
	ior_engine_exec.cleanup(state);
	ior_test_engine_opts_free(&ior_engine_exec, opts);
	return rc;
}

static void check_split(const char *line, const char *const *want)
{
	char **argv = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(ior_argv_split(&argv, line)), IOR_OK);
	size_t i = 0;
	for (; want[i]; i++) {
		CU_ASSERT_PTR_NOT_NULL_FATAL(argv[i]);
		CU_ASSERT_STRING_EQUAL(argv[i], want[i]);
	}
	CU_ASSERT_PTR_NULL(argv[i]);
	ior_argv_free(argv);
}

static void test_split_rules(void)
{
	check_split("make -j2", (const char *[]){ "make", "-j2", NULL });
	check_split("  a\t b \n", (const char *[]){ "a", "b", NULL });
	check_split("echo a;b | c > d && $(e) `f` *", (const char *[]){ "echo", "a;b", "|", "c", ">", "d", "&&", "$(e)", "`f`", "*", NULL });
	check_split("'a b' \"c \\\"d\\\" \\\\ \\n\" e\\ f ''", (const char *[]){ "a b", "c \"d\" \\ \\n", "e f", "", NULL });
	check_split("x'y'\"z\"", (const char *[]){ "xyz", NULL });
	check_split("", (const char *[]){ NULL });
	char **argv = NULL;
	CU_ASSERT_EQUAL(ior_argv_split(&argv, "echo 'open"), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "unterminated ' quote"));
	CU_ASSERT_EQUAL(ior_argv_split(&argv, "echo \"open"), IOR_EINVALID);
	CU_ASSERT_EQUAL(ior_argv_split(&argv, "echo \\"), IOR_EINVALID);
	CU_ASSERT_PTR_NULL(argv);
}

static void test_runs_and_times_a_command(void)
{
	struct ior_sample s;
	/* dd burns its own CPU: the child's usr+sys must show it and stay within wall time × cores. */
	const char *kv[] = { "command", "dd if=/dev/zero of=/dev/null bs=64k count=20000", NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ok(run_exec(kv, &s)), IOR_OK);
	CU_ASSERT_STRING_EQUAL(s.unit, "s");
	CU_ASSERT_FALSE(s.higher_is_better);
	CU_ASSERT_TRUE(s.wall_s > 0);
	CU_ASSERT_DOUBLE_EQUAL(s.value, s.wall_s, 1e-12);
	CU_ASSERT_TRUE(s.usr_s + s.sys_s > 0);
	CU_ASSERT_TRUE(s.usr_s + s.sys_s <= s.wall_s * sysconf(_SC_NPROCESSORS_ONLN) + 0.01);
	CU_ASSERT_PTR_NOT_NULL(strstr(s.detail, "exec dd if=/dev/zero"));
}

/* Shell syntax must reach the program as plain arguments. */
static void test_never_uses_a_shell(void)
{
	struct ior_sample s;
	/* One argument "a;b": true only if test(1) sees exactly  a;b = a;b. */
	const char *same[] = { "command", "/usr/bin/test 'a;b' = a\\;b", NULL };
	CU_ASSERT_EQUAL(ior_test_ok(run_exec(same, &s)), IOR_OK);
	const char *differ[] = { "command", "/usr/bin/test 'a;b' = a", NULL };
	CU_ASSERT_EQUAL(run_exec(differ, &s), IOR_ERROR);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "exited with status 1"));
	/* A shell would create these files; echo just prints the words to /dev/null. */
	char cmd[2048], marker1[512], marker2[512];
	snprintf(marker1, sizeof(marker1), "%s/redirected", ior_test_tmpdir());
	snprintf(marker2, sizeof(marker2), "%s/substituted", ior_test_tmpdir());
	snprintf(cmd, sizeof(cmd), "echo hi > %s; touch %s $(touch %s)", marker1, marker2, marker2);
	const char *tricks[] = { "command", cmd, NULL };
	CU_ASSERT_EQUAL(ior_test_ok(run_exec(tricks, &s)), IOR_OK);
	CU_ASSERT_NOT_EQUAL(access(marker1, F_OK), 0);
	CU_ASSERT_NOT_EQUAL(access(marker2, F_OK), 0);
}

static void test_setup_and_cleanup_run_around_the_command(void)
{
	char setup[600], command[1200], cleanup[600], file[512];
	snprintf(file, sizeof(file), "%s/made-by-setup", ior_test_tmpdir());
	snprintf(setup, sizeof(setup), "touch %s", file);
	snprintf(command, sizeof(command), "/usr/bin/test -e %s", file);  /* fails unless setup ran first */
	snprintf(cleanup, sizeof(cleanup), "rm %s", file);
	const char *kv[] = { "setup", setup, "command", command, "cleanup", cleanup, NULL };
	struct ior_sample s;
	CU_ASSERT_EQUAL(ior_test_ok(run_exec(kv, &s)), IOR_OK);
	CU_ASSERT_NOT_EQUAL(access(file, F_OK), 0);
	/* The command fails: cleanup still runs, and the command's failure is reported. */
	const char *failing[] = { "setup", setup, "command", "false", "cleanup", cleanup, NULL };
	CU_ASSERT_EQUAL(run_exec(failing, &s), IOR_ERROR);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "exec: command"));
	CU_ASSERT_NOT_EQUAL(access(file, F_OK), 0);
	/* dir is the working directory: a relative path resolves inside it. */
	const char *indir[] = { "dir", ior_test_tmpdir(), "setup", "touch relative", "command", "test -e relative",
				"cleanup", "rm relative", NULL };
	CU_ASSERT_EQUAL(ior_test_ok(run_exec(indir, &s)), IOR_OK);
}

static void test_bad_commands(void)
{
	struct ior_sample s;
	const char *none[] = { NULL };
	CU_ASSERT_EQUAL(run_exec(none, &s), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "command is empty"));
	const char *quote[] = { "command", "echo 'x", NULL };
	CU_ASSERT_EQUAL(run_exec(quote, &s), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "exec: command: unterminated"));
	const char *missing[] = { "command", "no-such-program-here --x", NULL };
	CU_ASSERT_EQUAL(run_exec(missing, &s), IOR_EUNSUPPORTED);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "no-such-program-here"));
	/* stderr's last line explains a failure. */
	const char *ls[] = { "command", "ls /no/such/dir", NULL };
	CU_ASSERT_EQUAL(run_exec(ls, &s), IOR_ERROR);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "No such file"));
}

static void test_registered(void)
{
	CU_ASSERT_PTR_EQUAL(ior_engine_find("exec"), &ior_engine_exec);
	CU_ASSERT_EQUAL(ior_test_ok(ior_engine_validate(&ior_engine_exec)), IOR_OK);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_registered),
		IOR_TEST(test_split_rules),
		IOR_TEST(test_runs_and_times_a_command),
		IOR_TEST(test_never_uses_a_shell),
		IOR_TEST(test_setup_and_cleanup_run_around_the_command),
		IOR_TEST(test_bad_commands),
		IOR_TEST_END
	};
	return ior_test_run("engine_exec", tests);
}
