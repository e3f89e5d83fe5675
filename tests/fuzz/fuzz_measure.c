/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer harness for the bisect measure parser target (tests/fuzz/target_measure.c); run by bench/fuzz.sh. */
#include "tests/fuzz/targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return ior_fuzz_run("measure", ior_fuzz_measure, data, size);
}
