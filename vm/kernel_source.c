/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernels to boot: Debian packages fetched with apt-get download and unpacked once into a cache, or
 * a bzImage with its module tree. */
#include "vm/internal.h"

#include "common/error.h"
#include "common/trust.h"
#include "common/spawn.h"
#include "vm/kernel_build.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Never a shared directory such as /tmp when neither is set (a service, env -i): another user
 * could plant packages or links there for root to unpack. "" then, refused when a package is asked for. */
void ior_vm_default_cache(char *out, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	if (xdg && *xdg)
		snprintf(out, len, "%s/ioregress/kernels", xdg);
	else if (home && *home)
		snprintf(out, len, "%s/.cache/ioregress/kernels", home);
	else
		snprintf(out, len, "%s", "");
}

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int ior_vm_mkdir_p(const char *path)
{
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
			return ior_error_errno(IOR_ERROR, errno, "cannot create '%s'", tmp);
		*p = '/';
	}
	if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
		return ior_error_errno(IOR_ERROR, errno, "cannot create '%s'", tmp);
	return IOR_OK;
}

/* The one release directory under modules (…/lib/modules), into release. */
static int only_release(const char *modules, char *release, size_t len)
{
	DIR *d = opendir(modules);
	if (!d)
		return ior_error_errno(IOR_ENOTFOUND, errno, "cannot open module directory '%s'", modules);
	int found = 0;
	for (struct dirent *e; (e = readdir(d));) {
		char p[PATH_MAX];
		snprintf(p, sizeof(p), "%s/%s", modules, e->d_name);
		if (e->d_name[0] == '.' || !is_dir(p))
			continue;
		if (!found++)
			snprintf(release, len, "%s", e->d_name);
	}
	closedir(d);
	if (found != 1)
		return ior_error_set(IOR_EINVALID, "'%s' holds %d kernel releases; name one (…/lib/modules/RELEASE)", modules,
				     found);
	return IOR_OK;
}

/* An entry of the cache by lstat: ENOENT is IOR_ENOTFOUND; anything else must be ours, never a link. */
static int cache_entry(const char *path, bool want_dir, const char *what)
{
	struct stat st;
	if (lstat(path, &st))
		return errno == ENOENT ? IOR_ENOTFOUND : ior_error_errno(IOR_ERROR, errno, "cannot check %s '%s'", what, path);
	return ior_check_private_entry(&st, want_dir, path, what);
}

/* NAME_VERSION_ARCH.deb in dir (apt-get download's name, ':' as %3a), into deb and version. */
static int find_deb(const char *dir, const char *name, char *deb, size_t len, char *version, size_t vlen)
{
	DIR *d = opendir(dir);
	if (!d)
		return ior_error_errno(IOR_ERROR, errno, "cannot open cache '%s'", dir);
	size_t nl = strlen(name);
	int rc = IOR_ENOTFOUND;
	for (struct dirent *e; rc && (e = readdir(d));) {
		const char *n = e->d_name;
		size_t l = strlen(n);
		if (strncmp(n, name, nl) || n[nl] != '_' || l < 4 || strcmp(n + l - 4, ".deb"))
			continue;
		snprintf(deb, len, "%s/%s", dir, n);
		if ((rc = cache_entry(deb, false, "kernel package")))
			break; /* a package another user could have put there is refused, not skipped */
		const char *v = n + nl + 1, *end = strrchr(v, '_');
		snprintf(version, vlen, "%.*s", (int)((end ? end : n + l - 4) - v), v);
		char *pct = strstr(version, "%3a");
		if (pct) {
			*pct = ':';
			memmove(pct + 1, pct + 3, strlen(pct + 3) + 1);
		}
		rc = IOR_OK;
	}
	closedir(d);
	return rc;
}

/* Only names apt would accept: the name goes to apt-get as one argument, never to a shell,
 * but a '/' or a leading '-' would still mean a path or an option. */
static bool package_name_ok(const char *s)
{
	if (!*s || *s == '-' || strlen(s) > 200)
		return false;
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= '0' && *s <= '9') && !strchr("+-.", *s))
			return false;
	return true;
}

int ior_vm_kernel_unpack(struct ior_vm_kernel *k, const char *deb, const char *tree, const char *done, const char *name)
{
	int rc = IOR_OK;
	snprintf(k->modules, sizeof(k->modules), "%s/lib/modules", tree);
	/* unpacked and indexed once; the marker is written last so an interrupted unpack is redone */
	int have = cache_entry(done, false, "kernel cache marker");
	/* a marker whose tree is gone (removed by hand, a cache cleaner) means unpack again: the
	 * tree's absence used to come back as an error without a message, an infra-error with no
	 * reason on every boot */
	int tree_rc = have ? IOR_OK : cache_entry(tree, true, "kernel tree");
	if (tree_rc == IOR_ENOTFOUND && unlink(done) == 0)
		have = IOR_ENOTFOUND;
	if (have == IOR_ENOTFOUND) {
		rc = cache_entry(tree, true, "kernel tree");
		if (rc == IOR_ENOTFOUND)
			rc = mkdir(tree, 0755) ? ior_error_errno(IOR_ERROR, errno, "cannot create '%s'", tree) : IOR_OK;
		if (!rc && !(rc = ior_spawn_tool((const char *const[]){ "dpkg-deb", "-x", deb, tree, NULL }, NULL, "dpkg-deb -x")) &&
		    !(rc = only_release(k->modules, k->release, sizeof(k->release))))
			rc = ior_spawn_tool((const char *const[]){ "depmod", "-b", tree, k->release, NULL }, NULL, "depmod");
		int fd = rc ? -1 : open(done, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0)
			close(fd);
	} else {
		rc = have ? have : tree_rc;
	}
	if (!rc)
		rc = only_release(k->modules, k->release, sizeof(k->release));
	snprintf(k->image, sizeof(k->image), "%s/boot/vmlinuz-%s", tree, k->release);
	if (!rc && !is_file(k->image))
		rc = ior_error_set(IOR_ENOTFOUND, "'%s' has no boot/vmlinuz-%s", name, k->release);
	if (!rc)
		snprintf(k->deb, sizeof(k->deb), "%s", deb);
	return rc;
}

