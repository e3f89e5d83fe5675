/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest's initramfs as written on the host, read back with libarchive: what the guest gets
 * made for it beforehand and kept in the cache, and the results disk its commits leave (issue 38:
 * work at the guest's start-up and end that the host can do or that is done already). */
#include "common/error.h"
#include "db/db.h"
#include "tests/suite.h"
#include "vm/guest.h"
#include "vm/vm.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes an initramfs with a matrix for a kernel without modules, the guest running ioregress;
 * extracts its results/guest.db into the test's directory when it has one. */
static int write_and_find_db(const char *ioregress, const char *name, char *db, size_t len)
{
	struct ior_vm_kernel k = { .release = "6.1.0-test" };
	struct ior_vm_guest g = {
		.ioregress = ioregress,
		.busybox = "/bin/true", /* any file: nothing runs here */
		.matrix = ior_test_write_file("m.ini", "[device d]\npath = /dev/vda\n"),
		.host_name = "guest",
	};
	char path[PATH_MAX], dir[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s.cpio", ior_test_tmpdir(), name);
	snprintf(dir, sizeof(dir), "%s/%s", ior_test_tmpdir(), name);
	CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0700), 0);
	int rc = ior_vm_initramfs_write(path, &k, &g, dir);
	CU_ASSERT_EQUAL_FATAL(rc, IOR_OK);
	struct archive *a = archive_read_new();
	archive_read_support_format_cpio(a);
	CU_ASSERT_EQUAL_FATAL(archive_read_open_filename(a, path, 1 << 16), ARCHIVE_OK);
	struct archive_entry *e;
	int found = 0;
	db[0] = '\0';
	while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
		if (strcmp(archive_entry_pathname(e), "results/guest.db") != 0)
			continue;
		found = 1;
		snprintf(db, len, "%s/guest.db", dir);
		FILE *f = fopen(db, "wb");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		char buf[1 << 16];
		for (la_ssize_t got; (got = archive_read_data(a, buf, sizeof(buf))) > 0;)
			fwrite(buf, 1, (size_t)got, f);
		fclose(f);
		CU_ASSERT_EQUAL(archive_entry_perm(e) & 0600, 0600); /* the guest's run writes it */
	}
	archive_read_free(a);
	return found;
}

/* The guest's database comes made, at the current schema and empty: created inside, its schema
 * steps took 1.9-3.2 s of TCG before the run's first heartbeat. */
static void test_guest_db_made_on_host(void)
{
	char db[PATH_MAX];
	CU_ASSERT_EQUAL_FATAL(write_and_find_db("/proc/self/exe", "same", db, sizeof(db)), 1);
	sqlite3 *h = NULL;
	CU_ASSERT_EQUAL_FATAL(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *st = NULL;
	CU_ASSERT_EQUAL(sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_step(st), SQLITE_ROW);
	CU_ASSERT_EQUAL(sqlite3_column_int(st, 0), IOR_DB_SCHEMA_VERSION);
	sqlite3_finalize(st);
	CU_ASSERT_EQUAL(sqlite3_prepare_v2(h, "SELECT (SELECT count(*) FROM runs) + (SELECT count(*) FROM samples)", -1,
					   &st, NULL), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_step(st), SQLITE_ROW);
	CU_ASSERT_EQUAL(sqlite3_column_int(st, 0), 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
}

/* Another guest binary (vm run --ioregress) may have another schema: it makes its own. */
static void test_other_guest_binary_makes_its_own(void)
{
	char db[PATH_MAX];
	CU_ASSERT_EQUAL(write_and_find_db("/bin/true", "other", db, sizeof(db)), 0);
}

/* A copy of /bin/true in the test's directory: a guest binary whose identity the test can change. */
static const char *own_binary(void)
{
	static char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/guest-bin", ior_test_tmpdir());
	FILE *in = fopen("/bin/true", "rb"), *out = fopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(in);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	char buf[1 << 16];
	for (size_t got; (got = fread(buf, 1, sizeof(buf), in)) > 0;)
		fwrite(buf, 1, got, out);
	fclose(in);
	fclose(out);
	chmod(path, 0755);
	return path;
}

static bool cached(char *path, size_t len, const struct ior_vm_guest *g, const char *cache)
{
	struct ior_vm_kernel k = { .release = "6.1.0-test" };
	char dir[PATH_MAX];
	static int n;
	snprintf(dir, sizeof(dir), "%s/stage%d", ior_test_tmpdir(), n++);
	CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0700), 0);
	bool hit = true;
	CU_ASSERT_EQUAL_FATAL(ior_vm_initramfs_cached(path, len, &k, g, cache, dir, &hit), IOR_OK);
	struct stat st;
	CU_ASSERT_EQUAL(stat(path, &st), 0);
	CU_ASSERT_TRUE(st.st_size > 0);
	return hit;
}

static size_t archives(const char *cache)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/initramfs", cache);
	size_t n = 0;
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		n += strstr(e->d_name, ".cpio") != NULL;
	if (d)
		closedir(d);
	return n;
}

/* Issue 38: the initramfs is written once and taken from the cache by the next vm run with the
 * same inputs; another matrix text or a rebuilt binary makes another; at most 8 are kept. */
