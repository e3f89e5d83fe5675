/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: the bisect measure parser on arbitrary output — accepted output gives one finite,
 * normal (or zero) sample per non-blank line; anything else is refused naming a line, with nothing
 * appended. */
#include "tests/fuzz/targets.h"

#include "bisect/measure.h"
#include "common/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Lines holding anything but blanks (spaces, tabs, CR), as the parser counts them. */
static size_t sample_lines(const uint8_t *data, size_t size)
{
	size_t n = 0;
	bool filled = false;
	for (size_t i = 0; i <= size; i++) {
		if (i == size || data[i] == '\n') {
			n += filled;
			filled = false;
		} else if (data[i] != ' ' && data[i] != '\t' && data[i] != '\r') {
			filled = true;
		}
	}
	return n;
}

int ior_fuzz_measure(const uint8_t *data, size_t size)
{
	double *x = malloc(sizeof(*x));
	if (!x)
		return ior_fuzz_fail("out of memory");
	x[0] = 42;   /* a sample already there, as the judge's earlier measurements are */
	size_t n = 1;
	ior_error_clear();
	int rc = ior_bisect_parse_samples((const char *)data, size, &x, &n);
	ior_fuzz_set_accepted(rc == 0);
	int broken = 0;
	if (x[0] != 42)
		broken = ior_fuzz_fail("an earlier sample was changed");
	else if (rc == 0 && n - 1 != sample_lines(data, size))
		broken = ior_fuzz_fail("%zu samples from %zu non-blank lines", n - 1, sample_lines(data, size));
	else if (rc != 0 && n != 1)
		broken = ior_fuzz_fail("refused (%d) but %zu samples appended", rc, n - 1);
	else if (rc != 0 && rc != IOR_EINVALID)
		broken = ior_fuzz_fail("refusal gave code %d, not IOR_EINVALID: %s", rc, ior_error_last());
	else if (rc != 0 && strncmp(ior_error_last(), "measure output", 14) != 0)
		broken = ior_fuzz_fail("refusal does not start with 'measure output': %s", ior_error_last());
	for (size_t i = 1; !broken && i < n; i++)
		if (!isfinite(x[i]) || fpclassify(x[i]) == FP_SUBNORMAL)
			broken = ior_fuzz_fail("sample %zu is %g: not finite or denormal", i, x[i]);
	free(x);
	return broken;
}
