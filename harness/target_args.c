/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The check of the real-machine options that vm run and bisect run share. */
#include "harness/target_args.h"

#include "common/error.h"

#include <string.h>

const char *ior_cmd_target_only(const struct ior_cmd_target *a)
{
	return a->boot ? "--boot" : a->shutdown ? "--shutdown" : a->power_cycle ? "--power-cycle" : a->keep_kernels ? "--keep-kernels" :
	       a->ssh_options.n ? "--ssh-option" : a->retries >= 0 ? "--retries" : a->target_ioregress ? "--target-ioregress" :
	       NULL;
}

int ior_cmd_target_finish(struct ior_cmd_target *a, double boot_timeout_s, double run_timeout_s, bool *real)
{
	struct ior_vm_target_url url = { .kind = IOR_VM_TARGET_QEMU };
	int rc = a->target ? ior_vm_target_parse(&url, a->target) : IOR_OK;
	*real = !rc && url.kind != IOR_VM_TARGET_QEMU;
	if (rc)
		return rc;
	if (!*real)
		return ior_cmd_target_only(a) ? ior_error_set(IOR_EINVALID, "%s is for a real machine: give --target "
							     "ssh://HOST", ior_cmd_target_only(a))
					      : IOR_OK;
	ior_vm_target_opts_default(&a->t);
	a->t.url = url;
	a->t.boot = ior_vm_target_boot_from(a->boot);
	a->t.shutdown = ior_vm_target_shutdown_from(a->shutdown);
	/* the local kind's step runs inside a unit of the machine it stops: only the clean way is built */
	if (a->t.shutdown == IOR_VM_TARGET_SHUTDOWN_FORCE && url.kind != IOR_VM_TARGET_SSH)
		return ior_error_set(IOR_EINVALID, "--shutdown force is for an ssh target: --target %s shuts down "
				     "cleanly", a->target);
	if (boot_timeout_s)
		a->t.boot_timeout_s = boot_timeout_s;
	if (run_timeout_s)
		a->t.run_timeout_s = run_timeout_s;
	if (a->retries >= 0)
		a->t.retries = (unsigned)a->retries;
	a->t.keep_kernels = a->keep_kernels;
	a->t.power_cycle = a->power_cycle;
	a->t.ssh_options = a->ssh_options.v;
	a->t.nssh_options = a->ssh_options.n;
	if (a->target_ioregress)
		a->t.remote_ioregress = a->target_ioregress;
	return IOR_OK;
}
