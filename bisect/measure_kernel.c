/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The measuring step of a kernel tree: the checked-out commit built with the bisection's config
 * (kernel build, cached), each measurement a vm run boot of it; why a build or a boot failed goes
 * to the bisection's log. */
#include "bisect/measure.h"

#include "bisect/state.h"
#include "common/error.h"
#include "db/db.h"
#include "vm/kernel_build.h"
#include "vm/vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kernel_measure {
	struct ior_bisect_measure base;
	struct ior_bisect_measure *vm;   /* the boots: measure_vm on the built image */
	struct ior_db *db;
	int64_t bisect;
	struct ior_kbuild_opts kb;
	struct ior_kbuild b;
	char spec[IOR_VM_SPEC_MAX];      /* the image being measured, as vm run takes it */
	struct built {                   /* every commit built this session: the ends alternate */
		char id[96], spec[IOR_VM_SPEC_MAX];
	} *built;
	size_t nbuilt;
};

/* The image built for id this session, or NULL. */
static const char *built_spec(const struct kernel_measure *m, const char *id)
{
	for (size_t i = 0; i < m->nbuilt; i++)
		if (!strcmp(m->built[i].id, id))
			return m->built[i].spec;
	return NULL;
}

/* The first lines of an oops (BUG:, Oops:, a general protection fault, the panic line), on one line. */
static void oops_head(const char *console, char *out, size_t len)
{
	static const char *const marks[] = { "BUG: ", "Oops: ", "general protection fault", "Kernel panic" };
	const char *at = NULL;
	for (size_t i = 0; console && i < sizeof(marks) / sizeof(marks[0]) && !at; i++)
		at = strstr(console, marks[i]);
	out[0] = '\0';
	size_t used = 0;
	for (int line = 0; at && *at && line < 4 && used + 2 < len; line++) {
		size_t l = strcspn(at, "\r\n");
		used += (size_t)snprintf(out + used, len - used, "%s%.*s", line ? " | " : "", (int)l, at);
		at += l;
		at += strspn(at, "\r\n");
	}
}

/* The newest boot of spec that was not ok: its outcome and reason, with the oops head of a panic. */
static void boot_failure(struct kernel_measure *m, char *out, size_t len)
{
	struct ior_db_vm_boot_last b;
	snprintf(out, len, "the boot failed");
	if (ior_db_vm_boot_last(m->db, m->spec, &b)) {
		ior_error_clear();   /* best effort: "the boot failed" stands */
		return;
	}
	if (b.outcome) {
		char head[600] = "";
		if (!strcmp(b.outcome, "panic"))
			oops_head(b.console, head, sizeof(head));
		snprintf(out, len, "%s: %s%s%s", b.outcome, b.reason ? b.reason : "", head[0] ? "; oops: " : "", head);
	}
	ior_db_vm_boot_last_free(&b);
}

static int build(struct ior_bisect_measure *bm, const char *id, enum ior_step_outcome *out, char *image, size_t len)
{
	struct kernel_measure *m = (struct kernel_measure *)bm;
	image[0] = '\0';
	int rc = ior_kernel_build(&m->b, &m->kb);
	if (rc == IOR_EINTERRUPTED)
		return rc;
	char detail[4096];
	if (rc) { /* a commit that does not build is skipped; the log says why */
		*out = IOR_STEP_BUILD_FAILED;
		snprintf(detail, sizeof(detail), "%s", ior_error_last());
		ior_error_clear();
		return ior_bisect_build_error_set(m->db, m->bisect, id, detail);
	}
	*out = IOR_STEP_OK;
	snprintf(image, len, "%s", m->b.image_hash);
	struct built *g = built_spec(m, id) ? NULL : realloc(m->built, (m->nbuilt + 1) * sizeof(*g));
	if (g) {
		m->built = g;
		snprintf(g[m->nbuilt].id, sizeof(g->id), "%s", id);
		snprintf(g[m->nbuilt++].spec, sizeof(g->spec), "%s:%s", m->b.image, m->b.modules);
	}
	snprintf(detail, sizeof(detail), "%s release %s, %s in %.1f s", m->b.config_hash, m->b.release,
		 m->b.reused ? "reused from the cache" : "built", m->b.seconds);
	return ior_bisect_config_set(m->db, m->bisect, id, detail);
}

static int measure(struct ior_bisect_measure *bm, const char *id, double **x, size_t *n, enum ior_step_outcome *out)
{
	struct kernel_measure *m = (struct kernel_measure *)bm;
	if (!built_spec(m, id)) { /* built in an earlier session: the cache gives the image back */
		enum ior_step_outcome bo;
		char image[80];
		int rc = build(bm, id, &bo, image, sizeof(image));
		if (rc || bo != IOR_STEP_OK) {
			*out = bo;
			return rc;
		}
		/* said, not silent: a resumed run finds the ends and the commit in flight this way, and a
		 * cache that lost the image costs a whole build */
		fprintf(stderr, "bisect: %.12s was built by an earlier run: %s (%.1f s)\n", id,
			m->b.reused ? "its image taken from the cache" : "not in the cache any more, built again", m->b.seconds);
	}
	snprintf(m->spec, sizeof(m->spec), "%s", built_spec(m, id) ? built_spec(m, id) : "");
	int rc = m->spec[0] ? m->vm->measure(m->vm, m->spec, x, n, out) : ior_error_set(IOR_ERROR, "out of memory");
	snprintf(bm->failure, sizeof(bm->failure), "%s", m->vm->failure);   /* the boot's outcome and console head */
	if (!rc && *out == IOR_STEP_BOOT_FAILED) {
		char why[1024];
		boot_failure(m, why, sizeof(why));
		rc = ior_bisect_log(m->db, m->bisect, id, "boot", why);
	}
	return rc;
}

static void measure_free(struct ior_bisect_measure *bm)
{
	struct kernel_measure *m = (struct kernel_measure *)bm;
	ior_bisect_measure_free(m->vm);
	free(m->built);
	free(m);
}

int ior_bisect_measure_kernel(struct ior_bisect_measure **out, struct ior_db *db, int64_t bisect,
			      const struct ior_kbuild_opts *kb, const struct ior_vm_run_opts *opts)
{
	*out = NULL;
	struct kernel_measure *m = calloc(1, sizeof(*m));
	if (!m)
		return ior_error_set(IOR_ERROR, "out of memory");
	int rc = ior_bisect_measure_vm(&m->vm, db, opts);
	if (rc) {
		free(m);
		return rc;
	}
	m->db = db;
	m->bisect = bisect;
	m->kb = *kb;
	m->base = (struct ior_bisect_measure){ .build = build, .measure = measure, .free = measure_free, .per_boot = true };
	*out = &m->base;
	return IOR_OK;
}
