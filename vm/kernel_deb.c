/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernels as Debian packages: what a tree built for a real machine gets over its config, make
 * bindeb-pkg's image package kept and the rest of its products removed, and a .deb given as KERNEL. */
#include "vm/internal.h"

#include "common/error.h"
#include "common/spawn.h"
#include "common/trust.h"
#include "kernel/info.h"
#include "vm/kernel_build.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char ior_kbuild_deb_fragment[] =
	/* one member of the debug-information choice, the others off: a base config's DWARF5=y read after
	 * NONE=y would win the choice again */
	"CONFIG_DEBUG_INFO_NONE=y\n"
	"# CONFIG_DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT is not set\n"
	"# CONFIG_DEBUG_INFO_DWARF4 is not set\n"
	"# CONFIG_DEBUG_INFO_DWARF5 is not set\n"
	"# CONFIG_DEBUG_INFO_BTF is not set\n"
	"CONFIG_SYSTEM_TRUSTED_KEYS=\"\"\n"
	"CONFIG_SYSTEM_REVOCATION_KEYS=\"\"\n";

void ior_kbuild_deb_version(char *out, size_t len, const struct ior_kbuild *b)
{
	if (b->dirty)
		snprintf(out, len, "1.%.12s.%.12s-1", b->config_hash, b->local_changes);
	else
		snprintf(out, len, "1.%.12s-1", b->config_hash);
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

/* What bindeb-pkg writes beside the object tree for release (and what an earlier one left). */
static bool product_of(const char *name, const char *release)
{
	char p[300];
	static const char *const prefixes[] = { "linux-image-%s_", "linux-image-%s-dbg_", "linux-headers-%s_" };
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		snprintf(p, sizeof(p), prefixes[i], release);
		if (!strncmp(name, p, strlen(p)) && has_suffix(name, ".deb"))
			return true;
	}
	return (!strncmp(name, "linux-libc-dev_", 15) && has_suffix(name, ".deb")) ||
	       (!strncmp(name, "linux-upstream_", 15) && (has_suffix(name, ".buildinfo") || has_suffix(name, ".changes")));
}

int ior_kbuild_deb_collect(const char *out, const char *release, const char *dir, char *name, size_t len)
{
	char want[300], from[PATH_MAX + 300], to[PATH_MAX + 300];
	snprintf(want, sizeof(want), "linux-image-%s_", release);
	name[0] = '\0';
	DIR *d = opendir(out);
	if (!d)
		return ior_error_errno(IOR_ERROR, errno, "cannot open the build directory '%s'", out);
	int rc = IOR_OK;
	for (struct dirent *e; (e = readdir(d));) {
		if (!product_of(e->d_name, release))
			continue;
		snprintf(from, sizeof(from), "%s/%s", out, e->d_name);
		if (!name[0] && !strncmp(e->d_name, want, strlen(want))) {
			snprintf(name, len, "%s", e->d_name);
			snprintf(to, sizeof(to), "%s/%s", dir, e->d_name);
			if (rename(from, to) != 0)
				rc = ior_error_errno(IOR_ERROR, errno, "cannot move '%s' to '%s'", from, to);
		} else {
			unlink(from); /* headers, libc-dev, -dbg: nothing installs them on the target */
		}
	}
	closedir(d);
	if (!rc && !name[0])
		rc = ior_error_set(IOR_ERROR, "make bindeb-pkg left no %s*.deb in '%s' (log '%s/build.log')", want, out, out);
	return rc;
}

/* A .deb's control fields Package and Version, in that order, one a line. */
static int deb_fields(const char *deb, char *package, size_t plen, char *version, size_t vlen)
{
	struct ior_spawn c = { .argv = (const char *const[]){ "dpkg-deb", "-f", deb, "Package", "Version", NULL },
			       .out_to = IOR_SPAWN_OUT_CAPTURE, .max_out = 4096 };
	int rc = ior_spawn_run(&c);
	if (!rc)
		rc = ior_spawn_check(&c, "dpkg-deb -f");
	if (!rc) {
		char p[300] = "", v[200] = "";
		for (const char *l = c.out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
			if (!strncmp(l, "Package: ", 9))
				snprintf(p, sizeof(p), "%.*s", (int)strcspn(l + 9, "\n"), l + 9);
			else if (!strncmp(l, "Version: ", 9))
				snprintf(v, sizeof(v), "%.*s", (int)strcspn(l + 9, "\n"), l + 9);
		}
		snprintf(package, plen, "%s", p);
		snprintf(version, vlen, "%s", v);
		if (!p[0] || !v[0])
			rc = ior_error_set(IOR_EINVALID, "'%s' has no Package or Version field", deb);
	}
	ior_spawn_free(&c);
	return rc;
}

/* Characters a package name or version may hold: they name directories of the cache. */
static bool plain(const char *s)
{
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') && !(*s >= '0' && *s <= '9') && !strchr("+-.~:", *s))
			return false;
	return true;
}

int ior_vm_kernel_resolve_deb(struct ior_vm_kernel *k, const char *spec, const char *cache)
{
	struct stat st;
	if (stat(spec, &st) != 0)
		return ior_error_errno(IOR_ENOTFOUND, errno, "cannot find kernel package '%s'", spec);
	if (!S_ISREG(st.st_mode))
		return ior_error_set(IOR_EINVALID, "kernel package '%s' is not a file", spec);
	if (!realpath(spec, k->deb))
		return ior_error_errno(IOR_ERROR, errno, "cannot resolve '%s'", spec);
	int rc = deb_fields(k->deb, k->package, sizeof(k->package), k->package_version, sizeof(k->package_version));
	if (!rc && (!plain(k->package) || !plain(k->package_version) || k->package[0] == '-'))
		rc = ior_error_set(IOR_EINVALID, "'%s' names itself '%s' %s: not a Debian package name and version", spec,
				   k->package, k->package_version);
	if (!rc && ior_vm_package_release(k->package, k->release, sizeof(k->release)) != IOR_OK)
		rc = ior_error_set(IOR_EINVALID, "'%s' is package '%s', not a kernel image package (linux-image-RELEASE)",
				   spec, k->package);
	if (rc)
		return rc;
	if (!*cache)
		return ior_error_set(IOR_EINVALID, "no kernel cache to unpack '%s' in: neither XDG_CACHE_HOME nor HOME is "
				     "set (give --cache-dir DIR)", spec);
	char tree[PATH_MAX + 600], done[PATH_MAX + 620], version[200];
	/* ':' of an epoch as apt-get download writes it */
	snprintf(version, sizeof(version), "%s", k->package_version);
	for (char *c = version; *c; c++)
		if (*c == ':')
			*c = '_';
	snprintf(tree, sizeof(tree), "%s/%s_%s.deb-tree", cache, k->package, version);
	snprintf(done, sizeof(done), "%s.unpacked", tree);
	char deb[PATH_MAX];
	snprintf(deb, sizeof(deb), "%s", k->deb);
	rc = ior_make_private_dir(cache, "kernel cache");
	if (!rc)
		rc = ior_vm_kernel_unpack(k, deb, tree, done, spec);
	return rc;
}
