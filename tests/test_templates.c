/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CI templates' verdict step (ci/verdict.sh) fed a fake ioregress: its status is check's own
 * through the tee, 125 does what ON_INCONCLUSIVE declares, and both templates boot the kernels
 * interleaved on one runner and judge through it; LAVA's validators accept the LAVA job and test
 * definition. */
#include "suite.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A stand-in for ioregress: "vm run" is logged and succeeds, "report" prints a markdown line; the k-th
 * check prints a line and $CHECK_OUT_k (its table, when a test gives one) and exits $STATUS_k, so a
 * test scripts a verdict sequence (125 then 1, ...). */
static const char fake[] =
	"#!/bin/sh\n"
	"case \"$*\" in *' vm run '*) echo \"$*\" >> \"$FAKE_DIR/vm.log\"; exit 0;; esac\n"
	"case \"$*\" in *' report --format md '*) echo \"# fake markdown report: $*\"; exit 0;; esac\n"
	"n=$(cat \"$FAKE_DIR/count\" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > \"$FAKE_DIR/count\"\n"
	"echo \"check call $n: $*\"\n"
	"eval \"printf '%s' \\\"\\${CHECK_OUT_$n:-}\\\"\"\n"
	"eval \"exit \\${STATUS_$n:-0}\"\n";

static const char *dir;

/* Runs ci/verdict.sh with the fake and a fresh count; returns its exit status. */
static int verdict(const char *choice, const char *s1, const char *s2)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/count", dir);
	remove(path);
	snprintf(path, sizeof(path), "%s/vm.log", dir);
	remove(path);
	snprintf(path, sizeof(path), "%s/report.txt", dir);
	remove(path);
	setenv("FAKE_DIR", dir, 1);
	setenv("STATUS_1", s1, 1);
	setenv("STATUS_2", s2 ? s2 : "0", 1);
	if (choice)
		setenv("ON_INCONCLUSIVE", choice, 1);
	else
		unsetenv("ON_INCONCLUSIVE");
	char script[4096];
	snprintf(script, sizeof(script), "%s", ior_test_source_path("ci/verdict.sh"));
	char *argv[] = { "bash", script, "all.db", "6.1.0-47-cloud-amd64", "6.12.113+deb12-cloud-amd64", path, NULL };
	return ior_test_spawn(argv, NULL);
}

/* Whether the file name in the test directory holds text. */
static bool file_holds(const char *name, const char *text)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	char *got = ior_test_read_file(path, NULL);
	bool yes = got && strstr(got, text);
	free(got);
	return yes;
}

static void test_failing_verdict_fails_the_step(void)
{
	CU_ASSERT_EQUAL(verdict(NULL, "1", NULL), 1);
	/* the verdict's output still reaches the report (the tee), with check's arguments */
	CU_ASSERT_TRUE(file_holds("report.txt", "check call 1: --db all.db check --baseline 6.1.0-47-cloud-amd64 "
						"--candidate 6.12.113+deb12-cloud-amd64"));
	CU_ASSERT_EQUAL(verdict(NULL, "0", NULL), 0);
	CU_ASSERT_EQUAL(verdict("fail", "2", NULL), 2);  /* a usage error is not hidden either */
}

static void test_inconclusive_is_a_declared_choice(void)
{
	CU_ASSERT_EQUAL(verdict(NULL, "125", NULL), 125);  /* fail is the default */
	CU_ASSERT_EQUAL(verdict("fail", "125", NULL), 125);
	CU_ASSERT_EQUAL(verdict("warn", "125", NULL), 0);
	CU_ASSERT_EQUAL(verdict("warn", "1", NULL), 1);    /* warn forgives 125 only */
	setenv("RERUN_ARGS", "--matrix matrix/examples/vm.ini --guest-host ci-vm pkg-a pkg-b", 1);
	CU_ASSERT_EQUAL(verdict("rerun", "125", "1"), 1);  /* more boots, judged again: that verdict counts */
	CU_ASSERT_TRUE(file_holds("vm.log", "--db all.db vm run --boots 3 --matrix matrix/examples/vm.ini --guest-host "
					     "ci-vm pkg-a pkg-b"));
	CU_ASSERT_EQUAL(verdict("rerun", "0", NULL), 0);
	unsetenv("RERUN_ARGS");
	CU_ASSERT_EQUAL(verdict("rerun", "125", NULL), 1);  /* rerun without its arguments: an error, not a pass */
	CU_ASSERT_EQUAL(verdict("sometimes", "0", NULL), 2);
}

