/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer harness for the db_open target (tests/fuzz/target_db_open.c); run by bench/fuzz.sh. */
#include "tests/fuzz/targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return ior_fuzz_run("db_open", ior_fuzz_db_open, data, size);
}
