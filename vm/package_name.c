/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel package names checked against the apt lists before anything is downloaded: exact names
 * only, a did-you-mean for a release string or a metapackage, never a debug package; and the
 * announcement of a download with its size. */
#include "vm/vm.h"

#include "common/error.h"
#include "common/suggest.h"
#include "common/spawn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static bool is_debug(const char *name)
{
	size_t n = strlen(name);
	return (n > 4 && !strcmp(name + n - 4, "-dbg")) || (n > 7 && !strcmp(name + n - 7, "-dbgsym"));
}

/* Package names apt knows that start with prefix, one a line (apt-cache pkgnames reads the local
 * lists: no network); NULL when apt-cache cannot run. */
static char *names_with_prefix(const char *prefix)
{
	struct ior_spawn r = { .argv = (const char *const[]){ "apt-cache", "pkgnames", prefix, NULL },
			       .out_to = IOR_SPAWN_OUT_CAPTURE };
	char *out = NULL;
	if (ior_spawn_run(&r) == IOR_OK && WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0)
		out = r.out ? r.out : strdup("");
	else
		ior_spawn_free(&r);
	return out;
}

/* The flavour a release names after its version and ABI number: 6.1.0-47-cloud-amd64 and
 * 6.12.118+deb12-cloud-amd64 -> cloud-amd64, 6.8.0-31-generic -> generic. */
static const char *flavour(const char *release)
{
	const char *p = strchr(release, '-');
	if (!p)
		return "";
	size_t digits = strspn(++p, "0123456789");
	return digits && p[digits] == '-' ? p + digits + 1 : p;
}

/* Up to three bootable names of the list that hold needle (a release string, or part of one), or
 * whose flavour is needle (a metapackage's: amd64 is not rt-amd64), sorted as apt gave them. */
static void suggestions(const char *list, const char *needle, char *out, size_t len)
{
	bool release = needle[0] >= '0' && needle[0] <= '9';
	out[0] = '\0';
	int n = 0;
	for (const char *p = list; p && *p && n < 3;) {
		size_t l = strcspn(p, "\n");
		char name[256];
		snprintf(name, sizeof(name), "%.*s", (int)l, p);
		p += l + (p[l] == '\n');
		char rel[128];
		if (!strstr(name, needle) || is_debug(name) || ior_vm_package_release(name, rel, sizeof(rel)) != IOR_OK ||
		    (!release && strcmp(flavour(rel), needle)))
			continue;
		size_t used = strlen(out);
		snprintf(out + used, len - used, "%s'%s'", n++ ? ", " : "", name);
	}
}

/* The bootable name of the list nearest to name (within two edits, as every did-you-mean). */
static void nearest(const char *list, const char *name, char *out, size_t len)
{
	struct ior_suggestion near;
	ior_suggest_init(&near);
	char best[256] = "";
	for (const char *p = list; p && *p;) {
		size_t l = strcspn(p, "\n");
		char cand[256], rel[128];
		snprintf(cand, sizeof(cand), "%.*s", (int)l, p);
		p += l + (p[l] == '\n');
		if (is_debug(cand) || ior_vm_package_release(cand, rel, sizeof(rel)) != IOR_OK)
			continue;
		size_t before = near.distance;
		ior_suggest_consider(&near, name, cand);
		if (near.distance < before) /* cand is reused: keep a copy of the best */
			snprintf(best, sizeof(best), "%s", cand);
	}
	snprintf(out, len, "%s%s%s", best[0] ? "'" : "", best, best[0] ? "'" : "");
}

/* Up to three bootable names of the list that start with name and a dash: a name cut short
 * (linux-image-6.1.0-47-cloud for linux-image-6.1.0-47-cloud-amd64) is too many edits away for
 * nearest(), and is the commonest such typo. */
static void extensions(const char *list, const char *name, char *out, size_t len)
{
	size_t nl = strlen(name);
	out[0] = '\0';
	int n = 0;
	for (const char *p = list; p && *p && n < 3;) {
		size_t l = strcspn(p, "\n");
		char cand[256], rel[128];
		snprintf(cand, sizeof(cand), "%.*s", (int)l, p);
		p += l + (p[l] == '\n');
		if (strncmp(cand, name, nl) || cand[nl] != '-' || is_debug(cand) ||
		    ior_vm_package_release(cand, rel, sizeof(rel)) != IOR_OK)
			continue;
		size_t used = strlen(out);
		snprintf(out + used, len - used, "%s'%s'", n++ ? ", " : "", cand);
	}
}

int ior_vm_package_check(const char *name)
{
	char release[128], near[800];
	char *all = names_with_prefix("linux-image-");
	if (!all) /* no apt here: apt-get download will say what is wrong */
		return IOR_OK;
	bool image = strncmp(name, "linux-image-", 12) == 0;
	int rc = IOR_OK;
	if (!image || ior_vm_package_release(name, release, sizeof(release)) != IOR_OK) {
		/* a release string (6.1.0-47-cloud-amd64), a metapackage or a debug package: the
		 * bootable packages whose names hold what was given */
		const char *needle = image ? name + 12 : name;
		char stem[256];
		snprintf(stem, sizeof(stem), "%s", needle);
		size_t n = strlen(stem);
		if (n > 4 && !strcmp(stem + n - 4, "-dbg"))
			stem[n - 4] = '\0';
		else if (n > 7 && !strcmp(stem + n - 7, "-dbgsym"))   /* Ubuntu's */
			stem[n - 7] = '\0';
		suggestions(all, stem, near, sizeof(near));
		rc = ior_error_set(IOR_EINVALID, "'%s' is not a bootable kernel package%s%s%s", name,
				   near[0] ? " (did you mean " : ": name a versioned linux-image package, e.g. "
								 "linux-image-6.1.0-47-cloud-amd64",
				   near, near[0] ? "?)" : "");
	} else {
		bool found = false;
		for (const char *p = strstr(all, name); p && !found; p = strstr(p + 1, name))
			found = (p == all || p[-1] == '\n') && (p[strlen(name)] == '\n' || !p[strlen(name)]);
		if (!found) {
			nearest(all, name, near, sizeof(near));
			if (!near[0])
				extensions(all, name, near, sizeof(near));
			rc = ior_error_set(IOR_ENOTFOUND, "no package '%s' in apt's lists%s%s%s", name,
					   near[0] ? " (did you mean " : "", near, near[0] ? "?)" : "");
		}
	}
	free(all);
	return rc;
}

void ior_vm_package_announce(const char *name)
{
	struct ior_spawn r = { .argv = (const char *const[]){ "apt-cache", "show", "--no-all-versions", name, NULL },
			       .out_to = IOR_SPAWN_OUT_CAPTURE };
	double mb = -1;
	char version[128] = "";
	if (ior_spawn_run(&r) == IOR_OK && r.out) {
		const char *size = strstr(r.out, "\nSize: "), *v = strstr(r.out, "Version: ");
		if (size)
			mb = strtod(size + 7, NULL) / 1e6;
		if (v)
			snprintf(version, sizeof(version), "%.*s", (int)strcspn(v + 9, "\n"), v + 9);
	}
	ior_spawn_free(&r);
	if (mb >= 0)
		fprintf(stderr, "vm: downloading '%s' %s (%.1f MB) with apt-get download\n", name, version, mb);
	else
		fprintf(stderr, "vm: downloading '%s' with apt-get download\n", name);
}
