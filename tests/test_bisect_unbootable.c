/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ioregress bisect over three kernels under qemu whose middle one never boots (an image qemu
 * refuses at once): it is tried three times, skipped with its outcome and console head, and, as its
 * neighbours cannot place the regression without it, named as the first kernel that does not boot.
 * The ends' calibration is replayed from a log. When the bad end is that kernel, the bisection
 * stops after its three tries, naming it with its outcome and console head. */
#include "tests/suite.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define K47 "linux-image-6.1.0-47-cloud-amd64"
#define R47 "6.1.0-47-cloud-amd64"
#define K612 "linux-image-6.12.113+deb12-cloud-amd64-unsigned"

static char out[65536], err[16384], cache[4096];

/* A "kernel" that is 1 MiB of noise beside the real module tree: qemu says "linux kernel too old
 * to load a ram disk" and exits before any guest code runs, every time. */
static void bad_kernel(char *spec, size_t len)
{
	char image[4096];
	snprintf(image, sizeof(image), "%s/noise-bzImage", ior_test_tmpdir());
	ior_test_random_file(image, 1);
	snprintf(spec, len, "%s:%s/" K47 "/lib/modules/" R47, image, cache);
}

/* The ends' calibration as a bisect log replays it: ten rounds of both ends, five samples each, the
 * good end twice as fast, so the step under test starts at the middle kernel without spending
 * twenty real boots on the ends (their measurement is not what this suite tests). */
static const char *calibrated_log(const char *spec)
{
	static char text[32768];
	size_t len = (size_t)snprintf(text, sizeof(text), "start --kernels %s %s %s\nbuild %s ok\nbuild %s ok\n", K47, spec,
				      K612, K47, K612);
	for (int round = 1; round <= 10; round++) {
		const char *ends[2] = { K47, K612 };
		for (int e = 0; e < 2; e++) {
			len += (size_t)snprintf(text + len, sizeof(text) - len, "measure %s round=%d", ends[e], round);
			for (int i = 0; i < 5; i++)
				len += (size_t)snprintf(text + len, sizeof(text) - len, " %.1f",
							(e ? 50.0 : 100.0) + (double)((round * 7 + i * 3) % 5));
			len += (size_t)snprintf(text + len, sizeof(text) - len, "\n");
		}
	}
	return ior_test_write_file("calibrated.log", text);
}

static void test_middle_kernel_does_not_boot(void)
{
	char db[1024], spec[8192], matrix[1024], log[4096];
	snprintf(db, sizeof(db), "%s/pkg.db", ior_test_tmpdir());
	bad_kernel(spec, sizeof(spec));
	snprintf(log, sizeof(log), "%s", calibrated_log(spec));
	char *replay[] = { "--db", db, "bisect", "replay", log, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(replay, out, sizeof(out), err, sizeof(err)), 0);
	snprintf(matrix, sizeof(matrix), "%s", ior_test_source_path("tests/data/vm-bisect.ini"));
	char *run[] = { "--db", db, "bisect", "run", "--matrix", matrix, NULL };
	int rc = ior_test_ioregress(run, out, sizeof(out), err, sizeof(err));
	printf("\n  exit %d\n%s%s", rc, out, err);
	CU_ASSERT_EQUAL(rc, 0);
	/* progress names each kernel in full */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "2 candidate(s) left, "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, spec));
	char line[8400];
	snprintf(line, sizeof(line), "building %s, ", spec);   /* then the elapsed time */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, line));
	/* tried three times, each a boot-failed vm_boots row with qemu's own words; and nothing else:
	 * an unbootable candidate costs the ends no boot (the replayed ten rounds calibrate without a
	 * round more, and a candidate never measured boots first in its round) */
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM vm_boots WHERE kernel LIKE '%noise-bzImage%' AND outcome = "
				       "'boot-failed' AND console_log LIKE '%too old to load a ram disk%'"), 3);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM vm_boots"), 3);
	/* skipped with the reason, the finding logged */
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_log WHERE event = 'boot-failed' AND detail LIKE "
				       "'boot-failed after 3 boots: qemu ended (exit 1) before init%console: %too old%'"), 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_commits WHERE mark = 'skip' AND reason LIKE "
				       "'it does not boot: boot-failed after 3 boots%'"), 1);
	/* the answer names it, with the full name and its console head, the ends' evidence below */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "first kernel that does not boot: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "noise-bzImage:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "too old to load a ram disk"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "good end"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, K612));
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisects WHERE status = 'found' AND result LIKE "
				       "'first kernel that does not boot: %'"), 1);
	/* the log carries the finding as a line replay reads back */
	char *show[] = { "--db", db, "bisect", "log", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(show, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, " boot-failed /"));
	snprintf(line, sizeof(line), "Z boot-failed %s boot-failed after 3 boots: ", spec);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, line));
	char *status[] = { "--db", db, "bisect", "status", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(status, out, sizeof(out), err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n  good " K47 "\n  bad  " K612 "\n"));
	snprintf(line, sizeof(line), "first kernel that does not boot: %s\n", spec);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, line));
}

