/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The measuring step of packaged kernels on a real machine (bisect run --target): each measurement one
 * vm run boot of the kernel on the target, which stays on it for the next measurement (no boot back in
 * between); the target's own kernel, kept in the bisection, is booted again and what was
 * installed removed at the end. */
#include "bisect/measure.h"

#include "bisect/state.h"
#include "common/error.h"
#include "db/target_plan.h"
#include "vm/target.h"
#include "vm/vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct target_measure {
	struct ior_bisect_measure base;
	struct ior_bisect_measure *vm;   /* measure_vm, whose options' target points at t */
	struct ior_db *db;
	int64_t bisect;
	struct ior_vm_target_opts t;
	struct ior_vm_run_opts opts;
	char default_release[128];       /* the kernel the target ran when the bisection first reached it */
};

/* The target's own kernel as the bisection keeps it for this target, "" before it is known. */
static int default_get(struct target_measure *m)
{
	struct ior_bisect_info b;
	int rc = ior_bisect_current(m->db, &b);
	if (rc)
		return rc;
	if (b.id == m->bisect && b.target && b.target_default && !strcmp(b.target, m->t.url.name))
		snprintf(m->default_release, sizeof(m->default_release), "%s", b.target_default);
	ior_bisect_info_free(&b);
	return IOR_OK;
}

/* After the first vm run on the target: the kernel it ran then (its plan's default) kept in the bisection, so
 * every later measurement, and a resumed bisection, returns it there at the end. */
static int default_keep(struct target_measure *m)
{
	struct ior_db_target_plan p;
	int rc = ior_db_target_plan_latest(m->db, m->t.url.name, &p);
	if (rc == IOR_ENOTFOUND) {
		ior_error_clear();
		return IOR_OK;   /* the target was never reached: the next measurement tries */
	}
	if (rc)
		return rc;
	ior_db_target_plan_option(p.options, "default_release", m->default_release, sizeof(m->default_release));
	ior_db_target_plan_free(&p);
	if (!m->default_release[0])
		return IOR_OK;
	return ior_bisect_set_target_default(m->db, m->bisect, m->t.url.name, m->default_release);
}

static int build(struct ior_bisect_measure *bm, const char *id, enum ior_step_outcome *out, char *image, size_t len)
{
	struct target_measure *m = (struct target_measure *)bm;
	if (strchr(id, '/')) { /* the target's dpkg installs what it boots */
		image[0] = '\0';
		*out = IOR_STEP_BUILD_FAILED;
		snprintf(bm->failure, sizeof(bm->failure), "'%s': a real machine boots Debian packages, not a built image",
			 id);
		return IOR_OK;
	}
	int rc = m->vm->build(m->vm, id, out, image, len);
	snprintf(bm->failure, sizeof(bm->failure), "%s", m->vm->failure);
	return rc;
}

static int measure(struct ior_bisect_measure *bm, const char *id, double **x, size_t *n, enum ior_step_outcome *out)
{
	struct target_measure *m = (struct target_measure *)bm;
	int rc = m->default_release[0] ? IOR_OK : default_get(m);
	m->t.default_release = m->default_release[0] ? m->default_release : NULL;
	if (!rc)
		rc = m->vm->measure(m->vm, id, x, n, out);
	snprintf(bm->failure, sizeof(bm->failure), "%s", m->vm->failure);
	if (!rc && !m->default_release[0])
		rc = default_keep(m);
	return rc;
}

static void measure_free(struct ior_bisect_measure *bm)
{
	struct target_measure *m = (struct target_measure *)bm;
	ior_bisect_measure_free(m->vm);
	free(m);
}

int ior_bisect_measure_target(struct ior_bisect_measure **out, struct ior_db *db, int64_t bisect,
			      const struct ior_vm_run_opts *opts)
{
	*out = NULL;
	if (!opts->target || opts->target->url.kind != IOR_VM_TARGET_SSH)
		return ior_error_set(IOR_EINVALID, "a bisection on a machine needs --target ssh://[user@]host[:port]");
	struct target_measure *m = calloc(1, sizeof(*m));
	if (!m)
		return ior_error_set(IOR_ERROR, "out of memory");
	m->db = db;
	m->bisect = bisect;
	m->t = *opts->target;
	m->t.stay = true;
	m->opts = *opts;
	m->opts.target = &m->t;
	int rc = ior_bisect_measure_vm(&m->vm, db, &m->opts);
	if (rc) {
		free(m);
		return rc;
	}
	m->base = (struct ior_bisect_measure){ .build = build, .measure = measure, .free = measure_free, .per_boot = true };
	*out = &m->base;
	return IOR_OK;
}

int ior_bisect_measure_target_finish(struct ior_bisect_measure *bm, FILE *out)
{
	struct target_measure *m = (struct target_measure *)bm;
	struct ior_db_target_plan p;
	int rc = ior_db_target_plan_latest(m->db, m->t.url.name, &p);
	if (rc == IOR_ENOTFOUND) { /* never reached: nothing on it is ours */
		ior_error_clear();
		return IOR_OK;
	}
	if (rc)
		return rc;
	ior_db_target_plan_free(&p);
	/* its plans' options (ssh options, how it boots, its default kernel) reach it and undo what the
	 * bisection's measurements left: the test kernel it runs, the packages installed */
	return ior_vm_target_recover(m->db, m->t.url.name, out);
}
