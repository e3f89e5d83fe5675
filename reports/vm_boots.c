/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text report's VM section: each boot's kernel, outcome and machine, so a table says what was measured where. */
#include "reports/vm_boots.h"

#include "common/error.h"
#include "reports/model.h"

#include <stdbool.h>
#include <string.h>

static void print_time(FILE *out, double s)
{
	if (s < 0)
		fprintf(out, " %7s", "-");
	else
		fprintf(out, " %7.1f", s);
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

int ior_report_vm_boots(FILE *out, const struct ior_report *r)
{
	size_t shown = 0;
	for (size_t i = 0; i < r->nboots; i++) {
		const struct ior_report_boot *b = &r->boots[i];
		if (!b->in_view)
			continue;
		if (!shown++)
			fprintf(out, "\nVM boots (vm run)\n%-30s %4s %-12s %-5s %4s %6s %-9s %-8s %7s %7s  %s\n", "kernel",
				"boot", "outcome", "accel", "cpus", "memory", "cache", "qemu", "init s", "total s", "reason");
		fprintf(out, "%-30s %4d %-12s %-5s %4d %5dM %-9s %-8s", b->release && *b->release ? b->release : b->kernel,
			b->boot_index, b->outcome, or_dash(b->accel), b->cpus, b->memory_mb, or_dash(b->cache_mode),
			or_dash(b->qemu_version));
		print_time(out, b->boot_s);
		print_time(out, b->total_s);
		fprintf(out, "  %s\n", strcmp(b->outcome, "ok") && b->reason ? b->reason : "");
	}
	if (r->nboots_not_ok)
		fprintf(out, "%zu of %zu boots were not ok: their kernels have no samples from those boots\n", r->nboots_not_ok,
			shown);
	if (r->boots_tcg)
		fputs("under TCG the guest's CPU is emulated: the figures compare kernels with each other on this "
		      "host, not the device's speed\n", out);
	return IOR_OK;
}
