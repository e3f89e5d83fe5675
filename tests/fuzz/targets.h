/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bad-input fuzz targets (matrix, matrix include, CSV import, fio JSON, database open, bisect
 * measure output, bisect artifact walk, bisect replay), shared by the libFuzzer harnesses and the fuzz_replay suite. */
#ifndef IOR_TESTS_FUZZ_TARGETS_H
#define IOR_TESTS_FUZZ_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Each feeds data to one entry point and checks what the module promises for
 * bad input. Returns 0 when every promise held, -1 when one was broken;
 * ior_fuzz_violation() then says which. A crash or leak is left to the
 * sanitizers. */
int ior_fuzz_matrix(const uint8_t *data, size_t size);
int ior_fuzz_csv(const uint8_t *data, size_t size);
int ior_fuzz_fio_json(const uint8_t *data, size_t size);
int ior_fuzz_db_open(const uint8_t *data, size_t size);
int ior_fuzz_matrix_include(const uint8_t *data, size_t size);
int ior_fuzz_measure(const uint8_t *data, size_t size);
int ior_fuzz_artifact(const uint8_t *data, size_t size);
int ior_fuzz_bisect_replay(const uint8_t *data, size_t size);

struct ior_fuzz_target {
	const char *name;          /* also the corpus folder: tests/fuzz/corpus/NAME */
	int (*fn)(const uint8_t *data, size_t size);
};
/* All of them, ending with { NULL, NULL }. */
extern const struct ior_fuzz_target ior_fuzz_targets[];

/* What the last failing target found broken ("" when nothing). */
const char *ior_fuzz_violation(void);

/* Whether the last input was accepted (parsed, imported, opened) rather than
 * refused: the replay checks each corpus exercises both. */
bool ior_fuzz_accepted(void);

/* The harnesses' libFuzzer entry (declared for -Wmissing-prototypes), and the
 * way they turn a broken promise into a crash libFuzzer records. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int ior_fuzz_run(const char *target, int (*fn)(const uint8_t *, size_t), const uint8_t *data, size_t size);

/* --- shared by the targets ------------------------------------------------- */

void ior_fuzz_set_accepted(bool yes);

/* Records what broke and returns -1. */
int ior_fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A private directory made on first use under $TMPDIR (else /tmp) and
 * removed with its contents at exit; path of NAME inside it (static buffer
 * per call slot, four slots). */
const char *ior_fuzz_path(const char *name);

/* Writes data as the whole file path (0600), removing path-wal and path-shm
 * left by an earlier input. 0 or -1 (with the violation set). */
int ior_fuzz_write(const char *path, const uint8_t *data, size_t size);

/* A copy of a new, empty database (made once per process) at NAME in the
 * scratch directory, opened into *db. 0 or -1 (with the violation set). */
struct ior_db;
int ior_fuzz_open_fresh_db(struct ior_db **db, const char *name);

/* 1 when the file holds exactly data, 0 when not, -1 when unreadable. */
int ior_fuzz_same(const char *path, const uint8_t *data, size_t size);

#endif
