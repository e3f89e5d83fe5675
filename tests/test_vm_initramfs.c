/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest's initramfs as written on the host, read back with libarchive: what the guest gets
 * made for it beforehand (issue 38: work at the guest's start-up that the host can do). */
#include "common/error.h"
#include "db/db.h"
#include "tests/suite.h"
#include "vm/vm.h"

#include <archive.h>
#include <archive_entry.h>
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

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_guest_db_made_on_host),
		IOR_TEST(test_other_guest_binary_makes_its_own),
		IOR_TEST_END,
	};
	return ior_test_run("vm_initramfs", tests);
}
