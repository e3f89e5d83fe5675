/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A kernel image package's name to the kernel release it installs (linux-image-6.1.0-47-cloud-amd64
 * -> 6.1.0-47-cloud-amd64), without downloading it. */
#include "vm/vm.h"

#include "common/error.h"
#include "kernel/version.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static bool strip_prefix(const char **s, const char *prefix)
{
	size_t n = strlen(prefix);
	if (strncmp(*s, prefix, n) != 0)
		return false;
	*s += n;
	return true;
}

static bool has_suffix(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

int ior_vm_package_release(const char *package, char *release, size_t len)
{
	if (len)
		release[0] = '\0';
	const char *s = package;
	if (!strip_prefix(&s, "linux-image-"))
		return ior_error_set(IOR_EINVALID, "'%s' is not a kernel image package (linux-image-RELEASE)", package);
	strip_prefix(&s, "unsigned-");   /* Ubuntu's unsigned images */
	size_t n = strlen(s);
	if (has_suffix(s, n, "-dbg") || has_suffix(s, n, "-dbgsym"))
		return ior_error_set(IOR_EINVALID, "'%s' holds debug symbols, not a kernel to boot", package);
	if (has_suffix(s, n, "-signed-template"))  /* linux-image-6.12-amd64-signed-template: a source of signed images */
		return ior_error_set(IOR_EINVALID, "'%s' is the template Debian builds signed images from, not a kernel to "
				     "boot", package);
	if (has_suffix(s, n, "-unsigned"))  /* Debian's unsigned images */
		n -= strlen("-unsigned");
	/* a release starts with its version; a metapackage's tail (cloud-amd64, rt-amd64) does not */
	struct ior_kver v;
	char tail[128];
	if (n == 0 || n >= sizeof(tail) || !isdigit((unsigned char)s[0]))
		return ior_error_set(IOR_EINVALID, "'%s' names no kernel release (a metapackage? name the versioned "
				     "package, e.g. linux-image-6.1.0-47-cloud-amd64)", package);
	snprintf(tail, sizeof(tail), "%.*s", (int)n, s);
	if (ior_kver_parse(tail, &v) != IOR_OK)
		return ior_error_set(IOR_EINVALID, "'%s' names no kernel release: '%s' is not a version", package, tail);
	if (n >= len)
		return ior_error_set(IOR_EINVALID, "release of '%s' is longer than %zu bytes", package, len ? len - 1 : 0);
	memcpy(release, tail, n + 1);
	return IOR_OK;
}
