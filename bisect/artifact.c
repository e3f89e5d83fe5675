/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The hash of a build artifact: a file's git blob hash, or a directory's listing walked with fts(3)
 * (no recursion, no symlink followed, no special file opened). */
#include "bisect/artifact.h"

#include "common/error.h"
#include "common/stop.h"

#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* git's blob hash (sha1 of "blob LEN\0" and the bytes), so a file's hash is what `git hash-object`
 * says and hashes stored by earlier versions (libgit2's git_odb_hashfile) still compare. */
struct blob_hash {
	EVP_MD_CTX *ctx;
};

static bool blob_begin(struct blob_hash *h, unsigned long long len)
{
	char head[64];
	int n = snprintf(head, sizeof(head), "blob %llu", len);
	h->ctx = EVP_MD_CTX_new();
	return h->ctx && EVP_DigestInit_ex(h->ctx, EVP_sha1(), NULL) && EVP_DigestUpdate(h->ctx, head, (size_t)n + 1);
}

static bool blob_end(struct blob_hash *h, char *hex, size_t len)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;
	bool ok = EVP_DigestFinal_ex(h->ctx, md, &n) && n == 20 && len > 40;
	EVP_MD_CTX_free(h->ctx);
	h->ctx = NULL;
	for (unsigned i = 0; ok && i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	return ok;
}

static bool blob_of(const void *data, size_t size, char *hex, size_t len)
{
	struct blob_hash h;
	bool ok = blob_begin(&h, size) && EVP_DigestUpdate(h.ctx, data, size);
	return blob_end(&h, hex, len) && ok;
}

/* The blob hash of the regular file at path, read through one descriptor: opened without following a
 * symlink and without blocking (a FIFO put there since it was listed would hang open(2)), checked to
 * be a regular file before a byte is read, and read to the length fstat gave. name is what the
 * messages call it. */
static int hash_file(const char *path, const char *name, char *hex, size_t len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return ior_error_errno(errno == ENOENT ? IOR_ENOTFOUND : IOR_ERROR, errno, "cannot open artifact file '%s'",
				       name);
	struct stat st;
	if (fstat(fd, &st)) {
		int e = errno;
		close(fd);
		return ior_error_errno(IOR_ERROR, e, "cannot read artifact file '%s'", name);
	}
	if (!S_ISREG(st.st_mode)) {   /* replaced by a FIFO or a device since it was listed */
		close(fd);
		return ior_error_set(IOR_EINVALID, "artifact '%s' is not a regular file or a directory", name);
	}
	struct blob_hash h;
	bool ok = blob_begin(&h, (unsigned long long)st.st_size);
	unsigned long long got = 0;
	char buf[65536];
	int e = 0;
	for (ssize_t r; ok && (r = read(fd, buf, sizeof(buf))) != 0;) {
		if (r < 0 && errno == EINTR && !ior_stop_requested())
			continue;
		if (r < 0) {
			e = errno;
			ok = false;
			break;
		}
		got += (unsigned long long)r;
		ok = EVP_DigestUpdate(h.ctx, buf, (size_t)r);
	}
	close(fd);
	ok = blob_end(&h, hex, len) && ok;
	if (e)
		return ior_error_errno(e == EINTR ? IOR_EINTERRUPTED : IOR_ERROR, e, "cannot read artifact file '%s'", name);
	if (!ok)
		return ior_error_set(IOR_ERROR, "cannot hash artifact file '%s'", name);
	if (got != (unsigned long long)st.st_size)
		return ior_error_set(IOR_ERROR, "artifact file '%s' changed while it was hashed (%llu bytes, not %lld)", name,
				     got, (long long)st.st_size);
	return IOR_OK;
}

/* The listing a directory's hash is taken of: one "TYPE NAME HASH" line per entry in name order. */
struct listing {
	char *buf;
	size_t len, cap;
};

static bool add_line(struct listing *l, const char *type, const char *name, const char *hash)
{
	size_t need = strlen(type) + strlen(name) + strlen(hash) + 3;
	if (l->len + need + 1 > l->cap) {
		size_t cap = (l->len + need + 1) * 2;
		char *b = realloc(l->buf, cap);
		if (!b)
			return false;
		l->buf = b, l->cap = cap;
	}
	l->len += (size_t)snprintf(l->buf + l->len, l->cap - l->len, "%s %s %s\n", type, name, hash);
	return true;
}

/* What a special file is called in the listing: it is listed, never opened. */
static const char *special_type(mode_t mode)
{
	return S_ISFIFO(mode) ? "fifo" : S_ISCHR(mode) ? "chardev" : S_ISBLK(mode) ? "blockdev" : S_ISSOCK(mode) ? "socket"
															: "special";
}

static int by_name(const FTSENT **a, const FTSENT **b)
{
	return strcmp((*a)->fts_name, (*b)->fts_name);
}

/* One entry of the walk into the listing (name: its path below the root). */
static int list_entry(FTSENT *e, const char *name, struct listing *l)
{
	char hash[IOR_BISECT_ARTIFACT_HASH_LEN];
	switch (e->fts_info) {
	case FTS_D:
	case FTS_DP:
		return IOR_OK;   /* a directory is its entries: an empty one adds nothing */
	case FTS_F: {
		int rc = hash_file(e->fts_accpath, name, hash, sizeof(hash));
		if (rc)
			return rc;
		return add_line(l, "file", name, hash) ? IOR_OK : ior_error_set(IOR_ERROR, "out of memory");
	}
	case FTS_SL:
	case FTS_SLNONE: {   /* the link itself, by its target's text: never followed out of the tree */
		char target[PATH_MAX];
		ssize_t t = readlink(e->fts_accpath, target, sizeof(target));
		if (t < 0 || (size_t)t >= sizeof(target))
			return ior_error_errno(IOR_ERROR, t < 0 ? errno : ENAMETOOLONG, "cannot read the symlink '%s'", name);
		if (!blob_of(target, (size_t)t, hash, sizeof(hash)))
			return ior_error_set(IOR_ERROR, "cannot hash the symlink '%s'", name);
		return add_line(l, "link", name, hash) ? IOR_OK : ior_error_set(IOR_ERROR, "out of memory");
	}
	case FTS_DEFAULT:   /* a FIFO, a device or a socket: opening one may hang or touch a device */
		return add_line(l, special_type(e->fts_statp->st_mode), name, "-") ? IOR_OK
										 : ior_error_set(IOR_ERROR, "out of memory");
	case FTS_DC:
		return ior_error_set(IOR_ERROR, "cannot walk the artifact: '%s' is a directory cycle", name);
	default:   /* FTS_DNR, FTS_ERR, FTS_NS */
		return ior_error_errno(IOR_ERROR, e->fts_errno, "cannot read '%s' in the artifact", name);
	}
}

/* The listing of the directory root, walked without recursion: fts keeps one small entry per level
 * on the heap (a build output 600 directories deep overflowed the stack of the recursive walk that
 * was here, about 24 KB a level). */
static int list_dir(const char *root, struct listing *l)
{
	char *const roots[] = { (char *)root, NULL };
	FTS *fts = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR, by_name);
	if (!fts)
		return ior_error_errno(IOR_ERROR, errno, "cannot walk the artifact directory '%s'", root);
	size_t rootlen = strlen(root);
	int rc = IOR_OK;
	while (!rc) {
		errno = 0;
		FTSENT *e = fts_read(fts);
		if (!e) {   /* the end of the walk, or a failure errno names */
			if (errno)
				rc = ior_error_errno(IOR_ERROR, errno, "cannot walk the artifact directory '%s'", root);
			break;
		}
		if (ior_stop_requested()) {
			rc = ior_error_set(IOR_EINTERRUPTED, "stopped by signal %d while the artifact '%s' was hashed",
					   ior_stop_signal(), root);
			break;
		}
		if (e->fts_level == 0) {
			if (e->fts_info != FTS_D && e->fts_info != FTS_DP)
				rc = ior_error_errno(IOR_ERROR, e->fts_errno ? e->fts_errno : ENOTDIR,
						     "cannot walk the artifact directory '%s'", root);
			continue;
		}
		rc = list_entry(e, e->fts_path + rootlen + (root[rootlen - 1] != '/'), l);
	}
	fts_close(fts);
	return rc;
}

