/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A kernel build's record (build.info beside its bzImage): commit, describe, config and image
 * hashes, read back by vm run and bisect. */
#include "vm/kernel_build.h"

#include "common/error.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* One key per line; values never hold a newline (subjects are one line already). */
static const struct field {
	const char *key;
	size_t off, len;
} fields[] = {
#define F(k, member) { k, offsetof(struct ior_kbuild, member), sizeof(((struct ior_kbuild *)0)->member) }
	F("release", release),
	F("commit", commit.sha),
	F("describe", commit.describe),
	F("subject", commit.subject),
	F("author_name", commit.author_name),
	F("author_email", commit.author_email),
	F("author_date", commit.author_date),
	F("config_hash", config_hash),
	F("image_hash", image_hash),
	F("local_changes", local_changes),
	F("deb", deb_name),
	F("compiler", compiler),
#undef F
};

int ior_kbuild_record_write(const struct ior_kbuild *b, const char *dir)
{
	char path[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/build.info", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", path);
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		fprintf(f, "%s=%s\n", fields[i].key, (const char *)b + fields[i].off);
	if (fclose(f) != 0)
		return ior_error_errno(IOR_ERROR, errno, "cannot write '%s'", path);
	return IOR_OK;
}

int ior_kbuild_record_read(struct ior_kbuild *b, const char *dir)
{
	char path[PATH_MAX + 16], line[2048];
	snprintf(path, sizeof(path), "%s/build.info", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return ior_error_errno(errno == ENOENT ? IOR_ENOTFOUND : IOR_ERROR, errno, "cannot read '%s'", path);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		char *eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
			if (!strcmp(line, fields[i].key))
				snprintf((char *)b + fields[i].off, fields[i].len, "%s", eq + 1);
	}
	fclose(f);
	snprintf(b->image, sizeof(b->image), "%s/bzImage", dir);
	snprintf(b->config, sizeof(b->config), "%s/config", dir);
	snprintf(b->modules, sizeof(b->modules), "%s/lib/modules/%s", dir, b->release);
	b->deb[0] = '\0';
	if (b->deb_name[0] && !strchr(b->deb_name, '/'))
		snprintf(b->deb, sizeof(b->deb), "%s/%s", dir, b->deb_name);
	if (!b->release[0] || strlen(b->config_hash) != 64)
		return ior_error_set(IOR_EINVALID, "'%s' is not a build record (no release or config_hash)", path);
	return IOR_OK;
}
