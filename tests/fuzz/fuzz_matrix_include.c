/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer harness for the matrix include target (tests/fuzz/target_matrix_include.c); run by bench/fuzz.sh. */
#include "tests/fuzz/targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return ior_fuzz_run("matrix_include", ior_fuzz_matrix_include, data, size);
}
