/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the engine test programs share: options blobs filled from an engine's own rows, a scratch
 * loop device for the whole program, and one init-measure-cleanup. */
#ifndef IOR_TESTS_ENGINE_FIXTURE_H
#define IOR_TESTS_ENGINE_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "device/loopdev.h"
#include "engines/engine.h"

/* Defaults, then each "key", "value" pair of the NULL-terminated kv (which may be NULL);
 * a value the rows refuse fails the test, with the parser's message on stderr. */
void *ior_test_engine_opts(const struct ior_engine_ops *ops, const char *const *kv);
void ior_test_engine_opts_free(const struct ior_engine_ops *ops, void *blob);


/* A scratch loop device of size bytes over a file in /tmp, detached at exit, and *t describing
 * it ("scratch", 512-byte blocks, destructive as given); NULL (message set) when none can be made. */
const struct ior_loopdev *ior_test_scratch_device(struct ior_target *t, uint64_t size, bool direct_io,
						  bool destructive);

/* Options from kv, supported(), init, one measure and cleanup, as a run does for one repetition;
 * returns the first status that is not IOR_OK. */
int ior_test_engine_once(const struct ior_engine_ops *ops, const char *const *kv, const struct ior_target *t,
			 struct ior_sample *out);

#endif
