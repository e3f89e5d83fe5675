/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: the fio JSON parser on arbitrary bytes (no NUL, any length) — figures or a "fio
 * json:" refusal, nothing in between. */
#include "tests/fuzz/targets.h"

#include "common/error.h"
#include "engines/fio_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int check_dir(const struct ior_fio_dir *d, const char *name)
{
	double v[] = { d->bw_bytes, d->iops, d->runtime_s, d->clat.p50_us, d->clat.p99_us, d->clat.p999_us, d->lat.p50_us, d->lat.mean_us };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!isfinite(v[i]) || v[i] < 0)
			return ior_fuzz_fail("parsed %s figure %zu is %g", name, i, v[i]);
	return 0;
}

int ior_fuzz_fio_json(const uint8_t *data, size_t size)
{
	/* A copy of exactly size bytes, so ASan sees any read past the end. */
	char *text = malloc(size ? size : 1);
	if (!text)
		return ior_fuzz_fail("out of memory");
	memcpy(text, data, size);
	struct ior_fio_result r;
	ior_error_clear();
	int rc = ior_fio_json_parse(&r, text, size);
	free(text);
	ior_fuzz_set_accepted(rc == 0);
	const char *msg = ior_error_last();
	if (rc != 0)
		return strncmp(msg, "fio json: ", 10) == 0 ? 0 : ior_fuzz_fail("refusal is not 'fio json: ...': '%s'", msg);
	if (strnlen(r.version, sizeof(r.version)) == sizeof(r.version))
		return ior_fuzz_fail("version is not NUL-terminated");
	if (check_dir(&r.read, "read") || check_dir(&r.write, "write"))
		return -1;
	if (!isfinite(r.usr_s) || !isfinite(r.sys_s) || r.usr_s < 0 || r.sys_s < 0)
		return ior_fuzz_fail("cpu seconds usr %g sys %g", r.usr_s, r.sys_s);
	return 0;
}
