/* Engine tests' options: a blob filled from the engine's own rows, as the matrix fills it. */
#ifndef IOR_TESTS_ENGINE_OPTS_H
#define IOR_TESTS_ENGINE_OPTS_H

#include "engines/engine.h"

/* Defaults, then each "key", "value" pair of the NULL-terminated kv (which may be NULL);
 * a value the rows refuse fails the test, with the parser's message on stderr. */
void *ior_test_engine_opts(const struct ior_engine_ops *ops, const char *const *kv);
void ior_test_engine_opts_free(const struct ior_engine_ops *ops, void *blob);

#endif
