/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the fuzz targets share: the broken-promise message, a private scratch directory and
 * whole-file write and compare. */
#include "tests/fuzz/targets.h"

#include "common/error.h"
#include "db/db.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char violation[2048];
static char scratch[4096];
static bool accepted;

const struct ior_fuzz_target ior_fuzz_targets[] = {
	{ "matrix", ior_fuzz_matrix },
	{ "csv", ior_fuzz_csv },
	{ "fio_json", ior_fuzz_fio_json },
	{ "db_open", ior_fuzz_db_open },
	{ "matrix_include", ior_fuzz_matrix_include },
	{ "measure", ior_fuzz_measure },
	{ "artifact", ior_fuzz_artifact },
	{ "bisect_replay", ior_fuzz_bisect_replay },
	{ NULL, NULL },
};

bool ior_fuzz_accepted(void)
{
	return accepted;
}

void ior_fuzz_set_accepted(bool yes)
{
	accepted = yes;
}

int ior_fuzz_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(violation, sizeof(violation), fmt, ap);
	va_end(ap);
	return -1;
}

const char *ior_fuzz_violation(void)
{
	return violation;
}

/* libFuzzer counts a crash, not a return value: a broken promise aborts so it
 * is saved as a crash-* input like any sanitizer report. */
int ior_fuzz_run(const char *target, int (*fn)(const uint8_t *, size_t), const uint8_t *data, size_t size)
{
	violation[0] = '\0';
	if (fn(data, size) != 0) {
		fprintf(stderr, "==ior-fuzz== %s: promise broken: %s\n", target, violation);
		abort();
	}
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

static void remove_scratch(void)
{
	if (scratch[0])
		nftw(scratch, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

const char *ior_fuzz_path(const char *name)
{
	static char slots[4][4096 + 64];
	static unsigned next;
	if (!scratch[0]) {
		const char *tmp = getenv("TMPDIR");
		snprintf(scratch, sizeof(scratch), "%s/ior-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(scratch)) {
			/* Nothing can run without it; say so once, loudly. */
			fprintf(stderr, "ior-fuzz: cannot create '%s': %s\n", scratch, strerror(errno));
			abort();
		}
		atexit(remove_scratch);
	}
	char *slot = slots[next++ % 4];
	snprintf(slot, sizeof(slots[0]), "%s/%s", scratch, name);
	return slot;
}

static void unlink_side(const char *path, const char *suffix)
{
	char side[4096 + 128];
	snprintf(side, sizeof(side), "%s%s", path, suffix);
	unlink(side);
}

int ior_fuzz_write(const char *path, const uint8_t *data, size_t size)
{
	unlink_side(path, "-wal");
	unlink_side(path, "-shm");
	unlink_side(path, "-journal");
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return ior_fuzz_fail("cannot create '%s': %s", path, strerror(errno));
	size_t done = 0;
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int errnum = errno;
			close(fd);
			return ior_fuzz_fail("cannot write '%s': %s", path, strerror(errnum));
		}
		done += (size_t)n;
	}
	return close(fd) == 0 ? 0 : ior_fuzz_fail("cannot write '%s': %s", path, strerror(errno));
}

int ior_fuzz_same(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	uint8_t buf[65536];
	size_t at = 0;
	int same = 1;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			same = -1;
			break;
		}
		if (n == 0)
			break;
		if (at + (size_t)n > size || memcmp(buf, data + at, (size_t)n) != 0) {
			same = 0;
			break;
		}
		at += (size_t)n;
	}
	close(fd);
	return same == 1 && at != size ? 0 : same;
}

/* The bytes of a new, empty database, made once: creating the schema for
 * every input would spend most of the fuzzer's time outside the importers. */
static int empty_database(const uint8_t **bytes, size_t *size)
{
	static uint8_t *image;
	static size_t len;
	if (!image) {
		const char *path = ior_fuzz_path("empty.db");
		struct ior_db *db = NULL;
		if (ior_fuzz_write(path, NULL, 0))
			return -1;
		if (ior_db_open(&db, path) != 0)
			return ior_fuzz_fail("cannot create '%s': %s", path, ior_error_last());
		ior_db_free(db);
		FILE *f = fopen(path, "rb");
		if (!f || fseek(f, 0, SEEK_END) != 0 || (len = (size_t)ftell(f)) == 0 || fseek(f, 0, SEEK_SET) != 0 ||
		    !(image = malloc(len)) || fread(image, 1, len, f) != len) {
			free(image);
			image = NULL;
			if (f)
				fclose(f);
			return ior_fuzz_fail("cannot read back '%s'", path);
		}
		fclose(f);
	}
	*bytes = image;
	*size = len;
	return 0;
}

int ior_fuzz_open_fresh_db(struct ior_db **db, const char *name)
{
	const char *path = ior_fuzz_path(name);
	const uint8_t *bytes = NULL;
	size_t size = 0;
	if (empty_database(&bytes, &size) || ior_fuzz_write(path, bytes, size))
		return -1;
	if (ior_db_open(db, path) != 0)
		return ior_fuzz_fail("cannot open a copy of the empty database: %s", ior_error_last());
	return 0;
}
