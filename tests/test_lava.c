/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The LAVA test definition's run steps (ci/templates/lava/ioregress.yaml), run as LAVA's test shell
 * would run them, with stub lava-test-case, lava-test-reference, apt-get and curl recording their
 * calls and the built ioregress measuring a real loop device (as the board's disk too). */
#include "tests/suite.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Each stub appends its name and arguments, tab-separated, to $CALLS; curl -T copies the file
 * to $UPLOADS under the URL's last part; curl -o records the mode and owner of the directory it
 * would write into ("curl-dir\t700 root") and writes the file. */
static const char stub[] =
	"#!/bin/sh\n"
	"{ printf '%s' \"$(basename \"$0\")\"; for a in \"$@\"; do printf '\\t%s' \"$a\"; done; echo; } >> \"$CALLS\"\n"
	"if [ \"$(basename \"$0\")\" = curl ] && [ \"$2\" = -T ]; then cp \"$3\" \"$UPLOADS/$(basename \"$4\")\"; fi\n"
	"if [ \"$(basename \"$0\")\" = curl ] && [ \"$2\" = -o ]; then\n"
	"  printf 'curl-dir\\t%s\\n' \"$(stat -c '%a %U' \"$(dirname \"$3\")\")\" >> \"$CALLS\"; echo stub > \"$3\"; fi\n";

static char dir[4096], calls_path[4096], uploads[4096], log_path[4096];

static void make_stubs(void)
{
	if (*dir)
		return;
	snprintf(dir, sizeof(dir), "%s/bin", ior_test_tmpdir());
	snprintf(uploads, sizeof(uploads), "%s/uploads", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0755), 0);
	CU_ASSERT_EQUAL_FATAL(mkdir(uploads, 0755), 0);
	const char *names[] = { "lava-test-case", "lava-test-reference", "apt-get", "curl" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		FILE *f = fopen(path, "w");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		fputs(stub, f);
		fclose(f);
		chmod(path, 0755);
	}
	char link[4200];
	snprintf(link, sizeof(link), "%s/ioregress", dir);
	CU_ASSERT_EQUAL_FATAL(symlink(getenv("IOR_BINARY"), link), 0);
}

/* Writes the definition as LAVA's run script with these overrides and runs it; its exit status. */
static int run_steps(const char *name, char *const overrides[])
{
	char script[4096], definition[4096], root[4096], run_sh[4096];
	snprintf(script, sizeof(script), "%s", ior_test_source_path("tests/lava_runsh.py"));
	snprintf(definition, sizeof(definition), "%s", ior_test_source_path("ci/templates/lava/ioregress.yaml"));
	snprintf(root, sizeof(root), "%s", ior_test_source_dir());
	snprintf(run_sh, sizeof(run_sh), "%s/%s.sh", ior_test_tmpdir(), name);
	make_stubs();
	char *argv[16] = { "python3", script, definition, root, run_sh };
	int n = 5;
	for (int i = 0; overrides[i] && n < 15; i++)
		argv[n++] = overrides[i];
	argv[n] = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn(argv, NULL), 0);
	snprintf(calls_path, sizeof(calls_path), "%s/%s.calls", ior_test_tmpdir(), name);
	snprintf(log_path, sizeof(log_path), "%s/%s.log", ior_test_tmpdir(), name);
	char path[8300];
	snprintf(path, sizeof(path), "%s:%s", dir, getenv("PATH"));
	setenv("PATH", path, 1);
	setenv("CALLS", calls_path, 1);
	setenv("UPLOADS", uploads, 1);
	/* one open file for both streams, as LAVA's log is: two would each write at their own offset */
	char *sh[] = { "sh", "-c", "exec sh \"$0\" 2>&1", run_sh, NULL };
	int rc = ior_test_spawn_to(sh, NULL, log_path, NULL);
	if (rc) {
		char *log = ior_test_read_file(log_path, NULL);
		fprintf(stderr, "\n  %s.sh exited %d:\n%s", name, rc, log ? log : "");
		free(log);
	}
	return rc;
}

static const char *matrix(void)
{
	static char text[1024];
	snprintf(text, sizeof(text),
		 "[matrix]\nrepetitions = 3\ndrop_caches = no\nschedulers = none mq-deadline\n"
		 "[device scratch]\nloop = 32M\ndirect_io = yes\nbacking_dir = %s\n"
		 "[engine randread]\ntype = aio\nrw = randread\ndirect = yes\nsize = 4M\n"
		 "[engine odd]\ntype = aio\nrw = randread\nbs = 3000\ndirect = yes\nsize = 4M\n",
		 ior_test_tmpdir());
	return ior_test_write_file("lava.ini", text);
}

