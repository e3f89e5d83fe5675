/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: the bisect artifact walk on a tree the input describes, built in a scratch directory
 * (directories as deep as the input says, files, symlinks in and out, FIFOs) — a tree of files,
 * directories, links and FIFOs always hashes, the same way twice, without opening a FIFO (a hang is
 * libFuzzer's -timeout), without following a link out (what lies outside may change), and a file's
 * content changes the hash; an artifact that is itself a FIFO or a link to a device is refused. */
#include "tests/fuzz/targets.h"

#include "bisect/artifact.h"
#include "common/error.h"

#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The path of the directory being filled, kept well below PATH_MAX so the walk's own limit (paths
 * are given whole to lstat) is never what is tested. */
#define MAX_PATH_LEN 3000

/* Removes path and everything under it, without following links (fts, as the walk itself). */
static void remove_tree(const char *path)
{
	char *const roots[] = { (char *)path, NULL };
	FTS *fts = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
	if (!fts)
		return;
	for (FTSENT *e; (e = fts_read(fts));) {
		if (e->fts_info == FTS_D)
			continue;
		if (e->fts_info == FTS_DP)
			rmdir(e->fts_accpath);
		else
			unlink(e->fts_accpath);
	}
	fts_close(fts);
}

/* Names an input byte picks: ordinary, hidden, with a space, a glob character, a high byte, long. */
static const char *const names[] = { "a", "b", "bin", ".hidden", "sp ace", "x*y", "\xc3\xa9", "-dash",
				     "0123456789012345678901234567890123456789012345678901234567890123" };
#define NNAMES (sizeof(names) / sizeof(names[0]))

/* Where symlinks point: up, the root, out of the tree, a device, themselves, a sibling, nowhere. */
static const char *const targets[] = { "..", "/", "../../outside", "/dev/zero", "loop", "a", "missing/x", "." };
#define NTARGETS (sizeof(targets) / sizeof(targets[0]))

struct builder {
	const uint8_t *data;
	size_t size, at;
	char path[MAX_PATH_LEN + 256];
	size_t len;           /* strlen(path) */
	size_t root_len;      /* the artifact's own path length: never climbed above */
	char first_file[MAX_PATH_LEN + 256];   /* a regular file made, "" when none */
};

static unsigned next_byte(struct builder *b)
{
	return b->at < b->size ? b->data[b->at++] : 0;
}

/* path/name into out; false when it would be too long. */
static bool join(const struct builder *b, const char *name, char *out, size_t len)
{
	return b->len + 1 + strlen(name) < MAX_PATH_LEN && (size_t)snprintf(out, len, "%s/%s", b->path, name) < len;
}

/* What a scratch call returned, when failing only leaves the tree smaller. */
static void ignore(int r)
{
	(void)r;
}

static void write_file(const char *path, const uint8_t *bytes, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (n)
		ignore((int)write(fd, bytes, n));   /* a short scratch file is still a file */
	close(fd);
}

/* One operation of the input on the tree under construction. */
static void step(struct builder *b)
{
	unsigned op = next_byte(b) % 8;
	char p[sizeof(b->path)];
	const char *name = names[next_byte(b) % NNAMES];
	switch (op) {
	case 0:   /* a directory, entered */
	case 5: { /* a chain of directories, entered: depth costs the walk nothing */
		unsigned n = op == 5 ? 1 + next_byte(b) * 4 : 1;
		for (unsigned i = 0; i < n && join(b, op == 5 ? "d" : name, p, sizeof(p)); i++) {
			if (mkdir(p, 0755) && errno != EEXIST)
				break;
			struct stat st;
			if (lstat(p, &st) || !S_ISDIR(st.st_mode))
				break;
			snprintf(b->path, sizeof(b->path), "%s", p);
			b->len = strlen(p);
		}
		break;
	}
	case 1: { /* up, never above the artifact */
		char *slash = strrchr(b->path, '/');
		if (slash && (size_t)(slash - b->path) >= b->root_len) {
			*slash = '\0';
			b->len = strlen(b->path);
		}
		break;
	}
	case 2: { /* a file with the next bytes as content */
		size_t n = next_byte(b) % 32;
		if (n > b->size - b->at)
			n = b->size - b->at;
		if (join(b, name, p, sizeof(p))) {
			write_file(p, b->data + b->at, n);
			struct stat st;
			if (!b->first_file[0] && !lstat(p, &st) && S_ISREG(st.st_mode))
				snprintf(b->first_file, sizeof(b->first_file), "%s", p);
		}
		b->at += n;
		break;
	}
	case 3:   /* a symlink */
		if (join(b, name, p, sizeof(p)))
			ignore(symlink(targets[next_byte(b) % NTARGETS], p));
		break;
	case 4:   /* a FIFO: listed, never opened */
		if (join(b, name, p, sizeof(p)))
			ignore(mkfifo(p, 0644));
		break;
	case 6:   /* an empty file */
		if (join(b, name, p, sizeof(p)))
			write_file(p, NULL, 0);
		break;
	case 7:   /* a hard link to the first file: the same content under another name */
		if (b->first_file[0] && join(b, name, p, sizeof(p)))
			ignore(link(b->first_file, p));
		break;
	}
}

