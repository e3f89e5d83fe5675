/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The qemu kind of target: `vm run` as it always was, a guest booted from an initramfs on this machine. */
#include "vm/internal.h"
#include "vm/target.h"

#include "common/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

static int qemu_open(struct ior_vm_target *t, struct ior_db *db, const struct ior_vm_run_opts *o)
{
	(void)db;
	t->priv = (void *)o;   /* the run's options outlive the target */
	snprintf(t->accel, sizeof(t->accel), "tcg");
	struct utsname u;
	uname(&u);
	snprintf(t->host, sizeof(t->host), "%s", u.nodename);
	snprintf(t->machine, sizeof(t->machine), "%s", u.machine);
	return IOR_OK;
}

/* The initramfs, and with the first kernel ready the accelerator every boot of the run uses. */
static int qemu_prepare(struct ior_vm_target *t, struct ior_db *db, struct ior_vm_target_kernel *k)
{
	(void)db;
	const struct ior_vm_run_opts *o = t->priv;
	struct ior_vm_guest g = o->guest;
	if (o->boot_only)
		g.matrix = NULL;
	bool hit = false;
	int rc;
	if (o->cache_dir && o->cache_dir[0]) {
		rc = ior_vm_initramfs_cached(k->file, sizeof(k->file), &k->k, &g, o->cache_dir, k->dir, &hit);
	} else {
		snprintf(k->file, sizeof(k->file), "%s/initramfs.cpio", k->dir);
		rc = ior_vm_initramfs_write(k->file, &k->k, &g, k->dir);
	}
	if (!rc && o->progress)
		fprintf(stderr, "vm: %s: initramfs %s\n", k->k.spec, hit ? "kept from an earlier vm run" : "written");
	if (rc) {
		snprintf(k->error, sizeof(k->error), "%s", ior_error_last());
		return IOR_OK;
	}
	k->ready = true;
	if (!t->accel_reason[0]) {
		ior_vm_choose_accel(&o->machine, &k->k, k->file, k->dir, t->accel, sizeof(t->accel), t->accel_reason,
				    sizeof(t->accel_reason));
		if (o->progress)
			fprintf(stderr, "vm: accelerator %s\n", t->accel_reason);
	}
	return IOR_OK;
}

static int qemu_boot(struct ior_vm_target *t, struct ior_db *db, const struct ior_vm_target_kernel *k,
		     const struct ior_db_target_step *step, int round, const char *dir, struct ior_vm_boot *b)
{
	(void)db;
	(void)step;
	(void)round;
	const struct ior_vm_run_opts *o = t->priv;
	return ior_vm_boot_once(&o->machine, t->accel, &k->k, k->file, o->boot_only, dir, b);
}

static int qemu_finish(struct ior_vm_target *t, struct ior_db *db)
{
	(void)t;
	(void)db;
	return IOR_OK;
}

static void qemu_free(struct ior_vm_target *t)
{
	t->priv = NULL;
}

const struct ior_vm_target_ops ior_vm_target_qemu = {
	.kind = "qemu",
	.open = qemu_open,
	.prepare = qemu_prepare,
	.boot = qemu_boot,
	.finish = qemu_finish,
	.free = qemu_free,
};
