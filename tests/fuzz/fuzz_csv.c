/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer harness for the csv target (tests/fuzz/target_csv.c); run by bench/fuzz.sh. */
#include "tests/fuzz/targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return ior_fuzz_run("csv", ior_fuzz_csv, data, size);
}
