/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How a bisection measures a candidate: a measuring step builds it once and measures it as often as
 * the judge asks (the user's commands, `vm run` of a matrix on a packaged kernel, or a kernel tree
 * built and booted). */
#ifndef IOR_BISECT_MEASURE_H
#define IOR_BISECT_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum ior_step_outcome { IOR_STEP_OK, IOR_STEP_BUILD_FAILED, IOR_STEP_BOOT_FAILED, IOR_STEP_MEASURE_FAILED };
const char *ior_step_outcome_name(enum ior_step_outcome o);

struct ior_bisect_measure {
	/* Builds the current candidate (the source prepared id); image gets a hash of the kernel image it
	 * produced, "" when it cannot tell. A failed build is an outcome, not an error. */
	int (*build)(struct ior_bisect_measure *m, const char *id, enum ior_step_outcome *out, char *image, size_t len);
	/* One measurement of a built candidate: its samples appended to *x (grown with realloc). */
	int (*measure)(struct ior_bisect_measure *m, const char *id, double **x, size_t *n, enum ior_step_outcome *out);
	void (*free)(struct ior_bisect_measure *m);
	/* Each measurement is one boot under qemu (packaged kernels, kernel trees): the answers count
	 * rounds as boots, whose medians are the judge's observations. */
	bool per_boot;
	/* Set by the driver when both ends' builds left the same artifact: it then tells no commit's build
	 * from another's, so the step builds a commit again before measuring it unless its build is the
	 * last one made. */
	bool artifact_blind;
	/* Why the last build or measurement failed, as far as the step can tell (a package name apt does
	 * not know, a boot's outcome, reason and console head), set by build or measure when *out is not
	 * IOR_STEP_OK; "" when it cannot tell. */
	char failure[1024];
};

struct ior_bisect_commands {
	const char *build, *boot, *measure;   /* sh -c commands; build and boot may be NULL */
	const char *image;                    /* the build's artifact (--artifact; --image for a kernel), relative
					       * to the tree or absolute, inside the tree (else IOR_EREFUSED), or
					       * NULL: hashed after each build (bisect/artifact.h) */
	const char *repo;                     /* the work tree: the commands' directory and IOREGRESS_REPO */
	unsigned timeout_s;                   /* each command's limit; 0 = none. Past it the command's
					       * process group is ended and the step fails (the commit is skipped) */
};
/* The user's commands, run with IOREGRESS_COMMIT and IOREGRESS_REPO set: build once per commit,
 * then per measurement boot (when given) and measure, whose stdout holds one sample per line.
 * Each runs in a process group of its own, ended on a stop request (IOR_EINTERRUPTED) or timeout. */
int ior_bisect_measure_commands(struct ior_bisect_measure **out, const struct ior_bisect_commands *c);

/* How much a measure command may print: past it the command's group is ended and the step fails
 * (`yes` would otherwise fill memory). */
#define IOR_BISECT_MEASURE_MAX_OUTPUT (1u << 20)
/* The samples in a measure command's output (len bytes): one plain decimal number per non-empty
 * line, blanks around it allowed, lines of any length. nan, inf, hex, out-of-range and denormal
 * values, NUL bytes, and output with no sample are refused (IOR_EINVALID, the line named); on any
 * refusal *n is as it was. Appends to *x (grown with realloc). */
int ior_bisect_parse_samples(const char *text, size_t len, double **x, size_t *n);
struct ior_db;
struct ior_vm_run_opts;
/* Packaged kernels under qemu: "build" fetches and unpacks the package (a failure skips it), each
 * measurement is one `vm run` boot of opts' matrix merged into db, whose first ok cell's samples
 * are the measurement. opts is copied (its strings must outlive the step). */
int ior_bisect_measure_vm(struct ior_bisect_measure **out, struct ior_db *db, const struct ior_vm_run_opts *opts);

struct ior_kbuild_opts;
/* A kernel tree under qemu: "build" is kernel build of the checked-out commit with kb's config
 * (cached by commit and config hash; the image hash is the sha256 of the bzImage), each
 * measurement one vm run boot of it as ior_bisect_measure_vm does. Why a build or a boot failed,
 * and each build's config hash, go to bisection bisect's state (build_error, config_hash) and log.
 * kb and opts are copied (their strings must outlive the step). */
int ior_bisect_measure_kernel(struct ior_bisect_measure **out, struct ior_db *db, int64_t bisect,
			      const struct ior_kbuild_opts *kb, const struct ior_vm_run_opts *opts);

/* Packaged kernels on a real machine (opts->target, ssh://): as ior_bisect_measure_vm, each measurement
 * one boot of the target, which is left on that kernel, with what was installed, for the next one (no
 * boot back in between); the kernel it ran when the bisection first reached it is kept in bisection
 * bisect's log. A built image (PATH/bzImage) is skipped: the target installs packages. opts and its
 * target are copied (their strings must outlive the step). */
int ior_bisect_measure_target(struct ior_bisect_measure **out, struct ior_db *db, int64_t bisect,
			      const struct ior_vm_run_opts *opts);
/* The bisection's end on the target (a step made by ior_bisect_measure_target): its own kernel booted
 * again, the packages its measurements installed removed (unless --keep-kernels), its work directory
 * removed, one line on out each; nothing when the target was never reached. */
int ior_bisect_measure_target_finish(struct ior_bisect_measure *m, FILE *out);

void ior_bisect_measure_free(struct ior_bisect_measure *m);   /* NULL is a no-op */

#endif