/* Both templates judge through ci/verdict.sh, never pipe check into tee themselves, and boot every
 * kernel in one interleaved vm run on one runner (no per-kernel job matrix). */
/* Issue 37: on GitHub a failed verdict showed "exit code 1" and nothing else. There the markdown
 * report of the two kernels goes to the job summary ($GITHUB_STEP_SUMMARY) and each regressed row
 * of check's table is one ::error:: annotation ('%' escaped); elsewhere neither is written. */
static void test_github_summary_and_annotations(void)
{
	char summary[4096], out_path[4096];
	snprintf(summary, sizeof(summary), "%s/summary.md", dir);
	snprintf(out_path, sizeof(out_path), "%s/verdict.out", dir);
	remove(summary);
	setenv("GITHUB_ACTIONS", "true", 1);
	setenv("GITHUB_STEP_SUMMARY", summary, 1);
	setenv("CHECK_OUT_1",
	       "h            vda          none         randread     value         8   8    1004.50     804.50   -19.9%     "
	       "-20.2%..-19.6%  0.000155   -200.00  regression: median -19.9% (95% CI -20.2% to -19.6%), Welch p = 2.31e-23\n"
	       "h            vdb          none         randread     value         8   8    1004.50    1004.50    +0.0%       "
	       "-0.3%..+0.3%         1     +0.00  no change: not significant\n"
	       "h            vdc          kyber        seqread      lat_p99_us    8   8      80.00     160.00  +100.0%     "
	       "+98.0%..+102.0%  0.000155   +80.00  regression: median +100.0% (95% CI +98.0% to +102.0%), Welch p = 1e-20\n"
	       "2 cell(s) compared: 2 regression(s), 0 inconclusive: bad (exit 1)\n", 1);
	unsetenv("ON_INCONCLUSIVE");
	setenv("FAKE_DIR", dir, 1);
	setenv("STATUS_1", "1", 1);
	char path[4096];
	snprintf(path, sizeof(path), "%s/count", dir);
	remove(path);
	char script[4096];
	snprintf(script, sizeof(script), "%s", ior_test_source_path("ci/verdict.sh"));
	char *argv[] = { "bash", script, "all.db", "6.1.0-47-cloud-amd64", "6.12.113+deb12-cloud-amd64", NULL };
	CU_ASSERT_EQUAL(ior_test_spawn_to(argv, NULL, out_path, NULL), 1);
	char *out = ior_test_read_file(out_path, NULL), *md = ior_test_read_file(summary, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	size_t errors = 0;
	for (const char *p = out; (p = strstr(p, "::error ")); p++)
		errors++;
	printf("\n%s", out);
	CU_ASSERT_EQUAL(errors, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "::error title=ioregress regression::h vda none randread value: regression: median "
					   "-19.9%25 (95%25 CI -20.2%25 to -19.6%25)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "::error title=ioregress regression::h vdc kyber seqread lat_p99_us: regression:"));
	CU_ASSERT(md && strstr(md, "# fake markdown report: --db all.db report --format md --baseline "
						"6.1.0-47-cloud-amd64 --candidate 6.12.113+deb12-cloud-amd64"));
	free(out);
	free(md);
	/* not on GitHub: no annotations, no summary */
	remove(summary);
	remove(path);
	unsetenv("GITHUB_ACTIONS");
	CU_ASSERT_EQUAL(ior_test_spawn_to(argv, NULL, out_path, NULL), 1);
	out = ior_test_read_file(out_path, NULL);
	CU_ASSERT(out != NULL && strstr(out, "::error") == NULL);
	CU_ASSERT_NOT_EQUAL(access(summary, F_OK), 0);
	free(out);
	unsetenv("GITHUB_STEP_SUMMARY");
	unsetenv("CHECK_OUT_1");
}

/* GitLab deprecated a top-level image: the template's is under default:. */
static void test_gitlab_image_under_default(void)
{
	char *t = ior_test_read_file(ior_test_source_path("ci/templates/gitlab-ci.yml"), NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	for (const char *line = t; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		CU_ASSERT_NOT_EQUAL(strncmp(line, "image:", 6), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "\ndefault:\n  image: debian:bookworm"));
	free(t);
}

static void test_templates_use_it(void)
{
	static const char *const files[] = { "ci/templates/github-actions.yml", "ci/templates/gitlab-ci.yml" };
	for (size_t i = 0; i < 2; i++) {
		char *t = ior_test_read_file(ior_test_source_path(files[i]), NULL);
		CU_ASSERT_PTR_NOT_NULL_FATAL(t);
		CU_ASSERT_PTR_NOT_NULL(strstr(t, "bash ci/verdict.sh all.db \"$BASELINE\" \"$CANDIDATE\" report.txt"));
		CU_ASSERT_PTR_NOT_NULL(strstr(t, "ON_INCONCLUSIVE:"));
		for (const char *line = t; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
			size_t len = strcspn(line, "\n");
			char buf[1024];
			snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) - 1 ? len : sizeof(buf) - 1), line);
			if (strstr(buf, " check ") && strstr(buf, "| tee"))
				CU_FAIL("a template pipes check into tee");
		}
		CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"$BASELINE_PACKAGE\" \"$CANDIDATE_PACKAGE\""));
		CU_ASSERT_PTR_NULL(strstr(t, "strategy:"));
		CU_ASSERT_PTR_NULL(strstr(t, "parallel:"));
		free(t);
	}
}

