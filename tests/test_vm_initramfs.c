/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest's initramfs as written on the host, read back with libarchive: what the guest gets
 * made for it beforehand and kept in the cache, the results disk its commits leave and the host
 * reads, and the guest binary (issue 38: work at the guest's start-up and end that the host can do
 * or that is done already, and libraries the guest need not load). */
#include "common/error.h"
#include "common/spawn.h"
#include "db/db.h"
#include "tests/suite.h"
#include "vm/guest.h"
#include "vm/internal.h"
#include "vm/tar_write.h"
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
#include <sys/wait.h>
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

/* The whole of a file, malloc'd, its length in *len. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *buf = malloc((size_t)n + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	CU_ASSERT_EQUAL(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* A database at the current schema: a file of several pages, its WAL checkpointed by the commit. */
static struct ior_db *filled_db(const char *name)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", ior_test_tmpdir(), name);
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, path), IOR_OK);
	return db;
}

static const char *empty_disk(const char *name)
{
	static char disk[PATH_MAX];
	snprintf(disk, sizeof(disk), "%s/%s", ior_test_tmpdir(), name);
	FILE *f = fopen(disk, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	return disk;
}

/* A tool's exit status on a command line; -1 when it could not run. */
static int tool(const char *line)
{
	struct ior_spawn c = { .shell = line, .err_to = IOR_SPAWN_ERR_TAIL, .limit_s = 60 };
	int rc = ior_spawn_run(&c);
	int status = rc ? -1 : WIFEXITED(c.status) ? WEXITSTATUS(c.status) : -1;
	if (status)
		fprintf(stderr, "'%s' exited %d: %s\n", line, status, c.err);
	ior_spawn_free(&c);
	return status;
}

/* Issue 38: the guest writes its results tar itself (tar_write.c, no libarchive); the host's
 * reader (libarchive) takes back the same bytes and the status, and GNU tar and busybox tar read
 * the archive without a complaint. */
static void test_guest_tar_read_by_host(void)
{
	struct ior_db *db = filled_db("tar.db");
	const char *disk = empty_disk("tar.img");
	CU_ASSERT_EQUAL_FATAL(ior_vm_guest_commit(db, disk, 3), IOR_OK);
	char dir[PATH_MAX], got[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/host", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0700), 0);
	int status = -2;
	CU_ASSERT_EQUAL_FATAL(ior_vm_results_read(disk, dir, &status, got, sizeof(got)), IOR_OK);
	CU_ASSERT_EQUAL(status, 3);
	size_t n1, n2;
	char *a = slurp(ior_db_path(db), &n1), *b = slurp(got, &n2);
	CU_ASSERT_TRUE(n1 > 512 && n1 == n2 && memcmp(a, b, n1) == 0);
	free(a);
	free(b);
	char line[PATH_MAX + 64];
	snprintf(line, sizeof(line), "tar --warning=no-timestamp -tvf '%s' | grep -c .", disk);
	CU_ASSERT_EQUAL(tool(line), 0);
	snprintf(line, sizeof(line), "tar -xOf '%s' status | grep -qx 3", disk);
	CU_ASSERT_EQUAL(tool(line), 0);
	if (ior_spawn_in_path("busybox")) {
		snprintf(line, sizeof(line), "busybox tar -tf '%s' | grep -qx guest.db", disk);
		CU_ASSERT_EQUAL(tool(line), 0);
	}
	ior_db_free(db);
}

/* A later, shorter commit ends where it ends: the status of an earlier archive further on the disk
 * is never read as this one's. */
static void test_guest_tar_ends_before_older_archive(void)
{
	struct ior_db *db = filled_db("older.db");
	const char *disk = empty_disk("older.img");
	CU_ASSERT_EQUAL_FATAL(ior_vm_guest_commit(db, disk, 7), IOR_OK);
	CU_ASSERT_EQUAL_FATAL(ior_vm_guest_commit(db, disk, -1), IOR_OK);
	char dir[PATH_MAX], got[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/older", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0700), 0);
	int status = -2;
	CU_ASSERT_EQUAL(ior_vm_results_read(disk, dir, &status, got, sizeof(got)), IOR_OK);
	CU_ASSERT_EQUAL(status, -1);
	CU_ASSERT_STRING_NOT_EQUAL(got, "");
	ior_db_free(db);
}

/* The other writer of the results disk: the init's busybox tar when the run never wrote its status
 * ("cd /results && tar cf /dev/vdb ."), members named ./status and ./guest.db. */
static void test_busybox_tar_read_by_host(void)
{
	if (!ior_spawn_in_path("busybox")) {
		ior_test_not_run("no busybox");
		return;
	}
	char results[PATH_MAX], dir[PATH_MAX], got[PATH_MAX], line[PATH_MAX * 3];
	snprintf(results, sizeof(results), "%s/results", ior_test_tmpdir());
	snprintf(dir, sizeof(dir), "%s/from-busybox", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkdir(results, 0700), 0);
	CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0700), 0);
	const char *disk = empty_disk("busybox.img");
	snprintf(line, sizeof(line), "cd '%s' && echo 5 > status && echo data > guest.db && busybox tar cf '%s' .",
		 results, disk);
	CU_ASSERT_EQUAL_FATAL(tool(line), 0);
	int status = -2;
	CU_ASSERT_EQUAL(ior_vm_results_read(disk, dir, &status, got, sizeof(got)), IOR_OK);
	CU_ASSERT_EQUAL(status, 5);
	CU_ASSERT_PTR_NOT_NULL(strstr(got, "/guest.db"));
}

/* A member's name longer than a ustar header holds is refused, not cut. */
static void test_guest_tar_refuses_long_names(void)
{
	const char *disk = empty_disk("long.img");
	int fd = open(disk, O_WRONLY);
	CU_ASSERT_FATAL(fd >= 0);
	char name[IOR_VM_TAR_NAME_MAX + 2];
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	CU_ASSERT_EQUAL(ior_vm_tar_member(fd, name, "x", 1), IOR_EINVALID);
	name[IOR_VM_TAR_NAME_MAX] = '\0';
	CU_ASSERT_EQUAL(ior_vm_tar_member(fd, name, "x", 1), IOR_OK);
	close(fd);
}

/* Issue 38: vm run puts the guest binary built beside ioregress into the initramfs; it maps neither
 * libgit2 nor libarchive, nor ICU and libxml2 through them (39 libraries before, 37 of them loaded
 * by the guest's every run). */
static void test_guest_binary_links_what_the_guest_needs(void)
{
	const char *full = getenv("IOR_BINARY");
	CU_ASSERT_PTR_NOT_NULL_FATAL(full);
	char guest[PATH_MAX * 2];
	CU_ASSERT_TRUE_FATAL(ior_vm_guest_binary(full, guest, sizeof(guest)));
	CU_ASSERT_PTR_NOT_NULL(strstr(guest, "ioregress-guest"));
	char (*libs)[PATH_MAX] = calloc(64, PATH_MAX);
	CU_ASSERT_PTR_NOT_NULL_FATAL(libs);
	size_t n = 0, nfull = 0;
	CU_ASSERT_EQUAL_FATAL(ior_vm_elf_libraries(guest, libs, 64, &n), IOR_OK);
	static const char *const unwanted[] = { "libgit2", "libarchive", "libxml2", "libicu", "libssh2", "libkrb5" };
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < sizeof(unwanted) / sizeof(unwanted[0]); j++)
			if (strstr(libs[i], unwanted[j])) {
				fprintf(stderr, "the guest binary loads %s\n", libs[i]);
				CU_FAIL("a library the guest does not need");
			}
	CU_ASSERT_EQUAL_FATAL(ior_vm_elf_libraries(full, libs, 64, &nfull), IOR_OK);
	CU_ASSERT_TRUE(n < nfull);
	free(libs);
	/* a binary with no guest binary beside it puts itself in */
	CU_ASSERT_FALSE(ior_vm_guest_binary("/bin/true", guest, sizeof(guest)));
	CU_ASSERT_STRING_EQUAL(guest, "/bin/true");
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_guest_db_made_on_host),
		IOR_TEST(test_other_guest_binary_makes_its_own),
		IOR_TEST(test_initramfs_kept_by_its_inputs),
		IOR_TEST(test_last_commit_tells_the_init),
		IOR_TEST(test_guest_tar_read_by_host),
		IOR_TEST(test_guest_tar_ends_before_older_archive),
		IOR_TEST(test_busybox_tar_read_by_host),
		IOR_TEST(test_guest_tar_refuses_long_names),
		IOR_TEST(test_guest_binary_links_what_the_guest_needs),
		IOR_TEST_END,
	};
	return ior_test_run("vm_initramfs", tests);
}
