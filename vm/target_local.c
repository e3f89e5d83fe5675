/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The local kind of target (this machine across reboots): a stand-in that says it is not built yet,
 * until its implementation replaces this file (vm/target.h's interface, /work/target-interface.md). */
#include "vm/target.h"

#include "common/error.h"

static int local_open(struct ior_vm_target *t, struct ior_db *db, const struct ior_vm_run_opts *o)
{
	(void)t;
	(void)db;
	(void)o;
	return ior_error_set(IOR_EUNSUPPORTED, "--target local is not built yet");
}

const struct ior_vm_target_ops ior_vm_target_local = { .kind = "local", .open = local_open };
