/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vm run's journaled work directory (vm/workdir.c): made under $TMPDIR as the user asked (issue 35:
 * it was always /tmp), and recover removes only such a directory of ours, wherever TMPDIR was. */
#include "tests/suite.h"
#include "common/error.h"
#include "db/db.h"
#include "vm/workdir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char out[4096];

static const char *recover(const char *path)
{
	FILE *f = fmemopen(out, sizeof(out), "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(ior_vm_workdir_recover(path, f), IOR_OK);
	fclose(f);
	return out;
}

static void test_tmpdir_honoured_and_recovered(void)
{
	char tmp[1200], db_path[1200], prefix[1300];
	snprintf(tmp, sizeof(tmp), "%s/scratch-space", ior_test_tmpdir());
	snprintf(db_path, sizeof(db_path), "%s/w.db", ior_test_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mkdir(tmp, 0700), 0);
	struct ior_db *db = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_db_open(&db, db_path), IOR_OK);
	char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
	setenv("TMPDIR", tmp, 1);
	struct ior_vm_workdir w;
	CU_ASSERT_EQUAL_FATAL(ior_vm_workdir_create(&w, db), IOR_OK);
	snprintf(prefix, sizeof(prefix), "%s/ioregress-vm.", tmp);
	CU_ASSERT_EQUAL(strncmp(w.path, prefix, strlen(prefix)), 0);
	/* what a SIGKILLed vm run leaves: recover removes it where it is */
	CU_ASSERT_PTR_NOT_NULL(strstr(recover(w.path), "': removed"));
	CU_ASSERT_NOT_EQUAL(access(w.path, F_OK), 0);
	/* a journal entry naming anything else is left alone */
	char other[1300];
	snprintf(other, sizeof(other), "%s/not-a-vm-dir", tmp);
	CU_ASSERT_EQUAL_FATAL(mkdir(other, 0700), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(recover(other), "left alone"));
	CU_ASSERT_EQUAL(access(other, F_OK), 0);
	char link[1300];
	snprintf(link, sizeof(link), "%s/ioregress-vm.abcdef", tmp);
	CU_ASSERT_EQUAL_FATAL(symlink(other, link), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(recover(link), "left alone"));
	CU_ASSERT_EQUAL(access(other, F_OK), 0);
	/* a relative TMPDIR is no place to put it: /tmp */
	setenv("TMPDIR", "relative", 1);
	CU_ASSERT_EQUAL_FATAL(ior_vm_workdir_create(&w, db), IOR_OK);
	CU_ASSERT_EQUAL(strncmp(w.path, "/tmp/ioregress-vm.", 18), 0);
	ior_vm_workdir_remove(&w, db);
	if (old)
		setenv("TMPDIR", old, 1);
	else
		unsetenv("TMPDIR");
	free(old);
	ior_db_free(db);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_tmpdir_honoured_and_recovered),
		IOR_TEST_END,
	};
	return ior_test_run("vm_workdir", tests);
}
