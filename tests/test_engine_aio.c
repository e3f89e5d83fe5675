/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests for engines/aio.c: fio job semantics on libaio against a real scratch loop device (cases in
 * engine_job_cases.h). */
#include "tests/engine_job_cases.h"

int main(void)
{
	return job_suite_main("aio", "engine_aio", NULL);
}
