/* Tests for the CSV imports of db/ (being written). */
#include "db/db.h"
#include "tests/suite.h"

static void test_placeholder(void)
{
	CU_ASSERT_PTR_NOT_NULL(ior_db_import_problems);
}

int main(void)
{
	static const struct ior_test tests[] = { IOR_TEST(test_placeholder), IOR_TEST_END };
	return ior_test_run("import", tests);
}
