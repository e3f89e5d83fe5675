/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer harness for the bisect replay target (tests/fuzz/target_bisect_replay.c); run by bench/fuzz.sh. */
#include "tests/fuzz/targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return ior_fuzz_run("bisect_replay", ior_fuzz_bisect_replay, data, size);
}