int ior_bisect_artifact_hash(const char *path, char *hash, size_t len)
{
	hash[0] = '\0';
	struct stat sb;
	/* the artifact itself may be a symlink (build/current -> build/v2): its target is hashed; the
	 * caller checks where it points (ior_bisect_artifact_inside) */
	if (stat(path, &sb))
		return ior_error_errno(errno == ENOENT ? IOR_ENOTFOUND : IOR_ERROR, errno, "no artifact '%s'", path);
	if (len < IOR_BISECT_ARTIFACT_HASH_LEN)
		return ior_error_set(IOR_ERROR, "artifact hash buffer too short");
	if (S_ISREG(sb.st_mode)) {
		char real[PATH_MAX];
		if (!realpath(path, real))
			return ior_error_errno(IOR_ERROR, errno, "cannot resolve artifact '%s'", path);
		return hash_file(real, path, hash, len);
	}
	if (!S_ISDIR(sb.st_mode))
		return ior_error_set(IOR_EINVALID, "artifact '%s' is not a regular file or a directory (a %s)", path,
				     special_type(sb.st_mode));
	/* a directory: the hash of its listing (names, types and contents' hashes), so two builds that
	 * leave the same files hash alike whatever their times */
	char real[PATH_MAX];
	if (!realpath(path, real))
		return ior_error_errno(IOR_ERROR, errno, "cannot resolve artifact '%s'", path);
	struct listing l = { 0 };
	int rc = list_dir(real, &l);
	if (!rc && !blob_of(l.buf ? l.buf : "", l.len, hash, len))
		rc = ior_error_set(IOR_ERROR, "cannot hash artifact directory '%s'", path);
	free(l.buf);
	if (rc)
		hash[0] = '\0';
	return rc;
}