/* The bad end is the kernel qemu refuses: its boot is tried three times, then the bisection stops
 * (exit 1) naming the bad end, that it does not boot, its reason and console head, kept as the
 * bisection's result (status) and in its log; the candidate between never boots. */
static void test_bad_end_does_not_boot(void)
{
	char db[1024], spec[8192], matrix[1024], line[8400];
	snprintf(db, sizeof(db), "%s/end.db", ior_test_tmpdir());
	bad_kernel(spec, sizeof(spec));
	/* replayed, not started: start would check the packages against apt's lists */
	snprintf(line, sizeof(line), "start --kernels %s %s %s\n", K47, K612, spec);
	const char *log = ior_test_write_file("end.log", line);
	char *replay[] = { "--db", db, "bisect", "replay", (char *)log, NULL };
	CU_ASSERT_EQUAL_FATAL(ior_test_ioregress(replay, out, sizeof(out), err, sizeof(err)), 0);
	snprintf(matrix, sizeof(matrix), "%s", ior_test_source_path("tests/data/vm-bisect.ini"));
	char *run[] = { "--db", db, "bisect", "run", "--matrix", matrix, NULL };
	int rc = ior_test_ioregress(run, out, sizeof(out), err, sizeof(err));
	printf("\n  exit %d\n%s%s", rc, out, err);
	CU_ASSERT_EQUAL(rc, 1);
	snprintf(line, sizeof(line), "stopped: the bad end %s does not boot\n  boot-failed after 3 boots: qemu ended (exit 1) "
		 "before init", spec);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, line));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "too old to load a ram disk"));
	snprintf(line, sizeof(line), "error: the bisection cannot go on: the bad end '%s' does not boot", spec);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, line));
	/* three tries of the bad end; the good end booted at most once, the candidate never */
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM vm_boots WHERE kernel LIKE '%noise-bzImage%' AND outcome = "
				       "'boot-failed'"), 3);
	CU_ASSERT(ior_test_query(db, "SELECT count(*) FROM vm_boots") <= 4);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM vm_boots WHERE kernel LIKE '%6.12.113%'"), 0);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisect_log WHERE event = 'stopped' AND detail LIKE "
				       "'the bad end % does not boot: boot-failed after 3 boots: %console: %too old%'"), 1);
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM bisects WHERE status = 'started' AND result LIKE "
				       "'stopped: the bad end %'"), 1);
	char *status[] = { "--db", db, "bisect", "status", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(status, out, sizeof(out), err, sizeof(err)), 0);
	snprintf(line, sizeof(line), "stopped: the bad end %s does not boot\n", spec);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, line));
	char *show[] = { "--db", db, "bisect", "log", NULL };
	CU_ASSERT_EQUAL(ior_test_ioregress(show, out, sizeof(out), err, sizeof(err)), 0);
	snprintf(line, sizeof(line), "Z boot-failed %s boot-failed after 3 boots: ", spec);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, line));
	snprintf(line, sizeof(line), "Z stopped: the bad end %s does not boot: boot-failed after 3 boots: ", spec);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, line));
}

/* The noise kernel borrows K47's module tree from the cache, but the ends' calibration is replayed,
 * so nothing of this suite fetches K47 before the candidate needs its modules: on a cold cache (a
 * fresh machine, CI) the first case failed with "cannot open module directory". A bare boot of K47
 * fetches it, as any vm run would. */
static void fetch_k47(void)
{
	char dir[4096], db[4096];
	snprintf(dir, sizeof(dir), "%s/" K47 "/lib/modules/" R47, cache);
	if (access(dir, F_OK) == 0)
		return;
	snprintf(db, sizeof(db), "%s/fetch.db", ior_test_tmpdir());
	char *boot[] = { "--db", db, "vm", "run", "--boot-only", K47, NULL };
	int rc = ior_test_ioregress(boot, out, sizeof(out), err, sizeof(err));
	if (rc != 0 || access(dir, F_OK) != 0)
		ior_test_skip("cannot fetch " K47 " into the kernel cache");
}

int main(void)
{
	ior_test_vm_setup(cache, sizeof(cache));
	fetch_k47();
	static const struct ior_test tests[] = {
		IOR_TEST(test_middle_kernel_does_not_boot),
		IOR_TEST(test_bad_end_does_not_boot),
		IOR_TEST_END,
	};
	return ior_test_run("bisect_unbootable", tests);
}