static int resolve_package(struct ior_vm_kernel *k, const char *name, const char *cache)
{
	if (!package_name_ok(name))
		return ior_error_set(IOR_EINVALID, "'%s' is neither a Debian package name nor PATH/bzImage:MODULES_DIR", name);
	char tree[PATH_MAX], done[PATH_MAX], deb[PATH_MAX];
	snprintf(tree, sizeof(tree), "%s/%s", cache, name);
	snprintf(done, sizeof(done), "%s/%s.unpacked", cache, name);
	if (!*cache)
		return ior_error_set(IOR_EINVALID, "no kernel cache for '%s': neither XDG_CACHE_HOME nor HOME is set "
				     "(give --cache-dir DIR)", name);
	/* judged before anything is made in it: nothing of ours is left in another user's directory */
	int rc = ior_make_private_dir(cache, "kernel cache");
	if (!rc)
		rc = find_deb(cache, name, deb, sizeof(deb), k->package_version, sizeof(k->package_version));
	if (rc == IOR_ENOTFOUND && !(rc = ior_vm_package_check(name)) && (ior_vm_package_announce(name), true))
		rc = ior_spawn_tool((const char *const[]){ "apt-get", "download", "-q", name, NULL }, cache, "apt-get download");
	if (!rc)
		rc = find_deb(cache, name, deb, sizeof(deb), k->package_version, sizeof(k->package_version));
	if (rc == IOR_ENOTFOUND)
		rc = ior_error_set(IOR_ENOTFOUND, "apt-get download '%s' left no .deb in '%s'", name, cache);
	if (!rc)
		rc = ior_vm_kernel_unpack(k, deb, tree, done, name);
	if (!rc)
		snprintf(k->package, sizeof(k->package), "%s", name);
	return rc;
}

/* kernel build's record beside the image: its config goes into the guest (the run's config hash). */
static void read_build_record(struct ior_vm_kernel *k)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", k->image);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	struct ior_kbuild *b = calloc(1, sizeof(*b));
	if (b && ior_kbuild_record_read(b, slash ? dir : ".") == IOR_OK && is_file(b->config)) {
		snprintf(k->config, sizeof(k->config), "%s", b->config);
	}
	free(b);
	ior_error_clear();
}

static int resolve_built(struct ior_vm_kernel *k, const char *spec)
{
	const char *colon = strrchr(spec, ':');
	snprintf(k->image, sizeof(k->image), "%.*s", (int)(colon ? colon - spec : (long)strlen(spec)), spec);
	if (!is_file(k->image))
		return ior_error_set(IOR_ENOTFOUND, "kernel image '%s' does not exist", k->image);
	read_build_record(k);
	if (!colon || !colon[1])
		return IOR_OK; /* a kernel with everything built in */
	const char *dir = colon + 1;
	char dep[PATH_MAX];
	snprintf(dep, sizeof(dep), "%s/modules.dep", dir);
	if (is_file(dep)) { /* …/lib/modules/RELEASE */
		const char *slash = strrchr(dir, '/');
		snprintf(k->release, sizeof(k->release), "%s", slash ? slash + 1 : dir);
		snprintf(k->modules, sizeof(k->modules), "%.*s", (int)(slash ? slash - dir : 1), slash ? dir : ".");
	} else {
		snprintf(k->modules, sizeof(k->modules), "%s", dir);
		int rc = only_release(dir, k->release, sizeof(k->release));
		if (rc)
			return rc;
		snprintf(dep, sizeof(dep), "%s/%s/modules.dep", dir, k->release);
	}
	if (!is_file(dep))
		return ior_error_set(IOR_EINVALID, "'%s' is missing: run 'depmod -b ROOT %s' (make modules_install does)", dep,
				     k->release);
	return IOR_OK;
}

int ior_vm_kernel_resolve(struct ior_vm_kernel *k, const char *spec, const char *cache_dir)
{
	memset(k, 0, sizeof(*k));
	snprintf(k->spec, sizeof(k->spec), "%s", spec);
	size_t n = strlen(spec);
	if (n > 4 && !strcmp(spec + n - 4, ".deb"))
		return ior_vm_kernel_resolve_deb(k, spec, cache_dir);
	return strchr(spec, '/') ? resolve_built(k, spec) : resolve_package(k, spec, cache_dir);
}