static void test_initramfs_kept_by_its_inputs(void)
{
	char cache[PATH_MAX], first[PATH_MAX + 64], again[PATH_MAX + 64], other[PATH_MAX + 64];
	snprintf(cache, sizeof(cache), "%s/cache", ior_test_tmpdir());
	struct ior_vm_guest g = {
		.ioregress = own_binary(),
		.busybox = "/bin/true",
		.matrix = ior_test_write_file("kept.ini", "[device d]\npath = /dev/vda\n"),
		.host_name = "guest",
	};
	CU_ASSERT_FALSE(cached(first, sizeof(first), &g, cache));
	CU_ASSERT_TRUE(cached(again, sizeof(again), &g, cache));
	CU_ASSERT_STRING_EQUAL(first, again);
	/* the same words written again: the same guest */
	ior_test_write_file("kept.ini", "[device d]\npath = /dev/vda\n");
	CU_ASSERT_TRUE(cached(again, sizeof(again), &g, cache));
	ior_test_write_file("kept.ini", "[device d]\npath = /dev/vda\nfill = zeros\n");
	CU_ASSERT_FALSE(cached(other, sizeof(other), &g, cache));
	CU_ASSERT_STRING_NOT_EQUAL(first, other);
	/* the binary rebuilt (here: its times changed) */
	struct timespec t[2] = { { .tv_sec = 1000000000 }, { .tv_sec = 1000000000 } };
	CU_ASSERT_EQUAL(utimensat(AT_FDCWD, g.ioregress, t, 0), 0);
	CU_ASSERT_FALSE(cached(again, sizeof(again), &g, cache));
	CU_ASSERT_TRUE(cached(again, sizeof(again), &g, cache));
	/* a boot without a matrix is another archive */
	g.matrix = NULL;
	CU_ASSERT_FALSE(cached(again, sizeof(again), &g, cache));
	CU_ASSERT_EQUAL(archives(cache), 4);
	char name[32]; /* the guest's host name, still read by the last call below */
	for (int i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "guest-%d", i);
		g.host_name = name;
		CU_ASSERT_FALSE(cached(again, sizeof(again), &g, cache));
	}
	CU_ASSERT_EQUAL(archives(cache), 8);
	CU_ASSERT_TRUE(cached(again, sizeof(again), &g, cache)); /* the last one is among them */
}

/* The names in a tar at path, one a line, and the member status's text. */
static void tar_names(const char *path, char *names, size_t len, char *status, size_t slen)
{
	names[0] = status[0] = '\0';
	struct archive *a = archive_read_new();
	archive_read_support_format_tar(a);
	CU_ASSERT_EQUAL_FATAL(archive_read_open_filename(a, path, 1 << 16), ARCHIVE_OK);
	struct archive_entry *e;
	while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
		size_t n = strlen(names);
		snprintf(names + n, len - n, "%s\n", archive_entry_pathname(e));
		if (!strcmp(archive_entry_pathname(e), "status")) {
			la_ssize_t got = archive_read_data(a, status, slen - 1);
			status[got > 0 ? got : 0] = '\0';
		}
	}
	archive_read_free(a);
}

/* Issue 38, the results path: a commit during the run puts the database on the disk and leaves
 * the init's file alone; the last one (with the exit status) creates it, so the init does not
 * write the same tar again and sync at the boot's end. */
static void test_last_commit_tells_the_init(void)
{
	char dbpath[PATH_MAX], disk[PATH_MAX], sent[PATH_MAX], names[512], status[16];
	snprintf(dbpath, sizeof(dbpath), "%s/commit.db", ior_test_tmpdir());
	snprintf(disk, sizeof(disk), "%s/results.img", ior_test_tmpdir());
	snprintf(sent, sizeof(sent), "%s/sent", ior_test_tmpdir());
	FILE *f = fopen(disk, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, dbpath), IOR_OK);
	CU_ASSERT_EQUAL_FATAL(setenv(IOR_VM_SENT_ENV, sent, 1), 0);
	CU_ASSERT_EQUAL(ior_vm_guest_commit(db, disk, -1), IOR_OK);
	CU_ASSERT_NOT_EQUAL(access(sent, F_OK), 0);
	tar_names(disk, names, sizeof(names), status, sizeof(status));
	CU_ASSERT_PTR_NOT_NULL(strstr(names, "guest.db\n"));
	CU_ASSERT_PTR_NULL(strstr(names, "status"));
	CU_ASSERT_EQUAL(ior_vm_guest_commit(db, disk, 3), IOR_OK);
	CU_ASSERT_EQUAL(access(sent, F_OK), 0);
	tar_names(disk, names, sizeof(names), status, sizeof(status));
	CU_ASSERT_PTR_NOT_NULL(strstr(names, "guest.db\n"));
	CU_ASSERT_STRING_EQUAL(status, "3\n");
	unsetenv(IOR_VM_SENT_ENV);
	ior_db_free(db);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_guest_db_made_on_host),
		IOR_TEST(test_other_guest_binary_makes_its_own),
		IOR_TEST(test_initramfs_kept_by_its_inputs),
		IOR_TEST(test_last_commit_tells_the_init),
		IOR_TEST_END,
	};
	return ior_test_run("vm_initramfs", tests);
}
