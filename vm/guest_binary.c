/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which ioregress goes into a guest: the slim guest binary built and installed with this one, else
 * this one (see vm.h). */
#include "vm/vm.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GUEST_NAME "ioregress-guest"

/* Where the guest binary sits relative to the directory of ioregress: beside it in the build tree,
 * under libexec when installed (cmake/Install.cmake). Never looked up elsewhere: a guest binary of
 * another build could have another schema than the database the host makes for it. */
static const char *const places[] = { ".", IOR_GUEST_FROM_BINDIR };

bool ior_vm_guest_binary(const char *self, char *out, size_t len)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", self);
	const char *d = dirname(dir);
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		snprintf(out, len, "%s/%s/%s", d, places[i], GUEST_NAME);
		if (access(out, X_OK) == 0)
			return true;
	}
	snprintf(out, len, "%s", self);
	return false;
}

static bool same_file(const char *a, const char *b)
{
	struct stat x, y;
	return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

bool ior_vm_guest_is_ours(const char *guest)
{
	char self[PATH_MAX], ours[PATH_MAX * 2];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return false;
	self[n] = '\0';
	return same_file(guest, self) || (ior_vm_guest_binary(self, ours, sizeof(ours)) && same_file(guest, ours));
}
