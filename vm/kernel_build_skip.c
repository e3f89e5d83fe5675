/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The steps of a kernel build that are skipped when their inputs did not change: the config (merge
 * and olddefconfig) and modules_install, each judged by a stamp file in the build directory. */
#include "vm/kernel_build_skip.h"

#include "common/error.h"
#include "kernel/info.h"
#include "vm/kernel_build.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The file's name and its whole contents; a file that cannot be read puts a mark no content
 * gives, so a deleted input changes the stamp. */
static void put_file(struct ior_kbuild_text *d, const char *label, const char *path)
{
	ior_kbuild_text_add(d, label, strlen(label));
	ior_kbuild_text_add(d, "\n", 1);
	FILE *f = fopen(path, "rb");
	if (!f) {
		ior_kbuild_text_add(d, "\1missing\n", 9);
		return;
	}
	char buf[1 << 16];
	for (size_t got; (got = fread(buf, 1, sizeof(buf), f)) > 0;)
		ior_kbuild_text_add(d, buf, got);
	fclose(f);
	ior_kbuild_text_add(d, "\n", 1);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file directly in dir, in name order (absent dir: nothing). */
static void put_dir(struct ior_kbuild_text *d, const char *dir)
{
	DIR *h = opendir(dir);
	char **names = NULL;
	size_t n = 0, cap = 0;
	for (struct dirent *e; h && (e = readdir(h));) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **g = realloc(names, (cap = cap ? cap * 2 : 32) * sizeof(*names));
			if (!g)
				break;
			names = g;
		}
		if (!(names[n] = strdup(e->d_name)))
			break;
		n++;
	}
	if (h)
		closedir(h);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX * 2];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			put_file(d, path, path);
		free(names[i]);
	}
	free(names);
}

static int finish(struct ior_kbuild_text *d, char hex[65])
{
	int rc = d->failed ? ior_error_set(IOR_ERROR, "out of memory") : ior_kernel_config_sha256(hex, d->s, d->len);
	free(d->s);
	return rc;
}

/* Kconfig's own list of the files it read (include/config/auto.conf.cmd's deps_config, written by
 * the last build), each put with its contents: paths relative to the tree. */
static int put_kconfig_files(struct ior_kbuild_text *d, const char *tree, const char *build)
{
	char path[PATH_MAX * 2], line[PATH_MAX];
	snprintf(path, sizeof(path), "%s/include/config/auto.conf.cmd", build);
	FILE *f = fopen(path, "r");
	if (!f)
		return ior_error_errno(IOR_ENOTFOUND, errno, "no Kconfig file list in '%s'", path);
	bool in_list = false;
	size_t files = 0;
	while (fgets(line, sizeof(line), f)) {
		if (!in_list) {
			in_list = strncmp(line, "deps_config :=", 14) == 0;
			continue;
		}
		char *s = line + strspn(line, " \t");
		size_t len = strcspn(s, " \t\\\n");
		bool more = strchr(s, '\\') != NULL;
		if (len) {
			s[len] = '\0';
			snprintf(path, sizeof(path), "%s/%s", tree, s);
			put_file(d, s, s[0] == '/' ? s : path);
			files++;
		}
		if (!more)
			break;
	}
	fclose(f);
	return files ? IOR_OK : ior_error_set(IOR_ENOTFOUND, "no Kconfig file listed in '%s'", path);
}

int ior_kbuild_config_stamp(char hex[65], const char *inputs, const char *tree, const char *build)
{
	struct ior_kbuild_text d = { 0 };
	ior_kbuild_text_add(&d, inputs, strlen(inputs));
	int rc = put_kconfig_files(&d, tree, build);
	if (rc) {
		free(d.s);
		return rc;
	}
	/* what the config targets read besides Kconfig: the base configs (tinyconfig's fragments,
	 * the defconfigs), the kconfig tools and merge_config.sh, the top Makefile (its version) */
	static const char *const dirs[] = { "kernel/configs", "arch/x86/configs", "scripts/kconfig" };
	char path[PATH_MAX * 2];
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", tree, dirs[i]);
		put_dir(&d, path);
	}
	snprintf(path, sizeof(path), "%s/Makefile", tree);
	put_file(&d, "Makefile", path);
	return finish(&d, hex);
}

int ior_kbuild_modules_stamp(char hex[65], const char *build, const char *release)
{
	struct ior_kbuild_text d = { 0 };
	char path[PATH_MAX * 2], line[PATH_MAX];
	ior_kbuild_text_add(&d, release, strlen(release));
	ior_kbuild_text_add(&d, "\n", 1);
	static const char *const lists[] = { "modules.order", "modules.builtin", "modules.builtin.modinfo" };
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", build, lists[i]);
		put_file(&d, lists[i], path);
	}
	snprintf(path, sizeof(path), "%s/modules.order", build);
	FILE *f = fopen(path, "r");
	if (!f) {
		free(d.s);
		return ior_error_errno(IOR_ENOTFOUND, errno, "no module list '%s'", path);
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || strstr(line, ".."))
			continue;
		/* 6.1 lists the .ko files; older trees list .o objects whose module is the .ko beside */
		char *dot = strrchr(line, '.');
		if (dot && !strcmp(dot, ".o"))
			strcpy(dot, ".ko");
		snprintf(path, sizeof(path), "%s/%s", build, line);
		put_file(&d, line, path);
	}
	fclose(f);
	return finish(&d, hex);
}

int ior_kbuild_stamp_read(const char *path, char hex[65], char *extra, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[PATH_MAX];
	hex[0] = '\0';
	if (extra)
		extra[0] = '\0';
	if (!f)
		return IOR_ENOTFOUND;
	if (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		snprintf(hex, 65, "%s", line);
	}
	if (extra && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		snprintf(extra, len, "%s", line);
	}
	fclose(f);
	return strlen(hex) == 64 ? IOR_OK : IOR_ENOTFOUND;
}

int ior_kbuild_stamp_write(const char *path, const char *hex, const char *extra)
{
	char text[PATH_MAX + 80];
	int n = snprintf(text, sizeof(text), "%s\n%s\n", hex, extra ? extra : "");
	return ior_kbuild_write_private(path, text, (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1);
}
