/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for the guest's memory sized from its matrix: the files each example matrix keeps, the memory
 * that gives, and a --memory too small for them refused before any boot. */
#include "common/error.h"
#include "matrix/matrix.h"
#include "tests/suite.h"
#include "vm/vm.h"

#include <stdio.h>
#include <string.h>

#define MIB (UINT64_C(1) << 20)

static char out[8192], err[8192];

static void files_of(const char *example, uint64_t *devices, uint64_t *cell)
{
	struct ior_matrix *m = NULL;
	char path[256];
	snprintf(path, sizeof(path), "matrix/examples/%s", example);
	CU_ASSERT_EQUAL_FATAL(ior_matrix_parse_file(&m, ior_test_source_path(path)), IOR_OK);
	ior_matrix_file_bytes(m, devices, cell);
	ior_matrix_free(m);
}

/* Each example matrix's files, and the memory that makes it run in a guest unchanged: vm.ini keeps
 * the 512 MiB every boot so far had; seed-loop.ini gets the 2048 it needed (1024 ran out, stop 29);
 * the 1 GiB loop devices of seed-hdparm and seed-fio fit the guest's /tmp, half its memory. */
static void test_examples_sized(void)
{
	static const struct {
		const char *file;
		uint64_t devices, cell;
		unsigned memory_mb;
	} want[] = {
		{ "vm.ini", 0, 0, 512 },
		{ "seed-loop.ini", 16 * MIB, 320 * MIB, 2048 },
		{ "seed-hdparm.ini", 1024 * MIB, 0, 2304 },
		{ "seed-fio.ini", 1024 * MIB, 0, 2304 },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		uint64_t devices = 0, cell = 0;
		files_of(want[i].file, &devices, &cell);
		unsigned mb = ior_vm_memory_needed(devices, cell);
		if (devices != want[i].devices || cell != want[i].cell || mb != want[i].memory_mb)
			fprintf(stderr, "\n  %s: %llu MiB of devices, %llu of a cell: %u MiB", want[i].file,
				(unsigned long long)(devices / MIB), (unsigned long long)(cell / MIB), mb);
		CU_ASSERT_EQUAL(devices, want[i].devices);
		CU_ASSERT_EQUAL(cell, want[i].cell);
		CU_ASSERT_EQUAL(mb, want[i].memory_mb);
		CU_ASSERT_TRUE(devices <= (uint64_t)mb * MIB / 2); /* /tmp holds them */
	}
}

static void test_given_memory_checked(void)
{
	struct ior_vm_machine m;
	char said[400];
	ior_vm_machine_default(&m);
	m.memory_mb = 0; /* not given: sized, and said */
	CU_ASSERT_EQUAL(ior_vm_size_memory(&m, 1024 * MIB, 0, said, sizeof(said)), IOR_OK);
	CU_ASSERT_EQUAL(m.memory_mb, 2304);
	CU_ASSERT_PTR_NOT_NULL(strstr(said, "guest memory 2304 MiB, not 512"));
	m.memory_mb = 0; /* a matrix with no files of its own: the default, nothing said */
	CU_ASSERT_EQUAL(ior_vm_size_memory(&m, 0, 0, said, sizeof(said)), IOR_OK);
	CU_ASSERT_EQUAL(m.memory_mb, 512);
	CU_ASSERT_STRING_EQUAL(said, "");
	m.memory_mb = 1536; /* given, the files fit /tmp but not the estimate: a warning, kept */
	CU_ASSERT_EQUAL(ior_vm_size_memory(&m, 16 * MIB, 320 * MIB, said, sizeof(said)), IOR_OK);
	CU_ASSERT_EQUAL(m.memory_mb, 1536);
	CU_ASSERT_PTR_NOT_NULL(strstr(said, "--memory 1536 is below the 2048 MiB"));
	m.memory_mb = 512; /* given, too small for the devices' files: refused */
	ior_error_clear();
	CU_ASSERT_EQUAL(ior_vm_size_memory(&m, 1024 * MIB, 0, said, sizeof(said)), IOR_EINVALID);
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "--memory 512: the matrix's scratch loop devices (1024 MiB of "
							"files) do not fit the guest's /tmp"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ior_error_last(), "give --memory 2304 or more"));
}

/* In the binary: refused before any package is looked up or any boot started, and nothing recorded. */
static void test_too_small_refused_before_boot(void)
{
	const char *db = ior_test_path("memory.db");
	char matrix[1024];
	snprintf(matrix, sizeof(matrix), "%s", ior_test_source_path("matrix/examples/seed-hdparm.ini"));
	int status = ior_test_ioregress((char *[]){ "--db", (char *)db, "vm", "run", "--matrix", matrix, "--memory", "512",
						    "linux-image-no-such-package", NULL },
					out, sizeof(out), err, sizeof(err));
	CU_ASSERT_EQUAL(status, 1); /* as a matrix error found before any boot */
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "error: --memory 512: the matrix's scratch loop devices"));
	CU_ASSERT_PTR_NULL(strstr(err, "no-such-package")); /* refused before the name was looked up */
	CU_ASSERT_EQUAL(ior_test_query(db, "SELECT count(*) FROM vm_boots"), 0);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_examples_sized),
		IOR_TEST(test_given_memory_checked),
		IOR_TEST(test_too_small_refused_before_boot),
		IOR_TEST_END,
	};
	return ior_test_run("vm_memory", tests);
}