/* Issue 37: lava-server refused the job (`kernel: type: bzimage` is none of image, uimage, zimage).
 * LAVA's own validators (Debian's lava-common under Debian's python3) accept the job and the test
 * definition, and ci/lint-templates.sh runs both. */
static void test_lava_validators_accept_job_and_definition(void)
{
	if (access("/usr/share/lava-common/lava-schema.py", R_OK)) {
		ior_test_not_run("no lava-common (ci/setup.sh installs it)");
		return;
	}
	char job[4096], log[4096];
	snprintf(job, sizeof(job), "%s", ior_test_source_path("ci/templates/lava/job-x86.yaml"));
	snprintf(log, sizeof(log), "%s/lava-schema.log", dir);
	char *schema[] = { "/usr/bin/python3", "/usr/share/lava-common/lava-schema.py", "job", job, NULL };
	int rc = ior_test_spawn_to(schema, NULL, log, log);
	char *out = ior_test_read_file(log, NULL);
	if (rc)
		fprintf(stderr, "\n%s", out ? out : "");
	CU_ASSERT_EQUAL(rc, 0);
	free(out);
	char lint[4096];
	snprintf(lint, sizeof(lint), "%s", ior_test_source_path("ci/lint-templates.sh"));
	snprintf(log, sizeof(log), "%s/lint-templates.log", dir);
	char *argv[] = { "bash", lint, NULL };
	rc = ior_test_spawn_to(argv, NULL, log, log);
	out = ior_test_read_file(log, NULL);
	if (rc)
		fprintf(stderr, "\n%s", out ? out : "");
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT(out && strstr(out, "* ci/templates/lava/job-x86.yaml\n"));
	CU_ASSERT(out && strstr(out, "* ci/templates/lava/ioregress.yaml\n"));
	free(out);
}

int main(void)
{
	dir = ior_test_tmpdir();
	char bin[4096];
	snprintf(bin, sizeof(bin), "%s/ioregress", dir);
	FILE *f = fopen(bin, "w");
	if (!f || fputs(fake, f) < 0 || fclose(f))
		ior_test_skip("cannot write the fake ioregress");
	char *chmod_argv[] = { "chmod", "+x", bin, NULL };
	if (ior_test_spawn(chmod_argv, NULL))
		ior_test_skip("cannot make the fake ioregress executable");
	setenv("IOREGRESS", bin, 1);
	static const struct ior_test tests[] = {
		IOR_TEST(test_failing_verdict_fails_the_step),
		IOR_TEST(test_inconclusive_is_a_declared_choice),
		IOR_TEST(test_templates_use_it),
		IOR_TEST(test_lava_validators_accept_job_and_definition),
		IOR_TEST(test_github_summary_and_annotations),
		IOR_TEST(test_gitlab_image_under_default),
		IOR_TEST_END,
	};
	return ior_test_run("templates", tests);
}
