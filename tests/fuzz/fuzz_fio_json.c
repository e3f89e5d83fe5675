/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer harness for the fio_json target (tests/fuzz/target_fio_json.c); run by bench/fuzz.sh. */
#include "tests/fuzz/targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return ior_fuzz_run("fio_json", ior_fuzz_fio_json, data, size);
}
