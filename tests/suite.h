/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared CUnit runner for every test program: one suite per program, skip with 77 when the
 * environment cannot run it. */
#ifndef IOR_TESTS_SUITE_H
#define IOR_TESTS_SUITE_H

#include <CUnit/CUnit.h>
#include <stddef.h>
#include <sys/types.h>

struct ior_test {
	const char *name;
	void (*fn)(void);
};
#define IOR_TEST(fn) { #fn, fn }
#define IOR_TEST_END { NULL, NULL }

/* Runs the tests as one CUnit suite; returns 0 when all passed, 1 otherwise. */
int ior_test_run(const char *suite, const struct ior_test *tests);

/* Passes rc through, printing the last error message when it is not IOR_OK (0), so a failed
 * assertion on it says why. */
int ior_test_ok(int rc);

/* Says the current case did not run its check, with the reason (the case then returns): the
 * runner lists such cases after the suite, counts them, and exits 77 (ctest's "not run") when
 * no case ran in full. A case that returns early without checking calls this, never just returns. */
void ior_test_not_run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Exits 77 (ctest's "not run") with the reason on stderr when not root. */
void ior_test_require_root(const char *why);

/* Skips the whole program (exit 77) with a reason. */
void ior_test_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* The source tree (IOR_SOURCE_DIR from ctest, else "."), and a file under it. */
const char *ior_test_source_dir(void);
const char *ior_test_source_path(const char *relative);  /* static buffer, valid until the next call */

/* A fresh private directory under /tmp, removed with its contents at exit. */
const char *ior_test_tmpdir(void);

/* Writes text to a new file in the test directory and returns its path (static buffer per call slot). */
const char *ior_test_write_file(const char *name, const char *text);
/* The path of name in the test directory (one of four static buffers, reused in turn). */
const char *ior_test_path(const char *name);

/* Runs argv (PATH lookup, no shell) with stdin from input (NULL = /dev/null) and output
 * discarded; returns its exit status, or -1 when it could not run or was killed. */
int ior_test_spawn(char *const argv[], const char *input);
/* The same with stdout and stderr into the files out and err (NULL: discarded). */
int ior_test_spawn_to(char *const argv[], const char *input, const char *out, const char *err);
/* Starts argv[0] (a path) in the background, stdout discarded and stderr kept, for a test that
 * signals or watches it; the child's pid, or -1 when it could not start. The caller reaps it. */
pid_t ior_test_start(char *const argv[]);

/* A whole file, NUL-terminated (the caller frees it), its length in *len (len may be NULL);
 * NULL when it cannot be read. */
char *ior_test_read_file(const char *path, size_t *len);

/* Runs the built ioregress (IOR_BINARY; skips the program when it is not set) with args
 * (NULL-terminated): its stdout into out and its stderr into err (either may be NULL), each
 * cut to fit. Returns the exit status, or -1 when it could not run or was killed. */
int ior_test_ioregress(char *const args[], char *out, size_t outlen, char *err, size_t errlen);

/* Each file matching a glob pattern with its first line ("PATH: LINE\n" ...), "" for none. */
void ior_test_read_glob(const char *pattern, char *out, size_t len);

/* How many paths match a glob pattern. */
int ior_test_count_glob(const char *pattern);

/* Every loop device's scheduler line ("/sys/block/loop0/queue/scheduler: [none] ...\n" ...),
 * to show that a run left none switched. */
void ior_test_loop_schedulers(char *out, size_t len);

/* The scheduler a test switches a loop device to besides mq-deadline: bfq where the kernel offers it
 * or can load it (a kernel with modules), else kyber (a kernel without modules or bfq, as some
 * hosts'); said once on stderr when it is not bfq. */
const char *ior_test_second_scheduler(void);
/* text with every "bfq" replaced by ior_test_second_scheduler() (four rotating buffers of 1 KiB). */
const char *ior_test_with_second(const char *text);

/* Runs a shell script as another user, uid and gid 65534 (nobody) with no groups, through
 * setpriv: the cross-user cases. Makes the test directory readable by that user. The script's
 * exit status, or -1. */
int ior_test_as_nobody(const char *script);

/* A new file at path of mib MiB of pseudo-random bytes (the same every run), synced: data a loop
 * device over it reads back, where a sparse file would read holes. */
void ior_test_random_file(const char *path, unsigned mib);

/* For the vm suites: skips the program without IOR_BINARY or a runnable qemu-system-x86_64, and
 * puts the kernel cache in cache (IOR_VM_CACHE, else ~/.cache/ioregress/kernels). */
void ior_test_vm_setup(char *cache, size_t len);

/* The first column of the first row of sql on the database at path (opened read-only), or -1. */
long long ior_test_query(const char *db_path, const char *sql);

#endif
