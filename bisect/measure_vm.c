/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The measuring step of packaged kernels: the package fetched and unpacked once (its "build"), each
 * measurement a `vm run` of the matrix on it, the samples of the matrix's first cell read back from
 * the merged run and tied to their rows in samples. */
#include "bisect/measure.h"

#include "common/error.h"
#include "db/db.h"
#include "vm/vm.h"

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Boots of a kernel tried after its first fails, before the step counts as boot-failed. */
#define BOOT_RETRIES 2u

struct vm_measure {
	struct ior_bisect_measure base;
	struct ior_db *db;
	struct ior_vm_run_opts opts;
};

static int build(struct ior_bisect_measure *bm, const char *id, enum ior_step_outcome *out, char *image, size_t len)
{
	struct vm_measure *m = (struct vm_measure *)bm;
	struct ior_vm_kernel k;
	image[0] = '\0';
	*out = IOR_STEP_OK;
	if (ior_vm_kernel_resolve(&k, id, m->opts.cache_dir)) {
		/* a package that cannot be fetched or unpacked is skipped, with why (a did-you-mean, the
		 * download's error) */
		*out = IOR_STEP_BUILD_FAILED;
		snprintf(bm->failure, sizeof(bm->failure), "%s", ior_error_last());
		ior_error_clear();
		return IOR_OK;
	}
	git_oid oid;
	git_libgit2_init();
	if (git_odb_hashfile(&oid, k.image, GIT_OBJECT_BLOB) == 0)
		git_oid_tostr(image, len, &oid);
	git_libgit2_shutdown();
	return IOR_OK;
}

/* The newest merged run of kernel spec and its first cell's samples, appended: its measured
 * repetitions only, as every verdict takes them (a boot's first repetition is often 2-3 times off
 * under TCG, which the matrix's warmup = N is for). The judge takes their median as the boot's
 * value in its round. */
static int read_back(struct vm_measure *m, const char *id, double **x, size_t *n)
{
	return ior_db_vm_kernel_samples(m->db, id, x, n);
}

/* The first lines the console shows after qemu's command line: what a kernel that does not boot
 * (or qemu refusing it) said first. */
static void console_head(const char *log, char *out, size_t len)
{
	out[0] = '\0';
	const char *p = log ? strchr(log, '\n') : NULL;
	size_t used = 0;
	for (int lines = 0; p && *++p && lines < 3 && used + 8 < len;) {
		size_t l = strcspn(p, "\n");
		if (l) {
			used += (size_t)snprintf(out + used, len - used, "%s%.*s", lines ? " | " : "", (int)l, p);
			lines++;
		}
		p += l;
		if (!*p)
			break;
	}
	if (used >= len)
		out[len - 1] = '\0';
}

/* The last boot of kernel id: "OUTCOME after N boots: REASON; console: HEAD". */
static void describe_failure(struct vm_measure *m, const char *id, unsigned boots)
{
	struct ior_db_vm_boot_last b;
	m->base.failure[0] = '\0';
	if (ior_db_vm_boot_last(m->db, id, &b)) {
		ior_error_clear();   /* the description is best effort: the boot's failure is what is reported */
		return;
	}
	if (b.outcome) {
		char head[400];
		console_head(b.console, head, sizeof(head));
		snprintf(m->base.failure, sizeof(m->base.failure), "%s after %u boot%s: %.400s%s%s", b.outcome, boots,
			 boots == 1 ? "" : "s", b.reason ? b.reason : "-", head[0] ? "; console: " : "", head);
	}
	ior_db_vm_boot_last_free(&b);
}

static int measure(struct ior_bisect_measure *bm, const char *id, double **x, size_t *n, enum ior_step_outcome *out)
{
	struct vm_measure *m = (struct vm_measure *)bm;
	struct ior_vm_run_summary s;
	const char *kernels[] = { id };
	*out = IOR_STEP_OK;
	/* a boot that fails is tried again (each try is recorded in vm_boots): one hang or panic of a
	 * TCG guest must not make a kernel unbootable, nor end the bisection */
	for (unsigned attempt = 0; attempt <= BOOT_RETRIES; attempt++) {
		if (ior_vm_run(m->db, &m->opts, kernels, 1, &s))
			return IOR_ERROR;
		if (s.ok)
			break;
		if (attempt < BOOT_RETRIES)
			fprintf(stderr, "bisect: the boot of %s failed (try %u of %u): booting it again\n", id, attempt + 1,
				BOOT_RETRIES + 1);
	}
	size_t before = *n;
	if (!s.ok) {
		*out = IOR_STEP_BOOT_FAILED;
		describe_failure(m, id, BOOT_RETRIES + 1);
		return IOR_OK;
	}
	if (read_back(m, id, x, n))
		return IOR_ERROR;
	if (*n == before)
		*out = IOR_STEP_MEASURE_FAILED;
	return IOR_OK;
}

static void measure_free(struct ior_bisect_measure *m)
{
	free(m);
}

int ior_bisect_measure_vm(struct ior_bisect_measure **out, struct ior_db *db, const struct ior_vm_run_opts *opts)
{
	*out = NULL;
	if (!opts->guest.matrix)
		return ior_error_set(IOR_EINVALID, "a bisection over packaged kernels needs --matrix FILE");
	struct vm_measure *m = calloc(1, sizeof(*m));
	if (!m)
		return ior_error_set(IOR_ERROR, "out of memory");
	m->db = db;
	m->opts = *opts;
	m->opts.boots = 1;
	m->base = (struct ior_bisect_measure){ .build = build, .measure = measure, .free = measure_free, .per_boot = true };
	*out = &m->base;
	return IOR_OK;
}