/* Whether path lies at or below dir (both resolved, no trailing slash). */
static bool below(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return !strncmp(path, dir, n) && (path[n] == '/' || (n == 1 && dir[0] == '/'));
}

int ior_bisect_artifact_inside(const char *path, const char *tree)
{
	char rtree[PATH_MAX], rpath[PATH_MAX];
	if (!realpath(tree, rtree))
		return ior_error_errno(IOR_ERROR, errno, "cannot resolve the work tree '%s'", tree);
	/* what does not exist yet is judged by the words: no ".." may climb out, an absolute path must
	 * name the tree (as given or resolved) */
	if (!realpath(path, rpath)) {
		if (errno != ENOENT)
			return ior_error_errno(IOR_ERROR, errno, "cannot resolve artifact '%s'", path);
		for (const char *p = path; *p; p += strcspn(p, "/"), p += *p == '/')
			if (!strncmp(p, "..", 2) && (p[2] == '/' || !p[2]))
				return ior_error_set(IOR_EREFUSED, "artifact '%s' climbs out of the work tree '%s' with '..'",
						     path, rtree);
		if (below(path, rtree) || below(path, tree))
			return IOR_OK;
		snprintf(rpath, sizeof(rpath), "%s", path);
	} else if (below(rpath, rtree)) {
		return IOR_OK;
	}
	return ior_error_set(IOR_EREFUSED, "artifact '%s' is outside the work tree '%s'%s%s: the build must leave it in the "
			     "tree, as each commit's artifact is put back there before it is measured (a copy written "
			     "outside the tree would replace a file that is not the bisection's); have the build copy its "
			     "output into the tree", path, rtree, strcmp(path, rpath) ? ", at " : "",
			     strcmp(path, rpath) ? rpath : "");
}
