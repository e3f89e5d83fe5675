/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer harness for the bisect artifact walk target (tests/fuzz/target_artifact.c); run by bench/fuzz.sh. */
#include "tests/fuzz/targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return ior_fuzz_run("artifact", ior_fuzz_artifact, data, size);
}