int ior_fuzz_artifact(const uint8_t *data, size_t size)
{
	const char *base = ior_fuzz_path("artifact");
	char root[4200], outside[4200], link_root[4200];
	snprintf(root, sizeof(root), "%s/tree", base);
	snprintf(outside, sizeof(outside), "%s/outside", base);
	snprintf(link_root, sizeof(link_root), "%s/tree-link", base);
	remove_tree(base);
	if (mkdir(base, 0700) || mkdir(outside, 0755))
		return ior_fuzz_fail("cannot make the scratch tree '%s': %s", base, strerror(errno));
	char out_file[4300];
	snprintf(out_file, sizeof(out_file), "%s/x", outside);
	write_file(out_file, (const uint8_t *)"one", 3);
	/* the first byte says what the artifact itself is: a directory, a file, a FIFO, a link */
	unsigned kind = size ? data[0] % 4 : 0;
	struct builder b = { .data = data, .size = size, .at = size ? 1 : 0 };
	int made = kind == 2 ? mkfifo(root, 0644) : kind == 1 ? 0 : mkdir(root, 0755);
	if (kind == 1)
		write_file(root, data, size);
	if (made)
		return ior_fuzz_fail("cannot make '%s': %s", root, strerror(errno));
	snprintf(b.path, sizeof(b.path), "%s", root);
	b.len = b.root_len = strlen(root);
	if (kind == 0 || kind == 3)
		while (b.at < size)
			step(&b);
	const char *artifact = root;
	if (kind == 3) {   /* a link to the tree, or (odd input) to a device */
		if (symlink(size > 1 && data[1] % 2 ? "/dev/zero" : root, link_root))
			return ior_fuzz_fail("cannot link '%s': %s", link_root, strerror(errno));
		artifact = link_root;
	}
	bool device = kind == 3 && size > 1 && data[1] % 2;
	char h1[IOR_BISECT_ARTIFACT_HASH_LEN], h2[IOR_BISECT_ARTIFACT_HASH_LEN];
	ior_error_clear();
	int rc = ior_bisect_artifact_hash(artifact, h1, sizeof(h1));
	ior_fuzz_set_accepted(rc == IOR_OK);
	if (kind == 2 || device) {
		if (rc != IOR_EINVALID)
			return ior_fuzz_fail("an artifact that is a %s gave %d, not IOR_EINVALID: %s", device ? "device" : "FIFO",
					     rc, ior_error_last());
		if (!strstr(ior_error_last(), "not a regular file or a directory"))
			return ior_fuzz_fail("the refusal does not say why: %s", ior_error_last());
		return 0;
	}
	if (rc != IOR_OK)
		return ior_fuzz_fail("a tree of files, directories, links and FIFOs was not hashed (%d): %s", rc,
				     ior_error_last());
	if (strlen(h1) != 40 || strspn(h1, "0123456789abcdef") != 40)
		return ior_fuzz_fail("the hash '%s' is not 40 hex digits", h1);
	/* what lies outside changes: nothing in the tree follows a link there */
	write_file(out_file, (const uint8_t *)"two, longer", 11);
	char more[4300];
	snprintf(more, sizeof(more), "%s/y", outside);
	write_file(more, (const uint8_t *)"new", 3);
	if ((rc = ior_bisect_artifact_hash(artifact, h2, sizeof(h2))) != IOR_OK)
		return ior_fuzz_fail("the second hash failed (%d): %s", rc, ior_error_last());
	if (strcmp(h1, h2))
		return ior_fuzz_fail("the same tree hashed twice gave %s and %s (a link followed out of it?)", h1, h2);
	/* a file's content is part of the hash */
	const char *file = kind == 1 ? root : b.first_file;
	if (file[0]) {
		int fd = open(file, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || write(fd, "+", 1) != 1) {
			if (fd >= 0)
				close(fd);
			return ior_fuzz_fail("cannot change '%s': %s", file, strerror(errno));
		}
		close(fd);
		if ((rc = ior_bisect_artifact_hash(artifact, h2, sizeof(h2))) != IOR_OK)
			return ior_fuzz_fail("the hash after a change failed (%d): %s", rc, ior_error_last());
		if (!strcmp(h1, h2))
			return ior_fuzz_fail("a byte appended to '%s' left the hash %s", file, h1);
	}
	return 0;
}
