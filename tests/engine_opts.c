/* Options blobs for engine tests (see engine_opts.h). */
#include "tests/engine_opts.h"
#include "common/error.h"
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>

void *ior_test_engine_opts(const struct ior_engine_ops *ops, const char *const *kv)
{
	void *blob = calloc(1, ops->options_size ? ops->options_size : 1);
	CU_ASSERT_FATAL(blob != NULL);
	int rc = ior_options_defaults(ops->options, blob);
	for (; rc == IOR_OK && kv && kv[0]; kv += 2)
		rc = ior_option_set(ops->options, blob, kv[0], kv[1]);
	if (rc)
		fprintf(stderr, "%s options: %s\n", ops->name, ior_error_last());
	CU_ASSERT_EQUAL_FATAL(rc, IOR_OK);
	return blob;
}

void ior_test_engine_opts_free(const struct ior_engine_ops *ops, void *blob)
{
	ior_options_free(ops->options, blob);
	free(blob);
}
