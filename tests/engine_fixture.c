/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the engine test programs share; see engine_fixture.h. */
#include "tests/engine_fixture.h"
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

static struct ior_loopdev scratch = { .fd = -1 };
static bool have_scratch;

static void destroy_scratch(void)
{
	if (have_scratch)
		ior_loopdev_destroy(&scratch);
	have_scratch = false;
}

const struct ior_loopdev *ior_test_scratch_device(struct ior_target *t, uint64_t size, bool direct_io,
						  bool destructive)
{
	if (ior_loopdev_create(&scratch, "/tmp", size, direct_io, IOR_FILL_RANDOM) != IOR_OK)
		return NULL;
	if (!have_scratch)
		atexit(destroy_scratch);
	have_scratch = true;
	*t = (struct ior_target){ .name = "scratch", .path = scratch.path, .size = size, .logical_block = 512,
				  .destructive = destructive };
	return &scratch;
}

int ior_test_engine_once(const struct ior_engine_ops *ops, const char *const *kv, const struct ior_target *t,
			 struct ior_sample *out)
{
	void *blob = ior_test_engine_opts(ops, kv), *state = NULL;
	struct ior_engine_args args = { .deadline_s = IOR_ENGINE_DEADLINE_SECONDS, .opts = blob, .target = t };
	int rc = ops->supported ? ops->supported(blob) : IOR_OK;
	if (rc == IOR_OK)
		rc = ops->init(&state, &args);
	if (rc == IOR_OK)
		rc = ops->measure(state, out);
	ops->cleanup(state);
	ior_test_engine_opts_free(ops, blob);
	return rc;
}