/* The calls recorded, as lines of tab-separated words; how many lines start with prefix. */
static size_t calls_with(const char *calls, const char *prefix)
{
	size_t n = 0, len = strlen(prefix);
	for (const char *p = calls; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
		n += !strncmp(p, prefix, len);
	return n;
}

/* The KCIDB document the steps wrote beside the database. */
static json_object *kcidb_doc(const char *db)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s.kcidb.json", db);
	char *text = ior_test_read_file(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	json_object *j = json_tokener_parse(text);
	free(text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	return j;
}

/* The package is installed, the matrix runs (two cells fail: bs = 3000), each cell is one
 * lava-test-case with the median the KCIDB document holds, and the database is uploaded and
 * referenced. */
static void test_steps_report_every_cell_and_attach_the_database(void)
{
	char db[4096], deb[4096], mx[4096], dbarg[4200], debarg[4200], mxarg[4200];
	snprintf(db, sizeof(db), "%s/board.db", ior_test_tmpdir());
	snprintf(deb, sizeof(deb), "%s", ior_test_write_file("ioregress_0.1.0_amd64.deb", "not really a package"));
	snprintf(mx, sizeof(mx), "%s", matrix());
	snprintf(dbarg, sizeof(dbarg), "DB=%s", db);
	snprintf(debarg, sizeof(debarg), "DEB=%s", deb);
	snprintf(mxarg, sizeof(mxarg), "MATRIX=%s", mx);
	char *overrides[] = { dbarg, debarg, mxarg, "ARTIFACT_URL=https://artifacts.example.org/board-1", "ORIGIN=testlab",
			      NULL };
	CU_ASSERT_EQUAL_FATAL(run_steps("upload", overrides), 0);
	char *calls = ior_test_read_file(calls_path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(calls);
	printf("\n%s", calls);
	char want[8400];
	snprintf(want, sizeof(want), "apt-get\tinstall\t-y\t--no-install-recommends\t%s\n", deb);
	CU_ASSERT_PTR_NOT_NULL(strstr(calls, want));
	/* what the steps need is declared (install: deps:) and installed before them */
	CU_ASSERT_PTR_NOT_NULL(strstr(calls, "apt-get\t-q\t-y\tinstall\tca-certificates\tcurl\tpython3\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(calls, "lava-test-case\tioregress-run\t--result\tfail\n"));
	struct utsname u;
	uname(&u);
	/* every test of the kernel in the document is one case, with its median and unit */
	json_object *doc = kcidb_doc(db), *tests;
	CU_ASSERT_FATAL(json_object_object_get_ex(doc, "tests", &tests));
	size_t cases = 0, matched = 0;
	for (size_t i = 0; i < json_object_array_length(tests); i++) {
		json_object *t = json_object_array_get_idx(tests, i), *x;
		CU_ASSERT_NSTRING_EQUAL(json_object_get_string(json_object_object_get(t, "id")), "testlab:", 8);
		const char *path = json_object_get_string(json_object_object_get(t, "path"));
		const char *status = json_object_get_string(json_object_object_get(t, "status"));
		cases++;
		char line[1024];
		if (json_object_object_get_ex(t, "number", &x))
			snprintf(line, sizeof(line), "lava-test-case\t%s\t--result\tpass\t--measurement\t%s\t--units\t%s\n",
				 path + strlen("ioregress."), json_object_get_string(json_object_object_get(x, "value")),
				 json_object_get_string(json_object_object_get(x, "unit")));
		else
			snprintf(line, sizeof(line), "lava-test-case\t%s\t--result\t%s\n", path + strlen("ioregress."),
				 !strcmp(status, "ERROR") ? "fail" : "skip");
		bool found = strstr(calls, line) != NULL;
		if (!found)
			fprintf(stderr, "\n  no call: %s", line);
		matched += found;
	}
	CU_ASSERT_EQUAL(cases, 4);      /* randread and odd, on none and mq-deadline */
	CU_ASSERT_EQUAL(matched, cases);
	CU_ASSERT_EQUAL(calls_with(calls, "lava-test-case\t"), cases + 1);   /* and ioregress-run */
	CU_ASSERT_EQUAL(calls_with(calls, "lava-test-case\trandread.scratch."), 2);
	CU_ASSERT_EQUAL(calls_with(calls, "lava-test-case\todd.scratch.none\t--result\tfail\n"), 1);
	/* the database went to the artifact store and is referenced from the job's results */
	char host[256], name[600], url[1024], up[4800];
	gethostname(host, sizeof(host));
	snprintf(name, sizeof(name), "ioregress-%s-%s.db", host, u.release);
	snprintf(url, sizeof(url), "lava-test-reference\tioregress-db\t--result\tpass\t--reference\t"
		 "https://artifacts.example.org/board-1/%s\n", name);
	CU_ASSERT_PTR_NOT_NULL(strstr(calls, url));
	snprintf(up, sizeof(up), "%s/%s", uploads, name);
	size_t a = 0, b = 0;
	char *sent = ior_test_read_file(up, &a), *kept = ior_test_read_file(db, &b);
	CU_ASSERT_PTR_NOT_NULL(sent);
	CU_ASSERT(a > 0 && a == b && sent && kept && !memcmp(sent, kept, a));
	free(sent);
	free(kept);
	json_object_put(doc);
	free(calls);
}

/* Without an artifact store the database is in the job log, base64 between markers, whole. */
static void test_without_artifact_store_the_database_is_in_the_log(void)
{
	char db[4096], mx[4096], dbarg[4200], mxarg[4200];
	snprintf(db, sizeof(db), "%s/log.db", ior_test_tmpdir());
	snprintf(mx, sizeof(mx), "%s", matrix());
	snprintf(dbarg, sizeof(dbarg), "DB=%s", db);
	snprintf(mxarg, sizeof(mxarg), "MATRIX=%s", mx);
	char *overrides[] = { dbarg, mxarg, "ORIGIN=testlab", NULL };
	CU_ASSERT_EQUAL_FATAL(run_steps("log", overrides), 0);
	char *calls = ior_test_read_file(calls_path, NULL);
	CU_ASSERT_EQUAL(calls_with(calls, "apt-get\tinstall"), 0);     /* no DEB: the rootfs has ioregress */
	CU_ASSERT_EQUAL(calls_with(calls, "curl"), 0);
	CU_ASSERT_EQUAL(calls_with(calls, "lava-test-reference"), 0);
	CU_ASSERT_EQUAL(calls_with(calls, "lava-test-case\t"), 5);
	char cmd[8800], decoded[4200];
	snprintf(decoded, sizeof(decoded), "%s/decoded.db", ior_test_tmpdir());
	snprintf(cmd, sizeof(cmd), "sed -n '/^<IOREGRESS-DB /,/^<\\/IOREGRESS-DB>/p' '%s' | sed '1d;$d' | base64 -d > '%s'",
		 log_path, decoded);
	char *sh[] = { "sh", "-c", cmd, NULL };
	CU_ASSERT_EQUAL(ior_test_spawn(sh, NULL), 0);
	size_t a = 0, b = 0;
	char *got = ior_test_read_file(decoded, &a), *kept = ior_test_read_file(db, &b);
	CU_ASSERT(a > 0 && a == b && got && kept && !memcmp(got, kept, a));
	free(got);
	free(kept);
	free(calls);
}

/* Issue 37 and 35: the definition downloaded to fixed names in /tmp (curl -o /tmp/ioregress.deb, then
 * installed as root: another user could plant that file first) and measured loop devices in RAM by
 * default. Downloads go into a directory only the run can write, which is gone afterwards; the
 * default matrix reads the board's disk named by DEVICE (the test's loop device here) and refuses
 * to start without it, as without an ORIGIN. */
static void test_private_downloads_and_a_named_board_disk(void)
{
	char img[4096], dev[64] = "", mx[4096], devarg[128], mxarg[4200], dbarg[4200], db[4096];
	snprintf(img, sizeof(img), "%s/board.img", ior_test_tmpdir());
	snprintf(db, sizeof(db), "%s/board-disk.db", ior_test_tmpdir());
	char cmd[4400];
	snprintf(cmd, sizeof(cmd), "truncate -s 64M '%s' && losetup -f --show '%s'", img, img);
	char *sh[] = { "sh", "-c", cmd, NULL };
	char log[4096];
	snprintf(log, sizeof(log), "%s/losetup.out", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(ior_test_spawn_to(sh, NULL, log, NULL), 0);
	char *name = ior_test_read_file(log, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(name);
	snprintf(dev, sizeof(dev), "%.*s", (int)strcspn(name, "\n"), name);
	free(name);
	/* the default matrix's device, with one short engine in place of its own */
	char *board = ior_test_read_file(ior_test_source_path("matrix/examples/board.ini"), NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(board);
	char *engines = strstr(board, "\n[engine ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(engines);
	snprintf(engines, strlen(engines) + 1, "\n[engine randread]\ntype = aio\nrw = randread\ndirect = yes\nsize = 4M\n");
	char *rep = strstr(board, "repetitions = 5");
	CU_ASSERT_PTR_NOT_NULL_FATAL(rep);
	rep[strlen("repetitions = ")] = '2';
	snprintf(mx, sizeof(mx), "%s", ior_test_write_file("board.ini", board));
	free(board);
	snprintf(devarg, sizeof(devarg), "DEVICE=%s", dev);
	snprintf(mxarg, sizeof(mxarg), "MATRIX=%s", mx);
	snprintf(dbarg, sizeof(dbarg), "DB=%s", db);
	char *overrides[] = { devarg, mxarg, dbarg, "DEB_URL=https://packages.example.org/ioregress.deb", "ORIGIN=testlab", NULL };
	int rc = run_steps("board", overrides);
	char *calls = ior_test_read_file(calls_path, NULL);
	char *detach[] = { "losetup", "-d", dev, NULL };
	CU_ASSERT_EQUAL(ior_test_spawn(detach, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(calls);
	/* the package went into a private directory (0700, root's), never a name in /tmp */
	CU_ASSERT_PTR_NULL(strstr(calls, "/tmp/ioregress.deb"));
	CU_ASSERT_PTR_NOT_NULL(strstr(calls, "curl-dir\t700 root\n"));
	const char *prefix = "curl\t-sSfL\t-o\t", *o = strstr(calls, prefix);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	o += strlen(prefix);
	char deb[4096];
	snprintf(deb, sizeof(deb), "%.*s", (int)strcspn(o, "\t"), o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(strrchr(deb, '/'));
	char want[4200];
	snprintf(want, sizeof(want), "apt-get\tinstall\t-y\t--no-install-recommends\t%s\n", deb);
	CU_ASSERT_PTR_NOT_NULL(strstr(calls, want));
	*strrchr(deb, '/') = 0;
	CU_ASSERT_NOT_EQUAL(access(deb, F_OK), 0);   /* removed when the steps ended */
	/* the board's disk was measured: its cells are cases, the run passed */
	CU_ASSERT_PTR_NOT_NULL(strstr(calls, "lava-test-case\tioregress-run\t--result\tpass\n"));
	CU_ASSERT(calls_with(calls, "lava-test-case\trandread.board.") >= 1);
	free(calls);
	/* without DEVICE (or ORIGIN) the steps stop before measuring anything */
	char *no_device[] = { mxarg, dbarg, "ORIGIN=testlab", NULL };
	CU_ASSERT_NOT_EQUAL(run_steps("no-device", no_device), 0);
	char *text = ior_test_read_file(log_path, NULL);
	CU_ASSERT(text && strstr(text, "ioregress needs DEVICE"));
	free(text);
	char *no_origin[] = { devarg, mxarg, dbarg, NULL };
	CU_ASSERT_NOT_EQUAL(run_steps("no-origin", no_origin), 0);
	text = ior_test_read_file(log_path, NULL);
	CU_ASSERT(text && strstr(text, "ioregress needs ORIGIN"));
	free(text);
}

int main(void)
{
	ior_test_require_root("ioregress run creates a loop device and switches its scheduler");
	char *argv[] = { "python3", "-c", "import yaml", NULL };
	if (!getenv("IOR_BINARY") || ior_test_spawn(argv, NULL))
		ior_test_skip("needs the built ioregress and python3 with yaml (python3-yaml, yamllint's dependency)");
	static const struct ior_test tests[] = {
		IOR_TEST(test_steps_report_every_cell_and_attach_the_database),
		IOR_TEST(test_without_artifact_store_the_database_is_in_the_log),
		IOR_TEST(test_private_downloads_and_a_named_board_disk),
		IOR_TEST_END,
	};
	return ior_test_run("lava", tests);
}
